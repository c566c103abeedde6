"""The display and the read zones from the controller's side, over ptys."""

import asyncio

import pytest

from drivers.display import Display, Touched
from drivers.motor_protocol import LiftPosition
from drivers.nextion import Result
from drivers.rfid_protocol import ZoneInventory
from simulator import SimulatedTable
from tests.asyncio_support import run
from tests.simulator.conftest import collect_until, connected
from tests.simulator.test_sim_table_pty import build_and_raise

pytestmark = pytest.mark.timeout(60)


def test_display_screen_state_touches_and_errors():
    async def main():
        table = SimulatedTable(speed=0)
        where = await table.start()
        display = await Display.open(where.display)
        try:
            display.set_text("main", "t_ruleset", "长春麻将")
            display.set_number("main", "n_left", 42)
            display.set_text("main", "t_msg", '宝: "看" \\ 2行\n第二行')
            display.set_visible("main", "t_wild", False)
            display.show_page("menu")
            assert await display.ping() == 1
            screen = table.display.screen["main"]
            assert screen["t_ruleset"].text == "长春麻将" and screen["n_left"].value == 42
            assert screen["t_msg"].text == '宝: "看" \\ 2行\n第二行'
            assert not screen["t_wild"].visible and table.display.page == "menu"
            # Its power-up (Started, Ready) came before the port was opened and was flushed;
            # the answer to our sendme was taken by ping(): nothing else is waiting.
            assert display.pending_events() == []
            table.display.touch("menu", "b_ok")
            assert await display.next_event(2) == Touched("menu", "b_ok", True)
            assert await display.next_event(2) == Touched("menu", "b_ok", False)
            display.send('main.t_nope.txt="x"')
            assert await display.next_event(2) == Result(0x02)
            with pytest.raises(ValueError):
                display.set_number("main", "t_msg", 1)   # a text component
            assert display.statistics().failures == 1
        finally:
            await display.close()
            await table.stop()
    run(main())


def test_read_zone_reports_the_tiles_laid_there():
    async def main():
        table = SimulatedTable(seed=9, speed=0)
        async with connected(table) as (motor, rfid):
            await build_and_raise(table, motor, rfid)
            hand = [table.take(side, stack) for side in range(2) for stack in range(7)]
            table.lay(1, hand)
            await rfid.read_zone(1)
            inventory = (await collect_until(rfid, ZoneInventory))[-1]
            assert inventory.seat == 1 and sorted(inventory.uids) == sorted(hand)
            await rfid.read_zone(2)
            assert (await collect_until(rfid, ZoneInventory))[-1] == ZoneInventory(2, ())
    run(main())


def test_seat_displays_lamps_and_buzzer_are_kept_as_data():
    async def main():
        table = SimulatedTable(speed=0)
        async with connected(table) as (motor, rfid):
            await motor.seat_text(2, 0, "宝: 五万")
            await motor.leds(4, 0x08)
            await motor.buzzer()
            assert table.world.seat_displays[2][0] == "宝: 五万"
            assert table.world.leds[4] == 0x08 and table.world.buzzer[-1] == (1, 200)
            from drivers.errors import CommandRejected
            with pytest.raises(CommandRejected, match="BAD_ARGUMENT"):
                await motor.seat_text(2, 0, "x" * 40)
            await motor.side_lifts(LiftPosition.UP, sides=(0,))
            await asyncio.sleep(0)
    run(main())
