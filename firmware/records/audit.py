"""Audit flight recorders against the rules and the chain: anyone can check a hand after it ended.

The recorders (one or more files, in the order they were written) are read as one stream
(`stream.py`) and checked for:
- the shape of every line (`schema.py`): one problem per malformed line, naming file and line;
- the hash chain (`chain.py`): nothing removed, added, reordered or changed, file to file;
- a clean end: each file ends with `recorder_end`, every hand with `hand_end`;
- per hand, what the rules fix: the wall hash of `hand_start` is the SHA-256 of the salt and the
  wall revealed in `hand_end`; the wall holds exactly the ruleset's tiles; the break and the ring
  follow the dice; every take follows the draw order, each slot once; the live count and the
  reserve of each take; 荒庄 at exactly the right tile; each indicator where the position rule
  puts it, on a slot still in the wall then, making the wilds it says; nothing hidden leaked before `hand_end`;
- the payments of every win recomputed with the ruleset's scorer from the facts the `win` event
  records, those facts checked against the log (`audit_wins.py`); the hand's winners and payments
  against its wins; the running totals (from 0 at each `session_start`) against the payments;
- with a ledger, every hand against the ledger's row for it, and the ledger's hands missing from
  the recorders (`audit_ledger.py`).

`audit_recorders` returns a `Report`; `audit_events` is the short form for one recorder's events.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from rulesets.definition import Ruleset
from rulesets.indicators import AfterWinFlips, RevealContext, Timing
from rulesets.regions import UnknownRegion, get_region
from rulesets.reserve import wall_count
from rulesets.tiles import Tile
from rulesets.walls import Layer, Slot

from ..hand.state import wall_hash
from ..hand.tracker import UNDO_KEPT
from .audit_ledger import LedgerView, cross_check
from .audit_reading import earlier_reading_note, reading_of, reading_problem
from .audit_wins import audit_wins
from .chain_order import chain_order
from .recorder_lines import FileFacts, Recorder
from .stream import ABSENT, Finding, HandLog, HandSummary, recorder_from_events, split_hands, walk_stream


class Unauditable(Exception):
    """A hand whose facts are too broken to check further (the message says which)."""


@dataclass(frozen=True)
class Report:
    files: tuple[str, ...]
    hands: int                         # finished hands audited
    problems: tuple[Finding, ...]
    notes: tuple[Finding, ...]

    @property
    def sound(self) -> bool:
        return not self.problems


def read_events(lines: Iterable[str]) -> list[dict]:
    """The events of a recorder's lines (for tests and tools that hold a log in memory)."""
    return [json.loads(line) for line in lines if line.strip()]


def audit_events(events: list[dict]) -> list[str]:
    """The problems of one recorder's events (empty when it is sound)."""
    return [str(p) for p in audit_recorders([recorder_from_events("events", events)]).problems]


def audit_recorders(files: Sequence[Recorder], ledger: LedgerView | None = None) -> Report:
    """Audit recorder files written one after another (a restarted controller starts a new file),
    taken in the order their chain links them, whatever order they were named in.  The files are
    read in that order a line at a time: each hand is checked as it ends and let go, and only what
    the checks from hand to hand need of it is kept, so a month's recorder takes the memory of its
    largest hand and about 1 KB for each of its hands (docs/operations.md)."""
    ordered = chain_order(files)
    hand_problems: list[Finding] = []
    hand_notes: list[Finding] = []
    finished = 0

    def audit_finished(hand: HandLog) -> None:
        nonlocal finished
        found, noted = _audit_finished(hand)
        hand_problems.extend(found)
        hand_notes.extend(noted)
        finished += 1

    stream = walk_stream(ordered, audit_finished)
    problems, notes = _files_findings(files, ordered)          # (one file's facts are read with its hands)
    problems += stream.chain + stream.problems + hand_problems
    notes += stream.notes + hand_notes
    problems += _audit_totals(stream.hands)
    problems += _audit_repeats(stream.hands)
    endings = _endings(ordered, stream.hands)
    if ledger is None:
        problems += [finding for finding, _ in endings]
    else:
        check = cross_check(stream.hands, ledger)
        problems += check.problems
        for finding, file in endings:
            if check.agrees(file):
                notes.append(Finding(finding.where, finding.text + "; the ledger holds exactly this file's hands"))
            else:
                problems.append(finding)
    return Report(tuple(f.name for f in ordered), finished, tuple(problems), tuple(notes))


