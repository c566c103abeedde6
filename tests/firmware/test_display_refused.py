"""An instruction the public display refuses is painted again at once and said, never only counted.

The display reports the instructions it refuses (bkcmd=2): a byte spoiled on the wire, or a display
whose program does not match this controller's layout.  What it shows is then not what was sent;
before, the refusal was only counted in its statistics, and the page stayed wrong until the next
ping's repaint (a display refusing everything said nothing at all)."""

import asyncio

import pytest

from drivers.table_ui import Phase
from firmware.display_watch import PING_S, SAY_REFUSED_S
from simulator import SimulatedTable
from tests.asyncio_support import run
from tests.firmware.watched_display import watched_display

pytestmark = pytest.mark.timeout(60)


async def shown(table: SimulatedTable, component: str, text: str) -> None:
    """Until the simulated display's main page shows `text` in `component`."""
    while table.display.text("main", component) != text:
        await table.changed(table.changes.version)


def test_a_refused_instruction_repaints_the_page_at_once_and_is_said_once_a_while():
    async def main():
        now = [100.0]
        warnings: list[str] = []
        async with watched_display(on_warning=warnings.append, clock=lambda: now[0]) as (table, display, presenter, watch):
            presenter.phase(Phase.DEAL)                   # (no pings: no repaint but the refusal's)
            await shown(table, "t_msg", Phase.DEAL.value)

            async def spoiled_then_refused() -> None:
                table.display.set_text("main", "t_msg", "请配沛")         # what a spoiled instruction left
                display.send('main.t_nope.txt="x"')                    # one the display refuses
                await display.ping()                                   # both heard back

            await spoiled_then_refused()
            await asyncio.wait_for(shown(table, "t_msg", Phase.DEAL.value), 10)
            assert watch.refused == 1 and len(warnings) == 1
            assert "refused 1 instruction(s)" in warnings[0] and "invalid component (0x02)" in warnings[0]

            await spoiled_then_refused()                      # again within PING_S: the ping's repaint will do
            await display.ping()
            assert watch.refused == 2 and table.display.text("main", "t_msg") == "请配沛"
            now[0] += PING_S
            await spoiled_then_refused()
            await asyncio.wait_for(shown(table, "t_msg", Phase.DEAL.value), 10)
            assert len(warnings) == 1                         # counted, said once a while
            now[0] += SAY_REFUSED_S
            await spoiled_then_refused()
            await asyncio.wait_for(shown(table, "t_msg", Phase.DEAL.value), 10)
            assert len(warnings) == 2 and "refused 3 more instruction(s)" in warnings[1]
    run(main())
