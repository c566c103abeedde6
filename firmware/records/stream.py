"""Flight-recorder files read as one stream: the lines, the hash chain, the hands.

A restarted controller writes a new file per start, so the audit takes several files in order and
treats them as one stream: the chain goes on from file to file, and a hand cut off at the end of
one file may be picked up by a `resumed` event at the start of the next.  Everything here names
the file and the line it is about; nothing here raises on a malformed line.

The stream is read a line at a time (`walk_stream`): the chain is checked as the lines go by, one
hand's lines are held until its `hand_end`, then it is handed to the audit and let go, and only a
`HandSummary` of it is kept for the checks from hand to hand.  The lines themselves come from
`recorder_lines.py` (a file on disk, or a log in memory).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from .chain import CLEAN_END, GENESIS, HAND_OPENERS, HAND_SEAL, START, ChainState
from .recorder_lines import (BadInput, Finding, Line, Recorder, RecorderFile, RecorderOnDisk, read_recorder,
                             recorder_from_events)
from .schema import COUNT, FLAG, shape_problem


# -- the chain ------------------------------------------------------------------------------------------


def check_chain(files: Sequence[Recorder]) -> list[Finding]:
    """Every link of the chain (chain.py): each file goes on from the one before it, each hand from
    the hand before it, each seal digests the lines before it."""
    walk = ChainWalk()
    for recorder in files:
        walk.begin_file(recorder.name)
        for line in recorder.each_line():
            walk.line(line)
        walk.end_file()
    return walk.problems


class ChainWalk:
    """The chain's links checked a line at a time, file after file (`begin_file`, its lines, `end_file`)."""

    def __init__(self) -> None:
        self.problems: list[Finding] = []
        self._head: str | None = None
        self._previous = ""                     # the last file with a line
        self._file = ""
        self._state: ChainState | None = None   # None until the file's first line
        self._ended = 0                         # the hands sealed in this file
        self._last: str | None = None           # the name of the file's line before

    def begin_file(self, name: str) -> None:
        self._file, self._state, self._ended, self._last = name, None, 0, None

    def end_file(self) -> None:
        if self._state is not None:             # (a file with no line leaves the chain where it was)
            self._head, self._previous = self._state.head, self._file

    def line(self, line: Line) -> None:
        if self._state is None:
            self._first(line)
        state = self._state
        assert state is not None
        event, name = line.event, line.name
        if name == CLEAN_END and self._last == CLEAN_END:
            self.problems.append(Finding(line.where, "a second recorder_end with nothing to close: a line was duplicated"))
        if event is not None and name in HAND_OPENERS and event["prev"] != state.head:
            self.problems.append(Finding(line.where, f"hand {event['hand']}: `prev` is not the hash of the hand_end "
                                                     "before it: a hand before it was removed, added, reordered or changed"))
        if event is not None and name in (HAND_SEAL, CLEAN_END) and event["digest"] != state.digest():
            what = f"hand {event['hand']}" if name == HAND_SEAL else "recorder_end"
            self.problems.append(Finding(line.where, f"{what}: `digest` does not match the lines before it: a line was "
                                                     "changed, removed, added or moved"))
        if event is not None and name == CLEAN_END:
            if event["chain"] != state.head:
                self.problems.append(Finding(line.where, "recorder_end: `chain` is not the hash of the last hand_end: "
                                                         "hands at the end were removed or changed"))
            if event["hands"] != self._ended:
                self.problems.append(Finding(line.where, f"recorder_end counts {event['hands']} hand(s); the file holds "
                                                         f"{self._ended}"))
        self._ended += int(name == HAND_SEAL)
        state.add(line.text, name)
        self._last = name

    def _first(self, first: Line) -> None:
        """A file's first line: its recorder_start, going on from the file before it."""
        if first.name != START:
            self.problems.append(Finding(first.where, "the file does not begin with recorder_start: its beginning was "
                                                      "cut off, or it was written before the recorder had a hash chain"))
        else:
            claimed = first.event["chain"]                           # type: ignore[index]
            if self._head is not None and claimed != self._head:
                self.problems.append(Finding(first.where, f"the chain does not go on from {self._previous}: a recorder "
                                                          "between them is missing, or its last hands were changed or "
                                                          "removed"))
            self._head = claimed
        self._state = ChainState(self._head or GENESIS)


# -- the hands ------------------------------------------------------------------------------------------


