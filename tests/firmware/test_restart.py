"""A restart resumes: the controller stops abruptly mid-hand and a new one on the same table and
database picks the session and the hand up where they stood (issue 10, item 3)."""

import asyncio
import io
import json
import threading

import pytest

from firmware.hand.state import HandState
from firmware.records.ledger import HAND_KEY, Ledger
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.walls import Break
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def events_of(buffer: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()]


def nth_take_of_hand_2(n: int):
    seen = []

    def stop_when(event: dict) -> bool:
        if event["hand"] == 2 and event["event"] == "take":
            seen.append(event)
        return len(seen) == n
    return stop_when


async def crash_and_restart(region_id: str, seed: int, db: str, stop_when, meanwhile=None, stopping=None,
                            players_hook=None):
    """Play until `stop_when(event)` (or a `players_hook` calls its `stop`), cancel the controller
    there and then (`stopping(session)` runs first), then start a new one on the same table and
    database for two more hands."""
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    players = SimulatedPlayers(table, ruleset, seed=seed)       # the people at the table outlive the controller
    people = asyncio.create_task(players.run())
    first, second = io.StringIO(), io.StringIO()
    sessions = []
    crashed = asyncio.Event()
    controller: asyncio.Task | None = None

    def stop() -> None:
        if not crashed.is_set():
            crashed.set()
            if stopping is not None:
                stopping(sessions[0])
            controller.cancel()                                  # no publish, no clean end

    if players_hook is not None:
        players_hook(players, stop)
    try:
        controller = asyncio.create_task(run_simulated(
            ruleset, hands=None, table=table, players=None, events=first, ledger_path=db, resume=True,
            on_event=lambda event: stop() if stop_when(event) else None, on_session=sessions.append))
        await asyncio.wait({controller, asyncio.ensure_future(crashed.wait())}, return_when=asyncio.FIRST_COMPLETED)
        assert crashed.is_set(), "the first controller stopped before the moment to stop it"
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
    result, before, after = run(crash_and_restart(region_id, 3, db, nth_take_of_hand_2(crash_at_take)), timeout=180)
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
    result, before, after = run(crash_and_restart("guangshui", 3, db, nth_take_of_hand_2(70), meanwhile=put_one_back),
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


def test_a_stop_right_after_a_kong_is_declared_keeps_the_kong(tmp_path):
    """The journal is written whenever its writer is free, so at a stop it may be behind; the stop
    writes the hand as it stands before the store closes.  Here the writer is held busy from the
    杠 until the coalescing journal task is gone: only the stop's own write can keep the kong."""
    gate = threading.Event()
    journaled = {}

    def hold_the_writer(session) -> None:
        session.store.submit(gate.wait)

    async def release_when_the_journal_task_is_gone(session_holder):
        while session_holder and session_holder[0]._journal_task is not None:
            await asyncio.sleep(0.01)
        gate.set()

    def read_journal(table, ruleset, events):
        ledger = Ledger(str(tmp_path / "table.db"))
        try:
            journaled.update(ledger.journal())
        finally:
            ledger.close()

    sessions = []

    def stopping(session) -> None:
        sessions.append(session)
        hold_the_writer(session)
        asyncio.get_running_loop().create_task(release_when_the_journal_task_is_gone(sessions))

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, lambda e: e["event"] == "kong_declared",
                                                  meanwhile=read_journal, stopping=stopping), timeout=180)
    declared = next(e for e in before if e["event"] == "kong_declared")         # the one it stopped at
    hand = HandState.from_json(journaled[HAND_KEY])
    assert hand.number == declared["hand"]
    seat = declared["seat"]
    assert len(hand.kongs.get(seat, [])) + (seat in hand.pending_kong) >= 1      # the 杠 is kept
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["hand"] == declared["hand"]
    assert [e["hand"] for e in after if e["event"] == "hand_end"][0] == declared["hand"]      # settled once, after


def test_a_win_being_checked_at_a_stop_is_claimed_again_after_the_restart(tmp_path):
    """Stopped while a winner answers the check's prompts: the restarted table shows play again with
    the restart note and asks nothing of him, so he presses 胡 again (as a person would) and the
    win is checked and settled once, in the same session."""
    def stop_while_answering(players, stop) -> None:
        log = players.crew.log
        claimed = set()

        def watching(seat: int, what: str, detail: str = "") -> None:
            log(seat, what, detail)
            if what == "hu":
                claimed.add(seat)
            elif what == "press" and detail == "CONFIRM" and seat in claimed:
                stop()                                # the check has begun: its first answer was given
        players.crew.log = watching

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, lambda e: False,
                                                  players_hook=stop_while_answering), timeout=180)
    resumed = next(e for e in after if e["event"] == "resumed")
    number = resumed["hand"]
    assert not any(e["event"] == "hand_end" and e["hand"] == number for e in before)
    verdicts = [e for e in after if e["event"] in ("win", "false_win") and e["hand"] == number]
    assert verdicts and verdicts[0]["event"] == "win"
    ends = [e["hand"] for e in after if e["event"] == "hand_end"]
    assert ends[0] == number and len(ends) == len(set(ends)) == 2
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT session, number FROM hands ORDER BY number").fetchall()
        assert [n for _, n in rows] == sorted(set(n for _, n in rows)) and len({s for s, _ in rows}) == 1
    finally:
        ledger.close()
