"""Events the host cannot decode are asked for again, never acknowledged and dropped; and the
handshake still names an old peer's version across the frame-format change."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

import pytest

from drivers.board_link import BoardLink
from drivers.errors import EventsUnrecoverable, EventUndecodable, LinkLost
from drivers.frame import Frame, FrameDecoder, Kind, encode_frame
from drivers.frame_v1 import decode_frame_v1, encode_frame_v1
from drivers.messages import PROTOCOL_VERSION, BoardIdentity, BoardKind, Hello, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import BuildDone, WallChanged
from drivers.stream import ByteStream, DataCallback, LostCallback, memory_pair
from tests.asyncio_support import run

pytestmark = pytest.mark.timeout(30)


class RewritingWire:
    """The board's end of the wire; rewrites its outgoing EVENT frames of one message id with a
    payload that does not decode, but with a correct CRC (a damage the check cannot see)."""

    def __init__(self, inner: ByteStream, msg: int, times: int) -> None:
        self.description = inner.description
        self.inner = inner
        self.msg = msg
        self.times = times      # how many transmissions to spoil (a large number: all of them)
        self.spoiled = 0
        self._decoder = FrameDecoder()

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self.inner.set_receiver(on_data, on_lost)

    def write(self, data: bytes) -> None:
        for frame in self._decoder.feed(data):
            if isinstance(frame, Frame):
                data = self._maybe_spoil(frame, data)
        self.inner.write(data)

    def _maybe_spoil(self, frame: Frame, data: bytes) -> bytes:
        if frame.kind != Kind.EVENT or frame.msg != self.msg or self.spoiled >= self.times:
            return data
        self.spoiled += 1
        return encode_frame(frame.kind, frame.seq, frame.msg, frame.payload[:-1])

    async def close(self) -> None:
        await self.inner.close()


@asynccontextmanager
async def motor_pair(msg: int, times: int, rewriting=None) -> AsyncIterator[tuple[MotorBoard, BoardLink, RewritingWire]]:
    """A motor board client and a board link whose events `msg` are spoiled `times` times (or whose
    wire is `rewriting(the board's end)`)."""
    host_end, board_end = memory_pair("memory:host", "memory:board")
    wire = rewriting(board_end) if rewriting is not None else RewritingWire(board_end, msg, times)
    board = BoardLink(wire, kind=BoardKind.MOTOR, build="test", constants={}, boot_counter=1,
                      handler=lambda msg, payload: Status.OK)
    board.start()
    client = MotorBoard(host_end)
    try:
        await client.connect()
        yield client, board, wire
    finally:
        board.stop()
        await client.close()


def test_an_event_damaged_past_its_crc_is_asked_for_again_and_delivered_once_in_order():
    async def main():
        async with motor_pair(BuildDone.ID, times=1) as (client, board, wire):
            board.emit(WallChanged(0, 1, 2))
            board.emit(BuildDone((34, 34, 34, 34)))
            board.emit(WallChanged(0, 2, 2))
            events = [await client.next_event(2) for _ in range(3)]
            assert events == [WallChanged(0, 1, 2), BuildDone((34, 34, 34, 34)), WallChanged(0, 2, 2)]
            assert wire.spoiled == 1
            stats = client.statistics()
            assert stats.undecodable_events == 1 and stats.resend_requests >= 1 and stats.events == 3
            assert client.link.failure is None
    run(main())


def test_an_event_that_never_decodes_fails_the_link_with_one_line_saying_what_to_do():
    async def main():
        async with motor_pair(BuildDone.ID, times=1000) as (client, board, wire):
            board.emit(WallChanged(3, 0, 1))
            board.emit(BuildDone((34, 34, 34, 34)))
            assert await client.next_event(2) == WallChanged(3, 0, 1)
            with pytest.raises(EventUndecodable) as caught:
                await client.next_event(5)
            message = str(caught.value)
            assert message.startswith("motor board at memory:host: event 0x81 did not decode 3 times")
            assert "board firmware and host disagree on message 0x81: update one of them" in message
            assert "\n" not in message
            assert client.statistics().undecodable_events == 3
            assert board.unacked_events == 1      # never acknowledged: the board still holds it
    run(main())


def test_a_version_2_board_answers_a_format_1_hello_so_an_old_host_can_name_its_version():
    async def main():
        host_end, board_end = memory_pair()
        board = BoardLink(board_end, kind=BoardKind.RFID, build="new", constants={}, boot_counter=4,
                          handler=lambda msg, payload: Status.OK)
        answers: list[bytes] = []
        got = asyncio.Event()

        def on_data(data: bytes) -> None:
            answers.append(data)
            got.set()
        host_end.set_receiver(on_data, lambda exc: None)
        host_end.write(encode_frame_v1(Kind.HELLO, 0, 0, Hello(1, 77, 100).encode_payload()))
        await asyncio.wait_for(got.wait(), 2)
        ident = decode_frame_v1(b"".join(answers)[:-1])
        identity = BoardIdentity.decode(ident.payload)
        assert ident.kind == Kind.IDENT and identity.version == PROTOCOL_VERSION == 2
        assert identity.session == 77 and board.session == 0      # it opened no session
        board.stop()
        await host_end.close()
        await board_end.close()
    run(main())


def test_a_reader_stopped_as_an_event_arrives_ends_stopped_and_the_event_is_kept():
    """A reader asked to stop in the loop turns around an event reaching the queue either had it
    already (it returns it) or ends cancelled, never both: asked before it finished, it stops (its
    owner waits for that) and the event waits for the next reader.  Once only, either way."""
    async def main():
        loop = asyncio.get_running_loop()
        async with motor_pair(BuildDone.ID, times=0) as (client, board, wire):
            for turns in range(4):
                event = WallChanged(0, turns, 2)
                waiting = asyncio.create_task(client.next_event(5))
                await asyncio.sleep(0)                           # the reader waits on the queue
                asked: asyncio.Future[bool] = loop.create_future()
                client._queue.put_nowait((event, None, 0))       # the event arrives…
                _after(loop, turns, lambda: asked.set_result(waiting.cancel()))   # …and the stop
                await asyncio.gather(asked, waiting, return_exceptions=True)
                if asked.result():
                    assert waiting.cancelled(), f"a stop {turns} turn(s) after the event was swallowed"
                    assert await client.next_event(1) == event
                else:
                    assert waiting.result() == event
                assert client.pending_events() == []
    run(main())


def _after(loop: asyncio.AbstractEventLoop, turns: int, callback) -> None:
    """Run `callback` `turns` loop turns from now (0: in this one, synchronously)."""
    if turns == 0:
        callback()
    else:
        loop.call_soon(_after, loop, turns - 1, callback)


def test_events_already_received_are_handed_over_in_order_without_waiting_and_a_failure_stays_for_the_reader():
    """`received()` is how the controller handles a read's events in a row: each with its own mark
    (what the journal acknowledges), None once none is left, and the link's failure is not taken
    from the queue: `next_event` still raises it."""
    async def main():
        async with motor_pair(BuildDone.ID, times=0) as (client, board, wire):
            sent = [WallChanged(0, stack, 1) for stack in range(3)]
            for event in sent:
                board.emit(event)
            first = await client.next_event(2)
            await _until(lambda: client.statistics().events == 3)      # the other two are queued
            got, marks = [first], [client.last_mark]
            while (event := client.received()) is not None:
                got.append(event)
                marks.append(client.last_mark)
            assert got == sent
            assert [m.seq for m in marks] == [marks[0].seq, marks[0].seq + 1, marks[0].seq + 2]
            assert client.received() is None
            await wire.close()                                      # the board's end of the wire
            await _until(lambda: client.link.failure is not None)
            assert client.received() is None
            with pytest.raises(LinkLost):
                await client.next_event(1)
    run(main())


async def _until(condition, turns: int = 1000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the condition never held")


class RenumberingWire(RewritingWire):
    """The board's end of the wire; from its `after`-th event on, every EVENT frame's seq is moved
    `jump` ahead (a board firmware that numbers events past ones it never sent)."""

    def __init__(self, inner: ByteStream, after: int, jump: int) -> None:
        super().__init__(inner, msg=-1, times=0)
        self.after, self.jump, self.seen = after, jump, 0

    def _maybe_spoil(self, frame: Frame, data: bytes) -> bytes:
        if frame.kind != Kind.EVENT:
            return data
        self.seen += 1
        if self.seen <= self.after:
            return data
        return encode_frame(frame.kind, (frame.seq + self.jump) & 0xFF, frame.msg, frame.payload)


def test_events_numbered_past_a_gap_the_board_never_fills_fail_the_link_in_one_line_not_a_silent_wait():
    async def main():
        renumbering = lambda end: RenumberingWire(end, after=1, jump=100)      # noqa: E731
        async with motor_pair(0, 0, renumbering) as (client, board, _):
            board.emit(WallChanged(0, 1, 2))
            assert await client.next_event(2) == WallChanged(0, 1, 2)
            board.emit(WallChanged(0, 2, 2))              # numbered 101: events 1–100 never come
            with pytest.raises(EventsUnrecoverable) as caught:
                await client.next_event(30)
            message = str(caught.value)
            assert message.startswith("motor board at memory:host: event 1 never came though asked for 50 times")
            assert "update its firmware or this controller" in message and "\n" not in message
    run(main(), timeout=40)
