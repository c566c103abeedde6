"""CPU cost of the link per frame, as a fraction of the frame's time on a 115200-baud wire.

    python benchmarks/bench_link.py [--frames N]

Measured path, both directions, everything but the UART itself:
- board → host event: the board encodes a typed event (payload, header, CRC, COBS), the host
  decodes the bytes (COBS, CRC, header), checks the sequence number, dispatches it to the
  client, which decodes it into its frozen dataclass and queues it;
- host → board command: the host encodes a command, the board decodes and dispatches it to the
  handler, encodes the ACK, and the host decodes the ACK and completes the command.

The two ends are joined by a synchronous in-process wire, so the time measured is CPU only.
A byte at 115200 baud 8N1 takes 10 bits: 86.8 µs; a 16-byte frame is on the wire 1.39 ms.
Goal: ≤ 5 % on a development machine, so that a Raspberry Pi (5–20× slower in Python) keeps up.

The frame codec alone is also compared with its peer, frame format 1 (CRC-16, no length):
encode + decode of the same frames, the two formats alternated in rounds, so that what the
length byte and the CRC-32 of format 2 cost is a ratio measured in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

from drivers.board_link import BoardLink
from drivers.frame import Kind, decode_frame, encode_frame
from drivers.frame_v1 import decode_frame_v1, encode_frame_v1
from drivers.messages import BoardKind, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import SeatText, WallChanged
from drivers.rfid import RfidBoard
from drivers.rfid_protocol import HeadRead
from drivers.stream import DataCallback, LostCallback

BAUD = 115200
BITS_PER_BYTE = 10


class SyncEnd:
    """One end of a synchronous wire: write() calls the peer's receiver at once, and counts bytes."""

    def __init__(self, description: str) -> None:
        self.description = description
        self.peer: SyncEnd | None = None
        self.bytes_written = 0
        self._on_data: DataCallback = lambda data: None

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self._on_data = on_data

    def write(self, data: bytes) -> None:
        self.bytes_written += len(data)
        assert self.peer is not None
        self.peer._on_data(data)

    async def close(self) -> None:
        pass


def wire_ms(nbytes: float) -> float:
    return nbytes * BITS_PER_BYTE / BAUD * 1000


async def connected_pair(client_class, kind: BoardKind):
    host_end, board_end = SyncEnd("bench:host"), SyncEnd("bench:board")
    host_end.peer, board_end.peer = board_end, host_end
    board = BoardLink(board_end, kind=kind, build="bench", constants={},
                      boot_counter=1, handler=lambda msg, payload: Status.OK)
    client = client_class(host_end)  # a real client: typed decode and queueing included
    await client.connect()
    return board, client, host_end, board_end


async def bench_event(client_class, kind, event, frames: int) -> tuple[float, float]:
    board, client, host_end, board_end = await connected_pair(client_class, kind)
    start = time.perf_counter()
    for _ in range(frames):
        board.emit(event)
        received = client._queue.get_nowait()  # what next_event() does once the event is queued
    elapsed = time.perf_counter() - start
    assert received[0] == event      # the client queues (event, its mark, events delivered)
    nbytes = (board_end.bytes_written + host_end.bytes_written) / frames
    board.stop()
    await client.close()
    return elapsed / frames * 1e6, nbytes


async def bench_command(frames: int) -> tuple[float, float]:
    board, client, host_end, board_end = await connected_pair(MotorBoard, BoardKind.MOTOR)
    command = SeatText(1, 0, "宝")
    before = board_end.bytes_written + host_end.bytes_written
    start = time.perf_counter()
    for _ in range(frames):
        await client.send(command)
    elapsed = time.perf_counter() - start
    nbytes = (board_end.bytes_written + host_end.bytes_written - before) / frames
    board.stop()
    await client.close()
    return elapsed / frames * 1e6, nbytes


async def bench(frames: int) -> list[tuple[str, float, float]]:
    return [
        ("event WallChanged (3-byte payload)",
         *await bench_event(MotorBoard, BoardKind.MOTOR, WallChanged(1, 7, 1), frames)),
        ("event HeadRead, one UID (11-byte payload)",
         *await bench_event(RfidBoard, BoardKind.RFID, HeadRead(2, 13, (bytes(range(8)),)), frames)),
        ("command SeatText + its ACK (round trip)", *await bench_command(frames)),
    ]


def codec_frames() -> list[tuple[int, int, int, bytes]]:
    """The link's everyday frames: events, ACKs and beats with 0–11-byte payloads."""
    rng = random.Random(1)
    return [(rng.choice((Kind.EVENT, Kind.ACK, Kind.BOARD_BEAT, Kind.HOST_BEAT)), rng.randrange(256),
             rng.randrange(256), rng.randbytes(rng.choice((0, 3, 4, 7, 11)))) for _ in range(1000)]


def time_codec(encode, decode, frames, repeats: int) -> float:
    """µs per frame to encode it and decode it again (delimiter stripped as the stream decoder does)."""
    start = time.perf_counter()
    for _ in range(repeats):
        for kind, seq, msg, payload in frames:
            decode(encode(kind, seq, msg, payload)[:-1])
    return (time.perf_counter() - start) / (repeats * len(frames)) * 1e6


def bench_codec(rounds: int = 21) -> tuple[float, float, float]:
    """Best µs per frame of format 2 and of its peer format 1, and the median of the per-round
    ratios (each round times both formats back to back, alternating which goes first)."""
    frames = codec_frames()
    v2, v1 = [], []
    for round_ in range(rounds):
        pair = [(encode_frame, decode_frame, v2), (encode_frame_v1, decode_frame_v1, v1)]
        for encode, decode, times in pair if round_ % 2 == 0 else pair[::-1]:
            times.append(time_codec(encode, decode, frames, 5))
    ratios = sorted(a / b for a, b in zip(v2, v1))
    return min(v2), min(v1), ratios[len(ratios) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    args = parser.parse_args()
    results = asyncio.run(bench(args.frames))
    print(f"link CPU cost per frame vs. wire time at {BAUD} baud ({args.frames} frames each)")
    print(f"{'path':44} {'CPU µs':>8} {'wire bytes':>10} {'wire ms':>8} {'CPU/wire':>9}")
    for name, micros, nbytes in results:
        ms = wire_ms(nbytes)
        print(f"{name:44} {micros:8.1f} {nbytes:10.1f} {ms:8.3f} {micros / 10 / ms:8.2f}%")
    reference = wire_ms(16)
    worst = max(micros / 1000 / wire_ms(nbytes) for _, micros, nbytes in results)
    print(f"a 16-byte frame is {reference:.2f} ms on the wire; worst ratio {worst:.2%} (goal <= 5%)")
    v2, v1, ratio = bench_codec()
    print(f"frame codec, encode + decode (21 alternated rounds): format 2 {v2:.2f} µs, format 1 "
          f"(peer) {v1:.2f} µs (best of each); format 2 / format 1 = {ratio:.2f} (median of rounds)")


if __name__ == "__main__":
    main()