def _files_findings(given: Sequence[Recorder], files: Sequence[Recorder]) -> tuple[list[Finding], list[Finding]]:
    """What each file's facts say (malformed lines, a cut-short last line, no hand, a clock going back),
    file by file in the order read, after a note if that is not the order given: (problems, notes)."""
    problems: list[Finding] = []
    notes: list[Finding] = []
    if [f.name for f in files] != [f.name for f in given]:
        notes.append(Finding(files[0].name, "the files were named out of the order they were written (a file's "
                                            "name holds the clock's time, which a restart can set back): audited "
                                            "in the order their chain (where it breaks, their hands) gives: "
                                            + ", ".join(f.name for f in files)))
    for recorder in files:
        facts = recorder.facts
        problems += facts.malformed
        notes += facts.cut_short
        empty = _emptiness(recorder.name, facts)
        if empty and len(files) > 1:
            # one run among several that played no hand (started and stopped, or killed, between
            # hands; or the power cut before its first line reached the card): the chain across it
            # still proves it lost nothing; a cut-off end is judged with the others
            notes += [Finding(recorder.name, "no hand begins in this recorder: the controller was stopped "
                                             "before one began" if facts.lines else
                              "empty: the controller stopped before its first line reached the card")]
        else:
            problems += empty
        problems += facts.clock
    return problems, notes


def _emptiness(name: str, facts: FileFacts) -> list[Finding]:
    if not facts.lines:
        return [Finding(name, "empty: a recorder with no events proves nothing")]
    if not facts.begins_hand:
        return [Finding(name, "no hand begins in this recorder: it proves nothing")]
    return []


def _endings(files: Sequence[Recorder], hands: list[HandSummary]) -> list[tuple[Finding, str]]:
    """Files that stop without `recorder_end` and hands that never ended: problems, unless the
    ledger shows nothing was lost."""
    found: list[tuple[Finding, str]] = []
    for recorder in files:
        facts = recorder.facts
        if facts.last_where is not None and not facts.ends_cleanly:
            found.append((Finding(facts.last_where, "no recorder_end after this line: the file was cut off "
                                                    "or the controller died"), recorder.name))
    for hand in hands:
        if hand.end is None and hand.ledger_end is None:      # (one the next file's session_resumed settles did end)
            found.append((Finding(hand.start_where, f"hand {hand.number} never ended: its hand_end is missing (cut off, "
                                                    "or the controller stopped mid-hand)"), hand.last_file))
    return found


def audit_one_hand(events: Sequence[dict]) -> list[str]:
    """The findings on one finished hand's own events (its hand_start … hand_end), as a hand's page
    shows them; the chain and the totals need the whole recorder and are not checked here."""
    runs = [recorder_from_events(f"hand-{n}", part) for n, part in enumerate(_runs(events))]
    hands = [h for h in split_hands(runs).hands if h.end is not None]
    if not hands:
        return ["the recorder has no finished hand here"]
    return [finding.text for hand in hands for findings in _audit_finished(hand) for finding in findings]


def _runs(events: Sequence[dict]) -> list[list[dict]]:
    """A hand's lines cut where a restarted controller went on (each `resumed` begins the file of a
    new run): read as one file, the part after a restart would be a hand of its own, audited
    without what was paid before it (长沙's 起手小和: campaign seed 220050)."""
    runs: list[list[dict]] = [[]]
    for event in events:
        if event.get("event") == "resumed" and runs[-1]:
            runs.append([])
        runs[-1].append(event)
    return runs


