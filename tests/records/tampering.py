"""Real flight recorders made by the simulator, and the ways a tamperer edits them.

Each tampering takes a recorder's events (parsed, in order) and returns the edited events; it never
edits its input.  `reseal` is the stronger tamperer: one who knows the chain scheme (it is public)
and writes every `prev`, `digest`, `chain` and count again after the edit, so only what the rules,
the clock and the ledger say can catch the edit.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Callable

from firmware.records.chain import CLEAN_END, HAND_OPENERS, HAND_SEAL, START, ChainState, canonical
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run

Events = list[dict]


def play(region_id: str, hands: int, seed: int, ledger_path: str = ":memory:") -> Events:
    """A whole run of the simulated table: its recorder's events."""
    sink = io.StringIO()
    run(run_simulated(get_region(region_id).resolve(), hands=hands, seed=seed, events=sink, ledger_path=ledger_path),
        timeout=180)
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def as_text(events: Events) -> bytes:
    return "".join(canonical(e) + "\n" for e in events).encode()


def blocks(events: Events) -> list[tuple[int, int]]:
    """(index of hand_start, index of hand_end) of every finished hand."""
    found, start = [], None
    for index, event in enumerate(events):
        if event["event"] == "hand_start":
            start = index
        elif event["event"] == HAND_SEAL and start is not None:
            found.append((start, index))
            start = None
    return found


def first_win_hand(events: Events) -> int:
    """The number of the first hand won by exactly one seat (the tamperings below edit it)."""
    return next(e["hand"] for e in events if e["event"] == HAND_SEAL and len(e["winners"]) == 1)


def retotal(events: Events) -> Events:
    """Totals written again from the payments, as a careful tamperer keeps them consistent."""
    totals = [0, 0, 0, 0]
    for event in events:
        if event["event"] == "session_start":
            totals = [0, 0, 0, 0]
        if event["event"] == HAND_SEAL:
            totals = [t + p for t, p in zip(totals, event["payments"])]
            event["totals"] = list(totals)
    return events


# -- the tamperings of issue 9 ---------------------------------------------------------------------------


def cut_last_hand_end(events: Events) -> Events:
    last = max(i for i, e in enumerate(events) if e["event"] == HAND_SEAL)
    return copy.deepcopy(events[:last])


def delete_last_hand(events: Events) -> Events:
    start, end = blocks(events)[-1]
    return copy.deepcopy(events[:start] + events[end + 1:])


def swap_payments(events: Events) -> Events:
    """Swap the winner's and a payer's payments in the win and in hand_end; totals kept consistent."""
    edited = copy.deepcopy(events)
    number = first_win_hand(edited)
    for event in edited:
        if event["hand"] == number and event["event"] in ("win", HAND_SEAL):
            winner = event["seat"] if event["event"] == "win" else event["winners"][0]
            payments = event["payments"]
            payer = next(s for s, p in enumerate(payments) if p != payments[winner])
            payments[winner], payments[payer] = payments[payer], payments[winner]
    return retotal(edited)


def change_winner(events: Events) -> Events:
    """Another seat named the winner, with the payments moved to it; totals kept consistent."""
    edited = copy.deepcopy(events)
    number = first_win_hand(edited)
    win = next(e for e in edited if e["hand"] == number and e["event"] == "win")
    end = next(e for e in edited if e["hand"] == number and e["event"] == HAND_SEAL)
    start = next(e for e in edited if e["hand"] == number and e["event"] == "hand_start")
    old = win["seat"]
    new = next(s for s in start["sides"] if s not in (old, win["from"]))
    win["seat"], end["winners"] = new, [new]
    for payments in (win["payments"], end["payments"]):
        payments[old], payments[new] = payments[new], payments[old]
    return retotal(edited)


def reorder_hands(events: Events) -> Events:
    """The first two hands' blocks swapped (what lies between them stays)."""
    (s1, e1), (s2, e2) = blocks(events)[:2]
    edited = events[:s1] + events[s2:e2 + 1] + events[e1 + 1:s2] + events[s1:e1 + 1] + events[e2 + 1:]
    return copy.deepcopy(edited)


def zero_timestamps(events: Events) -> Events:
    """Every timestamp of the second hand set to 0."""
    edited = copy.deepcopy(events)
    start, end = blocks(edited)[1]
    for event in edited[start:end + 1]:
        event["t"] = 0
    return edited


def empty(events: Events) -> Events:
    return []


TAMPERINGS: dict[str, Callable[[Events], Events]] = {
    "the last hand_end cut off": cut_last_hand_end,
    "the last hand deleted": delete_last_hand,
    "payments swapped between seats (totals consistent)": swap_payments,
    "the winner changed": change_winner,
    "hand blocks reordered": reorder_hands,
    "timestamps zeroed": zero_timestamps,
    "an empty file": empty,
}


def reseal(events: Events) -> Events:
    """Every chain field written again, as the recorder would have written the edited events."""
    edited = copy.deepcopy(events)
    state: ChainState | None = None
    hands = 0
    for event in edited:
        name = event["event"]
        if state is None:
            state = ChainState(event["chain"] if name == START else "0" * 64)
        if name in HAND_OPENERS or name in (HAND_SEAL, CLEAN_END):
            event.update(state.fields_for(name))
        if name == CLEAN_END:
            event["hands"] = hands
        hands = 0 if name == CLEAN_END else hands + int(name == HAND_SEAL)
        state.add(canonical(event), name)
    return edited


