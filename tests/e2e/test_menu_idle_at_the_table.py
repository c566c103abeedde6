"""At the whole table: a rules menu or a service page opened and left alone gives the main page back
to the players by itself (firmware/front.py).  The table waits meanwhile for the first set to be
pushed in (nobody sits at it), so nothing but the idle clock closes the pages."""

import asyncio

import firmware.front
from drivers.motor_protocol import Key
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.e2e.at_the_table import until


def test_a_menu_and_a_service_page_left_open_close_by_themselves(tmp_path, monkeypatch):
    monkeypatch.setattr(firmware.front, "IDLE_S", 0.3)       # a minute at a real table
    seen, events = [], []

    async def main():
        ruleset = get_region("sichuan").resolve()
        table = SimulatedTable(seed=5, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        playing = asyncio.create_task(run_simulated(ruleset, hands=1, seed=5, table=table, players=None,
                                                    on_event=events.append,
                                                    settings_path=str(tmp_path / "settings.db")))
        try:
            await until(table, lambda: "请推牌入池" in table.display.text("main", "t_msg"))
            table.press("front", Key.MENU)
            await until(table, lambda: table.display.page == "menu")
            table.press("front", Key.RIGHT)                     # another ruleset shown, never saved
            await until(table, lambda: table.display.page == "main")
            seen.append("menu closed")
            table.press("front", Key.MENU, long=True)
            await until(table, lambda: table.display.page == "service")
            await until(table, lambda: table.display.page == "main")
            seen.append("service closed")
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            await table.stop()

    run(main(), timeout=120)
    assert seen == ["menu closed", "service closed"]
    assert not any(e["event"] == "ruleset_chosen" for e in events)
