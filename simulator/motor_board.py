"""The simulated motor board: its firmware's behaviour over the physical world.

It answers the motor-board protocol through a `BoardLink`, moves the world over virtual time
(shuffle disc, four lanes, side lifts, centre lift, dice), watches the world (wall sensors,
keys, hatch interlock) and keeps latched faults until the host clears them, as protocol.md §4–§5
say a real board must.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Callable, Coroutine

from drivers.board_link import BoardLink
from drivers.messages import (PROTOCOL_VERSION, BeatFlags, BoardKind, ClearFaults, Constant,
                              FaultCleared, FaultCode, FaultRaised, Message, RequestSnapshot,
                              SnapshotDone, Status)
from drivers.motor_protocol import (MOTOR_COMMANDS, Build, BuildDone, BuildStop, BuildStopped,
                                    Buzzer, DiceRolled, EmergencyStop, HatchChanged, Key,
                                    KeyAction, KeyPressed, Lift, LiftMoved, LiftPosition, Motor,
                                    MoveCentreLift, MoveSideLifts, Panel, RollDice,
                                    SafeStop, SeatText, SetHatchLock, SetLeds, Shuffle, stops_the_dice,
                                    ShuffleDone, WallChanged, WallSnapshot)
from drivers.stream import ByteStream

from .clock import VirtualClock
from .faults import TableFaults
from .tiles import PhysicalTile
from .world import SIDES, World, WorldObserver

STACK_CAPACITY = 20
SEAT_TEXT_BYTES = 32
SEAT_TEXT_LINES = 2


@dataclass(frozen=True)
class Timings:
    """Virtual seconds each mechanism takes (RESEARCH §1.1: a 4-mouth table builds in 18–35 s)."""

    push: float = 0.35          # one push of every running lane (17 stacks ≈ 12 s)
    centre_lift: float = 1.5
    side_lift: float = 2.0
    dice: float = 1.2
    stall_timeout: float = 2.0  # no push at all for this long → PUSH_JAM or LANE_SHORT
    overcurrent_trip: float = 0.1


@dataclass
class BuildProgress:
    targets: tuple[int, int, int, int]
    counts: list[int] = field(default_factory=lambda: [0] * SIDES)


class MotorBoardSim(WorldObserver):
    def __init__(self, world: World, clock: VirtualClock, faults: TableFaults, *,
                 shuffle_rng: random.Random, dice_rng: random.Random, bounce_rng: random.Random | None = None,
                 timings: Timings = Timings(),
                 boot_counter: int = 1, version: int = PROTOCOL_VERSION,
                 build: str = "mahjong-sim motor 1.0") -> None:
        self.world = world
        self.clock = clock
        self.faults = faults
        self.timings = timings
        self.boot_counter = boot_counter
        self.version = version
        self.build_name = build
        self.latched: dict[tuple[int, int], int] = {}
        self.safe_stopped = False
        self.forced_dice: list[tuple[int, ...]] = []
        self.link: BoardLink | None = None
        self._shuffle_rng = shuffle_rng
        self._dice_rng = dice_rng
        self._bounce_rng = bounce_rng or random.Random("bounce")
        self._jobs: dict[str, asyncio.Task[None]] = {}
        self._moving: set[int] = set()
        self._build: BuildProgress | None = None
        self._handlers: dict[type[Message], Callable[[Message], int]] = {
            ClearFaults: self._clear_faults, EmergencyStop: self._emergency_stop,
            RequestSnapshot: self._snapshot, Shuffle: self._shuffle, Build: self._start_build,
            MoveCentreLift: self._move_centre, MoveSideLifts: self._move_sides,
            SetHatchLock: self._hatch_lock, RollDice: self._roll_dice, SeatText: self._seat_text,
            Buzzer: self._buzzer, SetLeds: self._leds}
        world.observers.append(self)
        self._boot_faults()

    # -- lifecycle -------------------------------------------------------------------------------

    def attach(self, stream: ByteStream) -> None:
        constants = {Constant.LANES: SIDES, Constant.STACK_CAPACITY: STACK_CAPACITY,
                     Constant.SEAT_PANELS: SIDES, Constant.WALL_SENSORS: STACK_CAPACITY,
                     Constant.DICE: 2, Constant.SEAT_TEXT_BYTES: SEAT_TEXT_BYTES,
                     Constant.SEAT_TEXT_LINES: SEAT_TEXT_LINES, Constant.HEARTBEAT_MS: 100,
                     Constant.LINK_TIMEOUT_MS: 600}
        self.link = BoardLink(stream, kind=BoardKind.MOTOR, build=self.build_name,
                              constants=constants, boot_counter=self.boot_counter,
                              handler=self._handle, flags=self._flags,
                              on_host_lost=self._host_lost, version=self.version)
        self.link.start()

    async def stop(self) -> None:
        jobs = list(self._jobs.values())
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
        if self.link is not None:
            self.link.stop()

    def reboot(self) -> None:
        """Power glitch / watchdog: RAM is lost, the boot counter advances, motors stop where they are."""
        self._halt_jobs()
        self._moving.clear()
        self.latched.clear()
        self.safe_stopped = False
        self._build = None
        self.boot_counter += 1
        self._boot_faults()
        for seat in range(SIDES):                  # the seat displays are driven from its RAM: blank
            for line in (0, 1):
                self.world.set_seat_text(seat, line, "")
        self.world.dark()                          # and so are the lamps
        if self.link is not None:
            self.link.reboot(self.boot_counter)

    def _boot_faults(self) -> None:
        if self.faults.overheated:
            self.latched[(FaultCode.OVER_TEMPERATURE, Motor.MIXER)] = 0

    @property
    def busy(self) -> bool:
        return bool(self._jobs)

    def _flags(self) -> int:
        flags = 0
        if self.latched:
            flags |= BeatFlags.FAULT_LATCHED
        if self.safe_stopped:
            flags |= BeatFlags.SAFE_STOPPED
        if self._jobs:
            flags |= BeatFlags.BUSY
        return flags

    def emit(self, message: Message) -> None:
        if self.link is not None:
            self.link.emit(message)

    # -- commands --------------------------------------------------------------------------------

    def _handle(self, msg: int, payload: bytes) -> int:
        command = MOTOR_COMMANDS.decode(msg, payload) if msg in MOTOR_COMMANDS.by_id else None
        if command is None:
            return Status.UNKNOWN_COMMAND
        return self._handlers[type(command)](command)

    def _motion_refused(self, dice: bool = False) -> int | None:
        """FAULT_LATCHED while a fault is latched — for RollDice (`dice`), only one that stops the
        dice (protocol.md §4.1) — and INTERLOCK while the hatch is open."""
        if any(stops_the_dice(code, unit) for code, unit in self.latched) if dice else self.latched:
            return Status.FAULT_LATCHED
        if self.world.hatch_open:
            return Status.INTERLOCK
        return None

    def _clear_faults(self, _: Message) -> int:
        for code, unit in list(self.latched):
            if self._cause_present(code, unit):
                continue
            del self.latched[(code, unit)]
            self.emit(FaultCleared(code, unit))
        if FaultCode.HOST_LOST not in {code for code, _ in self.latched}:
            self.safe_stopped = False
        return Status.OK

    def _cause_present(self, code: int, unit: int) -> bool:
        if code == FaultCode.HATCH_OPEN:
            return self.world.hatch_open
        if code == FaultCode.PUSH_JAM:
            return unit in self.faults.jams
        if code == FaultCode.OVER_TEMPERATURE:
            return self.faults.overheated
        if code == FaultCode.DICE_MOTOR:
            return self.faults.dice_stall
        return False

    def _emergency_stop(self, _: Message) -> int:
        self.trip(FaultCode.EMERGENCY_STOP, 0, BuildStop.EMERGENCY_STOP)
        return Status.OK

    def _snapshot(self, _: Message) -> int:
        for side in range(SIDES):
            self.emit(WallSnapshot(side, self.world.wall_counts(side)))
            self.emit(LiftMoved(side, self._lift_position(side)))
        self.emit(LiftMoved(Lift.CENTRE, self._lift_position(Lift.CENTRE)))
        self.emit(HatchChanged(self.world.hatch_open, self.world.hatch_locked))
        for (code, unit), detail in self.latched.items():
            self.emit(FaultRaised(code, unit, detail))
        self.emit(SnapshotDone())
        return Status.OK

    def _lift_position(self, lift: int) -> LiftPosition:
        if lift in self._moving:
            return LiftPosition.BETWEEN
        if lift == Lift.CENTRE:
            return self.world.centre
        return self.world.sides[lift].position

    def _shuffle(self, command: Message) -> int:
        assert isinstance(command, Shuffle)
        refused = self._motion_refused()
        if refused is not None:
            return refused
        if "shuffle" in self._jobs or "build" in self._jobs:
            return Status.BUSY
        self._spawn("shuffle", self._run_shuffle(command.duration_ms / 1000))
        return Status.OK

    def _start_build(self, command: Message) -> int:
        assert isinstance(command, Build)
        if any(n > STACK_CAPACITY for n in command.stacks) or not any(command.stacks):
            return Status.BAD_ARGUMENT
        refused = self._motion_refused()
        if refused is not None:
            return refused
        if "build" in self._jobs or "shuffle" in self._jobs or "sides" in self._jobs:
            return Status.BUSY
        if command.resume:
            targets = tuple(2 * n for n in command.stacks)
            if self._build is None:                       # rebooted mid-build: go on from what the channels hold
                self._build = self._progress_in_channels(targets)
            if self._build is None or self._build.targets != targets:
                return Status.NOT_READY
        else:
            for side, n in enumerate(command.stacks):
                s = self.world.sides[side]
                waiting = s.channel or s.head is not None or (
                    s.position != LiftPosition.UP and any(s.plate))
                if n and waiting:
                    return Status.NOT_READY  # the set built last time is still waiting below
            self._build = BuildProgress(tuple(2 * n for n in command.stacks))  # type: ignore[arg-type]
        self._spawn("build", self._run_build())
        return Status.OK

    def _progress_in_channels(self, targets: tuple[int, ...]) -> BuildProgress | None:
        """A build's progress read off the channels (a board that rebooted mid-build counts the
        stacks in each channel and the tile a head holds); None when nothing was built."""
        counts = [2 * len(side.channel) + (side.head is not None) for side in self.world.sides]
        if not any(counts) or any(c > t for c, t in zip(counts, targets)):
            return None
        return BuildProgress(targets, counts)  # type: ignore[arg-type]

    def _move_centre(self, command: Message) -> int:
        assert isinstance(command, MoveCentreLift)
        if command.position not in (LiftPosition.UP, LiftPosition.DOWN):
            return Status.BAD_ARGUMENT
        refused = self._motion_refused()
        if refused is not None:
            return refused
        if "centre" in self._jobs:
            return Status.BUSY
        self._spawn("centre", self._run_centre(LiftPosition(command.position)))
        return Status.OK

    def _move_sides(self, command: Message) -> int:
        assert isinstance(command, MoveSideLifts)
        sides = [s for s in range(SIDES) if command.sides_mask >> s & 1]
        if command.position not in (LiftPosition.UP, LiftPosition.DOWN) or not sides \
                or command.sides_mask >> SIDES:
            return Status.BAD_ARGUMENT
        refused = self._motion_refused()
        if refused is not None:
            return refused
        if "sides" in self._jobs:
            return Status.BUSY
        if command.position == LiftPosition.DOWN and any(
                self.world.sides[s].position == LiftPosition.UP and any(self.world.sides[s].plate)
                for s in sides):
            return Status.NOT_READY  # tiles still lie on a raised wall: push them in first
        self._spawn("sides", self._run_sides(sides, LiftPosition(command.position)))
        return Status.OK

    def _hatch_lock(self, command: Message) -> int:
        assert isinstance(command, SetHatchLock)
        self.world.hatch_locked = bool(command.locked)
        self.emit(HatchChanged(self.world.hatch_open, self.world.hatch_locked))
        return Status.OK

    def _roll_dice(self, command: Message) -> int:
        assert isinstance(command, RollDice)
        if not 1 <= command.count <= 4:
            return Status.BAD_ARGUMENT
        refused = self._motion_refused(dice=True)
        if refused is not None:
            return refused
        if "dice" in self._jobs:
            return Status.BUSY
        self._spawn("dice", self._run_dice(command.count))
        return Status.OK

    def _seat_text(self, command: Message) -> int:
        assert isinstance(command, SeatText)
        if not 0 <= command.seat < SIDES or not 0 <= command.line < SEAT_TEXT_LINES \
                or len(command.text.encode("utf-8")) > SEAT_TEXT_BYTES:
            return Status.BAD_ARGUMENT
        self.world.set_seat_text(command.seat, command.line, command.text)
        return Status.OK

    def _buzzer(self, command: Message) -> int:
        assert isinstance(command, Buzzer)
        self.world.sound(command.pattern, command.duration_ms)
        return Status.OK

    def _leds(self, command: Message) -> int:
        assert isinstance(command, SetLeds)
        if command.panel not in tuple(Panel):
            return Status.BAD_ARGUMENT
        self.world.set_leds(command.panel, command.mask)
        return Status.OK

    # -- mechanism jobs --------------------------------------------------------------------------

    def _spawn(self, name: str, coro: Coroutine[None, None, None]) -> None:
        task = asyncio.get_running_loop().create_task(self._guarded(coro))
        # A job cancelled before it ever ran (the board halted or closed at once) never awaited
        # its coroutine: close it so it is not reported as a coroutine never awaited.
        task.add_done_callback(lambda _t: coro.close())
        self._jobs[name] = task
        task.add_done_callback(lambda t: self._jobs.pop(name, None) if self._jobs.get(name) is t else None)

    async def _guarded(self, coro: Coroutine[None, None, None]) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            pass
        except Exception as error:  # a simulator bug: report it, keep the board alive
            asyncio.get_running_loop().call_exception_handler(
                {"message": "simulated motor board job failed", "exception": error})

    def _halt_jobs(self) -> list[str]:
        """Stop every motor now: jobs end, moving lifts stay between their limits."""
        running = list(self._jobs)
        for task in self._jobs.values():
            task.cancel()
        self._jobs.clear()
        for lift in sorted(self._moving):
            if lift == Lift.CENTRE:
                self.world.centre = LiftPosition.BETWEEN
            else:
                self.world.sides[lift].position = LiftPosition.BETWEEN
        return running

    def trip(self, code: int, unit: int, reason: int = BuildStop.FAULT, detail: int = 0) -> None:
        """Latch a fault and stop every motor (the board's own safety reaction)."""
        self.latched[(code, unit)] = detail
        running = self._halt_jobs()
        for lift in sorted(self._moving):
            self.emit(LiftMoved(lift, LiftPosition.BETWEEN))
        self._moving.clear()
        if "build" in running and self._build is not None:
            self.emit(BuildStopped(tuple(self._build.counts), reason))  # type: ignore[arg-type]
        self.emit(FaultRaised(code, unit, detail))
        self.emit(SafeStop(code))

    def _overcurrent(self, motors: tuple[int, ...]) -> int | None:
        for motor in motors:
            if motor in self.faults.overcurrent:
                return motor
        return None

    async def _trip_if_overcurrent(self, *motors: int) -> bool:
        motor = self._overcurrent(motors)
        if motor is None:
            return False
        await self.clock.sleep(self.timings.overcurrent_trip)
        self.faults.overcurrent.discard(motor)
        self.trip(FaultCode.OVER_CURRENT, motor)
        return True

    async def _run_shuffle(self, seconds: float) -> None:
        if await self._trip_if_overcurrent(Motor.MIXER):
            return
        await self.clock.sleep(seconds)
        self._shuffle_rng.shuffle(self.world.mixer)
        self.emit(ShuffleDone())

    async def _run_build(self) -> None:
        build = self._build
        assert build is not None
        idle = 0.0
        while True:
            active = [lane for lane in range(SIDES) if build.counts[lane] < build.targets[lane]]
            if not active:
                break
            # (checked here first: no coroutine a push while no motor is set to trip, the usual case)
            if self.faults.overcurrent and await self._trip_if_overcurrent(
                    Motor.MIXER, *(Motor.LANE0 + lane for lane in active)):
                return
            progressed = False
            for lane in active:
                jam_at = self.faults.jams.get(lane)
                if jam_at is not None and build.counts[lane] >= jam_at:
                    continue
                tile = self.world.pull_from_mixer()
                if tile is None:
                    continue
                self.world.push(lane, tile, build.counts[lane])
                build.counts[lane] += 1     # (no PushCounted: the RFID board's HeadRead says the same)
                progressed = True
            idle = 0.0 if progressed else idle + self.timings.push
            if idle >= self.timings.stall_timeout:
                self._stall(build, active)
                return
            await self.clock.sleep(self.timings.push)
        self._build = None
        for side in self.world.sides:
            side.load_plate()
        self.emit(BuildDone(tuple(build.counts)))  # type: ignore[arg-type]

    def _stall(self, build: BuildProgress, active: list[int]) -> None:
        """No lane moved for the stall timeout: a jammed head, or a lane starved of tiles.
        Called from the build job itself, which returns right after."""
        self._jobs.pop("build", None)
        raised = []
        for lane in active:
            code = FaultCode.PUSH_JAM if lane in self.faults.jams else FaultCode.LANE_SHORT
            self.latched[(code, lane)] = build.counts[lane]
            raised.append(FaultRaised(code, lane, build.counts[lane]))
        self.emit(BuildStopped(tuple(build.counts), BuildStop.FAULT))  # type: ignore[arg-type]
        for event in raised:
            self.emit(event)

    async def _run_centre(self, position: LiftPosition) -> None:
        if await self._trip_if_overcurrent(Motor.CENTRE_LIFT):
            return
        self._moving.add(Lift.CENTRE)
        await self.clock.sleep(self.timings.centre_lift)
        self._moving.discard(Lift.CENTRE)
        self.world.set_centre(position)
        self.emit(LiftMoved(Lift.CENTRE, position))

    async def _run_sides(self, sides: list[int], position: LiftPosition) -> None:
        if await self._trip_if_overcurrent(*(Motor.SIDE_LIFT0 + s for s in sides)):
            return
        for side in sides:
            s = self.world.sides[side]
            self._release_head(side)
            if position == LiftPosition.UP:
                s.load_plate()
            if s.position == LiftPosition.UP:
                s.position = LiftPosition.BETWEEN  # the wall leaves the table top
                self.emit(WallSnapshot(side, ()))
            self._moving.add(side)
        await self.clock.sleep(self.timings.side_lift)
        for side in sides:
            s = self.world.sides[side]
            self._moving.discard(side)
            self.world.set_side_position(side, position)
            if position == LiftPosition.DOWN:
                s.load_plate()
            self.emit(LiftMoved(side, position))
            self.emit(WallSnapshot(side, self.world.wall_counts(side)))

    def _release_head(self, side: int) -> None:
        """A build stopped short (a lane starved: the set was rejected) left a top tile lifted in the
        stacking head: moving the plates lets it down into the channel as a stack of one, so the
        rejected stacks rise whole and nothing stays behind under the table."""
        s = self.world.sides[side]
        if s.head is not None and "build" not in self._jobs:
            s.channel.append([s.head])
            s.head = None
            self._build = None

    async def _run_dice(self, count: int) -> None:
        if await self._trip_if_overcurrent(Motor.DICE):
            return
        await self.clock.sleep(self.timings.dice)
        if self.faults.dice_stall:
            self.trip(FaultCode.DICE_MOTOR, 0)
            return
        values = self.forced_dice.pop(0) if self.forced_dice else tuple(
            self._dice_rng.randint(1, 6) for _ in range(count))
        self.world.dice = values
        self.emit(DiceRolled(values))

    # -- what the board sees of the world --------------------------------------------------------

    def wall_changed(self, side: int, stack: int, tiles: int) -> None:
        self.emit(WallChanged(side, stack, tiles))

    def key_pressed(self, panel: int, key: Key, long: bool) -> None:
        press = KeyPressed(panel, key, KeyAction.LONG_PRESS if long else KeyAction.PRESS)
        self.emit(press)
        if self.faults.key_bounce and self._bounce_rng.random() < self.faults.key_bounce:
            self.emit(press)            # the switch chattered, or a finger pressed twice: the same press again
        if key == Key.STOP and panel == Panel.FRONT:
            self.trip(FaultCode.EMERGENCY_STOP, 1, BuildStop.EMERGENCY_STOP)

    def hatch_changed(self, open: bool) -> None:
        self.emit(HatchChanged(open, self.world.hatch_locked))
        if open and self._jobs:
            self.trip(FaultCode.HATCH_OPEN, 0)

    def tile_pushed(self, lane: int, tile: PhysicalTile) -> None:
        pass

    def _host_lost(self) -> None:
        """The host went quiet: stop every motor and latch HOST_LOST (protocol.md §3.6)."""
        self.safe_stopped = True
        self.trip(FaultCode.HOST_LOST, 0, BuildStop.HOST_LOST)

    # -- fault injection -------------------------------------------------------------------------

    def overheat(self) -> None:
        self.faults.overheated = True
        self.trip(FaultCode.OVER_TEMPERATURE, Motor.MIXER)