def _audit_finished(hand: HandLog) -> tuple[list[Finding], list[Finding]]:
    """A finished hand's own checks: (problems, notes)."""
    start, end = hand.start.event, hand.end.event                # type: ignore[union-attr]
    assert start is not None and end is not None

    def found(texts: list[str]) -> list[Finding]:
        return [Finding(hand.start.where, f"hand {hand.number}: {text}") for text in texts]

    try:
        ruleset = get_region(start["ruleset"]).resolve(start["options"])
    except UnknownRegion as error:
        return found([error.message]), []
    except ValueError as error:                                  # an unknown option or value
        return found([str(error)]), []
    read = reading_of(hand, ruleset)
    wrong = reading_problem(read, ruleset)
    if wrong is not None:
        return found([wrong]), []
    session = _session_problems(hand, ruleset, start)
    by_rules = _rules_problems(hand, ruleset, start, end)
    if read.earlier and by_rules:           # judged by a reading it was not played by: said, not held against it
        return found(session), found([earlier_reading_note(read, ruleset, by_rules)])
    return found(session + by_rules), []


def _session_problems(hand: HandLog, ruleset: Ruleset, start: dict) -> list[str]:
    session = hand.session
    # (the same rules read with this version's defaults: a session opened by a version before an option
    # was added, its hands played by one after, is one session's rules: a probe called such files unsound)
    if session is not None and (session["ruleset"] != start["ruleset"]
                                or not ruleset.region.same_options(session["options"], start["options"])):
        return [f"plays {start['ruleset']} {start['options']}, but its session is {session['ruleset']} "
                f"{session['options']}"]
    return []


def _rules_problems(hand: HandLog, ruleset: Ruleset, start: dict, end: dict) -> list[str]:
    """The hand's takes, reserve, indicators, wins and payments, judged by this version's rules."""
    problems: list[str] = []
    for check in (audit_hand, audit_wins):
        try:
            problems += check(ruleset, hand, start, end)
        except (Unauditable, ValueError) as error:               # ValueError: the rules refuse a recorded fact
            problems.append(f"cannot be checked further: {error}")
    return problems


def _audit_totals(hands: list[HandSummary]) -> list[Finding]:
    """The running totals: from zero at each session_start, plus each hand's payments."""
    problems: list[Finding] = []
    totals: list[int] | None = None
    for hand in hands:
        if hand.new_session:
            totals = [0, 0, 0, 0]
        if hand.end is None:
            if hand.ledger_end is not None and totals is not None:      # its hand_end cut off; the ledger kept it
                totals = [t + p for t, p in zip(totals, hand.ledger_end["payments"])]
            continue
        end = hand.end
        if totals is not None:
            expected = [t + p for t, p in zip(totals, end.payments)]
            if end.totals != expected:
                problems.append(Finding(end.where, f"hand {hand.number}: totals {end.totals} are not the "
                                                   f"totals before it plus its payments {expected}"))
        totals = list(end.totals)
    return problems


def _audit_repeats(hands: list[HandSummary]) -> list[Finding]:
    """The dealer's 连庄 count (`repeats` of hand_start): 0 at each session_start, one more after a hand
    the dealer kept, 0 after the deal passed; a void hand leaves it as it was."""
    problems: list[Finding] = []
    expected: int | None = None
    for hand in hands:
        repeats = hand.repeats
        if hand.new_session:
            expected = 0
        if repeats is not ABSENT and expected is not None and repeats != expected:
            problems.append(Finding(hand.start_where, f"hand {hand.number}: the dealer's 连庄 count is {repeats}; "
                                                      f"the hands before it make it {expected}"))
        end = hand.end
        counted = type(repeats) is int                          # (a tampered line may hold anything there)
        if end is None or not counted:
            expected = None
        elif end.result == "void":
            expected = repeats
        else:
            expected = repeats + 1 if end.next_dealer == hand.dealer else 0
    return problems


# -- one hand against the rules ---------------------------------------------------------------------


