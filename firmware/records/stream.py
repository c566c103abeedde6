"""Flight-recorder files read as one stream: the lines, the hash chain, the hands.

A restarted controller writes a new file per start, so the audit takes several files in order and
treats them as one stream: the chain goes on from file to file, and a hand cut off at the end of
one file may be picked up by a `resumed` event at the start of the next.  Everything here names
the file and the line it is about; nothing here raises on a malformed line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .chain import CLEAN_END, GENESIS, HAND_OPENERS, HAND_SEAL, START, ChainState, canonical
from .schema import COUNT, FLAG, shape_problem


class BadInput(Exception):
    """The input is not something the audit can read at all (not a flight recorder, not a ledger)."""


@dataclass(frozen=True)
class Finding:
    """One problem or note: where (`file:line`, or a file, or nothing) and what."""

    where: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text}" if self.where else self.text


@dataclass(frozen=True)
class Line:
    file: str
    number: int
    text: str                   # what the chain hashes: the line as written
    event: dict | None          # None: the line is malformed (and said so once)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.number}"

    @property
    def name(self) -> str | None:
        return None if self.event is None else self.event["event"]


@dataclass(frozen=True)
class RecorderFile:
    name: str
    lines: tuple[Line, ...]
    malformed: tuple[Finding, ...]
    cut_short: tuple[Finding, ...] = ()     # an unterminated last line, left out (notes, not problems)

    def events(self) -> list[Line]:
        return [line for line in self.lines if line.event is not None]

    @property
    def ends_cleanly(self) -> bool:
        return bool(self.lines) and self.lines[-1].name == CLEAN_END


def read_recorder(name: str, data: bytes) -> RecorderFile:
    """Split a file into lines; each malformed one becomes a finding naming its line.  Raises
    BadInput when not a single line is an event (the file is not a flight recorder)."""
    lines: list[Line] = []
    malformed: list[Finding] = []
    raws = data.split(b"\n")
    cut_short = _cut_short(name, len(raws), raws.pop())     # after the last newline: empty, or cut short
    for number, raw in enumerate(raws, start=1):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            malformed.append(Finding(f"{name}:{number}", "not UTF-8 text"))
            lines.append(Line(name, number, raw.decode("utf-8", "replace"), None))
            continue
        event, problem = _parse(text)
        if problem is not None:
            malformed.append(Finding(f"{name}:{number}", problem))
        lines.append(Line(name, number, text, event))
    if lines and all(line.event is None for line in lines):
        first = malformed[0]
        raise BadInput(f"{first}; is {name} a flight recorder?")
    if b"\r\n" in data:                    # the chain's problems that follow would not say why
        malformed.insert(0, Finding(name, "its lines end in CR LF (Windows line ends), the recorder writes LF "
                                          "alone: every line's hash differs; copy recorders as binary files"))
    return RecorderFile(name, tuple(lines), tuple(malformed), cut_short)


def _cut_short(name: str, number: int, tail: bytes) -> tuple[Finding, ...]:
    """What follows a file's last newline: nothing, or a line a kill or a power cut stopped while it
    was written (the kernel writes a page at a time).  Not a line: the chain that follows leaves it
    out too (`chain_tail.file_chain_head`), as it leaves out the lines a kill kept from the file."""
    if not tail.strip():
        return ()
    return (Finding(f"{name}:{number}", f"its last line ({len(tail)} bytes) has no end: a write cut short by a "
                                        "kill or a power cut, left out"),)


def recorder_from_events(name: str, events: Iterable[dict]) -> RecorderFile:
    """Events already parsed (a test's log): numbered from 1, hashed as the recorder writes them."""
    lines: list[Line] = []
    malformed: list[Finding] = []
    for number, event in enumerate(events, start=1):
        problem = shape_problem(event)
        text = canonical(event) if isinstance(event, dict) else json.dumps(event)
        if problem is not None:
            malformed.append(Finding(f"{name}:{number}", problem))
        lines.append(Line(name, number, text, None if problem else event))
    return RecorderFile(name, tuple(lines), tuple(malformed))


def _parse(text: str) -> tuple[dict | None, str | None]:
    try:
        event = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"not JSON ({error.msg} at column {error.colno})"
    except RecursionError:
        return None, "not JSON (nested too deep)"
    problem = shape_problem(event)
    return (None, problem) if problem else (event, None)


# -- the chain ------------------------------------------------------------------------------------------


def check_chain(files: Sequence[RecorderFile]) -> list[Finding]:
    """Every link of the chain (chain.py): each file goes on from the one before it, each hand from
    the hand before it, each seal digests the lines before it."""
    problems: list[Finding] = []
    head: str | None = None
    previous = ""
    for recorder in files:
        if not recorder.lines:
            continue
        first = recorder.lines[0]
        if first.name != START:
            problems.append(Finding(first.where, "the file does not begin with recorder_start: its beginning was "
                                                 "cut off, or it was written before the recorder had a hash chain"))
        else:
            claimed = first.event["chain"]                           # type: ignore[index]
            if head is not None and claimed != head:
                problems.append(Finding(first.where, f"the chain does not go on from {previous}: a recorder between them "
                                                     "is missing, or its last hands were changed or removed"))
            head = claimed
        state = ChainState(head or GENESIS)
        problems += _check_links(recorder, state)
        head, previous = state.head, recorder.name
    return problems


def _check_links(recorder: RecorderFile, state: ChainState) -> list[Finding]:
    """The links inside one file; `state` ends at the file's last line."""
    problems: list[Finding] = []
    ended = 0
    previous: str | None = None
    for line in recorder.lines:
        event, name = line.event, line.name
        if name == CLEAN_END and previous == CLEAN_END:
            problems.append(Finding(line.where, "a second recorder_end with nothing to close: a line was duplicated"))
        if event is not None and name in HAND_OPENERS and event["prev"] != state.head:
            problems.append(Finding(line.where, f"hand {event['hand']}: `prev` is not the hash of the hand_end before it: "
                                                "a hand before it was removed, added, reordered or changed"))
        if event is not None and name in (HAND_SEAL, CLEAN_END) and event["digest"] != state.digest():
            what = f"hand {event['hand']}" if name == HAND_SEAL else "recorder_end"
            problems.append(Finding(line.where, f"{what}: `digest` does not match the lines before it: a line was "
                                                "changed, removed, added or moved"))
        if event is not None and name == CLEAN_END:
            if event["chain"] != state.head:
                problems.append(Finding(line.where, "recorder_end: `chain` is not the hash of the last hand_end: "
                                                    "hands at the end were removed or changed"))
            if event["hands"] != ended:
                problems.append(Finding(line.where, f"recorder_end counts {event['hands']} hand(s); the file holds {ended}"))
        ended += int(name == HAND_SEAL)
        state.add(line.text, name)
        previous = name
    return problems


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


@dataclass
class Split:
    hands: list[HandLog]
    problems: list[Finding]
    notes: list[Finding]


def split_hands(files: Sequence[RecorderFile]) -> Split:
    """The hands of the stream, and what is wrong with how they follow one another."""
    walk = _HandWalk()
    for recorder in files:
        walk.last_number = None
        for line in recorder.events():
            walk.line(line)
    return Split(walk.hands, walk.problems, walk.notes)


class _HandWalk:
    def __init__(self) -> None:
        self.hands: list[HandLog] = []
        self.problems: list[Finding] = []
        self.notes: list[Finding] = []
        self.open: HandLog | None = None
        self.session: dict | None = None
        self.new_session = False
        self.last_number: int | None = None          # the last hand begun in this file
        self.format = 0                               # this file's recorder_start.format (what its lines hold)

    def line(self, line: Line) -> None:
        event = line.event
        assert event is not None
        name, number = event["event"], event["hand"]
        if name == START:
            self.format = event["format"]
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
                self.open.end, self.open = line, None

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
        hand = next((h for h in reversed(self.hands) if h.number == last.get("hand")), None)
        if hand is not None and hand.end is None and hand.start.event is not None \
                and hand.start.event.get("wall_hash") == last.get("wall_hash"):
            hand.ledger_end = last
            if self.open is hand:
                self.open = None

    def _begin(self, line: Line, name: str, number: int) -> None:
        if number == 0:
            self.problems.append(Finding(line.where, f"{name} of hand 0"))
            return
        if (name == "resumed" and self.open is not None and self.open.number == number
                and self.open.lines[-1].file != line.file):
            self.open.lines.append(line)              # picked up after a restart: one hand across two files
            self.open.format = min(self.open.format, self.format)
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
                       format=self.format)
        self.hands.append(hand)
        self.open, self.new_session, self.last_number = hand, False, number
