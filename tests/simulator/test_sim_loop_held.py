"""A loop held for longer than a link's timeout (a long step, the process stopped and continued, a
busy machine) heard nothing meanwhile, and neither did a simulated board in the same process: each
end's next heartbeat ran late, saw a silence of its own making and called the other end lost — the
client a LinkLost (and a reconnection), the board E13, host lost.  A beat that runs late by more than
half the timeout judges nothing: the link is judged at the next beat, once the other end had time to
be heard.  (The default suite's `test_fault_corrupt_…` failed so once on a loaded machine.)"""

import time

import pytest

from simulator import SimulatedTable
from tests.asyncio_support import run
from tests.simulator.conftest import connected

pytestmark = pytest.mark.timeout(60)

HELD_S = 1.0        # beyond the links' 0.6 s timeout


def test_a_loop_held_past_the_link_timeout_loses_no_link_at_either_end():
    async def main():
        table = SimulatedTable(seed=2, speed=0)
        async with connected(table) as (motor, rfid):
            await motor.buzzer()
            time.sleep(HELD_S)                          # the loop held: both ends silent together
            for _ in range(5):
                await motor.buzzer()                    # beats and commands go on over the same link
            assert (motor.statistics().resumptions, rfid.statistics().resumptions) == (0, 0)
            assert (table.motor.link.counters.host_lost, table.rfid.link.counters.host_lost) == (0, 0)
            assert len(table.world.buzzer) == 6
    run(main(), timeout=40)
