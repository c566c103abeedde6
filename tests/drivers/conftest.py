"""Shared pieces of the drivers tests: a board/host pair over an in-memory (or pty) wire with
the simulator's fault injection in between."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from drivers.board_link import BoardLink, BoardLinkConfig
from drivers.link import HostLink, LinkConfig
from drivers.messages import BoardKind, Status
from drivers.stream import ByteStream, memory_pair
from simulator.faults import WireFaults
from simulator.wire import FaultyWire


@dataclass
class Pair:
    host: HostLink
    board: BoardLink
    wire: FaultyWire
    received: list[tuple[int, bytes]] = field(default_factory=list)
    events: list[tuple[int, bytes]] = field(default_factory=list)
    failures: list[Exception] = field(default_factory=list)
    host_lost: list[float] = field(default_factory=list)

    async def close(self) -> None:
        await self.host.close()
        self.board.stop()
        await self.wire.close()


def make_pair(host_stream: ByteStream, board_stream: ByteStream, *, faults: WireFaults | None = None,
              kind: BoardKind = BoardKind.MOTOR, expected: BoardKind | None = BoardKind.MOTOR,
              version: int | None = None, status=lambda msg, payload: Status.OK,
              config: LinkConfig = LinkConfig(), board_config: BoardLinkConfig = BoardLinkConfig(),
              seed: int = 1, constants: dict[int, int] | None = None) -> Pair:
    import asyncio

    wire = FaultyWire(board_stream, faults or WireFaults(), random.Random(seed))
    received: list[tuple[int, bytes]] = []

    def handler(msg: int, payload: bytes) -> int:
        received.append((msg, payload))
        return status(msg, payload)

    lost: list[float] = []
    extra = {} if version is None else {"version": version}
    board = BoardLink(wire, kind=kind, build="test board 1", constants=constants or {1: 4, 2: 20, 9: 100},
                      boot_counter=7, handler=handler, config=board_config,
                      on_host_lost=lambda: lost.append(asyncio.get_running_loop().time()), **extra)
    host = HostLink(host_stream, device="test board at memory", expected_kind=expected, config=config)
    pair = Pair(host, board, wire, received, host_lost=lost)
    host.set_handlers(lambda msg, payload: pair.events.append((msg, payload)), pair.failures.append)
    board.start()
    return pair


def memory_link(**kwargs) -> Pair:
    a, b = memory_pair("memory:host", "memory:board")
    return make_pair(a, b, **kwargs)
