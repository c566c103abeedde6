"""The RFID reader board's messages (protocol.md §6) and the push-index → wall-slot mapping.

Each stacking head has an antenna that reads the tile being pushed; the board counts the head's
pushes itself (the push sensor is wired to both boards), so every read names its lane and push
index.  A read carries every UID the antenna saw at that push: normally one, none when the
read was missed, two or more when a tag lingered (a doubled read) or a foreign tag was near.
A missed read can be asked for again (RereadSlot): the head reads that slot's stack once more
and answers with a SlotRead laid out like a HeadRead.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .errors import MessageError
from .messages import (Catalog, ClearFaults, EventsDropped, FaultCleared, FaultRaised, Message,
                       RequestSnapshot, SnapshotDone)

UID_BYTES = 8
MAX_ZONE_TAGS = 28
SIDES = 4


@dataclass(frozen=True)
class WallSlot:
    """Where a pushed tile lies once the wall is up: side, stack from that side's right end,
    and layer ('top' or 'bottom', the same words as the rules' Layer)."""

    side: int
    stack: int
    layer: str


@functools.lru_cache(maxsize=None, typed=True)   # a frozen value: made once per push index, not per build
def push_slot(lane: int, push_index: int) -> WallSlot:
    """The slot a lane's `push_index`-th push (0-based, per build) fills.

    Lane i builds side i's wall.  The head lifts the first tile of a pair and slides the second
    under it, then pushes the pair out as one stack; each stack pushed shoves the earlier ones
    along the lift towards the player's right end.  So push 2k is the top and push 2k+1 the
    bottom of stack k, and stack 0 (the first pushed) ends at the right end.
    """
    if not 0 <= lane < SIDES or push_index < 0:
        raise ValueError(f"no slot for lane {lane}, push {push_index}")
    return WallSlot(lane, push_index // 2, "top" if push_index % 2 == 0 else "bottom")


def slot_push(slot: WallSlot) -> tuple[int, int]:
    """The (lane, push_index) that filled `slot`: the inverse of push_slot."""
    if not 0 <= slot.side < SIDES or slot.stack < 0 or slot.layer not in ("top", "bottom"):
        raise ValueError(f"no push fills {slot}")
    return slot.side, 2 * slot.stack + (slot.layer == "bottom")


def _uids(payload: bytes, count: int, what: str) -> tuple[bytes, ...]:
    if len(payload) != count * UID_BYTES:
        raise MessageError(f"{what}: {len(payload)} UID bytes for {count} UIDs of {UID_BYTES} bytes")
    if count == 1:
        return (payload,)       # a head's usual read: one tag
    return tuple([payload[i:i + UID_BYTES] for i in range(0, len(payload), UID_BYTES)])


def _check_uids(uids: tuple[bytes, ...], what: str) -> bytes:
    for uid in uids:
        if len(uid) != UID_BYTES:
            raise MessageError(f"{what}: UID {uid.hex()} is not {UID_BYTES} bytes")
    return b"".join(uids)


# -- commands -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class StartBuild(Message):
    """0x10: a new build starts: push counters back to 0, expecting `stacks[i]` stacks on lane i."""

    ID = 0x10
    stacks: tuple[int, int, int, int]

    def encode_payload(self) -> bytes:
        return bytes(self.stacks)

    @classmethod
    def decode_payload(cls, payload: bytes) -> "StartBuild":
        if len(payload) != SIDES:
            raise MessageError(f"StartBuild: payload of {len(payload)} bytes, expected 4")
        return cls(tuple(payload))  # type: ignore[arg-type]


@dataclass(frozen=True)
class ReadZone(Message):
    """0x11: inventory the read zone of `seat`; ZoneInventory answers."""

    ID = 0x11
    LAYOUT = "B"
    seat: int


@dataclass(frozen=True)
class RereadSlot(Message):
    """0x12: read again the tile that push `push_index` of `lane` placed in this build (the head
    reads the stack once more); SlotRead answers.  BAD_ARGUMENT for a push not made yet."""

    ID = 0x12
    LAYOUT = "BB"
    lane: int
    push_index: int


# -- events -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _SlotTags(Message):
    """What a head's antenna read for one push: `lane, push_index, n, uid × n`."""

    lane: int
    push_index: int
    uids: tuple[bytes, ...]

    def encode_payload(self) -> bytes:
        name = type(self).__name__
        return bytes((self.lane, self.push_index, len(self.uids))) + _check_uids(self.uids, name)

    @classmethod
    def decode_payload(cls, payload: bytes) -> "_SlotTags":
        if len(payload) < 3:
            raise MessageError(f"{cls.__name__}: payload shorter than 3 bytes")
        return cls(payload[0], payload[1], _uids(payload[3:], payload[2], cls.__name__))

    @property
    def slot(self) -> WallSlot:
        return push_slot(self.lane, self.push_index)


@dataclass(frozen=True)
class HeadRead(_SlotTags):
    """0x80: what the antenna of `lane` read at push `push_index` (0-based, since StartBuild)."""

    ID = 0x80


@dataclass(frozen=True)
class SlotRead(_SlotTags):
    """0x82: the answer to RereadSlot: what the antenna read of that slot's tile this time
    (none again if the read missed again, or the tile is no longer in the wall)."""

    ID = 0x82


@dataclass(frozen=True)
class ZoneInventory(Message):
    """0x81: the UIDs lying in `seat`'s read zone (at most MAX_ZONE_TAGS)."""

    ID = 0x81
    seat: int
    uids: tuple[bytes, ...]

    def encode_payload(self) -> bytes:
        if len(self.uids) > MAX_ZONE_TAGS:
            raise MessageError(f"ZoneInventory: {len(self.uids)} UIDs exceed {MAX_ZONE_TAGS}")
        return bytes((self.seat, len(self.uids))) + _check_uids(self.uids, "ZoneInventory")

    @classmethod
    def decode_payload(cls, payload: bytes) -> "ZoneInventory":
        if len(payload) < 2:
            raise MessageError("ZoneInventory: payload shorter than 2 bytes")
        return cls(payload[0], _uids(payload[2:], payload[1], "ZoneInventory"))


RFID_COMMANDS = Catalog("RFID board commands", (ClearFaults, RequestSnapshot, StartBuild, ReadZone,
                                                RereadSlot))

RFID_EVENTS = Catalog("RFID board events", (
    HeadRead, ZoneInventory, SlotRead, FaultRaised, FaultCleared, SnapshotDone, EventsDropped))
