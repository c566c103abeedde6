"""本局结束 and the hand's result showed on the public line only for a moment: the push-in was asked at
once, and its line replaced them (a probe: players looked up to find who had won).  The push-in
request says the hand just settled: `请推牌入池后按确认 上局胡 东家`, or `上局荒庄`."""

from __future__ import annotations

import asyncio

from drivers.table_ui import LAST_HAND, Phase
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def push_in_lines(region_id: str, seed: int) -> tuple[list[str], list[dict]]:
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    seen: list[str] = []
    ends: list[dict] = []

    async def onlooker() -> None:
        while True:
            version = table.changes.version
            message = table.display.text("main", "t_msg")
            if message.startswith(Phase.PUSH_IN.value) and message not in seen:
                seen.append(message)
            await table.changed(version)

    watcher = asyncio.create_task(onlooker())
    try:
        await run_simulated(ruleset, hands=2, seed=seed, table=table,
                            on_event=lambda e: ends.append(e) if e["event"] == "hand_end" else None)
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)
        await table.stop()
    return seen, ends


def test_the_push_in_request_says_how_the_hand_just_played_ended():
    seen, ends = run(push_in_lines("shanghai", 5), timeout=60)
    after_hand = [m for m in seen if LAST_HAND in m]
    assert after_hand, seen
    first = ends[0]
    expected = "荒庄" if not first["winners"] else "胡"
    assert after_hand[0].startswith(f"{Phase.PUSH_IN.value} {LAST_HAND}{expected}"), (after_hand, first["winners"])
