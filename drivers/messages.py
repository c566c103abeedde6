"""Typed messages: frozen dataclasses with a one-byte id and a fixed binary layout.

A message class names its id (`ID`) and, for fixed-size fields, a `struct` layout (`LAYOUT`,
big-endian, one code per dataclass field in order).  Messages with variable parts (text, UID
lists, per-side tuples) override `encode_payload` / `decode_payload`.  A `Catalog` maps ids to
classes for one direction of one board; catalogs are immutable once built.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, fields
from enum import IntEnum
from types import MappingProxyType
from typing import ClassVar, Mapping, TypeVar

from .errors import MessageError, UnknownMessage

PROTOCOL_VERSION = 2
CMD_WINDOW = 4          # at most this many unacknowledged commands; ACK carries this many statuses
EVENT_WINDOW = 32       # at most this many unacknowledged events in flight from a board

M = TypeVar("M", bound="Message")


class Message:
    """Base of every command and event.  Subclasses are frozen dataclasses."""

    ID: ClassVar[int]
    LAYOUT: ClassVar[str] = ""
    _struct: ClassVar[struct.Struct]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._struct = struct.Struct(">" + cls.LAYOUT)

    def encode_payload(self) -> bytes:
        # Frozen dataclass fields live in __dict__ in declaration order: cheaper than astuple().
        return self._struct.pack(*self.__dict__.values())

    @classmethod
    def decode_payload(cls: type[M], payload: bytes) -> M:
        return cls(*cls._fields(payload))

    @classmethod
    def _fields(cls, payload: bytes) -> tuple:
        """The payload's fields by the layout, for a class that converts some of them before it
        makes the message (made once: a frozen dataclass costs a call per field to build)."""
        try:
            return cls._struct.unpack(payload)
        except struct.error as error:
            raise MessageError(f"{cls.__name__}: {len(payload)}-byte payload does not fit "
                               f"its {cls._struct.size}-byte layout") from error

    def __str__(self) -> str:
        inner = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({inner})"


class Catalog:
    """The messages one side may send in one direction, by id."""

    def __init__(self, name: str, classes: tuple[type[Message], ...]) -> None:
        by_id: dict[int, type[Message]] = {}
        for cls in classes:
            if cls.ID in by_id:
                raise ValueError(f"{name}: id {cls.ID:#04x} used by {by_id[cls.ID].__name__} "
                                 f"and {cls.__name__}")
            by_id[cls.ID] = cls
        self.name = name
        self._by_id = by_id         # looked up for every message; the proxy is what is shown
        self.by_id: Mapping[int, type[Message]] = MappingProxyType(by_id)

    def decode(self, msg_id: int, payload: bytes) -> Message:
        cls = self._by_id.get(msg_id)
        if cls is None:
            raise UnknownMessage(f"{self.name}: unknown message id {msg_id:#04x}")
        return cls.decode_payload(payload)


# -- values shared by both boards --------------------------------------------------------------

class Status(IntEnum):
    """A board's answer to a command, carried in its ACK (protocol.md §3.3)."""

    OK = 0
    UNKNOWN_COMMAND = 1
    BAD_PAYLOAD = 2
    BUSY = 3
    FAULT_LATCHED = 4
    INTERLOCK = 5
    BAD_ARGUMENT = 6
    NOT_READY = 7
    INTERNAL = 8

    @classmethod
    def name_of(cls, value: int) -> str:
        try:
            return cls(value).name
        except ValueError:
            return f"STATUS_{value}"


class BoardKind(IntEnum):
    MOTOR = 1
    RFID = 2


class NakReason(IntEnum):
    DAMAGED = 1      # a frame arrived damaged (CRC or framing): resend what is outstanding
    GAP = 2          # a command arrived ahead of the expected one
    NO_SESSION = 3   # no HELLO since boot: payload continues with the boot counter (u32)


class Constant(IntEnum):
    """Tags of the board constants reported in IDENT (tag u8, value u16)."""

    LANES = 1               # build lanes / stacking-head antennas
    STACK_CAPACITY = 2      # most stacks one side's lift and sensor row hold
    SEAT_PANELS = 3         # seat panels with keys and a seat display
    WALL_SENSORS = 4        # wall sensor positions per side
    DICE = 5                # dice in the dice cup
    READ_ZONES = 6          # RFID read zones (one per seat)
    MAX_ZONE_TAGS = 7       # most UIDs one zone inventory reports
    UID_BYTES = 8           # length of a tag UID
    HEARTBEAT_MS = 9        # the board sends BOARD_BEAT at least this often
    LINK_TIMEOUT_MS = 10    # host silent this long -> safe stop
    SEAT_TEXT_BYTES = 11    # longest seat display line (UTF-8 bytes)
    SEAT_TEXT_LINES = 12    # lines on one seat display


