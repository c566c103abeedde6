"""The simulated RFID reader board: one antenna per stacking head, one read zone per seat.

It counts each head's pushes itself (from StartBuild on) and reports every read with its lane
and push index.  Reads go wrong the way real ones do, as the table's faults say: a missed read
(no UID), a doubled read (the previous tile's tag still in the field), a foreign tag (a stray
card near the antenna), and a dead antenna.  A slot can be read again on request (RereadSlot):
the head reads that stack once more, and may miss again with the same probability.
"""

from __future__ import annotations

import random

from drivers.board_link import BoardLink
from drivers.messages import (PROTOCOL_VERSION, BeatFlags, BoardKind, ClearFaults, Constant,
                              FaultCleared, FaultCode, FaultRaised, Message, RequestSnapshot,
                              SnapshotDone, Status)
from drivers.rfid_protocol import (MAX_ZONE_TAGS, RFID_COMMANDS, UID_BYTES, HeadRead, ReadZone,
                                   RereadSlot, SlotRead, StartBuild, ZoneInventory)
from drivers.stream import ByteStream

from .faults import TableFaults
from .tiles import PhysicalTile, UidSource
from .world import SIDES, World, WorldObserver

ZONE_ANTENNA = 4  # antenna unit numbers: heads 0–3, zones 4–7


