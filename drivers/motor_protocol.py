"""The motor board's messages (protocol.md §4): commands host→board, events board→host.

Numbers on the wire: sides/lanes/seats 0–3 (lane i builds side i's wall), panels 0–3 = seat
panels and 4 = the front panel, lifts 0–3 = side lifts and 4 = the centre lift.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import IntEnum
from types import MappingProxyType
from typing import Mapping

from .errors import MessageError
from .table_ui import Key, KeyAction, Panel  # the keys are the table's UI; imported from motor_protocol too
from .messages import (Catalog, ClearFaults, EventsDropped, FaultCleared, FaultCode, FaultRaised, Message,
                       RequestSnapshot, SnapshotDone)

SIDES = 4


class Lift(IntEnum):
    SIDE0 = 0
    SIDE1 = 1
    SIDE2 = 2
    SIDE3 = 3
    CENTRE = 4


class LiftPosition(IntEnum):
    DOWN = 0
    UP = 1
    BETWEEN = 2     # stopped between its limits (fault, emergency stop or host lost)


class Motor(IntEnum):
    """Motor numbers, the `unit` of over-current and over-temperature faults."""

    MIXER = 0
    LANE0 = 1
    LANE1 = 2
    LANE2 = 3
    LANE3 = 4
    SIDE_LIFT0 = 5
    SIDE_LIFT1 = 6
    SIDE_LIFT2 = 7
    SIDE_LIFT3 = 8
    CENTRE_LIFT = 9
    DICE = 10


# Faults that stop every motor: while one is latched the board refuses every motion command.
STOPS_EVERY_MOTOR = frozenset({FaultCode.HATCH_OPEN, FaultCode.HOST_LOST, FaultCode.EMERGENCY_STOP})


def stops_the_dice(code: int, unit: int) -> bool:
    """Whether a latched fault makes the board refuse RollDice (protocol.md §4.1): one of the dice
    motor (E05; E11 or E15 of motor 10) or one that stops every motor.  A fault elsewhere (a lane
    jammed in the next set's build) does not: the hand on the raised walls rolls its dice and plays
    on while the jam waits for a person."""
    if code in STOPS_EVERY_MOTOR or code == FaultCode.DICE_MOTOR:
        return True
    return code in (FaultCode.OVER_TEMPERATURE, FaultCode.OVER_CURRENT) and unit == Motor.DICE


class Buzz(IntEnum):
    OFF = 0
    BEEP = 1
    DOUBLE = 2
    ALARM = 3


class Led(IntEnum):
    """Bits of SetLeds.mask."""

    DEALER = 0x01   # 庄 lamp at a seat
    TURN = 0x02     # whose turn
    TING = 0x04     # this seat declared 听
    READY = 0x08    # front panel: next set built and waiting (set-complete lamp)
    FAULT = 0x10    # front panel: a fault is latched


LAMP_LABELS_ZH = MappingProxyType({Led.DEALER: "庄", Led.TURN: "轮到", Led.TING: "听", Led.READY: "备好",
                                   Led.FAULT: "故障"})


def lamps_lit(mask: int) -> list[str]:
    """The lamps a SetLeds mask lights, by their Chinese labels."""
    return [label for bit, label in LAMP_LABELS_ZH.items() if mask & bit]


class BuildStop(IntEnum):
    """Why a build stopped before BuildDone (BuildStopped.reason)."""

    FAULT = 1
    EMERGENCY_STOP = 2
    HOST_LOST = 3


def as_enum(enum: type[IntEnum], value: int) -> int:
    """The enum member for a decoded number, or the number itself when it is not a member
    (a newer board may send values this side does not know)."""
    return _members(enum).get(value, value)


@functools.cache
def _members(enum: type[IntEnum]) -> Mapping[int, IntEnum]:
    """Each value's member, looked up once per enum: calling the enum (`Key(3)`) goes through the
    enum machinery, for every key press and lift move decoded."""
    return MappingProxyType({member.value: member for member in enum})


def _sides(values: tuple[int, ...]) -> tuple[int, int, int, int]:
    if len(values) != SIDES:
        raise MessageError(f"expected 4 values (one per side), got {len(values)}")
    return tuple(values)  # type: ignore[return-value]


# -- commands -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class EmergencyStop(Message):
    """0x02: stop every motor now and latch EMERGENCY_STOP (unit 0)."""

    ID = 0x02


@dataclass(frozen=True)
class Shuffle(Message):
    """0x10: spin the shuffle disc for `duration_ms`; ShuffleDone follows."""

    ID = 0x10
    LAYOUT = "H"
    duration_ms: int = 4000


@dataclass(frozen=True)
class Build(Message):
    """0x11: build the next set, `stacks[i]` stacks on side i (0 = no wall on that side).

    `resume` continues a build that stopped (BuildStopped) instead of starting a new one.
    """

    ID = 0x11
    stacks: tuple[int, int, int, int]
    resume: bool = False

    def encode_payload(self) -> bytes:
        return bytes((*self.stacks, int(self.resume)))

    @classmethod
    def decode_payload(cls, payload: bytes) -> "Build":
        if len(payload) != 5:
            raise MessageError(f"Build: payload of {len(payload)} bytes, expected 5")
        return cls(tuple(payload[:4]), bool(payload[4]))  # type: ignore[arg-type]


@dataclass(frozen=True)
class MoveCentreLift(Message):
    """0x20: lower the centre (the opening tiles are pushed into) or raise it flush."""

    ID = 0x20
    LAYOUT = "B"
    position: int


@dataclass(frozen=True)
class MoveSideLifts(Message):
    """0x21: move the side lifts in `sides_mask` (bit i = side i) to `position`.

    Going down, a plate picks up the wall built for its side; going up it brings that wall to
    the table top, where the wall sensors see it.
    """

    ID = 0x21
    LAYOUT = "BB"
    sides_mask: int
    position: int


@dataclass(frozen=True)
class SetHatchLock(Message):
    """0x22: lock or release the service hatch's latch."""

    ID = 0x22
    LAYOUT = "?"
    locked: bool


@dataclass(frozen=True)
class RollDice(Message):
    """0x30: spin the dice cup; DiceRolled reports the values."""

    ID = 0x30
    LAYOUT = "B"
    count: int = 2


@dataclass(frozen=True)
class SeatText(Message):
    """0x40: show `text` (UTF-8, at most SEAT_TEXT_BYTES) on line `line` of a seat display."""

    ID = 0x40
    seat: int
    line: int
    text: str

    def encode_payload(self) -> bytes:
        return bytes((self.seat, self.line)) + self.text.encode("utf-8")

    @classmethod
    def decode_payload(cls, payload: bytes) -> "SeatText":
        if len(payload) < 2:
            raise MessageError("SeatText: payload shorter than 2 bytes")
        try:
            text = payload[2:].decode("utf-8")
        except UnicodeDecodeError as error:
            raise MessageError("SeatText: text is not UTF-8") from error
        return cls(payload[0], payload[1], text)


@dataclass(frozen=True)
class Buzzer(Message):
    """0x41: sound a pattern (Buzz) for `duration_ms`."""

    ID = 0x41
    LAYOUT = "BH"
    pattern: int
    duration_ms: int


@dataclass(frozen=True)
class SetLeds(Message):
    """0x42: set the lamps of one panel (mask of Led bits)."""

    ID = 0x42
    LAYOUT = "BB"
    panel: int
    mask: int


# -- events -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PushCounted(Message):
    """0x80: lane `lane` pushed its `count`-th tile of this build.  No longer sent (docs/protocol.md,
    "Changed within version 2"): the RFID board's HeadRead names the same lane and push.  Still read,
    and ignored, from a board that sends it."""

    ID = 0x80
    LAYOUT = "BB"
    lane: int
    count: int


@dataclass(frozen=True)
class BuildDone(Message):
    """0x81: every lane reached its count; `counts[i]` tiles were pushed on lane i."""

    ID = 0x81
    counts: tuple[int, int, int, int]

    def encode_payload(self) -> bytes:
        return bytes(self.counts)

    @classmethod
    def decode_payload(cls, payload: bytes) -> "BuildDone":
        return cls(_sides(tuple(payload)))


@dataclass(frozen=True)
class ShuffleDone(Message):
    """0x82: the shuffle disc stopped after a Shuffle."""

    ID = 0x82


@dataclass(frozen=True)
class WallChanged(Message):
    """0x83: the wall sensor at (side, stack) now sees `tiles` (0, 1 or 2) tiles."""

    ID = 0x83
    LAYOUT = "BBB"
    side: int
    stack: int
    tiles: int


@dataclass(frozen=True)
class WallSnapshot(Message):
    """0x84: every wall sensor of one side (after a lift move, or on RequestSnapshot)."""

    ID = 0x84
    side: int
    tiles: tuple[int, ...]

    def encode_payload(self) -> bytes:
        return bytes((self.side, len(self.tiles))) + bytes(self.tiles)

    @classmethod
    def decode_payload(cls, payload: bytes) -> "WallSnapshot":
        if len(payload) < 2 or len(payload) != 2 + payload[1]:
            raise MessageError(f"WallSnapshot: malformed {len(payload)}-byte payload")
        return cls(payload[0], tuple(payload[2:]))


@dataclass(frozen=True)
class KeyPressed(Message):
    """0x85: a key on a panel (Panel) was pressed or held."""

    ID = 0x85
    LAYOUT = "BBB"
    panel: int
    key: int
    action: int = KeyAction.PRESS

    @classmethod
    def decode_payload(cls, payload: bytes) -> "KeyPressed":
        panel, key, action = cls._fields(payload)
        return cls(as_enum(Panel, panel), as_enum(Key, key), as_enum(KeyAction, action))


@dataclass(frozen=True)
class DiceRolled(Message):
    """0x86: the dice came to rest showing `values` (1–6 each)."""

    ID = 0x86
    values: tuple[int, ...]

    def encode_payload(self) -> bytes:
        return bytes(self.values)

    @classmethod
    def decode_payload(cls, payload: bytes) -> "DiceRolled":
        if not payload or any(not 1 <= v <= 6 for v in payload):
            raise MessageError(f"DiceRolled: values {list(payload)} are not dice")
        return cls(tuple(payload))


@dataclass(frozen=True)
class LiftMoved(Message):
    """0x89: a lift (Lift) reached a position (LiftPosition)."""

    ID = 0x89
    LAYOUT = "BB"
    lift: int
    position: int

    @classmethod
    def decode_payload(cls, payload: bytes) -> "LiftMoved":
        lift, position = cls._fields(payload)
        return cls(as_enum(Lift, lift), as_enum(LiftPosition, position))


@dataclass(frozen=True)
class HatchChanged(Message):
    """0x8A: the service hatch interlock (`open`) or its latch (`locked`) changed."""

    ID = 0x8A
    LAYOUT = "??"
    open: bool
    locked: bool


@dataclass(frozen=True)
class BuildStopped(Message):
    """0x8B: a build stopped early (BuildStop reason); `counts` = tiles pushed per lane so far."""

    ID = 0x8B
    counts: tuple[int, int, int, int]
    reason: int

    def encode_payload(self) -> bytes:
        return bytes((*self.counts, self.reason))

    @classmethod
    def decode_payload(cls, payload: bytes) -> "BuildStopped":
        if len(payload) != 5:
            raise MessageError(f"BuildStopped: payload of {len(payload)} bytes, expected 5")
        return cls(_sides(tuple(payload[:4])), payload[4])


@dataclass(frozen=True)
class SafeStop(Message):
    """0x8C: the board stopped every motor by itself (FaultCode of the cause)."""

    ID = 0x8C
    LAYOUT = "B"
    cause: int


MOTOR_COMMANDS = Catalog("motor board commands", (
    ClearFaults, EmergencyStop, RequestSnapshot, Shuffle, Build, MoveCentreLift, MoveSideLifts,
    SetHatchLock, RollDice, SeatText, Buzzer, SetLeds))

MOTOR_EVENTS = Catalog("motor board events", (
    PushCounted, BuildDone, ShuffleDone, WallChanged, WallSnapshot, KeyPressed, DiceRolled,
    FaultRaised, FaultCleared, LiftMoved, HatchChanged, BuildStopped, SafeStop, SnapshotDone,
    EventsDropped))

