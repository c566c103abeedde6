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
from dataclasses import dataclass
from typing import Iterable, Sequence

from rulesets.definition import Ruleset
from rulesets.regions import UnknownRegion, get_region

from .audit_hand import Unauditable, audit_hand
from .audit_ledger import LedgerView, cross_check
from .audit_reading import earlier_reading_note, reading_of, reading_problem
from .audit_wins import audit_wins
from .chain_order import chain_order
from .recorder_lines import FileFacts, Recorder
from .stream import ABSENT, Finding, HandLog, HandSummary, recorder_from_events, split_hands, walk_stream


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