def audit_hand(ruleset: Ruleset, hand: HandLog, start: dict, end: dict) -> list[str]:
    problems: list[str] = []
    if start["sides"] != list(ruleset.players) or start["dealer"] not in ruleset.players:
        raise Unauditable(f"sides {start['sides']} and dealer {start['dealer']} are not {ruleset.id}'s players "
                          f"{list(ruleset.players)}")
    ring_tiles = end["ring"]
    if wall_hash(end["salt"], ring_tiles) != start["wall_hash"]:
        problems.append("the wall hash does not match the wall revealed at hand_end")
    built = Counter(_tile(t, "the revealed wall") for pair in ring_tiles for t in pair)
    if built != Counter(dict(ruleset.tiles.counts)):
        problems.append("the wall does not hold exactly the ruleset's tiles")
    rolls = [tuple(r) for r in start["dice"]]
    result = ruleset.dice.break_for(start["dealer"], ruleset.players, rolls)
    if [result.brk.wall, result.brk.skip] != [start["break"]["wall"], start["break"]["skip"]]:
        said = f"wall {start['break']['wall']} skip {start['break']['skip']}"
        problems.append(f"the break ({said}) is not what the dice {' '.join('+'.join(map(str, r)) for r in rolls)} give "
                        f"(wall {result.brk.wall} skip {result.brk.skip})")
    ring = ruleset.layout.ring(result.brk)
    if len(ring) != start["ring_stacks"]:
        problems.append("the ring has the wrong number of stacks")
    if len(ring_tiles) != len(ring):
        raise Unauditable(f"the revealed wall has {len(ring_tiles)} stacks, the ring {len(ring)}")
    problems += _revealed_indicators(ruleset, end, ring_tiles)
    if not hand.partial:                                  # the draws before a restart are in another file
        take_problems, live_left = _audit_takes(ruleset, ring, hand, ring_tiles)
        problems += take_problems + _ended_too_soon(ruleset, end, live_left)
    if sum(end["payments"]) != 0 and end["result"] == "win":
        problems.append(f"payments {end['payments']} do not sum to zero")
    for take in hand.all("take"):
        if "tile" in take or "uid" in take:
            problems.append("a take event names its tile")
            break
    return problems


TILES_BY_TEXT = {str(tile): tile for tile in Tile}          # how the recorder writes a tile


def _tile(text: str, where: str) -> Tile:
    tile = TILES_BY_TEXT.get(text)
    if tile is None:
        raise Unauditable(f"{where} holds {text!r}, which is not a tile")
    return tile


