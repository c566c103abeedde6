"""What the set builder needs from the table, as a small typed port (never the controller).

The builder sends the mechanism's commands through `motion` (which waits out a latched fault or
an open hatch and sends again), waits for board events with `until`, reads the latch, latches its
own faults (a set that fails its check) and records.  The hub hands it every build event at once
(`BuildListener`).
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Protocol, TypeVar

from drivers.motor import MotorBoard
from drivers.rfid import RfidBoard
from rulesets.definition import Ruleset

from ..faults import LatchedFault
from .registry import TileRegistry

T = TypeVar("T")


class BuildPorts(Protocol):
    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def registry(self) -> TileRegistry: ...

    @property
    def motor(self) -> MotorBoard: ...

    @property
    def rfid(self) -> RfidBoard: ...

    @property
    def shuffle_ms(self) -> int: ...

    def emit(self, event: str, **fields: Any) -> dict[str, Any]: ...

    async def until(self, predicate: Callable[[], T | None | bool], timeout: float | None = None) -> T: ...

    async def motion(self, command: Callable[[], Awaitable[None]]) -> None: ...

    def fault_latched(self, code: int | None = None) -> bool:
        """A fault latched that waits for a person (or one with this code)."""

    def latch(self, fault: LatchedFault) -> None: ...


class BuildListener(Protocol):
    def on_build_event(self, event: object) -> None:
        """A HeadRead, ShuffleDone, BuildDone or BuildStopped from the boards."""

    def board_restarted(self, source: str) -> None:
        """A board rebooted (its RAM is gone): a shuffle under way is done again; a build is broken."""

    def board_halted(self) -> None:
        """The motor board stopped every motor by itself (SafeStop): a shuffle under way stopped."""

    def events_lost(self, source: str) -> None:
        """A board's event queue overflowed: what it reported of the set may be lost."""


__all__ = ["BuildListener", "BuildPorts"]
