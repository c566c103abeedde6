"""The set under the table: shuffle, build with every head read mapped, check before it may rise.

The builder owns the set's machine (firmware.machines "builder": shuffling → building → checking →
ready | rejected → raised) and sees the table through `BuildPorts`.

A missed read is not a missing tile: once the build is done and the reads have had time to
arrive (a grace sized from the RFID link's measured round trip, not a fixed wall-clock wait),
every slot without a tile is read again (the stacking head reads the stack once more), up to
`REREAD_ROUNDS` times, before the set is checked.  A build a restarted controller finds begun is
resumed and then the slots the old controller never heard of are re-read the same way.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass

from drivers.errors import CommandRejected
from drivers.messages import FaultCode, Status
from drivers.motor_protocol import BuildDone, BuildStopped, ShuffleDone
from drivers.rfid_protocol import HeadRead, SlotRead, WallSlot

from ..faults import LatchedFault, SetRejected
from ..machines import build_machine
from .ports import BuildPorts
from .registry import TileRegistry
from .wall_map import Position, SetProblem, WallMap

REREAD_ROUNDS = 3
GRACE_MIN_S = 0.5          # the least time the last head reads get after BuildDone …
GRACE_RTTS = 20            # … or this many of the RFID link's smoothed round trips, if longer


@dataclass(frozen=True)
class BuildInProgress:
    """What the journal keeps of a build begun: enough to pick it up after a restart."""

    stacks: tuple[int, int, int, int]
    motor_boot: int
    rfid_boot: int

    def to_json(self) -> dict:
        return {"stacks": list(self.stacks), "motor_boot": self.motor_boot, "rfid_boot": self.rfid_boot}

    @staticmethod
    def from_json(data: dict) -> "BuildInProgress":
        return BuildInProgress(tuple(data["stacks"]), data["motor_boot"], data["rfid_boot"])  # type: ignore[arg-type]


@dataclass(frozen=True)
class RejectedSet:
    """A set the check rejected, until a person acknowledged it: what it latched (shown again after a
    restart) and whether its walls were raised onto the table top yet (they are not raised twice)."""

    faults: tuple[LatchedFault, ...]
    raised: bool = False

    @property
    def problems(self) -> list[str]:
        return [f.message for f in self.faults]

    def to_json(self) -> dict:
        return {"faults": [[f.code, f.message, f.zh] for f in self.faults], "raised": self.raised}

    @staticmethod
    def from_json(data: dict) -> "RejectedSet":
        return RejectedSet(tuple(LatchedFault(int(code), 0, str(message), "controller", str(zh))
                                 for code, message, zh in data["faults"]), bool(data["raised"]))


@dataclass(frozen=True)
class Interrupted:
    """A board rebooted while the mechanism worked for this set (an event-like marker)."""

    source: str


@dataclass(frozen=True)
class Halted:
    """The motor board stopped every motor by itself (SafeStop: a fault, or our silence) while it
    shuffled for this set: the disc stopped without a ShuffleDone (an event-like marker)."""


@dataclass(frozen=True)
class ReportLost:
    """The motor board's event queue overflowed while the mechanism worked for this set: its
    ShuffleDone, BuildDone or BuildStopped may be among the events lost (an event-like marker)."""


class SetBuilder:
    def __init__(self, ports: BuildPorts) -> None:
        self.ports = ports
        self.machine = build_machine("builder")
        self.map: WallMap | None = None
        self.builds = 0
        self._events: list[object] = []
        self._reread_answers = 0
        self._heads_trusted = True       # False once a board restarted mid-build: every slot is re-read
        self._rereads_lost = 0           # the RFID board's new sessions and overflows: re-reads' answers lost

    @property
    def state(self) -> str:
        return self.machine.state

    def on_build_event(self, event: object) -> None:
        if isinstance(event, (HeadRead, SlotRead)):
            if isinstance(event, HeadRead) and not self._heads_trusted:
                return                      # a rebooted RFID board counts pushes from 0 again: its slots are wrong
            if self.map is not None:
                self.map.on_head_read(event.lane, event.push_index, event.uids)
            if isinstance(event, SlotRead):
                self._reread_answers += 1
        else:
            self._events.append(event)

    def board_restarted(self, source: str) -> None:
        if source == "rfid":
            self._rereads_lost += 1
        if self.machine.state in ("shuffling", "building"):
            if self.machine.state == "building":
                self._heads_trusted = False       # at once: the rebooted board's next reads count from 0
            self._events.append(Interrupted(source))

    def board_halted(self) -> None:
        """The motor board stopped its motors by itself: a shuffle under way is asked again once the
        latch is clear (a build under way says so itself: BuildStopped)."""
        if self.machine.state == "shuffling":
            self._events.append(Halted())

    def events_lost(self, source: str) -> None:
        """A board's event queue overflowed (protocol.md §3.4): what it told of this set may be lost.
        Lost head reads leave their slots unread, and the re-reads read them; a round of re-reads
        whose answers may be lost is asked again; a shuffle or a build is asked for again, and the
        board answers it for one it had done (a build: `_resumed`)."""
        if source == "rfid":
            self._rereads_lost += 1
        elif self.machine.state in ("shuffling", "building"):
            self._events.append(ReportLost())

    def in_progress(self) -> BuildInProgress:
        """What to journal as this build begins."""
        ports = self.ports
        return BuildInProgress(ports.ruleset.stacks_per_side, ports.motor.identity.boot_counter,
                               ports.rfid.identity.boot_counter)

    async def build(self, *, after_restart: bool = False) -> WallMap:
        """Build the set in the mixer into the channels; return its map once it passes the check.
        `after_restart`: a restarted controller found this build journaled but the board holds no
        build to resume — it never began, or it finished with the set on the lowered plates. The
        board's refusal of a new Build says which (protocol.md §4.3: NOT_READY while a lowered
        plate or a channel holds an earlier build's tiles): then that set is read where it lies."""
        ports = self.ports
        stacks = ports.ruleset.stacks_per_side
        self.machine.shuffle()
        self._events.clear()
        while True:         # a reboot or a safety stop mid-shuffle, or its end lost: shuffle again
            self._drop_events(Halted)               # (a stop before this shuffle stopped none of it)
            await ports.motion(lambda: ports.motor.shuffle(ports.shuffle_ms))
            if isinstance(await ports.until(lambda: self._take_event(ShuffleDone, Interrupted, ReportLost, Halted)),
                          ShuffleDone):
                break
        self.map = WallMap(None, stacks, ports.registry)
        self._heads_trusted = True
        self.machine.build()
        await ports.send(lambda: ports.rfid.start_build(stacks))      # held, or sent again, across an episode
        try:
            await ports.motion(lambda: ports.motor.build(stacks))
        except CommandRejected as error:
            if error.status != Status.NOT_READY:
                raise
            if not after_restart:       # never expected: the journal names every set it built; said, not fatal
                ports.emit("warning", message=f"{error}: the board holds a set this controller did not know "
                                              "of; it is read where it lies and checked")
            self._heads_trusted = False                       # built before: no head read of it was heard
            return await self._finish(self.map, tuple(2 * n for n in stacks))
        counts = await self._run_build(stacks)
        return await self._finish(self.map, counts)

    async def resume(self, begun: BuildInProgress) -> WallMap:
        """A build a restarted controller found begun: go on with it, then re-read every slot the
        reads of which this controller never heard.  A board that restarted since goes on as in a
        build it interrupted: the motor board from the stacks its channels hold, and after an RFID
        restart every slot is read again (its head reads counted from 0).  A motor board with no
        build to go on with (the crash fell before its Build, it rebooted before a stack was built,
        or the set is built and lies on the lowered plates) is asked for a new build, which it
        refuses when the set lies below (`build(after_restart=True)`)."""
        ports = self.ports
        self.map = WallMap(None, begun.stacks, ports.registry)
        self._events.clear()
        self._heads_trusted = ports.rfid.identity.boot_counter == begun.rfid_boot
        if not await self._resumed(begun.stacks):
            return await self.build(after_restart=True)
        self.machine.resume_build()
        counts = await self._run_build(begun.stacks)
        return await self._finish(self.map, counts)

    async def _run_build(self, stacks: tuple[int, int, int, int]) -> tuple[int, ...]:
        """Until the build is done (or a starved lane ends it short); the pushes made per lane."""
        ports = self.ports
        while True:
            done = await ports.until(lambda: self._take_event(BuildDone, BuildStopped, Interrupted, ReportLost))
            if isinstance(done, ReportLost):             # asked again: a board that refuses was done,
                if await self._resumed(stacks):          # and its lowered plates took the set
                    continue
                return tuple(2 * n for n in stacks)
            if isinstance(done, Interrupted):            # a board restarted: its slots are all read again
                self._heads_trusted = False
                if done.source == "rfid":
                    continue                             # the motor board builds on meanwhile
                await ports.until(lambda: not ports.fault_latched())
                await self._build_on(stacks)
                continue
            if isinstance(done, BuildDone) or ports.fault_latched(FaultCode.LANE_SHORT):
                return tuple(done.counts)                       # a starved lane: the set is short
            await ports.until(lambda: not ports.fault_latched())   # a person cleared the jam
            await self._build_on(stacks)

    async def _resumed(self, stacks: tuple[int, int, int, int]) -> bool:
        """Build(resume): True when the board goes on from the stacks its channels hold (a board
        still building is waited for, BUSY; one done tells BuildDone again); False when it holds no
        build to go on with and refuses (NOT_READY)."""
        ports = self.ports
        try:
            await ports.motion(lambda: ports.motor.build(stacks, resume=True))
        except CommandRejected as error:
            if error.status != Status.NOT_READY:
                raise
            return False
        return True

    async def _build_on(self, stacks: tuple[int, int, int, int]) -> None:
        """Go on with the build.  A motor board that rebooted before a stack was built holds none to go
        on with (NOT_READY: the tiles are all still in the mixer), so it is asked for the build anew —
        before, the refusal stopped the table (campaign with read faults, seed 340018, 八枝)."""
        if not await self._resumed(stacks):
            await self.ports.motion(lambda: self.ports.motor.build(stacks))

    async def _finish(self, wall_map: WallMap, counts: tuple[int, ...]) -> WallMap:
        total = sum(counts)
        try:
            await self.ports.until(lambda: len(wall_map.reads) >= total, timeout=self._grace())
        except asyncio.TimeoutError:
            pass                                                # re-read what did not come
        await self._reread_missing(wall_map, counts)
        self.machine.built()
        self.builds += 1
        return await self._check(wall_map)

    def _grace(self) -> float:
        srtt = self.ports.rfid.statistics().srtt_ms
        return max(GRACE_MIN_S, GRACE_RTTS * (srtt or 0.0) / 1000)

    async def _reread_missing(self, wall_map: WallMap, counts: tuple[int, ...]) -> None:
        """Read again every built slot that has no tile yet (a missed, doubled-up or late read, or one
        that saw only a tag of no registered tile: a missed read beside a stray tag reads like a
        foreign tile), and every slot whose tag is placed at another slot too: a head that missed its
        tile but still saw the previous one's tag reads like a duplicated tag.  Only what reads the
        same again is a person's job.  Every built slot, when the heads' own reads cannot be trusted."""
        rounds = 0
        refused: set[Position] = set()                   # slots the board cannot read again (see _reread)
        while rounds < REREAD_ROUNDS:
            twice = {uid for uid, n in Counter(u for u in wall_map.uids.values() if u is not None).items() if n > 1}
            missing = [p for p in wall_map.positions() if _built(p, counts) and p not in refused and (
                not self._heads_trusted or wall_map.uids.get(p) is None or wall_map.uids.get(p) in twice)]
            self._heads_trusted = True                   # from here on, the re-reads' answers are the map
            if not missing:
                break
            self.ports.emit("reread", slots=len(missing))
            answered, lost = self._reread_answers + len(missing), self._rereads_lost
            for position in missing:
                if not await self._reread(position):
                    refused.add(position)
                    answered -= 1                        # (no answer comes for it)
            await self.ports.until(lambda: self._reread_answers >= answered or self._rereads_lost > lost)
            if self._rereads_lost == lost:
                rounds += 1                              # a round a reboot or an overflow cut short is not counted
        if refused:
            self.ports.emit("warning", message=f"the RFID board could not read {len(refused)} slot(s) again (it no "
                                               "longer knew their pushes): the set is checked with what was read")

    async def _reread(self, position: Position) -> bool:
        """Ask for one slot again (sent again across an episode); False when the board refuses it
        (BAD_ARGUMENT: no push of its build since its last StartBuild filled it — a set found lying
        below after a restart, whose StartBuild the refused Build followed).  Before, the refusal
        stopped the table (a probe: rules changed across a restart, the set below dropped)."""
        pos, layer = position
        slot = WallSlot(pos.wall, pos.stack, layer.value)
        try:
            await self.ports.send(lambda: self.ports.rfid.reread(slot))
        except CommandRejected as error:
            if error.status != Status.BAD_ARGUMENT:
                raise
            return False
        return True

    async def raised(self) -> None:
        """The checked set's walls rose onto the table."""
        self.machine.raise_walls()

    async def restore(self, wall_map: WallMap) -> None:
        """A restarted controller: the journal kept this checked set, waiting under the table."""
        self.map = wall_map
        self.machine.restore()

    async def _check(self, wall_map: WallMap) -> WallMap:
        ports = self.ports
        expected_set = _majority_set(wall_map, ports.registry)
        wall_map.tile_set = expected_set
        problems = wall_map.check(ports.ruleset.tiles, expected_set, ports.ruleset.region.name)
        ports.emit("set_check", build=self.builds, tile_set=expected_set, ok=not problems,
                   problems=[p.message for p in problems], stray_tags=[uid.hex() for uid in wall_map.stray_tags()])
        if not problems:
            self.machine.accept()
            return wall_map
        self.machine.reject()
        # The display shows the fault latched last: the first problem (the cause), with every problem
        # in one line; each is recorded with its own words.
        first = problems[0]
        faults = [LatchedFault(p.code, 0, p.message, "controller", p.text_zh) for p in problems[:0:-1]]
        faults.append(LatchedFault(first.code, 0, first.message, "controller", set_summary_zh(problems)))
        for fault in faults:
            ports.latch(fault)
        raise SetRejected(f"E{first.code:02d}: {first.message}", tuple(faults))

    def _drop_events(self, kind: type) -> None:
        self._events = [event for event in self._events if not isinstance(event, kind)]

    def _take_event(self, *kinds: type) -> object | None:
        for event in self._events:
            if isinstance(event, kinds):
                self._events.remove(event)
                return event
        return None


def set_summary_zh(problems: list[SetProblem], most: int = 60) -> str:
    """Every problem of a rejected set in one line for the fault page (牌组有误：缺 1 张 五万；…),
    cut with … where the page has no room."""
    text = "牌组有误：" + "；".join(p.text_zh for p in problems)
    return text if len(text) <= most else text[:most - 1] + "…"


def _built(position: Position, counts: tuple[int, ...]) -> bool:
    """Whether the lane's pushes reached this slot (push 2k is the top of stack k, 2k+1 its bottom)."""
    pos, layer = position
    push = 2 * pos.stack + (0 if layer.value == "top" else 1)
    return push < counts[pos.wall]


def _majority_set(wall_map: WallMap, registry: TileRegistry) -> int | None:
    sets = Counter(entry.tile_set for uid in wall_map.uids.values() if uid
                   for entry in [registry.lookup(uid)] if entry is not None)
    return sets.most_common(1)[0][0] if sets else None