def _audit_takes(ruleset: Ruleset, ring, hand: HandLog, ring_tiles: list[list[str]]) -> tuple[list[str], int]:
    """The takes against the draw order and the wall's count; and the live tiles left at the end."""
    problems: list[str] = []
    taken: set[Slot] = set()
    recorded: dict[Slot, tuple[str, str]] = {}     # the takes in order, with their end and reason as recorded
    head_order = [ring.head_slot(p) for p in range(ring.tile_count)]
    tail_order = [ring.tail_slot(t) for t in range(ring.tile_count)]
    shown: set[Slot] = set()
    next_head = _Next(head_order, lambda s: s in taken)

    def next_tail() -> Slot | None:
        """An ordinary replacement passes over shown tiles and the tiles under them (云南 尾牌); a
        bottom is uncovered again once its shown top is taken, so this is searched afresh."""
        return next((s for s in tail_order if s not in taken and not _covered(s, shown, taken)), None)

    astray: list[str] = []                                 # takes out of draw order: one missing puts all after astray
    miscounted: list[str] = []
    head = tail = kongs = untaken = 0                       # untaken: kongs counted without a take
    dealer = hand.start.event["dealer"]                   # type: ignore[index]
    kong_reveals: set[int] = set()                          # the kongs a 明鸡 was turned up for
    kongs_in_play: int | None = None                        # the kongs made before the first win
    short_by_flowers = 0    # reserved tiles gone to a flower's replacement owed as the live wall ran out
    last_drawn: Slot | None = None                          # the last tile drawn (长沙's bird when none is left)
    for event in hand.events:
        if event["event"] == "win" and kongs_in_play is None:
            kongs_in_play = kongs
        if event["event"] == "resumed" and "taken" in event:
            try:
                head, tail, kongs, problem = _put_back_unrecorded(event["taken"], recorded, head, tail, kongs)
                problems += problem
                taken.intersection_update(recorded)
                head, tail, kongs = _journaled_takes(event["taken"], taken, recorded, head, tail, kongs)
                last_drawn = _last_journaled_draw(event["taken"]) or last_drawn
            except (TypeError, ValueError, IndexError) as error:
                problems.append(f"resumed: its journaled takes do not read ({error})")
            missing, problem = _journaled_untaken(event, untaken)
            kongs, untaken = kongs + missing, untaken + missing
            problems += problem
            continue
        if event["event"] == "special_kong" and event["accepted"]:
            kongs += event["reserve_kongs"]                  # 长春: a special kong counted without a take
            untaken += event["reserve_kongs"]
        if event["event"] == "indicator" and event["ring"]:
            slots = _slots(event, len(ring))
            if slots is None:
                problems.append(f"indicator {event['kind']} names stacks {event['ring']}/{event['layer']} outside the ring")
                continue
            if event.get("kong") is not None:   # 贵州 明鸡 turned up for a kong: once each, never before it
                problems += _kong_reveal_order(event, kongs, kong_reveals)
            if not event.get("journaled"):      # one a `resumed` names: when it was shown is not known here
                problems += _audit_indicator(ruleset, ring, event, ring_tiles, dealer, taken, head_order, tail,
                                             last_drawn)
            if event.get("effect") == "shown":
                shown |= set(slots)
        if event["event"] == "put_back":        # (one that undid the take before it is gone from the events)
            problems.append(f"a tile put back at {event['ring']}/{event['layer']} undoes no take just made")
        if event["event"] != "take":
            continue
        if event["ring"] >= len(ring):
            problems.append(f"a take at stack {event['ring']}, outside the ring of {len(ring)}")
            continue
        slot = Slot(event["ring"], Layer(event["layer"]))
        if slot in taken:
            problems.append(f"slot {slot.ring}/{slot.layer.value} taken twice")
        expected_head, expected_tail = next_head(), next_tail()
        if event["in_order"] and event["reason"] != "set_aside":
            expected = expected_head if event["end"] == "head" else expected_tail
            if event["end"] == "tail" and slot in shown:
                expected = slot
            if slot != expected:
                astray.append(f"a {event['end']} take at {slot.ring}/{slot.layer.value} is out of draw order "
                              f"(expected {_slot_text(expected)})")
        problems += _wall_end_claim(event, slot, slot in shown and expected_tail is None)
        taken.add(slot)
        recorded[slot] = (event["end"], event["reason"])
        if event["reason"] != "set_aside":
            last_drawn = slot
        if event["end"] == "head":
            head += 1
        else:
            tail += 1
        if event["reason"] == "kong":
            kongs += 1
        count = wall_count(ruleset.reserve, ring.tile_count, head, tail, kongs)
        # (a take read back after nobody watched is in an order the controller guessed: its kong may
        # have been made, in fact, before the head draws it is put after)
        if event["reason"] == "kong" and event["in_order"] and not event.get("unseen") and count.live < 1:
            problems.append(f"a kong's replacement at {slot.ring}/{slot.layer.value} left no live tile: no kong is "
                            "made unless a live tile remains after its replacement")
        if event["reason"] == "flower":     # a flower's replacement is owed even out of the reserve
            short_by_flowers = max(short_by_flowers, count.reserved - count.remaining)
        if (count.live, count.reserved_full_stacks, kongs) != (event["live"], event["reserve"], event["kongs"]):
            miscounted.append(f"take {len(taken)}: live/reserve/kongs {event['live']}/{event['reserve']}/{event['kongs']} "
                              f"should be {count.live}/{count.reserved_full_stacks}/{kongs}")
    problems += _first_of(astray, "takes after it out of draw order") + _first_of(miscounted, "takes miscounted after it")
    if hand.end is not None and not hand.partial:
        problems += _kong_reveals_missing(ruleset, ring, dealer, taken, kong_reveals,
                                          kongs if kongs_in_play is None else kongs_in_play)
    exhausted = hand.first("exhausted")
    count = wall_count(ruleset.reserve, ring.tile_count, head, tail, kongs)
    if exhausted is not None:
        if count.live != 0 or exhausted["remaining"] != count.remaining:
            problems.append(f"荒庄 at the wrong tile: {count.live} live tiles were left ({count.remaining} remaining)")
        if exhausted["remaining"] != count.reserved - short_by_flowers and ruleset.reserve.name != "none":
            problems.append(f"荒庄 with {exhausted['remaining']} tiles left; the reserve holds {count.reserved}"
                            + (f", less {short_by_flowers} a flower's replacement took" if short_by_flowers else ""))
    return problems, count.live


