"""A board this controller cannot work with stops the table with E26 on the fault page, naming the
board, and E26 in the recorder.

- One whose event keeps failing to decode (its firmware and the controller disagree on a message).
  Before, the recorder said E13 (the board's "host went quiet", which it was not) and the display kept
  the hand's page as if the table still played.
- One found to be such as its link comes back in play (a board reflashed with other firmware, or two
  adapters whose names swapped after a replug).  It stopped with a traceback through whichever task
  sent next (`lamps failed: WrongBoard(...)`), counted as the controller's own fault (two in a hand void
  it), and the display kept E23 (a probe).
"""

import asyncio
import io
from typing import Callable

import pytest

from drivers.errors import EventUndecodable, ProtocolVersionMismatch
from drivers.motor_protocol import LiftMoved
from firmware.faults import ControllerFailure
from firmware.records.audit import read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.busy_machine import LINK_EPISODE_CODES, fault_codes_besides_link_episodes
from tests.e2e.at_the_table import until

FAULT_PAGE = ("t_code", "t_text", "t_hint")


class _GarbledLiftMoved:
    """A LiftMoved as a firmware that disagrees on its layout sends it: one byte where two belong."""
    ID = LiftMoved.ID

    @staticmethod
    def encode_payload() -> bytes:
        return b"\x01"


def stopped_by_the_board(meddle: Callable[[SimulatedTable], None], error: type[Exception], match: str):
    """A hand of 海南 in which `meddle(table)` runs once the dice are asked for; the table must stop with
    `error`.  The fault page's texts once it shows a fault that is no link episode, the recorder's
    events and the session."""
    seen: dict[str, str] = {}
    sessions: list = []

    async def played() -> list[dict]:
        ruleset = get_region("hainan").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        events = io.StringIO()

        async def person() -> None:
            await until(table, lambda: "请掷骰子" in table.display.text("main", "t_msg"))
            meddle(table)
            await until(table, lambda: table.display.page == "fault"   # not a busy machine's E23/E13
                        and table.display.text("fault", "t_code") not in LINK_EPISODE_CODES)
            seen.update((name, table.display.text("fault", name)) for name in FAULT_PAGE)

        watching = asyncio.create_task(person())
        try:
            with pytest.raises(error, match=match):
                await run_simulated(ruleset, hands=1, seed=3, events=events, table=table, on_session=sessions.append)
            await asyncio.wait_for(watching, 30)
        finally:
            watching.cancel()
            await table.stop()
        return read_events(events.getvalue().splitlines())

    log = run(played(), timeout=120)
    return seen, log, sessions[0]


def test_an_event_that_never_decodes_stops_the_table_with_e26_on_its_display():
    seen, log, _ = stopped_by_the_board(lambda table: table.motor.emit(_GarbledLiftMoved()), EventUndecodable,
                                        "event 0x.. did not decode 3 times")
    assert seen == {"t_code": "E26", "t_text": "主板通信不兼容（电机板）", "t_hint": "请技术人员检查接线与主板固件"}
    faults = [e for e in log if e["event"] == "fault"]
    assert fault_codes_besides_link_episodes(log) == ["E26"]        # E13 instead of E26 was the bug
    assert faults[-1]["code"] == "E26" and "did not decode" in faults[-1]["message"]


def reflashed(table: SimulatedTable) -> None:
    table.motor.link.version = 3                    # the board reboots into another firmware
    table.motor.reboot()


def test_a_board_that_comes_back_with_another_protocol_version_in_play_stops_the_table_with_e26():
    seen, log, session = stopped_by_the_board(reflashed, ProtocolVersionMismatch, "speaks protocol version 3")
    assert seen["t_code"] == "E26" and seen["t_text"] == "主板通信不兼容（电机板）"
    assert not isinstance(session.hub.link_error, ControllerFailure)       # the board's fault, not ours
    e26 = [e for e in log if e["event"] == "fault" and e["code"] == "E26"]
    assert len(e26) == 1 and "protocol" in e26[0]["message"]
