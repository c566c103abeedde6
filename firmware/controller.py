"""The table controller: boards in, rules in, hands out.

One `TableController` per table (no globals: two can run in one process).  It owns the three
device clients and a pump task per device that turns every event into state (`_handle`) and
wakes whoever waits (`until`).  The work itself is in three small collaborators:
`SetBuilder` (the set under the table), `HandFlow` (one hand from dice to settlement) and the
fault latch here.  The state machines of `machines.py` follow every step.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable

from drivers.display import Display, Touched
from drivers.errors import CommandRejected, LinkError
from drivers.serial_transport import DEFAULT_BAUDRATE
from drivers.messages import FaultCleared, FaultCode, FaultRaised, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import (BuildDone, BuildStopped, DiceRolled, Key, KeyPressed, LiftMoved,
                                    LiftPosition, Panel, ShuffleDone, WallChanged, WallSnapshot)
from drivers.rfid import RfidBoard
from drivers.rfid_protocol import HeadRead, ZoneInventory
from drivers.table_ui import Phase
from rulesets.definition import Ruleset
from rulesets.walls import StackPos

from .ledger import Ledger
from .machines import build_machine
from .presenter import Presenter
from .recorder import FlightRecorder
from .registry import TileRegistry

FAULT_HINTS = {
    FaultCode.PUSH_JAM: "clear the jammed stacking head, then acknowledge",
    FaultCode.LANE_SHORT: "a lane ran out of tiles: look for tiles left on the table, then acknowledge",
    FaultCode.SET_MISMATCH: "fix the set as the message says, then acknowledge and rebuild",
    FaultCode.DUPLICATE_UID: "take out the tile with the duplicated tag, then acknowledge",
    FaultCode.UNKNOWN_TAG: "take out the foreign tile or enrol it, then acknowledge",
    FaultCode.WRONG_SET: "take out the tile of the other set, then acknowledge",
    FaultCode.HATCH_OPEN: "close the service hatch, then acknowledge",
    FaultCode.HOST_LOST: "the controller lost the board for a moment; acknowledge to go on",
    FaultCode.EMERGENCY_STOP: "make the table safe, then acknowledge",
    FaultCode.OVER_TEMPERATURE: "let the motor cool down, then acknowledge",
    FaultCode.OVER_CURRENT: "free the stalled motor, then acknowledge",
    FaultCode.CONFIG_MISMATCH: "this ruleset needs more stacks than the table builds: choose another",
}


@dataclass(frozen=True)
class Devices:
    motor: MotorBoard
    rfid: RfidBoard
    display: Display | None = None


@contextlib.asynccontextmanager
async def open_devices(motor: str, rfid: str, display: str | None = None,
                       baudrate: int = DEFAULT_BAUDRATE) -> AsyncIterator[Devices]:
    """Open and handshake the boards (and the display, if named); close every one that opened."""
    opened: list = []
    try:
        opened.append(await MotorBoard.open(motor, baudrate=baudrate))
        opened.append(await RfidBoard.open(rfid, baudrate=baudrate))
        if display is not None:
            opened.append(await Display.open(display, baudrate=baudrate))
        yield Devices(opened[0], opened[1], opened[2] if display is not None else None)
    finally:
        for device in opened:
            with contextlib.suppress(Exception):
                await device.close()


@dataclass(frozen=True)
class LatchedFault:
    code: int
    unit: int
    message: str
    source: str          # "motor", "rfid" or "controller"

    @property
    def label(self) -> str:
        return f"E{self.code:02d}"


class ControllerFailure(LinkError):
    """The controller itself failed while handling an event (a bug): the table stops."""


class SetRejected(Exception):
    """A built set may not reach play (its faults are latched and recorded)."""


@dataclass
class Inputs:
    """What the boards have told us and nobody has consumed yet."""

    keys: list[KeyPressed] = field(default_factory=list)
    dice: tuple[int, ...] | None = None
    zones: dict[int, ZoneInventory] = field(default_factory=dict)


class TableController:
    def __init__(self, devices: Devices, ruleset: Ruleset, registry: TileRegistry, ledger: Ledger,
                 recorder: FlightRecorder, *, clock: Callable[[], float] | None = None,
                 shuffle_ms: int = 2000) -> None:
        self.devices = devices
        self.ruleset = ruleset
        self.registry = registry
        self.ledger = ledger
        self.recorder = recorder
        self.clock = clock or monotonic_clock()
        self.shuffle_ms = shuffle_ms
        self.table = build_machine("table")
        self.builder_state = build_machine("builder")
        self.fault_state = build_machine("fault", asynchronous=False)
        self.inputs = Inputs()
        self.faults: dict[tuple[int, int, str], LatchedFault] = {}
        self.lifts: dict[int, int] = {}
        self.build_events: list[Any] = []
        self.hand: Any = None                      # the HandState in play, if any
        self.hand_number = 0
        self.session = 0
        self.totals = [0, 0, 0, 0]
        self.dealer = ruleset.players[0]
        self.dealer_repeats = 0
        self.link_error: LinkError | None = None
        self._changed = asyncio.Condition()
        self._seat_lines: asyncio.Queue[tuple[int, int, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []
        self.presenter = Presenter(devices.display, lambda side, line, text: self._seat_lines.put_nowait((side, line, text)))
        self.menu: Any = None
        self.pending_choice: tuple[str, dict[str, str]] | None = None
        self.settings: Any = None                  # firmware.panel.Settings, when the choice is remembered

    # -- running ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Pumps and the seat-text writer; the boards are already open and handshaken."""
        await self.table.connected()
        self._tasks = [asyncio.create_task(self._pump("motor", self.devices.motor), name="pump-motor"),
                       asyncio.create_task(self._pump("rfid", self.devices.rfid), name="pump-rfid"),
                       asyncio.create_task(self._write_seats(), name="seat-writer")]
        if self.devices.display is not None:
            self._tasks.append(asyncio.create_task(self._pump_display(), name="pump-display"))
        await self.self_test()
        await self.table.tested()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []

    async def self_test(self) -> None:
        """The board's constants against the ruleset; the current lifts, hatch and faults."""
        capacity = self.devices.motor.stack_capacity
        needed = max(self.ruleset.stacks_per_side)
        if capacity and needed > capacity:
            self.latch(LatchedFault(FaultCode.CONFIG_MISMATCH, 0,
                                    f"{self.ruleset.region.name} needs {needed} stacks a side; this table builds at most {capacity}",
                                    "controller"))
            raise SetRejected(f"E14: {self.ruleset.id} needs {needed} stacks a side; the motor board builds {capacity}")
        await self.devices.motor.request_snapshot()
        self.presenter.ruleset(self.ruleset.region.name)
        self.presenter.phase(Phase.IDLE)
        self.presenter.seat_names(["座位0", "座位1", "座位2", "座位3"])
        self.presenter.scores(tuple(self.totals))

    # -- waiting ---------------------------------------------------------------------------------

    async def until(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        """Wait until `predicate()` is true (checked after every event); a lost link raises."""
        result: list[Any] = []

        def ready() -> bool:
            if self.link_error is not None:
                return True
            value = predicate()
            if value:
                result.append(value)
            return bool(value)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(ready), timeout)
        if self.link_error is not None:
            raise self.link_error
        return result[0]

    async def next_key(self, panels: tuple[int, ...], keys: tuple[Key, ...]) -> KeyPressed:
        """The first unconsumed press of one of `keys` on one of `panels` (it is consumed)."""
        def find() -> KeyPressed | None:
            for press in self.inputs.keys:
                if press.panel in panels and press.key in keys:
                    return press
            return None

        press = await self.until(find)
        self.inputs.keys.remove(press)
        return press

    async def roll_dice(self, count: int) -> tuple[int, ...]:
        self.inputs.dice = None
        await self.motion(lambda: self.devices.motor.roll_dice(count))
        return await self.until(lambda: self.inputs.dice)

    async def read_zone(self, seat: int) -> ZoneInventory:
        self.inputs.zones.pop(seat, None)
        await self.devices.rfid.read_zone(seat)
        return await self.until(lambda: self.inputs.zones.get(seat))

    async def motion(self, command: Callable[[], Any]) -> None:
        """Send a motion command; while a fault or the interlock refuses it, wait and retry."""
        while True:
            try:
                await command()
                return
            except CommandRejected as error:
                if error.status not in (Status.FAULT_LATCHED, Status.INTERLOCK, Status.BUSY):
                    raise
                await self.until(lambda: not self.faults)
                if error.status == Status.BUSY:
                    await asyncio.sleep(0.05)

    async def lifts_at(self, lifts: tuple[int, ...], position: LiftPosition) -> None:
        await self.until(lambda: all(self.lifts.get(lift) == position for lift in lifts))

    # -- events ----------------------------------------------------------------------------------

    async def _pump(self, source: str, client: MotorBoard | RfidBoard) -> None:
        try:
            async for event in client.events():
                self._handle(source, event)
                async with self._changed:
                    self._changed.notify_all()
        except LinkError as error:
            self.link_error = error
            self.record_fault(LatchedFault(FaultCode.HOST_LOST, 0, str(error), source))
        except Exception as error:                  # a bug: stop the table loudly, never silently
            self.link_error = ControllerFailure(f"{source} event handling failed: {error!r}")
            self.link_error.__cause__ = error
        async with self._changed:
            self._changed.notify_all()

    async def _pump_display(self) -> None:
        display = self.devices.display
        assert display is not None
        while True:
            event = await display.next_event()
            if isinstance(event, Touched) and event.pressed and (event.page, event.component) == ("fault", "b_ack"):
                await self.acknowledge_faults()

    async def _write_seats(self) -> None:
        while True:
            side, line, text = await self._seat_lines.get()
            try:
                await self.devices.motor.seat_text(side, line, text)
            except CommandRejected as error:
                self.recorder.emit("warning", self.hand_number if self.hand else 0, message=str(error))

    def _handle(self, source: str, event: Any) -> None:
        match event:
            case WallChanged():
                if self.hand is not None:
                    self.hand_flow.on_wall_change(StackPos(event.side, event.stack), event.tiles)
            case KeyPressed():
                self._on_key(event)
            case DiceRolled():
                self.inputs.dice = tuple(event.values)
            case ZoneInventory():
                self.inputs.zones[event.seat] = event
            case HeadRead() | BuildDone() | BuildStopped() | ShuffleDone():
                self.build_events.append(event)
                if isinstance(event, HeadRead) and self.set_builder.map is not None:
                    self.set_builder.map.on_head_read(event.lane, event.push_index, event.uids)
            case LiftMoved():
                self.lifts[event.lift] = event.position
            case FaultRaised():
                self.latch(LatchedFault(event.code, event.unit, f"{_fault_name(event.code)} (unit {event.unit}, detail {event.detail})", source))
            case FaultCleared():
                self.faults.pop((event.code, event.unit, source), None)
                self._faults_cleared()
            case WallSnapshot():
                pass

    def _on_key(self, press: KeyPressed) -> None:
        if press.panel == Panel.FRONT and press.key == Key.CONFIRM and self.faults:
            asyncio.get_running_loop().create_task(self.acknowledge_faults())
            return
        if press.panel == Panel.FRONT and (press.key == Key.MENU or (self.menu is not None and self.menu.open)):
            self._menu_key(Key(press.key))
            return
        if self.hand is not None and self.hand_flow.on_key(press):
            return
        self.inputs.keys.append(press)

    # -- the front-panel menu -----------------------------------------------------------------------

    def _menu_key(self, key: Key) -> None:
        from .panel import Menu
        if self.menu is None:
            self.menu = Menu.starting_at(self.ruleset.id, dict(self.ruleset.options))
        outcome = self.menu.press(key)
        self.presenter.menu(self.menu.view(), self.menu.open)
        if outcome == "save":
            self.pending_choice = (self.menu.region_id, dict(self.menu.options))
            if self.settings is not None:
                self.settings.save_choice(*self.pending_choice)
            self.recorder.emit("ruleset_chosen", 0, ruleset=self.menu.region_id, options=dict(self.menu.options))
        if not self.menu.open:
            self.menu = None

    def take_pending_choice(self) -> Ruleset | None:
        """The ruleset chosen on the panel, if it can be played with the tiles on the table now."""
        if self.pending_choice is None:
            return None
        from rulesets.regions import get_region
        region_id, options = self.pending_choice
        self.pending_choice = None
        chosen = get_region(region_id).resolve(options)
        if chosen.tiles.counts != self.ruleset.tiles.counts or chosen.stacks_per_side != self.ruleset.stacks_per_side:
            self.presenter.phase_text(f"{chosen.region.name}: 请更换牌具后重启")
            self.recorder.emit("warning", 0, message=f"{chosen.id} needs another tile set ({chosen.tiles.name}): "
                                                      "change the tiles and restart the table")
            return None
        return chosen

    # -- faults ----------------------------------------------------------------------------------

    def latch(self, fault: LatchedFault) -> None:
        """A fault latches: shown with its code until a person acknowledges it."""
        self.faults[(fault.code, fault.unit, fault.source)] = fault
        self.fault_state.latch()
        self.record_fault(fault)
        hint = FAULT_HINTS.get(fault.code, "acknowledge when the cause is gone")
        self.presenter.fault(fault.label, fault.message, hint)

    def _faults_cleared(self) -> None:
        if not self.faults and self.fault_state.state == "latched":
            self.fault_state.acknowledge()
            self.presenter.show_page("main")

    def record_fault(self, fault: LatchedFault) -> None:
        self.recorder.emit("fault", self.hand_number if self.hand is not None else 0,
                           code=fault.label, message=fault.message, latched=True, source=fault.source)

    async def acknowledge_faults(self) -> None:
        """A person acknowledged: clear the boards' faults whose cause is gone, and ours."""
        for key in [k for k, f in self.faults.items() if f.source == "controller"]:
            del self.faults[key]
        await self.devices.motor.clear_faults()
        await self.devices.rfid.clear_faults()
        self._faults_cleared()
        async with self._changed:
            self._changed.notify_all()

    # -- collaborators (set in session.py) ---------------------------------------------------------

    set_builder: Any = None
    hand_flow: Any = None


def _fault_name(code: int) -> str:
    try:
        return FaultCode(code).name.replace("_", " ").lower()
    except ValueError:
        return f"fault {code}"


def monotonic_clock() -> Callable[[], float]:
    """Seconds since this call: the table clock on real boards."""
    start = time.monotonic()
    return lambda: time.monotonic() - start


__all__ = ["Devices", "LatchedFault", "SetRejected", "TableController", "monotonic_clock"]
