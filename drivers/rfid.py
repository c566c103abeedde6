"""The RFID reader board client: stacking-head reads and seat read zones (protocol.md §6)."""

from __future__ import annotations

from .client import BoardClient
from .messages import BoardKind
from .rfid_protocol import RFID_COMMANDS, RFID_EVENTS, ReadZone, RereadSlot, StartBuild, WallSlot, slot_push


class RfidBoard(BoardClient):
    KIND = BoardKind.RFID
    NAME = "RFID board"
    COMMANDS = RFID_COMMANDS
    EVENTS = RFID_EVENTS

    async def start_build(self, stacks: tuple[int, int, int, int]) -> None:
        """Reset the heads' push counters before the motor board's Build (not before a resume)."""
        await self.send(StartBuild(tuple(stacks)))  # type: ignore[arg-type]

    async def read_zone(self, seat: int) -> None:
        """Inventory a seat's read zone; a ZoneInventory event answers."""
        await self.send(ReadZone(seat))

    async def reread(self, slot: WallSlot) -> None:
        """Read one slot of this build again (after a missed read); a SlotRead event answers,
        which may be empty again.  CommandRejected (BAD_ARGUMENT) for a slot not built yet."""
        await self.send(RereadSlot(*slot_push(slot)))