def _ended_too_soon(ruleset: Ruleset, end: dict, live_left: int) -> list[str]:
    """A region that plays on after a win ends a hand only when it must: 血战到底 when one player is
    left (or the wall is spent: 荒庄, or its last tile won), 血流成河 when the wall is spent."""
    mode = ruleset.play.after_win
    if end["result"] not in ("win", "draw") or live_left <= 0:
        return []
    winners = len(set(end["winners"]))
    if mode == "xuezhan" and winners < len(ruleset.players) - 1:
        return [f"it ended with {winners} winner(s) and the wall not spent: 血战到底 plays on until one player is left"]
    if mode == "xueliu":
        return ["it ended before the wall was spent: 血流成河 plays on until then"]
    return []


def _slot_text(slot: Slot | None) -> str:
    return f"{slot.ring}/{slot.layer.value}" if slot is not None else "none: the wall was spent"


def _first_of(problems: list[str], more: str) -> list[str]:
    """The first of a run of problems that follow from it, and how many more there were (a take
    deleted from the recorder puts every later take out of order: one line says so, not a hundred)."""
    if len(problems) <= 1:
        return problems
    return [problems[0], f"… and {len(problems) - 1} more {more}"]


def _wall_end_claim(event: dict, slot: Slot, shown_at_end: bool) -> list[str]:
    """`at_wall_end` marks a shown tail tile taken when no face-down one was left (云南 尾牌, where the
    option lets it replace a kong without a win): the take must say so exactly when the wall says so."""
    claimed = event.get("at_wall_end", False) is True
    if claimed == (shown_at_end and event["end"] == "tail"):
        return []
    said = "says" if claimed else "does not say"
    return [f"the take at {slot.ring}/{slot.layer.value} {said} it took a shown tail tile with no face-down one left; "
            f"the wall {'had none' if shown_at_end else 'had one or it is no shown tile'}"]


def _put_back_unrecorded(journaled: list, recorded: dict[Slot, tuple[str, str]], head: int, tail: int,
                         kongs: int) -> tuple[int, int, int, list[str]]:
    """Takes the lines show that the journal at a restart no longer holds: tiles put back, whose
    takes were undone and journaled, their `put_back` lines cut by the kill that followed (a line
    reaches the file only behind the journal).  Only the last takes can be undone (`UNDO_KEPT`): they
    leave `recorded`, and the counts go back; any other is a problem."""
    known = {Slot(int(ring), Layer(layer)) for ring, layer, _end, _reason in journaled}
    order = list(recorded)
    undone = [slot for slot in order if slot not in known]
    problems = [f"resumed: the journal lacks the take at {slot.ring}/{slot.layer.value}, and it was not one of the "
                f"last {UNDO_KEPT} (only those are undone by a tile put back)"
                for slot in undone if order.index(slot) < len(order) - UNDO_KEPT]
    for slot in undone:
        end, reason = recorded.pop(slot)
        head, tail = (head - 1, tail) if end == "head" else (head, tail - 1)
        kongs -= reason == "kong"
    return head, tail, kongs, problems


