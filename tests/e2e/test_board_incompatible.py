"""A board this controller cannot work with — one whose event keeps failing to decode (its firmware and
the controller disagree on a message) — stops the table with E26 on the fault page, naming the board,
and E26 in the recorder.  Before, the recorder said E13 (the board's "host went quiet", which it was
not) and the display kept the hand's page as if the table still played."""

import pytest

from drivers.errors import EventUndecodable
from drivers.motor_protocol import LiftMoved
from firmware.records.audit import read_events
from tests.asyncio_support import run
from tests.busy_machine import LINK_EPISODE_CODES, fault_codes_besides_link_episodes
from tests.e2e.at_the_table import until


class _GarbledLiftMoved:
    """A LiftMoved as a firmware that disagrees on its layout sends it: one byte where two belong."""
    ID = LiftMoved.ID

    @staticmethod
    def encode_payload() -> bytes:
        return b"\x01"


def test_an_event_that_never_decodes_stops_the_table_with_e26_on_its_display(tmp_path):
    import asyncio
    import io

    from firmware.simulated import run_simulated
    from rulesets.regions import get_region
    from simulator.table import SimulatedTable

    seen: dict[str, str] = {}

    async def table_with_a_wrong_firmware():
        ruleset = get_region("hainan").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        events = io.StringIO()

        async def firmware_bug():
            await until(table, lambda: "请掷骰子" in table.display.text("main", "t_msg"))
            table.motor.emit(_GarbledLiftMoved())
            await until(table, lambda: table.display.page == "fault"   # not a busy machine's E23/E13
                        and table.display.text("fault", "t_code") not in LINK_EPISODE_CODES)
            for name in ("t_code", "t_text", "t_hint"):
                seen[name] = table.display.text("fault", name)

        person = asyncio.create_task(firmware_bug())
        try:
            with pytest.raises(EventUndecodable, match="event 0x.. did not decode 3 times"):
                await run_simulated(ruleset, hands=1, seed=3, events=events, table=table)
            await asyncio.wait_for(person, 30)
        finally:
            person.cancel()
            await table.stop()
        return read_events(events.getvalue().splitlines())

    log = run(table_with_a_wrong_firmware(), timeout=120)
    assert seen == {"t_code": "E26", "t_text": "主板通信不兼容（电机板）", "t_hint": "请技术人员检查接线与主板固件"}
    faults = [e for e in log if e["event"] == "fault"]
    assert fault_codes_besides_link_episodes(log) == ["E26"]        # E13 instead of E26 was the bug
    assert faults[-1]["code"] == "E26" and "did not decode" in faults[-1]["message"]