@dataclass
class HandLog:
    """One hand's lines in stream order, from its start (hand_start, or resumed) to its hand_end."""

    number: int
    start: Line
    lines: list[Line] = field(default_factory=list)
    end: Line | None = None
    partial: bool = False                  # begun in a recorder not given: a `resumed` with no earlier part
    session: dict | None = None            # the session_start in force when it began
    new_session: bool = False              # the first hand after a session_start: totals start from zero
    ledger_end: dict | None = None         # its hand_end cut off: what the next session_resumed says was kept
    format: int = 0                        # the oldest `recorder_start.format` of the files it lies in (0: none)
    played_by: str | None = None           # the version that wrote its last opener (recorder_start.version; None:
    #                                        its file does not say, as none did before 7 December 2026)

    @property
    def events(self) -> list[dict]:
        """The hand's events; after a `resumed`, the indicators it names that the lines before it lack
        (a SIGKILL cut them from the file, the journal kept them), marked `journaled`.  A `put_back` that
        undoes the take just before it removes that take: what follows reads the hand as played (one that
        does not match that take stays, for the audit to find)."""
        events: list[dict] = []
        for line in self.lines:
            event = line.event
            assert event is not None
            if event["event"] == "put_back" and _undoes_last_take(event, events):
                continue
            events.append(event)
            if event["event"] == "resumed":
                events += _journaled_indicators(event, events) + _journaled_wins(event, events)
        return events

    def first(self, name: str) -> dict | None:
        return next((e for e in self.events if e["event"] == name), None)

    def all(self, name: str) -> list[dict]:
        return [e for e in self.events if e["event"] == name]

    @property
    def files(self) -> set[str]:
        return {line.file for line in self.lines}


def _undoes_last_take(put_back: dict, events: list[dict]) -> bool:
    """Whether `put_back` names the last take of `events` (removed from them if so): the same slot,
    end, reason and order.  (The counts after it are checked with the takes that follow.)  After a
    restart the last take is the `resumed` line's last journaled one (a tile put back while the
    controller was stopped): it leaves that list, and its own line before the restart, if any, goes.
    A `kong_lapsed` the take caused goes with it."""
    at = next((i for i in range(len(events) - 1, -1, -1) if events[i]["event"] in ("take", "resumed")), None)
    if at is None:
        return False
    if events[at]["event"] == "resumed":
        return _undoes_journaled_take(put_back, events, at)
    take = events[at]
    if any(take.get(key) != put_back.get(key) for key in ("ring", "layer", "end", "reason", "in_order")):
        return False
    # the 杠 a head draw lapsed stand again when it is undone (HandState): its kong_lapsed goes with it
    events[at:] = [e for e in events[at + 1:] if e["event"] != "kong_lapsed" or e.get("by") is not None]
    return True


def _undoes_journaled_take(put_back: dict, events: list[dict], at: int) -> bool:
    resumed = events[at]
    taken = resumed.get("taken")
    named = [put_back.get(key) for key in ("ring", "layer", "end", "reason")]
    if not isinstance(taken, list) or not taken or list(taken[-1]) != named:
        return False
    fewer = {"taken": taken[:-1]}
    if "last_take" in resumed:       # undone: the take before it is the last, known by its slot alone
        fewer["last_take"] = fewer["replaced_for"] = None
    if put_back.get("reason") == "draw" and isinstance(resumed.get("draws"), int):
        fewer["draws"] = resumed["draws"] - 1
    restored = _kongs_restored(put_back)
    if restored and isinstance(resumed.get("pending_kongs"), list):     # the 杠 its draw lapsed stand again
        fewer["pending_kongs"] = resumed["pending_kongs"] + [kong for kong in restored
                                                             if kong not in resumed["pending_kongs"]]
    events[at] = {**resumed, **fewer}
    before = next((i for i in range(at - 1, -1, -1) if events[i]["event"] == "take"), None)
    if before is not None and [events[before].get(key) for key in ("ring", "layer")] == named[:2]:
        del events[before]
    return True


def _kongs_restored(put_back: dict) -> list[list]:
    """The 杠 a put-back's undone take had lapsed, standing again ([seat, concealed] each); none if
    the field is absent (older files) or not of that shape."""
    restored = put_back.get("kongs_restored")
    if not isinstance(restored, list):
        return []
    return [[kong[0], kong[1]] for kong in restored if isinstance(kong, list) and len(kong) == 2
            and COUNT.check(kong[0]) and FLAG.check(kong[1])]


def _journaled_indicators(resumed: dict, before: list[dict]) -> list[dict]:
    seen = {_indicator_key(e) for e in before if e["event"] == "indicator"}
    found = []
    for indicator in resumed.get("indicators") or ():
        if isinstance(indicator, dict) and _indicator_key(indicator) not in seen:
            seen.add(_indicator_key(indicator))
            found.append({**indicator, "event": "indicator", "t": resumed["t"], "hand": resumed["hand"],
                          "journaled": True})
    return found


