"""The byte-stream interface every link runs on, and an in-memory pair for tests and benchmarks.

A `ByteStream` delivers received bytes to one callback and takes writes without blocking.  The
serial adapter (`drivers.serial_transport`) and the simulator's pty/socket endpoints implement
it; links never see pyserial.
"""

from __future__ import annotations

import asyncio
from typing import Callable, Protocol

DataCallback = Callable[[bytes], None]
LostCallback = Callable[[Exception | None], None]


class ByteStream(Protocol):
    description: str

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        """Route received bytes to `on_data`; `on_lost` is called once if the stream dies."""

    def write(self, data: bytes) -> None:
        """Queue bytes for sending; never blocks (bytes written to a dead stream are dropped)."""

    async def close(self) -> None:
        """Stop receiving and release the port."""


def _ignore_data(data: bytes) -> None:
    pass


def _ignore_lost(exc: Exception | None) -> None:
    pass


class MemoryStream:
    """One end of an in-process byte pipe; bytes arrive at the peer on the next loop turn."""

    def __init__(self, description: str) -> None:
        self.description = description
        self.peer: MemoryStream | None = None
        self._on_data: DataCallback = _ignore_data
        self._on_lost: LostCallback = _ignore_lost
        self._closed = False

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self._on_data = on_data
        self._on_lost = on_lost

    def write(self, data: bytes) -> None:
        peer = self.peer
        if self._closed or peer is None or peer._closed:
            return
        asyncio.get_running_loop().call_soon(peer._deliver, bytes(data))

    def _deliver(self, data: bytes) -> None:
        if not self._closed:
            self._on_data(data)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        peer = self.peer
        if peer is not None and not peer._closed:
            peer._on_lost(None)


def memory_pair(a: str = "memory:a", b: str = "memory:b") -> tuple[MemoryStream, MemoryStream]:
    """Two connected MemoryStreams."""
    left, right = MemoryStream(a), MemoryStream(b)
    left.peer, right.peer = right, left
    return left, right