def _journaled_takes(journaled: list, taken: set[Slot], recorded: dict[Slot, tuple[str, str]], head: int, tail: int,
                     kongs: int) -> tuple[int, int, int]:
    """A restarted controller goes on from its journal, which a SIGKILL may leave a few takes ahead
    of the recorder it cut (the journal is written first): the takes it names that the recorder
    does not hold are takes all the same (added to `taken`, and with their end and reason to
    `recorded`).  Returns the head, tail and kong counts with them."""
    for ring, layer, end, reason in journaled:
        slot = Slot(int(ring), Layer(layer))
        recorded.setdefault(slot, (end, reason))
        if slot in taken:
            continue
        taken.add(slot)
        head, tail = (head + 1, tail) if end == "head" else (head, tail + 1)
        kongs += reason == "kong"
    return head, tail, kongs


def _last_journaled_draw(journaled: list) -> Slot | None:
    """The last tile drawn among a journal's takes (a set-aside indicator is no draw)."""
    draws = [row for row in journaled if row[3] != "set_aside"]
    return Slot(int(draws[-1][0]), Layer(draws[-1][1])) if draws else None


def _journaled_untaken(resumed: dict, seen: int) -> tuple[int, list[str]]:
    """The kongs counted without a take (长春's special kongs) that the journal knew at a resume and
    the lines before it did not show (a kill cut them), and a problem if the lines showed more than
    the journal knew (lines never go ahead of the journal).  A `resumed` of an older controller,
    without the count, adds none."""
    journaled = resumed.get("kongs_without_takes")
    if not isinstance(journaled, int):
        return 0, []
    if journaled < seen:
        return 0, [f"resumed: the journal counts {journaled} kong(s) without a take, the lines before it showed {seen}"]
    return journaled - seen, []


def _covered(slot: Slot, shown: set[Slot], taken: set[Slot]) -> bool:
    top = Slot(slot.ring, Layer.TOP)
    return slot in shown or (slot.layer is Layer.BOTTOM and top in shown and top not in taken)


class _Next:
    """The first slot of an order not yet passed over (what is passed over only grows)."""

    def __init__(self, order: list[Slot], passed) -> None:
        self._order, self._passed, self._index = order, passed, 0

    def __call__(self) -> Slot | None:
        while self._index < len(self._order) and self._passed(self._order[self._index]):
            self._index += 1
        return self._order[self._index] if self._index < len(self._order) else None


def _slots(event: dict, ring_size: int) -> list[Slot] | None:
    """An indicator's slots, or None if they are not slots of this ring."""
    if len(event["ring"]) != len(event["layer"]) or any(r >= ring_size for r in event["ring"]):
        return None
    return [Slot(r, Layer(layer)) for r, layer in zip(event["ring"], event["layer"])]


def _kong_reveal_order(event: dict, kongs: int, seen: set[int]) -> list[str]:
    """An indicator turned up for the k-th kong (贵州 「有杠牌就要翻第四墩」): after that kong's take, once."""
    k = event["kong"]
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        return [f"indicator {event['kind']} for kong {k!r}, which is not a kong's number"]
    problems = []
    if k > kongs:
        problems.append(f"indicator {event['kind']} turned up for kong {k} when {kongs} kong(s) had been made")
    if k in seen:
        problems.append(f"indicator {event['kind']} turned up twice for kong {k}")
    seen.add(k)
    return problems


def _kong_reveals_missing(ruleset: Ruleset, ring, dealer: int, taken: set[Slot], seen: set[int], kongs: int) -> list[str]:
    """Every kong made before the win turns up its 明鸡 (贵州 ming_ji_kong), unless its tile had left the
    wall: one still there at the end was there when the kong was made."""
    problems = []
    for rule in ruleset.indicators:
        if not rule.on_kong or rule.kong_position is None:
            continue
        for k in range(1, kongs + 1):
            if k in seen:
                continue
            slots = rule.kong_position.slots(RevealContext(ring, ruleset.layout, dealer, 0, 0, (), frozenset(taken), k))
            if slots:
                problems.append(f"kong {k} turned up no {rule.name_zh}: {slots[0].ring}/{slots[0].layer.value} was still in the wall")
    return problems


