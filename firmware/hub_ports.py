"""The hub as each part sees it: small typed views of `TableController` (firmware/controller.py),
one per part's port protocol (`HandPorts`, `BuildPorts`, `EnrollPorts`), so that a part reaches only
what its protocol names and never the hub itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable, Sequence

from drivers.motor import MotorBoard
from drivers.rfid import RfidBoard
from drivers.table_ui import ENROLLED, Key
from rulesets.definition import Ruleset
from rulesets.tiles import Tile

from .build.registry import TileRegistry
from .faults import LatchedFault
from .hand.ports import HandVoided, KeyQueue, Press, Recorder, Screens, next_press, pressed, record_dropped

if TYPE_CHECKING:
    from .controller import TableController


class _Port:
    """A view of the hub for one part: only what its protocol names is reachable from it."""

    def __init__(self, hub: TableController) -> None:
        self._hub = hub

    @property
    def ruleset(self) -> Ruleset:
        return self._hub.ruleset

    async def until(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        return await self._hub.until(predicate, timeout)


class HubHandPorts(_Port):
    """The hub as the hand sees it (HandPorts)."""

    async def until(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        """As the hub's, but a hand the walls now contradict stops waiting: HandVoided."""
        value = await self._hub.until(lambda: self._hub.hand_void or predicate(), timeout)
        if self._hub.hand_void is not None:
            raise HandVoided(self._hub.hand_void)
        return value

    async def shown(self, seat: int) -> int:
        return await self._hub.seat_lines.shown(seat)

    def mark(self) -> int:
        return self._hub.devices.motor.last_heard + 1

    async def next_key(self, panels: Sequence[int], keys: Sequence[Key]) -> Press:
        return await next_press(self, pressed(panels, keys))

    @property
    def keys(self) -> KeyQueue:
        return self._hub.keys

    @property
    def screens(self) -> Screens:
        return self._hub.presenter

    @property
    def recorder(self) -> Recorder:
        return self._hub.recorder

    @property
    def table_state(self) -> str:
        return self._hub.table.state

    async def advance(self, trigger: str) -> None:
        await self._hub.advance(trigger)

    async def roll_dice(self, count: int) -> tuple[int, ...]:
        return await self._hub.roll_dice(count)

    async def compute(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._hub.compute(fn, *args)

    async def journaled(self) -> None:
        if self._hub.journal_now is not None:
            await self._hub.journal_now()

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        return await self._hub.read_zone(seat)

    def lookup(self, uid: bytes) -> Tile | None:
        entry = self._hub.registry.lookup(uid)
        return entry.kind if entry is not None else None


class HubBuildPorts(_Port):
    """The hub as the set builder sees it (BuildPorts)."""

    @property
    def registry(self) -> TileRegistry:
        return self._hub.registry

    @property
    def motor(self) -> MotorBoard:
        return self._hub.devices.motor

    @property
    def rfid(self) -> RfidBoard:
        return self._hub.devices.rfid

    @property
    def shuffle_ms(self) -> int:
        return self._hub.shuffle_ms

    def emit(self, event: str, **fields: Any) -> dict[str, Any]:
        return self._hub.recorder.emit(event, **fields)

    async def motion(self, command: Callable[[], Awaitable[None]]) -> None:
        await self._hub.motion(command)

    async def send(self, command: Callable[[], Awaitable[None]]) -> None:
        await self._hub.send(command)

    def fault_latched(self, code: int | None = None) -> bool:
        return self._hub.faults.has(code) if code is not None else self._hub.faults.blocking

    def latch(self, fault: LatchedFault) -> None:
        self._hub.latch(fault)


class HubEnrollPorts(HubHandPorts):
    """The hub as enrolment sees it (EnrollPorts): the hand's keys and zones, the seat's line and
    the message line."""

    async def ask(self, seat: int, text: str) -> int:
        # The last prompt (this enrolment's, or one a stopped enrolment left) leaves the message line
        # first.  The seat's line goes through the motor board, as the keys do: a press it sent
        # before the line reached it (`Press.heard` below the mark) was made before the new prompt
        # was up, while the old one might still show.  The message line follows.
        presenter = self._hub.presenter
        presenter.phase_text("")
        await self._hub.display_drawn()
        presenter.prompt(seat, text)
        shown = await self.shown(seat)
        presenter.phase_text(text)
        return shown

    def passed_over(self, press: Press) -> None:
        record_dropped(self._hub.recorder, (press,), "before_prompt")

    def done(self, seat: int, enrolled: bool) -> None:
        presenter = self._hub.presenter
        presenter.prompt(seat, "")
        presenter.phase_text(ENROLLED if enrolled else "")
