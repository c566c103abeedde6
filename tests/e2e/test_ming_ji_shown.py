"""贵州 打明鸡: while the hand is played the display shows the 明鸡 and the 鸡 it makes (before, only the
tile turned up: the players had to work out which tile was the 鸡)."""

import asyncio
import io
import json

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.e2e.at_the_table import until


def test_the_ming_ji_and_its_chicken_kinds_are_on_the_display_in_play():
    ruleset = get_region("guizhou").resolve({"ming_ji": "on", "ming_ji_kong": "none"})
    seen: list[tuple[str, str]] = []

    async def game():
        table = SimulatedTable(seed=5, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")

        async def look():
            await until(table, lambda: "请出牌" in table.display.text("main", "t_msg"))
            seen.append((table.display.text("main", "t_ind"), table.display.text("main", "t_wild")))

        person = asyncio.create_task(look())
        events = io.StringIO()
        try:
            await run_simulated(ruleset, hands=1, seed=5, events=events, table=table)
            await asyncio.wait_for(person, 10)
        finally:
            person.cancel()
            await table.stop()
        return events.getvalue()

    log = [json.loads(line) for line in run(game(), timeout=120).splitlines()]
    ming_ji = Tile.parse(next(e for e in log if e["event"] == "indicator")["tile"][0])
    shown, made = seen[0]
    assert shown == ming_ji.zh
    chickens = {Tile.S1, *ruleset.indicators[-1].special_kinds(ming_ji)}            # 英雄鸡 and the 明鸡's
    assert {t.zh for t in chickens} <= set(made.split())