def _audit_indicator(ruleset: Ruleset, ring, event: dict, ring_tiles, dealer: int, taken: set[Slot],
                     head_order: list[Slot], tail_taken: int, last_drawn: Slot | None = None) -> list[str]:
    rule = _indicator_rule(ruleset, event)
    if rule is None:
        return [f"indicator {event['kind']} is not one of the ruleset's"]
    problems: list[str] = []
    dice = tuple(event["dice"])
    kong = event.get("kong")
    next_head = next((ring.slot_sequence(s) for s in head_order if s not in taken), ring.tile_count)
    context = RevealContext(ring, ruleset.layout, dealer, next_head, tail_taken, dice, frozenset(taken),
                            kong if isinstance(kong, int) else 0, last_drawn)
    named = tuple(Slot(r, Layer(layer)) for r, layer in zip(event["ring"], event["layer"]))
    gone = [f"{s.ring}/{s.layer.value}" for s in named if s in taken]
    if gone and not (isinstance(rule.position, AfterWinFlips) and rule.position.names_a_taken_slot(named, context)):
        problems.append(f"indicator {event['kind']} at {', '.join(gone)}: that slot has already left the wall")
    if rule.timing is not Timing.ON_READY:
        if len(dice) != rule.position_dice or not all(1 <= d <= 6 for d in dice):
            return [f"indicator {event['kind']} with dice {list(dice)}; its rule rolls {rule.position_dice} die/dice"]
        if kong is not None and (not rule.on_kong or rule.kong_position is None):
            return [f"indicator {event['kind']} turned up for a kong; its rule turns up nothing on a kong"]
        slots = (rule.kong_position if kong is not None else rule.position).slots(context)  # type: ignore[union-attr]
        expected = [[s.ring for s in slots], [s.layer.value for s in slots]]
        if [event["ring"], event["layer"]] != expected:
            problems.append(f"indicator {event['kind']} at {event['ring']}/{event['layer']}, the rules put it at {expected}")
    if event["tile"] is not None:
        problems += _shows_the_wall(rule, event, ring_tiles)
    elif event["public"]:
        problems.append(f"a public indicator {event['kind']} without its tile")
    return problems


def _indicator_rule(ruleset: Ruleset, event: dict):
    """The ruleset's indicator rule an indicator event (or hand_end's reveal) names, or None."""
    return next((r for r in ruleset.indicators if r.kind == event["kind"]
                 and r.timing.value == event.get("timing", r.timing.value)), None)


def _shows_the_wall(rule, event: dict, ring_tiles, when: str = "") -> list[str]:
    """An indicator's tiles are the wall's at its slots, and its wilds the rule's for them."""
    problems = []
    tiles = [ring_tiles[r][0 if layer == "top" else 1] for r, layer in zip(event["ring"], event["layer"])]
    if event["tile"] != tiles:
        problems.append(f"indicator {event['kind']}{when} shows {event['tile']} but the wall holds {tiles} there")
    wilds = [str(t) for t in rule.special_kinds(Tile.parse(tiles[0]) if tiles else None)]
    if event["wilds"] != wilds:
        problems.append(f"indicator {event['kind']}{when} makes {event['wilds']}, the rules say {wilds}")
    return problems


def _revealed_indicators(ruleset: Ruleset, end: dict, ring_tiles) -> list[str]:
    """The indicators hand_end reveals (a private 宝 is shown nowhere before) against the wall revealed
    with them: a win scored with a 宝 the wall did not hold was called sound (a probe)."""
    problems = []
    for event in end["indicators"]:
        rule = _indicator_rule(ruleset, event)
        if rule is None:
            problems.append(f"hand_end reveals an indicator {event['kind']} that is not one of the ruleset's")
        elif _slots(event, len(ring_tiles)) is None:
            problems.append(f"hand_end reveals indicator {event['kind']} at stacks {event['ring']}/{event['layer']} "
                            "outside the ring")
        elif event["tile"] is not None:
            problems += _shows_the_wall(rule, event, ring_tiles, " (revealed at hand_end)")
    return problems