def _journaled_wins(resumed: dict, before: list[dict]) -> list[dict]:
    """The wins `resumed` names (the journal held them) that the lines before it lack (a SIGKILL cut
    them), marked `journaled`; one that is not a `win` line's shape is left out (the hand's winners
    then disagree with its end, and the audit says so)."""
    seen = [_win_key(e) for e in before if e["event"] == "win"]
    found = []
    for win in resumed.get("wins") or ():
        event = {**win, "event": "win", "t": resumed["t"], "hand": resumed["hand"], "journaled": True} \
            if isinstance(win, dict) else None
        if event is None or shape_problem(event) is not None:
            continue
        key = _win_key(event)
        if key in seen:
            seen.remove(key)
        else:
            found.append(event)
    return found


def _win_key(event: dict) -> tuple:
    return event.get("seat"), event.get("from"), repr(event.get("tiles")), repr(event.get("payments"))


def _indicator_key(event: dict) -> tuple:
    return event.get("kind"), tuple(event.get("ring") or ()), tuple(event.get("layer") or ())


ABSENT = object()                          # a field a line does not have (`repeats`, before it was written)


@dataclass(frozen=True, slots=True)
class HandEnd:
    """The fields of a hand_end the checks from hand to hand read, and where it is."""

    file: str
    number: int
    result: str
    winners: list
    payments: list
    totals: list
    next_dealer: int

    @property
    def where(self) -> str:
        return f"{self.file}:{self.number}"


@dataclass(frozen=True, slots=True)
class HandSummary:
    """What the checks from hand to hand (the totals, the 连庄 count, the ends, the ledger) need of a hand
    once its lines are let go: a few fields of its start and its end, and where they are (about 1 KB a
    hand with the values it holds: 6 MB for a month's recorder at 200 hands a day, where its lines
    parsed took 1.5 GB)."""

    number: int
    start_file: str
    start_number: int
    wall_hash: str
    dealer: int
    repeats: object                        # hand_start's `repeats` as written (ABSENT: none)
    session: dict | None                   # the session_start in force when it began (one object for all its hands)
    new_session: bool                      # the first hand after a session_start: totals start from zero
    files: frozenset[str]                  # the files its lines lie in
    last_file: str                         # the file of its last line
    end: HandEnd | None = None             # None: it never ended
    ledger_end: dict | None = None         # its hand_end cut off: what the next session_resumed says was kept

    @property
    def start_where(self) -> str:
        return f"{self.start_file}:{self.start_number}"

    @staticmethod
    def of(hand: HandLog, files: frozenset[str]) -> "HandSummary":
        start = hand.start.event
        assert start is not None
        return HandSummary(hand.number, hand.start.file, hand.start.number, start["wall_hash"], start["dealer"],
                           start.get("repeats", ABSENT), hand.session, hand.new_session, files, hand.lines[-1].file,
                           None if hand.end is None else _ending(hand.end), hand.ledger_end)


def _ending(line: Line) -> HandEnd:
    end = line.event
    assert end is not None
    return HandEnd(line.file, line.number, end["result"], end["winners"], end["payments"], end["totals"],
                   end["next_dealer"])


@dataclass
class Split:
    hands: list[HandLog]
    problems: list[Finding]
    notes: list[Finding]


def split_hands(files: Sequence[Recorder]) -> Split:
    """The hands of the stream, each whole, and what is wrong with how they follow one another."""
    hands: list[HandLog] = []
    walk = _HandWalk(hands.append)
    for recorder in files:
        walk.begin_file()
        for line in recorder.each_line():
            if line.event is not None:
                walk.line(line)
    for summary, hand in zip(walk.finish(), hands):
        hand.ledger_end = summary.ledger_end
    return Split(hands, walk.problems, walk.notes)


@dataclass
class Stream:
    """The files read as one stream: the chain's problems, how the hands follow one another, and a
    summary of each hand (in the order they began)."""

    chain: list[Finding]
    hands: list[HandSummary]
    problems: list[Finding]
    notes: list[Finding]


def walk_stream(files: Sequence[Recorder], finished: Callable[[HandLog], None]) -> Stream:
    """The files, in this order, read once a line at a time: each hand is given to `finished` as its
    hand_end is read (it changes no more then) and let go, and only its summary kept."""
    chain = ChainWalk()
    walk = _HandWalk(lambda hand: None, finished)
    for recorder in files:
        chain.begin_file(recorder.name)
        walk.begin_file()
        for line in recorder.each_line():
            chain.line(line)
            if line.event is not None:
                walk.line(line)
        chain.end_file()
    return Stream(chain.problems, walk.finish(), walk.problems, walk.notes)