class RfidBoardSim(WorldObserver):
    def __init__(self, world: World, faults: TableFaults, *, rng: random.Random,
                 foreign_uids: UidSource, boot_counter: int = 1, version: int = PROTOCOL_VERSION,
                 build: str = "mahjong-sim rfid 1.0") -> None:
        self.world = world
        self.faults = faults
        self.boot_counter = boot_counter
        self.version = version
        self.build_name = build
        self.pushes = [0] * SIDES
        self.latched: dict[tuple[int, int], int] = {}
        self.dead_antennas: set[int] = set()
        self.link: BoardLink | None = None
        self._rng = rng
        self._foreign = foreign_uids
        self._last: list[PhysicalTile | None] = [None] * SIDES
        self._built: list[list[PhysicalTile]] = [[] for _ in range(SIDES)]   # by push, this build
        world.observers.append(self)

    def attach(self, stream: ByteStream) -> None:
        constants = {Constant.LANES: SIDES, Constant.READ_ZONES: SIDES,
                     Constant.MAX_ZONE_TAGS: MAX_ZONE_TAGS, Constant.UID_BYTES: UID_BYTES,
                     Constant.HEARTBEAT_MS: 100, Constant.LINK_TIMEOUT_MS: 600}
        self.link = BoardLink(stream, kind=BoardKind.RFID, build=self.build_name,
                              constants=constants, boot_counter=self.boot_counter,
                              handler=self._handle, flags=self._flags, version=self.version)
        self.link.start()

    async def stop(self) -> None:
        if self.link is not None:
            self.link.stop()

    def reboot(self) -> None:
        self.boot_counter += 1
        self._new_build()
        self.latched.clear()
        if self.link is not None:
            self.link.reboot(self.boot_counter)

    def _flags(self) -> int:
        return BeatFlags.FAULT_LATCHED if self.latched else 0

    def emit(self, message: Message) -> None:
        if self.link is not None:
            self.link.emit(message)

    # -- commands --------------------------------------------------------------------------------

    def _handle(self, msg: int, payload: bytes) -> int:
        if msg not in RFID_COMMANDS.by_id:
            return Status.UNKNOWN_COMMAND
        command = RFID_COMMANDS.decode(msg, payload)
        if isinstance(command, StartBuild):
            self._new_build()
        elif isinstance(command, ReadZone):
            if not 0 <= command.seat < SIDES:
                return Status.BAD_ARGUMENT
            self.emit(ZoneInventory(command.seat, self._inventory(command.seat)))
        elif isinstance(command, RereadSlot):
            if not 0 <= command.lane < SIDES or self._tile_at(command.lane, command.push_index) is None \
                    and command.push_index >= len(self._built[command.lane]):
                return Status.BAD_ARGUMENT                 # nothing was ever built there
            self.emit(SlotRead(command.lane, command.push_index, self._reread(command)))
        elif isinstance(command, ClearFaults):
            for code, unit in list(self.latched):
                if not (code == FaultCode.ANTENNA and unit in self.dead_antennas):
                    del self.latched[(code, unit)]
                    self.emit(FaultCleared(code, unit))
        elif isinstance(command, RequestSnapshot):
            for (code, unit), detail in self.latched.items():
                self.emit(FaultRaised(code, unit, detail))
            self.emit(SnapshotDone())
        return Status.OK

    def _inventory(self, seat: int) -> tuple[bytes, ...]:
        if ZONE_ANTENNA + seat in self.dead_antennas:
            return ()
        uids = [t.uid for t in self.world.zones[seat]
                if not (self.faults.missed_read and self._rng.random() < self.faults.missed_read)]
        if self.faults.foreign_tag and self._rng.random() < self.faults.foreign_tag:
            uids.append(self._foreign.new())
        return tuple(dict.fromkeys(uids))[:MAX_ZONE_TAGS]  # one answer per tag, as anticollision gives

    # -- the heads -------------------------------------------------------------------------------

    def _new_build(self) -> None:
        self.pushes = [0] * SIDES
        self._last = [None] * SIDES
        self._built = [[] for _ in range(SIDES)]

    def tile_pushed(self, lane: int, tile: PhysicalTile) -> None:
        index = self.pushes[lane]
        self.pushes[lane] += 1
        self._built[lane].append(tile)
        previous, self._last[lane] = self._last[lane], tile
        if lane in self.dead_antennas or index > 255:
            uids: list[bytes] = []
        else:
            f, rng = self.faults, self._rng
            uids = [] if f.missed_read and rng.random() < f.missed_read else [tile.uid]
            if previous is not None and f.doubled_read and rng.random() < f.doubled_read:
                uids.append(previous.uid)
            if f.foreign_tag and rng.random() < f.foreign_tag:
                uids.append(self._foreign.new())
        self.emit(HeadRead(lane, min(index, 255), tuple(uids)))

    def _reread(self, command: RereadSlot) -> tuple[bytes, ...]:
        """The head reads the stack again: the tile lying at that slot of the side's channel (or held
        by the head), found by its place, not from memory — so a board that rebooted mid-build can
        re-read every slot — unless the read misses again."""
        tile = self._tile_at(command.lane, command.push_index)
        f, rng = self.faults, self._rng
        if command.lane in self.dead_antennas or tile is None or (f.missed_read and rng.random() < f.missed_read):
            uids: list[bytes] = []
        else:
            uids = [tile.uid]
        if f.foreign_tag and rng.random() < f.foreign_tag:
            uids.append(self._foreign.new())
        return tuple(uids)

    def _tile_at(self, lane: int, push_index: int):
        """Push 2k is the top of stack k, 2k+1 its bottom; a lifted top not yet stacked is in the head."""
        side = self.world.sides[lane]
        stacks = side.channel or side.plate             # built below; or loaded on the plate (risen or not)
        index, top = push_index // 2, push_index % 2 == 0
        if index < len(stacks):
            stack = stacks[index]                       # [bottom, top]; [] once a raised wall's stack is taken
            return stack[-1] if top and len(stack) == 2 else stack[0] if not top and stack else None
        if top and index == len(stacks) and side.head is not None:
            return side.head
        return None

    # -- fault injection -------------------------------------------------------------------------

    def kill_antenna(self, unit: int) -> None:
        """An antenna (0–3 heads, 4–7 zones) stops reading; latched as ANTENNA until repaired."""
        self.dead_antennas.add(unit)
        self.latched[(FaultCode.ANTENNA, unit)] = 0
        self.emit(FaultRaised(FaultCode.ANTENNA, unit, 0))

    def repair_antenna(self, unit: int) -> None:
        self.dead_antennas.discard(unit)
