"""A board that does not answer at start is said on the public display, not only in the log: the
technician at the table reads which board the table waits for (E23 连接中断 重连中（电机板）), the line
moves on to the other board when the first answers, and is cleared once both did (a touch meanwhile
chose nothing: it is not handed to the controller).  Before, the display
was opened only after both boards answered: it showed nothing (or the last picture) for as long as a
board stayed silent."""

import asyncio

from drivers.display import Touched
from firmware.devices import open_devices
from simulator import parse_faults
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.e2e.at_the_table import until_the_table

MOTOR_AWAITED = "E23 连接中断 重连中（电机板）"        # the link fault's code and words, and which board
RFID_AWAITED = "E23 连接中断 重连中（读卡板）"


def test_the_display_says_which_board_the_start_waits_for_then_clears(tmp_path):
    async def go():
        table = SimulatedTable(seed=2, speed=0, faults=parse_faults(()))
        where = await table.start(f"pty:{tmp_path}")
        screen = table.display
        said: list[str] = []
        table.go_silent("motor")
        table.go_silent("rfid")
        opened = asyncio.Event()

        left: list = []                                    # the display's events left for the controller

        async def start() -> None:
            async with open_devices(where.motor, where.rfid, where.display, patient=True,
                                    say=said.append) as devices:
                assert devices.display is not None
                left.extend(devices.display.pending_events())
                opened.set()
                await asyncio.Event().wait()               # held open, as the controller holds them

        starting = asyncio.create_task(start())
        try:
            await until_the_table(table, lambda: screen.text("main", "t_msg") == MOTOR_AWAITED, "the motor board's wait")
            assert screen.page == "main"
            table.touch("main", "b_menu")                  # someone pokes the screen meanwhile
            table.go_silent("motor", False)
            await until_the_table(table, lambda: screen.text("main", "t_msg") == RFID_AWAITED, "the RFID board's wait")
            table.go_silent("rfid", False)
            async with asyncio.timeout(60):
                await opened.wait()
            await until_the_table(table, lambda: screen.text("main", "t_msg") == "", "the line cleared for the controller")
        finally:
            starting.cancel()
            await asyncio.gather(starting, return_exceptions=True)
            await table.stop()
        return said, left

    said, left = run(go(), timeout=150)
    assert not [event for event in left if isinstance(event, Touched)]   # no menu opened by a touch then
    assert any("motor board" in line and "连接中断 重连中" in line for line in said)    # the log says it still
    assert any("RFID board" in line and "连接中断 重连中" in line for line in said), said



def test_a_display_plugged_in_while_a_board_is_awaited_says_the_wait_at_once(tmp_path):
    """A restart of a table that ran before, the display's adapter not back yet and the motor board
    silent: the display plugged in meanwhile is opened at the wait's next try and says which board
    the table waits for — before, it stayed dark until both boards answered and the table ran."""
    from drivers.link import SessionRef

    async def go():
        table = SimulatedTable(seed=2, speed=0, faults=parse_faults(()))
        where = await table.start(f"pty:{tmp_path}")
        screen = table.display
        await table.unplug("display")
        table.go_silent("motor")
        opened, waited = asyncio.Event(), asyncio.Event()

        async def start() -> None:
            async with open_devices(where.motor, where.rfid, where.display, patient=True,
                                    sessions={"motor": SessionRef(1, 1)}, say=lambda line: waited.set()) as devices:
                assert devices.display is not None and devices.display.failure is None
                opened.set()
                await asyncio.Event().wait()

        starting = asyncio.create_task(start())
        try:
            async with asyncio.timeout(60):
                await waited.wait()                        # the start found no display, and waits for the motor board
            assert screen.text("main", "t_msg") == ""
            await table.replug("display")
            await until_the_table(table, lambda: screen.text("main", "t_msg") == MOTOR_AWAITED,
                                  "the wait said on the display plugged in meanwhile")
            assert not opened.is_set()                     # the motor board is still awaited
            table.go_silent("motor", False)
            async with asyncio.timeout(60):
                await opened.wait()
        finally:
            starting.cancel()
            await asyncio.gather(starting, return_exceptions=True)
            await table.stop()

    run(go(), timeout=150)
