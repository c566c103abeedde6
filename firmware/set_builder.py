"""The set under the table: shuffle, build with every head read mapped, check before it may rise."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING

from drivers.messages import FaultCode
from drivers.motor_protocol import BuildDone, BuildStopped, ShuffleDone

from .wall_map import WallMap

if TYPE_CHECKING:
    from .controller import TableController

READS_GRACE_S = 3.0     # the RFID board's last reads may arrive after the motor board's BuildDone


class SetBuilder:
    def __init__(self, controller: "TableController") -> None:
        self.ctl = controller
        self.map: WallMap | None = None
        self.builds = 0

    async def build(self) -> WallMap:
        """Build the set in the mixer into the channels; return its map once it passes the check."""
        ctl = self.ctl
        stacks = ctl.ruleset.stacks_per_side
        await ctl.builder_state.shuffle()
        ctl.build_events.clear()
        await ctl.motion(lambda: ctl.devices.motor.shuffle(ctl.shuffle_ms))
        await ctl.until(lambda: self._take_event(ShuffleDone))
        self.map = WallMap(None, stacks, ctl.registry)
        await ctl.builder_state.build()
        await ctl.devices.rfid.start_build(stacks)
        await ctl.motion(lambda: ctl.devices.motor.build(stacks))
        while True:
            done = await ctl.until(lambda: self._take_event(BuildDone, BuildStopped))
            if isinstance(done, BuildDone) or self._starved():
                break                                           # a starved lane: the set is short
            await ctl.until(lambda: not ctl.faults)           # a person cleared the jam
            await ctl.motion(lambda: ctl.devices.motor.build(stacks, resume=True))
        total = sum(done.counts)
        try:
            await ctl.until(lambda: len(self.map.reads) >= total, timeout=READS_GRACE_S)
        except asyncio.TimeoutError:
            pass                                                # the check names every unread slot
        await ctl.builder_state.built()
        self.builds += 1
        return await self._check(self.map)

    async def _check(self, wall_map: WallMap) -> WallMap:
        ctl = self.ctl
        expected_set = _majority_set(wall_map, ctl.registry)
        wall_map.tile_set = expected_set
        problems = wall_map.check(ctl.ruleset.tiles, expected_set)
        ctl.recorder.emit("set_check", ctl.hand_number if ctl.hand is not None else 0, build=self.builds,
                          tile_set=expected_set, ok=not problems, problems=[p.message for p in problems],
                          stray_tags=[uid.hex() for uid in wall_map.stray_tags()])
        if not problems:
            await ctl.builder_state.accept()
            return wall_map
        await ctl.builder_state.reject()
        from .controller import LatchedFault, SetRejected
        for problem in problems:
            ctl.latch(LatchedFault(problem.code, 0, problem.message, "controller"))
        raise SetRejected(f"E{problems[0].code:02d}: {problems[0].message}")

    def _starved(self) -> bool:
        """A lane ran out of tiles (E06): the set is short; the check will name what is missing."""
        return any(f.code == FaultCode.LANE_SHORT for f in self.ctl.faults.values())

    def _take_event(self, *kinds: type) -> object | None:
        for event in self.ctl.build_events:
            if isinstance(event, kinds):
                self.ctl.build_events.remove(event)
                return event
        return None


def _majority_set(wall_map: WallMap, registry) -> int | None:
    sets = Counter(entry.tile_set for uid in wall_map.uids.values() if uid
                   for entry in [registry.lookup(uid)] if entry is not None)
    return sets.most_common(1)[0][0] if sets else None
