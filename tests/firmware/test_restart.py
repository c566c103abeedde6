"""A restart resumes: the controller stops abruptly mid-hand and a new one on the same table and
database picks the session and the hand up where they stood (issue 10, item 3)."""

import asyncio
import io
import json

import pytest

from firmware.records.ledger import Ledger
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.walls import Break
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def events_of(buffer: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


async def crash_and_restart(region_id: str, seed: int, db: str, crash_at_take: int, meanwhile=None):
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    players = SimulatedPlayers(table, ruleset, seed=seed)       # the people at the table outlive the controller
    people = asyncio.create_task(players.run())
    first, second = io.StringIO(), io.StringIO()
    crashed = asyncio.Event()
    takes = 0

    def watch(event: dict) -> None:
        nonlocal takes
        if event["hand"] == 2 and event["event"] == "take":
            takes += 1
            if takes == crash_at_take:
                crashed.set()

    try:
        controller = asyncio.create_task(run_simulated(ruleset, hands=None, table=table, players=None, events=first,
                                                       ledger_path=db, on_event=watch, resume=True))
        await asyncio.wait({controller, asyncio.ensure_future(crashed.wait())}, return_when=asyncio.FIRST_COMPLETED)
        assert crashed.is_set(), "the first controller stopped before hand 2 got going"
        controller.cancel()                                      # no publish, no clean end
        await asyncio.gather(controller, return_exceptions=True)
        if meanwhile is not None:
            meanwhile(table, ruleset, events_of(first))
        result = await run_simulated(ruleset, hands=2, table=table, players=None, events=second, ledger_path=db,
                                     resume=True)
    finally:
        people.cancel()
        await asyncio.gather(people, return_exceptions=True)
        await table.stop()
    return result, events_of(first), events_of(second)


@pytest.mark.parametrize("region_id, crash_at_take", [("guangshui", 70), ("guangshui", 50), ("changchun", 20), ("sichuan", 5)])
def test_a_hand_interrupted_by_a_crash_resumes_and_is_settled_once(tmp_path, region_id, crash_at_take):
    """In play (guangshui), in the deal (changchun, with its 宝 still to choose), at the deal's start."""
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart(region_id, 3, db, crash_at_take=crash_at_take), timeout=180)
    assert [e["hand"] for e in before if e["event"] == "hand_end"] == [1]
    assert not any(e["event"] == "hand_end" and e["hand"] == 2 for e in before)
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["hand"] == 2 and resumed["cause"] == "restart"
    hand_start = next(e for e in before if e["event"] == "hand_start" and e["hand"] == 2)
    assert resumed["wall_hash"] == hand_start["wall_hash"]           # the same wall, committed before play
    ends = [e for e in after if e["event"] == "hand_end"]
    assert [e["hand"] for e in ends] == [2, 3] and result.hands == 2
    assert any(e["event"] == "session_resumed" for e in after)
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT session, number, result FROM hands ORDER BY number").fetchall()
        assert [number for _, number, _ in rows] == [1, 2, 3]            # never lost, never settled twice
        assert len({session for session, _, _ in rows}) == 1             # the session went on
        session = rows[0][0]
        last = [e for e in after if e["event"] == "hand_end"][-1]
        assert list(ledger.totals(session)) == last["totals"]          # the totals went on too
    finally:
        ledger.close()


def test_a_hand_whose_walls_no_longer_match_is_voided_cleanly(tmp_path):
    """A tile put back on the wall while the controller was away: the hand cannot be trusted."""
    def put_one_back(table, ruleset, events):
        """On the head stack, dealt long before the crash: the journal surely knew it empty."""
        start = next(e for e in events if e["event"] == "hand_start" and e["hand"] == 2)
        head = ruleset.layout.ring(Break(start["break"]["wall"], start["break"]["skip"]))[0]
        assert table.wall(head.wall)[head.stack] == 0
        table.put_back(head.wall, head.stack, next(iter(table.world.out.values())).uid)

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, crash_at_take=70, meanwhile=put_one_back),
                                timeout=180)
    void = next(e for e in after if e["event"] == "hand_void")
    assert void["hand"] == 2 and "holds" in void["reason"]
    end = next(e for e in after if e["event"] == "hand_end")
    assert (end["hand"], end["result"], end["payments"], end["winners"]) == (2, "void", [0, 0, 0, 0], [])
    start = next(e for e in before if e["event"] == "hand_start" and e["hand"] == 2)
    assert end["next_dealer"] == start["dealer"] and "ring" in end and "salt" in end
    assert [e["hand"] for e in after if e["event"] == "hand_end"] == [2, 3, 4]
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT number, result FROM hands ORDER BY number").fetchall()
        assert rows[:2] == [(1, rows[0][1]), (2, "void")] and [n for n, _ in rows] == [1, 2, 3, 4]
    finally:
        ledger.close()