# The constants this host relies on, and the values it can work with: a board reporting another
# (a stack capacity of 0, seat lines of no bytes) has firmware that does not match this controller.
USABLE_CONSTANTS: dict[int, tuple[int, int]] = {
    Constant.STACK_CAPACITY: (1, 64),     # a wall of no stack cannot be built
    Constant.SEAT_TEXT_BYTES: (12, 255),  # 4 Chinese characters at least, or every prompt is cut to nothing
    Constant.HEARTBEAT_MS: (1, 60_000),
}


class BeatFlags(IntEnum):
    FAULT_LATCHED = 0x01
    SAFE_STOPPED = 0x02     # motors stopped because the host went quiet
    BUSY = 0x04             # a mechanism sequence is running


# -- link-layer payloads -----------------------------------------------------------------------

@dataclass(frozen=True)
class Hello(Message):
    """HELLO payload, and RESUME's: version first, forever, so any version can read it."""

    ID = 0
    LAYOUT = "BHH"
    version: int
    session: int
    heartbeat_ms: int


class SessionAnswer(IntEnum):
    """What an IDENT answers (its session block, protocol.md §3.1): a HELLO, or a RESUME that
    found its session kept, or one whose session the board no longer holds."""

    HELLO = 0
    RESUMED = 1
    NOT_HELD = 2


@dataclass(frozen=True)
class SessionState:
    """IDENT's session block: what a host needs to continue a session it did not open itself.

    `next_command` is the command seq the board expects next; `oldest_event` the seq of the
    oldest event it still holds (the next it sends when nothing is held)."""

    answer: int
    next_command: int
    oldest_event: int

    SIZE: ClassVar[int] = 3

    def encode(self) -> bytes:
        return bytes((self.answer, self.next_command, self.oldest_event))


@dataclass(frozen=True)
class BoardIdentity:
    """What a board says about itself in IDENT.

    `state` is the session block a board appends after its constants; None from a board that
    does not send one (it cannot resume a session).  A host reads the fields it knows and
    ignores any bytes after them."""

    version: int
    kind: int
    boot_counter: int
    session: int
    flags: int
    build: str
    constants: Mapping[int, int]
    state: SessionState | None = None

    @property
    def resumed(self) -> bool:
        """True when this IDENT answers a RESUME whose session the board kept."""
        return self.state is not None and self.state.answer == SessionAnswer.RESUMED

    @property
    def can_resume(self) -> bool:
        """The board reports its session state, so a session with it can be resumed."""
        return self.state is not None

    def constant(self, tag: Constant, default: int | None = None) -> int:
        if tag in self.constants:
            return self.constants[tag]
        if default is None:
            raise MessageError(f"board did not report constant {tag.name}")
        return default

    def encode(self) -> bytes:
        build = self.build.encode("ascii", "replace")[:40]
        out = struct.pack(">BBIHBB", self.version, self.kind, self.boot_counter, self.session,
                          self.flags, len(build)) + build
        out += bytes((len(self.constants),))
        for tag, value in sorted(self.constants.items()):
            out += struct.pack(">BH", tag, value)
        if self.state is not None:
            out += self.state.encode()
        return out

    @staticmethod
    def peek_version(payload: bytes) -> int:
        """The version byte alone: readable whatever the rest of a newer IDENT looks like."""
        if not payload:
            raise MessageError("empty IDENT")
        return payload[0]

    @staticmethod
    def decode(payload: bytes) -> "BoardIdentity":
        try:
            version, kind, boot, session, flags, nbuild = struct.unpack_from(">BBIHBB", payload)
            pos = 10
            build = payload[pos:pos + nbuild].decode("ascii", "replace")
            pos += nbuild
            count = payload[pos]
            pos += 1
            constants = {}
            for _ in range(count):
                tag, value = struct.unpack_from(">BH", payload, pos)
                constants[tag] = value
                pos += 3
        except (struct.error, IndexError) as error:
            raise MessageError(f"IDENT payload of {len(payload)} bytes is malformed") from error
        state = None
        if len(payload) >= pos + SessionState.SIZE:   # absent: a board that cannot resume
            state = SessionState(*payload[pos:pos + SessionState.SIZE])
        return BoardIdentity(version, kind, boot, session, flags, build, MappingProxyType(constants), state)