def _version(events: Events) -> str | None:
    """The version the run's recorder says wrote it (its replay writes the very same lines)."""
    return events[0].get("version") if events and events[0]["event"] == START else None


def restarted(events: Events, cut: int, clean: bool = False, session_again: bool = False,
              journal_ahead: int = 0, lost_indicators: bool = False, lost_wins: bool = False) -> tuple[Events, Events]:
    """The two files of a run whose controller stopped at `cut` and was started again.

    The first file is cut off there (a dead controller), or closed by `close_cleanly()` (a clean
    stop); the second is written by a FlightRecorder given the chain head the journal kept: its
    first hand event is `resumed`, carrying the open hand's hand_start, then the rest of the run
    (`session_again`: the session's session_start is written again first).  `journal_ahead`: the
    last so many takes before the cut reached the journal but not the first file (SIGKILL between
    the journal's commit and the lines behind it); `resumed` names every take the journal knew, and
    every indicator (`lost_indicators`: those of the open hand never reached the first file) and
    every win (`lost_wins`: their lines never reached the first file)."""
    from firmware.records.recorder import FlightRecorder

    now = [0.0]
    first_sink, second_sink = io.StringIO(), io.StringIO()
    before = FlightRecorder(first_sink, clock=lambda: now[0], version=_version(events))
    takes = [i for i, e in enumerate(events[:cut]) if e["event"] == "take"]
    unwritten = set(takes[len(takes) - journal_ahead:]) if journal_ahead else set()
    open_number = next((e["hand"] for e in reversed(events[:cut]) if e["event"] == "hand_start"), None)
    indicators = {(e["kind"], tuple(e["ring"]), tuple(e["layer"])): _fields(e) for e in events[:cut]
                  if e["event"] == "indicator" and e["hand"] == open_number}
    if lost_indicators:
        unwritten |= {i for i, e in enumerate(events[:cut]) if e["event"] == "indicator" and e["hand"] == open_number}
    wins = [i for i, e in enumerate(events[:cut]) if e["event"] == "win" and e["hand"] == open_number]
    if lost_wins:
        unwritten |= set(wins)
    _replay([e for i, e in enumerate(events[:cut]) if i not in unwritten], before, now)
    if clean:
        before.close_cleanly()
    after = FlightRecorder(second_sink, clock=lambda: now[0], chain=before.chain_head(), version=_version(events))
    if session_again:                               # the restarted controller says which session it goes on with
        session = next(e for e in reversed(events[:cut]) if e["event"] == "session_start")
        after.emit("session_start", hand=0, **_fields(session))
    if before.hand:
        open_start = next(e for e in reversed(events[:cut]) if e["event"] == "hand_start")
        after.open_hand(before.hand)
        journaled = [[e["ring"], e["layer"], e["end"], e["reason"]] for e in events[:cut]
                     if e["event"] == "take" and e["hand"] == before.hand]
        after.emit("resumed", **_fields(open_start), taken=journaled, indicators=list(indicators.values()),
                   wins=[_fields(events[i]) for i in wins])
    _replay(events[cut:], after, now)
    after.close_cleanly()
    return _parsed(first_sink), _parsed(second_sink)


def killed_after_settling(events: Events, number: int, last_hand: bool = True) -> tuple[Events, Events]:
    """The two files of a run killed as hand `number` was settled: the ledger kept it, the first file
    lost its hand_end (and the chain head behind it); the restarted controller's session_resumed
    says what the ledger kept (`last_hand`: False, as before it did), then the run goes on."""
    from firmware.records.recorder import FlightRecorder

    end = next(i for i, e in enumerate(events) if e["event"] == HAND_SEAL and e["hand"] == number)
    start = next(e for e in events if e["event"] == "hand_start" and e["hand"] == number)
    now = [0.0]
    first_sink, second_sink = io.StringIO(), io.StringIO()
    before = FlightRecorder(first_sink, clock=lambda: now[0], version=_version(events))
    _replay(events[:end], before, now)
    after = FlightRecorder(second_sink, clock=lambda: now[0], chain=before.chain_head(), version=_version(events))
    session = next(e for e in reversed(events[:end]) if e["event"] == "session_start")
    sealed = events[end]
    kept = {"hand": number, "result": sealed["result"], "winners": sealed["winners"], "payments": sealed["payments"],
            "wall_hash": start["wall_hash"]}
    after.emit("session_resumed", hand=0, session=session["session"], ruleset=session["ruleset"],
               options=session["options"], totals=sealed["totals"], dealer=sealed["next_dealer"],
               **({"last_hand": kept} if last_hand else {}))
    _replay(events[end + 1:], after, now)
    after.close_cleanly()
    return _parsed(first_sink), _parsed(second_sink)


def _replay(events: Events, recorder, now: list[float]) -> None:
    for event in events:
        if event["event"] in (START, CLEAN_END):
            continue
        now[0] = event["t"]
        if event["event"] == "hand_start":
            recorder.open_hand(event["hand"])
        recorder.emit(event["event"], hand=event["hand"], **_fields(event))
        if event["event"] == HAND_SEAL:
            recorder.close_hand()


def _parsed(sink: io.StringIO) -> Events:
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def _fields(event: dict) -> dict:
    return {k: v for k, v in event.items() if k not in ("event", "t", "hand")}
