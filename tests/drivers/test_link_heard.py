"""A command says how many events had come when it was sent: an event numbered below that was sent
by the board before the command reached it (a key pressed before a seat's line was shown:
firmware/seat_lines.py)."""

from __future__ import annotations

import pytest

from drivers.board_link import BoardLink
from drivers.messages import BoardKind, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import KeyAction, KeyPressed
from drivers.stream import memory_pair
from tests.asyncio_support import run

pytestmark = pytest.mark.timeout(30)


def test_events_received_before_a_line_was_sent_are_numbered_below_what_the_line_returns():
    async def main():
        host_end, board_end = memory_pair("memory:host", "memory:board")
        board = BoardLink(board_end, kind=BoardKind.MOTOR, build="test", constants={}, boot_counter=1,
                          handler=lambda msg, payload: Status.OK)
        board.start()
        client = MotorBoard(host_end)
        try:
            await client.connect()
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
        finally:
            board.stop()
            await client.close()

    run(main())
