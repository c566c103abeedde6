"""A display whose USB adapter is pulled and put back is opened again: the public screen comes back by
itself (E22 while it is gone; cleared, and the screen painted whole, once it answers), as the boards'
ports do — never a blank or frozen scoreboard until someone restarts the controller."""

import asyncio

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import parse_faults
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.e2e.at_the_table import until_the_table
from tests.busy_machine import LINK_EPISODE_CODES

E22 = 22


def test_a_display_unplugged_and_put_back_is_opened_again_and_painted_whole(tmp_path):
    async def go():
        ruleset = get_region("hainan").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(()))
        await table.start(f"pty:{tmp_path}")             # stable links, as /dev/serial/by-id/… are
        sessions, faults = [], []
        noticed = asyncio.Event()

        def watch(event):
            if event["event"] == "fault" and event["code"] not in LINK_EPISODE_CODES:   # (a busy machine's)
                faults.append(event)
                noticed.set()

        play = asyncio.create_task(run_simulated(ruleset, hands=1, seed=3, table=table, players=None,
                                                 on_event=watch, on_session=sessions.append))
        screen = table.display
        try:
            await until_the_table(table, lambda: sessions and screen.text("main", "t_score0") == "+0", "never painted")
            await table.unplug("display")                # the adapter pulled: the host's port dies
            await asyncio.wait_for(noticed.wait(), 30)
            screen.reboot()                              # it powered the display: the screen is blank now
            assert screen.text("main", "t_score0") == ""
            await table.replug("display")
            hub_faults = sessions[0].hub.faults
            await until_the_table(table, lambda: not hub_faults.has(E22) and screen.text("main", "t_score0") == "+0",
                                  "the display was not opened again and painted")
            seen, page = list(faults), screen.page       # (stopping the run below is an E16 of its own)
        finally:
            play.cancel()
            await asyncio.gather(play, return_exceptions=True)
            await table.stop()
        return seen, page

    faults, page = run(go(), timeout=90)
    assert [(f["code"], f["source"]) for f in faults] == [("E22", "display")]
    assert "port" in faults[0]["message"]
    assert page == "main"


def test_a_display_not_plugged_in_at_a_restart_is_opened_once_it_is_there(tmp_path):
    """A restart of a table that ran before (journaled sessions), its display's adapter not back yet:
    the boards open, the display starts as a port that is gone (E22 through the watch), and is
    opened once it is there — a missing display never keeps the table from playing."""
    from drivers.errors import PortError
    from drivers.link import SessionRef
    from firmware.devices import open_devices

    async def go():
        table = SimulatedTable(seed=2, speed=0, faults=parse_faults(()))
        where = await table.start(f"pty:{tmp_path}")
        await table.unplug("display")
        try:
            try:
                async with open_devices(where.motor, where.rfid, where.display):
                    raise AssertionError("a first start opened a display port that is not there")
            except PortError as error:
                assert "display" in str(error)          # a first start: most likely a wrong path
            sessions = {"motor": SessionRef(1, 1)}      # the table ran before
            async with open_devices(where.motor, where.rfid, where.display, sessions=sessions,
                                    patient=True) as devices:
                display = devices.display
                assert display is not None and "not there" in str(display.failure)
                await table.replug("display")
                await display.reopen()
                assert display.failure is None
                assert await display.ping(5.0) == 0     # it answers: the watch paints it
        finally:
            await table.stop()

    run(go(), timeout=60)
