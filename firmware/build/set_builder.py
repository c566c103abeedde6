"""The set under the table: shuffle, build with every head read mapped, check before it may rise.

The builder owns the set's machine (firmware.machines "builder": shuffling → building → checking →
ready | rejected → raised) and sees the table through `BuildPorts`.
"""

from __future__ import annotations

import asyncio
from collections import Counter

from drivers.messages import FaultCode
from drivers.motor_protocol import BuildDone, BuildStopped, ShuffleDone
from drivers.rfid_protocol import HeadRead

from ..faults import LatchedFault, SetRejected
from ..machines import build_machine
from .ports import BuildPorts
from .registry import TileRegistry
from .wall_map import WallMap

READS_GRACE_S = 3.0     # the RFID board's last reads may arrive after the motor board's BuildDone


class SetBuilder:
    def __init__(self, ports: BuildPorts) -> None:
        self.ports = ports
        self.machine = build_machine("builder")
        self.map: WallMap | None = None
        self.builds = 0
        self._events: list[object] = []

    @property
    def state(self) -> str:
        return self.machine.state

    def on_build_event(self, event: object) -> None:
        if isinstance(event, HeadRead):
            if self.map is not None:
                self.map.on_head_read(event.lane, event.push_index, event.uids)
        else:
            self._events.append(event)

    async def build(self) -> WallMap:
        """Build the set in the mixer into the channels; return its map once it passes the check."""
        ports = self.ports
        stacks = ports.ruleset.stacks_per_side
        await self.machine.shuffle()
        self._events.clear()
        await ports.motion(lambda: ports.motor.shuffle(ports.shuffle_ms))
        await ports.until(lambda: self._take_event(ShuffleDone))
        self.map = WallMap(None, stacks, ports.registry)
        await self.machine.build()
        await ports.rfid.start_build(stacks)
        await ports.motion(lambda: ports.motor.build(stacks))
        while True:
            done = await ports.until(lambda: self._take_event(BuildDone, BuildStopped))
            if isinstance(done, BuildDone) or ports.fault_latched(FaultCode.LANE_SHORT):
                break                                           # a starved lane: the set is short
            await ports.until(lambda: not ports.fault_latched())   # a person cleared the jam
            await ports.motion(lambda: ports.motor.build(stacks, resume=True))
        total = sum(done.counts)
        wall_map = self.map
        try:
            await ports.until(lambda: len(wall_map.reads) >= total, timeout=READS_GRACE_S)
        except asyncio.TimeoutError:
            pass                                                # the check names every unread slot
        await self.machine.built()
        self.builds += 1
        return await self._check(wall_map)

    async def raised(self) -> None:
        """The checked set's walls rose onto the table."""
        await self.machine.raise_walls()

    async def _check(self, wall_map: WallMap) -> WallMap:
        ports = self.ports
        expected_set = _majority_set(wall_map, ports.registry)
        wall_map.tile_set = expected_set
        problems = wall_map.check(ports.ruleset.tiles, expected_set)
        ports.emit("set_check", build=self.builds, tile_set=expected_set, ok=not problems,
                   problems=[p.message for p in problems], stray_tags=[uid.hex() for uid in wall_map.stray_tags()])
        if not problems:
            await self.machine.accept()
            return wall_map
        await self.machine.reject()
        for problem in problems:
            ports.latch(LatchedFault(problem.code, 0, problem.message, "controller"))
        raise SetRejected(f"E{problems[0].code:02d}: {problems[0].message}")

    def _take_event(self, *kinds: type) -> object | None:
        for event in self._events:
            if isinstance(event, kinds):
                self._events.remove(event)
                return event
        return None


def _majority_set(wall_map: WallMap, registry: TileRegistry) -> int | None:
    sets = Counter(entry.tile_set for uid in wall_map.uids.values() if uid
                   for entry in [registry.lookup(uid)] if entry is not None)
    return sets.most_common(1)[0][0] if sets else None
