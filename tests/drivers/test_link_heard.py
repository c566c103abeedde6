"""A command says how many events had come when it was sent: an event numbered below that was sent
by the board before the command reached it (a key pressed before a seat's line was shown:
firmware/seat_lines.py)."""

from __future__ import annotations

import pytest

from drivers.motor_protocol import KeyAction, KeyPressed
from tests.asyncio_support import run
from tests.drivers.test_link_events import motor_pair

pytestmark = pytest.mark.timeout(30)


def test_events_received_before_a_line_was_sent_are_numbered_below_what_the_line_returns():
    async def main():
        async with motor_pair(KeyPressed.ID, times=0) as (client, board, _):
            places = []
            for _ in range(2):
                board.emit(KeyPressed(0, 7, KeyAction.PRESS))           # ▶ before the line
                await client.next_event(2)
                places.append(client.last_heard)
            heard = await client.seat_text(0, 1, "特殊杠:无")
            board.emit(KeyPressed(0, 7, KeyAction.PRESS))               # ▶ after it
            await client.next_event(2)
            places.append(client.last_heard)
            assert places == [0, 1, 2]
            assert heard == 2                       # the two before it, and not the one after

    run(main())