class _HandWalk:
    """The hands, a line at a time: one is open (its lines held) at a time; `begun` is told of each
    hand as it begins, `finished` of each as it ends; the rest is kept as summaries."""

    def __init__(self, begun: Callable[[HandLog], None], finished: Callable[[HandLog], None] = lambda hand: None) -> None:
        self.summaries: list[HandSummary] = []        # the hands no longer open, in the order they began
        self.problems: list[Finding] = []
        self.notes: list[Finding] = []
        self.open: HandLog | None = None
        self.session: dict | None = None
        self.new_session = False
        self.last_number: int | None = None          # the last hand begun in this file
        self.format = 0                               # this file's recorder_start.format (what its lines hold)
        self.version: str | None = None               # and its version, the controller's that wrote it
        self._begun, self._finished = begun, finished
        self._files: dict[frozenset[str], frozenset[str]] = {}    # one set for every hand in the same files

    def begin_file(self) -> None:
        self.last_number = None

    def finish(self) -> list[HandSummary]:
        """The summaries of every hand, the one still open at the end included."""
        self._close()
        return self.summaries

    def line(self, line: Line) -> None:
        event = line.event
        assert event is not None
        name, number = event["event"], event["hand"]
        if name == START:
            self.format = event["format"]
            self.version = event.get("version") if isinstance(event.get("version"), str) else None
        if name == CLEAN_END and event["open_hand"] != (self.open.number if self.open else 0):
            self.problems.append(Finding(line.where, f"recorder_end says hand {event['open_hand']} was open; "
                                                     f"the recorder shows {self.open.number if self.open else 'none'}"))
        if name == "session_start":
            self._session(line, event)
        elif name == "session_resumed":
            self._kept(event.get("last_hand"))
        elif name in HAND_OPENERS:
            self._begin(line, name, number)
        elif number == 0:
            return                                    # a table-level event
        elif self.open is None or self.open.number != number:
            self.problems.append(Finding(line.where, f"{name} of hand {number} outside that hand"))
        else:
            self.open.lines.append(line)
            if name == HAND_SEAL:
                self.open.end = line
                self._finished(self.open)
                self._close()

    def _close(self) -> None:
        """The open hand is open no more: only its summary is kept."""
        if self.open is not None:
            files = frozenset(self.open.files)
            self.summaries.append(HandSummary.of(self.open, self._files.setdefault(files, files)))
            self.open = None

    def _session(self, line: Line, event: dict) -> None:
        """A new session resets the totals; the same session written again by a restarted controller
        (at the top of its new file) goes on."""
        same = self.session is not None and all(self.session[k] == event[k] for k in ("session", "ruleset", "options"))
        restarted = self.open is None or self.open.lines[-1].file != line.file
        if self.open is not None and not (same and restarted):
            self.problems.append(Finding(line.where, f"a session starts inside hand {self.open.number}"))
        if not same:
            self.session, self.new_session = event, True

    def _kept(self, last: Any) -> None:
        """A restarted controller's word on the session's last hand kept: a hand whose hand_end the
        kill cut from the file (same number, same wall) is settled as the ledger says."""
        if not isinstance(last, dict):
            return
        if self.open is not None and self.open.number == last.get("hand"):    # (the last hand begun)
            if self.open.end is None and self.open.start.event.get("wall_hash") == last.get("wall_hash"):  # type: ignore[union-attr]
                self.open.ledger_end = last
                self._close()
            return
        at = next((i for i in range(len(self.summaries) - 1, -1, -1) if self.summaries[i].number == last.get("hand")),
                  None)
        if at is not None and self.summaries[at].end is None and self.summaries[at].wall_hash == last.get("wall_hash"):
            self.summaries[at] = replace(self.summaries[at], ledger_end=last)

    def _begin(self, line: Line, name: str, number: int) -> None:
        if number == 0:
            self.problems.append(Finding(line.where, f"{name} of hand 0"))
            return
        if (name == "resumed" and self.open is not None and self.open.number == number
                and self.open.lines[-1].file != line.file):
            self.open.lines.append(line)              # picked up after a restart: one hand across two files
            self.open.format = min(self.open.format, self.format)
            self.open.played_by = self.version
            self.last_number = number
            return
        if self.last_number is not None and number != self.last_number + 1:
            self.problems.append(Finding(line.where, f"hand {number} follows hand {self.last_number} in this file: "
                                                     "hands are numbered one after another"))
        partial = name == "resumed"
        if partial:
            self.notes.append(Finding(line.where, f"hand {number} began in a recorder that was not given: what "
                                                  "happened before the restart is not checked"))
        hand = HandLog(number, line, [line], partial=partial, session=self.session, new_session=self.new_session,
                       format=self.format, played_by=self.version)
        self._close()
        self._begun(hand)
        self.open, self.new_session, self.last_number = hand, False, number


__all__ = ["ABSENT", "BadInput", "ChainWalk", "Finding", "HandEnd", "HandLog", "HandSummary", "Line", "Recorder", "RecorderFile",
           "RecorderOnDisk", "Split", "Stream", "check_chain", "read_recorder", "recorder_from_events",
           "split_hands", "walk_stream"]
