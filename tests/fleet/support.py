"""Pieces the fleet tests share: a subscriber that keeps every message, the publisher's settings
for a test broker (short timeouts, quick back-off), and a simulated table that reports."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import aiomqtt

from firmware.fleet.settings import FleetSettings
from firmware.records.history import History
from firmware.records.space import SpaceWatch
from firmware.simulated import RunResult, run_simulated
from rulesets.regions import get_region

from tests.fleet.broker import Broker


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload.decode("utf-8"))


class Subscriber:
    """`async with Subscriber(broker, "#") as sub:` keeps every message; `await sub.wait_for(test)`."""

    def __init__(self, broker: Broker, *topics: str) -> None:
        self.broker = broker
        self.topics = topics or ("#",)
        self.messages: list[Message] = []
        self._changed = asyncio.Event()
        self._task: asyncio.Task | None = None

    async def __aenter__(self) -> "Subscriber":
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._read(ready))
        await asyncio.wait_for(asyncio.shield(ready.wait()), 10)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    async def _read(self, ready: asyncio.Event) -> None:
        async with aiomqtt.Client("127.0.0.1", self.broker.port, timeout=5) as client:
            await client.subscribe([(topic, 1) for topic in self.topics])
            ready.set()
            async for message in client.messages:
                payload = message.payload if isinstance(message.payload, bytes) else b""
                self.messages.append(Message(str(message.topic), payload, message.retain))
                changed, self._changed = self._changed, asyncio.Event()
                changed.set()

    def on(self, topic: str) -> list[Message]:
        return [m for m in self.messages if m.topic == topic]

    async def wait_for(self, test: Callable[[], Any], timeout: float = 20) -> Any:
        async def until() -> Any:
            while not (found := test()):
                await self._changed.wait()
            return found
        return await asyncio.wait_for(until(), timeout)


def settings_for(broker: Broker, table: str, **changes: Any) -> FleetSettings:
    """A test table's settings: acknowledgements within 1 s, retries from 0.1 s."""
    base = FleetSettings(broker.settings, table, ack_timeout=1.0, backoff=(0.1, 0.5), keepalive=5,
                         status_interval=0.05)
    return dataclasses.replace(base, **changes)


async def play(region: str, hands: int, seed: int, ledger: Path, *, follow: Callable[[Any], None],
               on_event: Callable[[dict], None] | None = None, card_nearly_full: bool = False) -> RunResult:
    """Play `hands` hands of `region` at full speed; `follow(session.public_feed())` once composed
    (`card_nearly_full`: whatever room the card has is under the table's floor)."""
    def composed(session) -> None:
        if card_nearly_full:
            session.upkeep.space = SpaceWatch(session.upkeep.space.paths, floor=1 << 62)
        follow(session.public_feed())
    return await run_simulated(get_region(region).resolve(), hands=hands, seed=seed, ledger_path=str(ledger),
                               on_event=on_event, on_session=composed)


def ledger_hands(ledger: Path) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """(number, payments, totals) of every hand the ledger holds, in order."""
    return [(h.number, h.payments, h.totals) for h in History(ledger).hands()]
