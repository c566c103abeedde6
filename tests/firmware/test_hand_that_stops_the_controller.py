"""A hand that stops the controller at every start (a bug its state brings back): the service starts
the controller again, the hand is resumed, and the fault comes back, for ever.  Counted in the
journal, such a hand is voided at the third start instead, and the table plays on."""

import asyncio
import io
import json

from drivers.table_ui import CONTROLLER_FAULT_VOID
from firmware.faults import ControllerFailure
from firmware.hand.flow import HandFlow
from firmware.records.audit import audit_recorders, recorder_from_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.firmware.test_scoring_failure import spy_on_the_message_line


def a_bug_in_hand_2_after_takes(monkeypatch, takes: int, times: int | None = None) -> list[int]:
    """Every wall change of hand 2, past its `takes`-th take, raises (`times` times at the most), seen
    as it happened or read back from the sensors at a resume: as a bug the hand's state brings back at
    every start would (in the event pump or the resume: the table stops loudly)."""
    raised: list[int] = []
    changed = HandFlow._wall_changed

    def buggy(self, pos, tiles, **how):
        hand = self.hand
        if hand is not None and hand.number == 2 and len(hand.tracker.taken) >= takes and \
                (times is None or len(raised) < times):
            raised.append(hand.number)
            raise KeyError("a bug this hand brings back")
        changed(self, pos, tiles, **how)
    monkeypatch.setattr(HandFlow, "_wall_changed", buggy)
    return raised


async def started_again_until_it_plays_on(region_id: str, seed: int, db: str, hands: int):
    """The controller on one table and one database, started again each time it stops by a fault of
    its own (as the service does), until it has played `hands` hands in one run; the people at the
    table play on meanwhile.  Every run's recorder events, and every message line it showed."""
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    people = asyncio.create_task(SimulatedPlayers(table, ruleset, seed=seed).run())
    runs: list[list[dict]] = []
    shown: list[str] = []
    try:
        for _ in range(5):
            events = io.StringIO()
            try:
                await run_simulated(ruleset, hands=hands, table=table, players=None, events=events, ledger_path=db,
                                    resume=True, on_session=spy_on_the_message_line(shown))
                stopped = False
            except (ControllerFailure, KeyError):      # (in the pump, or in the resume itself)
                stopped = True
            runs.append([json.loads(line) for line in events.getvalue().splitlines()])
            if not stopped:
                return runs, shown
        raise AssertionError("the controller stopped at every start")
    finally:
        people.cancel()
        await asyncio.gather(people, return_exceptions=True)
        await table.stop()


def test_a_hand_that_stops_the_controller_at_every_start_is_voided_at_the_third(monkeypatch, tmp_path):
    raised = a_bug_in_hand_2_after_takes(monkeypatch, takes=60)
    runs, shown = run(started_again_until_it_plays_on("hainan", 4, str(tmp_path / "table.db"), hands=3), timeout=300)
    assert len(runs) == 3 and raised == [2, 2]                  # stopped twice in hand 2, then never again
    first, second, third = runs
    assert [e["result"] for e in first if e["event"] == "hand_end"] == [first_result(first)]
    assert not any(e["event"] == "hand_end" for e in second)    # resumed hand 2, stopped again
    void = next(e for e in third if e["event"] == "hand_void")
    assert void["hand"] == 2 and "stopped 2 times in this hand" in void["reason"]
    ends = [(e["hand"], e["result"]) for e in third if e["event"] == "hand_end"]
    assert ends[0] == (2, "void") and [h for h, _ in ends] == [2, 3, 4, 5] and all(r != "void" for _, r in ends[1:])
    assert any(CONTROLLER_FAULT_VOID in text for text in shown)
    report = audit_recorders([recorder_from_events(f"run {n}", events) for n, events in enumerate(runs, 1)])
    assert not report.problems, report.problems


def first_result(events: list[dict]) -> str:
    return next(e["result"] for e in events if e["event"] == "hand_end" and e["hand"] == 1)


def test_a_hand_that_stopped_the_controller_once_is_resumed_and_played_on(monkeypatch, tmp_path):
    """One stop in a hand is not a hand that stops the controller at every start: it is resumed."""
    raised = a_bug_in_hand_2_after_takes(monkeypatch, takes=60, times=1)
    runs, _ = run(started_again_until_it_plays_on("hainan", 4, str(tmp_path / "table.db"), hands=2), timeout=300)
    assert len(runs) == 2 and raised == [2]
    resumed = runs[1]
    assert not any(e["event"] == "hand_void" for e in resumed)
    assert [e["hand"] for e in resumed if e["event"] == "hand_end"][:2] == [2, 3]
