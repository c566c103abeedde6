"""A faulty wire between a simulated board and its endpoint.

It sits where the UART cable would be: frames (cut at the 0x00 delimiter, or at FF FF FF for the
display) are dropped, duplicated, bit-flipped or held back according to the device's
`WireFaults`, which tests and the CLI may change at any time.  A stall holds back everything
behind it, so bytes are never reordered (a UART cannot reorder).
"""

from __future__ import annotations

import asyncio
import random
from collections import deque

from drivers.stream import ByteStream, DataCallback, LostCallback, _ignore_data, _ignore_lost

from .faults import WireFaults


class FaultyWire:
    """Wraps the endpoint stream; the board's link talks to this as its ByteStream."""

    def __init__(self, inner: ByteStream, faults: WireFaults, rng: random.Random,
                 delimiter: bytes = b"\x00") -> None:
        self.description = inner.description
        self.faults = faults
        self.frames_damaged = 0
        self.stalls = 0
        self._inner = inner
        self._rng = rng
        self._delimiter = delimiter
        self._on_data: DataCallback = _ignore_data
        self._on_lost: LostCallback = _ignore_lost
        self._rx_pending = bytearray()
        self._outbox: deque[bytes] = deque()
        self._stall: asyncio.TimerHandle | None = None
        inner.set_receiver(self._received, self._lost)

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self._on_data = on_data
        self._on_lost = on_lost

    # board → host
    def write(self, data: bytes) -> None:
        """`data` is one frame, or on a framed link (0x00 delimiter, which COBS keeps out of a
        frame) several back to back: each meets the faults alone, and those that pass before any
        stall reach the endpoint in one write (one system call for a burst of events)."""
        f = self.faults
        if f.silent:
            return
        if not (f.drop or f.corrupt or f.delay or f.duplicate) and self._stall is None and not self._outbox:
            self._inner.write(data)     # no fault to meet (and none draws a random number): as is
            return
        passed: list[bytes] = []
        for frame in self._frames(data):
            for chunk in self._mangle(frame):
                if self._stall is not None or self._outbox:
                    self._outbox.append(chunk)
                else:
                    passed.append(chunk)
        if passed:
            self._inner.write(b"".join(passed))

    def _frames(self, data: bytes) -> list[bytes]:
        if self._delimiter != b"\x00" or data.count(0) <= 1 or not data.endswith(b"\x00"):
            return [data]
        return [part + b"\x00" for part in data.split(b"\x00")[:-1]]

    def _mangle(self, frame: bytes) -> list[bytes]:
        f, rng = self.faults, self._rng
        if f.drop and rng.random() < f.drop:
            self.frames_damaged += 1
            return []
        if f.corrupt and rng.random() < f.corrupt:
            self.frames_damaged += 1
            damaged = bytearray(frame)
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
            frame = bytes(damaged)
        if f.delay and rng.random() < f.delay and self._stall is None:
            self.stalls += 1
            self._stall = asyncio.get_running_loop().call_later(f.delay_ms / 1000, self._release)
        if f.duplicate and rng.random() < f.duplicate:
            self.frames_damaged += 1
            return [frame, frame]
        return [frame]

    def _release(self) -> None:
        self._stall = None
        while self._outbox and self._stall is None:
            self._inner.write(self._outbox.popleft())

    # host → board
    def _received(self, data: bytes) -> None:
        if self.faults.silent:
            self._rx_pending.clear()
            return
        f = self.faults
        if not (f.drop or f.corrupt or f.duplicate):
            self._pass_frames(data)
            return
        self._rx_pending += data
        parts = self._rx_pending.split(self._delimiter)
        self._rx_pending = bytearray(parts.pop())
        for part in parts:
            frame = bytes(part) + self._delimiter
            if f.drop and self._rng.random() < f.drop:
                self.frames_damaged += 1
                continue
            if f.corrupt and self._rng.random() < f.corrupt:
                self.frames_damaged += 1
                damaged = bytearray(frame)
                damaged[self._rng.randrange(len(damaged))] ^= 1 << self._rng.randrange(8)
                frame = bytes(damaged)
            self._on_data(frame)
            if f.duplicate and self._rng.random() < f.duplicate:
                self.frames_damaged += 1
                self._on_data(frame)

    def _pass_frames(self, data: bytes) -> None:
        """No fault to apply (none draws a random number): the whole frames received go on in one
        call, the board's decoder reading them as a stream; a partial frame waits, as above."""
        pending = self._rx_pending
        if not pending and len(self._delimiter) == 1 and data.endswith(self._delimiter):
            self._on_data(data)
            return
        pending += data
        whole = len(pending) - len(pending.split(self._delimiter)[-1])   # through the last delimiter
        if whole:
            frames = bytes(pending[:whole])
            del pending[:whole]
            self._on_data(frames)

    def _lost(self, exc: Exception | None) -> None:
        self._on_lost(exc)

    async def close(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._outbox.clear()
        await self._inner.close()