@dataclass(frozen=True)
class BeatInfo(Message):
    """BOARD_BEAT payload (the next event seq travels in the frame header)."""

    ID = 0
    LAYOUT = "IHB"
    boot_counter: int
    session: int
    flags: int


# -- messages both boards understand -----------------------------------------------------------

@dataclass(frozen=True)
class ClearFaults(Message):
    """Command 0x01: the person acknowledged the latched faults; clear those whose cause is gone."""

    ID = 0x01


@dataclass(frozen=True)
class RequestSnapshot(Message):
    """Command 0x03: report the whole current state as events, then SnapshotDone."""

    ID = 0x03


@dataclass(frozen=True)
class FaultRaised(Message):
    """Event 0x87: a fault latched (`code` from FaultCode, `unit` = lane/side/motor/antenna)."""

    ID = 0x87
    LAYOUT = "BBH"
    code: int
    unit: int
    detail: int

    @classmethod
    def decode_payload(cls, payload: bytes) -> "FaultRaised":
        raw = super().decode_payload(payload)
        try:
            return cls(FaultCode(raw.code), raw.unit, raw.detail)
        except ValueError:
            return raw


@dataclass(frozen=True)
class FaultCleared(Message):
    """Event 0x88: a latched fault was cleared by ClearFaults."""

    ID = 0x88
    LAYOUT = "BB"
    code: int
    unit: int

    @classmethod
    def decode_payload(cls, payload: bytes) -> "FaultCleared":
        raw = super().decode_payload(payload)
        try:
            return cls(FaultCode(raw.code), raw.unit)
        except ValueError:
            return raw


@dataclass(frozen=True)
class SnapshotDone(Message):
    """Event 0x8E: the state events asked for by RequestSnapshot are all sent."""

    ID = 0x8E


@dataclass(frozen=True)
class EventsDropped(Message):
    """Event 0x7F: the board's event queue was full and `count` new events were refused (none held
    is dropped): re-snapshot."""

    ID = 0x7F
    LAYOUT = "H"
    count: int


class FaultCode(IntEnum):
    """The project's fault-code table (protocol.md §5).  Shown to people as E01, E02, …

    Codes 7–10 and 14 are raised by the controller from what the boards report; they share the
    table so that a technician has one list.
    """

    PUSH_JAM = 1            # motor: no push at a stacking head in time (S1); unit = lane
    HOME_SENSOR = 2         # motor: chain home/zero sensor not found (S4); unit = lane
    SIDE_LIFT_LIMIT = 3     # motor: side lift limit switch not reached; unit = side
    CENTRE_LIFT_LIMIT = 4   # motor: centre lift limit switch not reached
    DICE_MOTOR = 5          # motor: dice motor stalled
    LANE_SHORT = 6          # motor: a lane ran out of tiles before its count; detail = pushes made
    SET_MISMATCH = 7        # controller: tiles read ≠ configured set (names the missing/extra tile)
    DUPLICATE_UID = 8       # controller: the same UID read at two slots
    UNKNOWN_TAG = 9         # controller: a UID not in the tile registry
    WRONG_SET = 10          # controller: a tile of the other set (back colour) in this build
    OVER_TEMPERATURE = 11   # motor: thermal protection; unit = motor
    HATCH_OPEN = 12         # motor: service hatch interlock open while motors were to run
    HOST_LOST = 13          # motor/RFID: the host went quiet; motors were stopped safely
    CONFIG_MISMATCH = 14    # controller: build asked for more stacks than the board holds
    OVER_CURRENT = 15       # motor: over-current / stall; unit = motor
    EMERGENCY_STOP = 16     # motor: emergency stop; unit 0 = host command, 1 = front STOP key
    COUNT_SENSOR = 17       # motor: a lane counted more pushes than tiles it moved
    ANTENNA = 20            # RFID: an antenna fault; unit 0–3 head antenna, 4–7 zone antenna
    READER = 21             # RFID: the reader chip does not answer
    DISPLAY = 22            # controller: the public display does not answer (clears when it does)
    LINK_LOST = 23          # controller: a board's link is down, reconnecting (clears when it is back)
    STORAGE = 24            # controller: a disk write failed (card full or failing); retried, clears when one lands
    CANNOT_START = 25       # controller: the run cannot start (a file, the enrolment); shown as it exits
    BOARD_INCOMPATIBLE = 26  # controller: a board it cannot work with (another board on the port, another
                             # protocol, events that do not decode); the table stops; unit 0 motor, 1 RFID

    @property
    def label(self) -> str:
        return f"E{self.value:02d}"
