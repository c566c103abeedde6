"""A board found to be one this controller cannot work with when its link comes back in play (a board
reflashed with other firmware, or two adapters whose names swapped after a replug) stops the table as it
does at the start: E26 on the display naming the board, one line, and not as a fault of the controller's
own.  It stopped with a traceback through whichever task sent next (`lamps failed: WrongBoard(...)`),
counted as the controller's own fault (two in a hand void it), and the display kept E23 (a probe)."""

import asyncio
import io

import pytest

from drivers.errors import ProtocolVersionMismatch
from firmware.faults import ControllerFailure
from firmware.records.audit import read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.e2e.at_the_table import until


def test_a_board_that_comes_back_with_another_protocol_version_in_play_stops_the_table_with_e26():
    seen: dict[str, str] = {}
    sessions = []

    async def reflashed_in_play():
        ruleset = get_region("hainan").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        events = io.StringIO()

        async def technician_reflashes():
            await until(table, lambda: "请掷骰子" in table.display.text("main", "t_msg"))
            table.motor.link.version = 3                # the board reboots into another firmware
            table.motor.reboot()
            await until(table, lambda: table.display.page == "fault"
                        and table.display.text("fault", "t_code") == "E26")
            for name in ("t_code", "t_text"):
                seen[name] = table.display.text("fault", name)

        person = asyncio.create_task(technician_reflashes())
        try:
            with pytest.raises(ProtocolVersionMismatch):
                await run_simulated(ruleset, hands=1, seed=3, events=events, table=table, on_session=sessions.append)
            await asyncio.wait_for(person, 30)
        finally:
            person.cancel()
            await table.stop()
        return read_events(events.getvalue().splitlines())

    log = run(reflashed_in_play(), timeout=120)
    assert seen == {"t_code": "E26", "t_text": "主板通信不兼容（电机板）"}
    assert not isinstance(sessions[0].hub.link_error, ControllerFailure)
    e26 = [e for e in log if e["event"] == "fault" and e["code"] == "E26"]
    assert len(e26) == 1 and "protocol" in e26[0]["message"]
