"""A hand voided while the table is asking (issue 16 against the link episodes): the motor board
reboots while a seat must answer — 长沙's 起手小和 question after the deal, 贵州's settlement round
after a win — and a tile is put back on an emptied stack meanwhile, so the wall the board reports
when it comes back contradicts the hand.  The hand ends void (no payment, not even a paid 起手小和
or a round's 鸡), the seats' questions are gone, and the next hand is played and audited."""

import asyncio
import io
import json

import pytest

from firmware.records.audit import audit_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.walls import Break
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def contradict_the_wall(table: SimulatedTable, ruleset, start: dict) -> None:
    """Reboot the motor board, and while it is down put a tile back on the hand's first head stack
    (dealt long ago: the hand knows it empty)."""
    head = ruleset.layout.ring(Break(start["break"]["wall"], start["break"]["skip"]))[0]
    table.reset_board("motor")
    table.put_back(head.wall, head.stack, next(iter(table.world.out.values())).uid)


async def void_at(region_id: str, seed: int, strike_after: str) -> tuple[list[dict], list[list[str]]]:
    """Play two hands; strike once, right after the first `strike_after` event of hand 1.  Returns the
    log and every seat's question line just after the hand_end of the voided hand."""
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    buffer = io.StringIO()
    start: dict = {}
    struck: list[bool] = []
    lines_after: list[list[str | None]] = []
    sessions: list = []
    loop = asyncio.get_running_loop()

    def watch(event: dict) -> None:
        if event["event"] == "hand_start" and event["hand"] == 1:
            start.update(event)
        if event["event"] == strike_after and event["hand"] == 1 and not struck:
            struck.append(True)
            loop.call_soon(contradict_the_wall, table, ruleset, start)
        if event["event"] == "hand_end" and event["result"] == "void":      # the screens are written after
            loop.call_soon(lambda: lines_after.append([sessions[0].hub.presenter.public_mirror().seats[s][1]
                                                       for s in ruleset.players]))

    try:
        result = await run_simulated(ruleset, hands=2, seed=seed, events=buffer, table=table, on_event=watch,
                                     on_session=sessions.append)
    finally:
        await table.stop()
    assert result.hands == 2 and struck
    return [json.loads(line) for line in buffer.getvalue().splitlines()], lines_after


@pytest.mark.parametrize("region_id, strike_after, asked", [
    ("changsha", "dealt", "opening_win"),        # the 起手小和 question is on every seat
    ("guizhou", "win", "settlement"),            # the settlement round follows the win
])
def test_a_hand_voided_while_the_table_asks_ends_cleanly(region_id, strike_after, asked):
    log, lines_after = run(void_at(region_id, 4, strike_after), timeout=300)
    void = next(e for e in log if e["event"] == "hand_void")
    assert void["hand"] == 1 and "holds" in void["reason"]
    end = next(e for e in log if e["event"] == "hand_end" and e["hand"] == 1)
    assert (end["result"], end["winners"], end["payments"]) == ("void", [], [0, 0, 0, 0])
    assert not any(e["event"] == asked and e["hand"] == 1 and any(e["payments"]) for e in log)
    assert lines_after and not any(lines_after[0]), lines_after      # no seat is left with a question
    assert [e["result"] != "void" for e in log if e["event"] == "hand_end"] == [False, True, True]
    assert audit_events(log) == []
