"""Helpers for simulator tests: a started table with connected clients, and event collectors."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator

from drivers.client import BoardClient
from drivers.messages import Message
from drivers.motor import MotorBoard
from drivers.rfid import RfidBoard
from simulator import SimulatedTable


@asynccontextmanager
async def connected(table: SimulatedTable, listen: str = "pty") -> AsyncIterator[tuple[MotorBoard, RfidBoard]]:
    where = await table.start(listen)
    motor = rfid = None
    try:
        motor = await MotorBoard.open(where.motor)
        rfid = await RfidBoard.open(where.rfid)
        yield motor, rfid
    finally:
        for client in (motor, rfid):
            if client is not None:
                await client.close()
        await table.stop()


async def collect_until(client: BoardClient, last: type[Message], timeout: float = 10.0) -> list[Message]:
    """Events up to and including the first of type `last`."""
    seen: list[Message] = []
    while True:
        event = await client.next_event(timeout)
        seen.append(event)
        if isinstance(event, last):
            return seen


async def collect_count(client: BoardClient, kind: type[Message], count: int, timeout: float = 10.0) -> list[Message]:
    """The first `count` events of type `kind` (others are skipped)."""
    seen: list[Message] = []
    while len(seen) < count:
        event = await client.next_event(timeout)
        if isinstance(event, kind):
            seen.append(event)
    return seen
