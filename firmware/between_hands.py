"""The sets between hands: the first build, the next set built under the table while a hand is
played, a set the check rejected set aside for a person, and the hand over that raises the next set.

Each step is journaled before the table moves on (firmware/journal.py): a restarted controller knows
of a build begun, a set checked below, a set standing raised and a rejected set waiting for a person
(`pick_up`), and never deals on walls that are not the set it checked.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Awaitable, Callable

from drivers.motor_protocol import LiftPosition
from drivers.table_ui import WALLS_MISSING, Phase

from .build.set_builder import BuildInProgress, RejectedSet, SetBuilder
from .build.wall_map import WallMap
from .controller import TableController
from .faults import SET_CODES, SetRejected
from .journal import HandJournal
from .plates import Plates
from .records.chain import canonical
from .records.ledger import HAND_KEY, NEXT_SET_KEY, EncodedJson, Ledger
from .records.store import Store
from .state import SessionState

SET_ASIDE_ZH = "牌组有误 请按故障页检查后按确认"     # after 故障: the rejected walls stand on the table
RAISED_SET_KEY = "raised_set"      # a checked set standing on the table, no hand started on it yet
BUILDING_KEY = "building"          # a build begun under the table (BuildInProgress)
REJECTED_KEY = "rejected_set"      # a set the check rejected, not yet acknowledged (RejectedSet)
SET_KEYS = (NEXT_SET_KEY, RAISED_SET_KEY, BUILDING_KEY, REJECTED_KEY)


class SetsBetweenHands:
    """The two sets' course between hands, for one session."""

    def __init__(self, hub: TableController, builder: SetBuilder, plates: Plates, journal: HandJournal,
                 ledger: Ledger, store: Store, session_state: Callable[[], SessionState],
                 rules_meanwhile: Callable[[], Awaitable[None]]) -> None:
        """`session_state`: the session open now (its dealer and totals go on the seats' lines at the hand
        over); `rules_meanwhile`: rules chosen on the panel while a rejected set waited, taken up before
        it is built anew."""
        self._hub = hub
        self._builder = builder
        self._plates = plates
        self._journal = journal
        self._ledger = ledger
        self._store = store
        self._session_state = session_state
        self._rules_meanwhile = rules_meanwhile
        self._build: asyncio.Task | None = None      # the next set's build, under way beside a hand
        self.rejected: RejectedSet | None = None     # the set built for the next hand failed its check
        self._built: tuple[WallMap, EncodedJson] | None = None     # the set last built, as the journal holds it

    # -- the build beside a hand ----------------------------------------------------------------------

    def build_beside(self) -> None:
        """The next set's build begun under the table, unless one is there, under way or rejected."""
        if self._build is None and self.rejected is None:
            self._build = asyncio.create_task(self.build_next(), name="build-next-set")

    @property
    def under_way(self) -> bool:
        return self._build is not None

    async def next_built(self) -> WallMap | None:
        """The set the build under way gave (None: it was rejected)."""
        assert self._build is not None, "a build is under way"
        built, self._build = await self._build, None
        return built

    async def built_or_build(self) -> WallMap | None:
        """The set under way (a resumed hand's, a restart's), or one built now."""
        return await (self.next_built() if self.under_way else self.build_next())

    def tasks(self) -> list[asyncio.Task]:
        """Its task, to cancel as the session stops."""
        tasks = [self._build] if self._build is not None else []
        self._build = None
        return tasks

    # -- after a restart --------------------------------------------------------------------------------

    async def pick_up(self, saved: dict[str, dict]) -> tuple[WallMap | None, WallMap | None]:
        """The sets as the journal left them: returns the checked set waiting below and the checked set
        standing on the table (each None when there is none); a rejected set is shown again, a build
        begun goes on."""
        hub = self._hub
        below = self._saved_set(saved, NEXT_SET_KEY)
        standing = self._saved_set(saved, RAISED_SET_KEY)
        if standing is not None and (HAND_KEY in saved or not self.wall_stands_whole(standing)):
            standing = None                             # a hand began on it (or players did, unjournaled)
        if below is not None and standing is None and HAND_KEY not in saved and self.wall_stands_whole(below):
            # it rose before the crash let the hand over journal it: it stands (a push-in now would
            # sweep it into the mixer with the other set)
            standing, below = below, None
            await self.journal_raised(standing)
            await self._plates.centre(LiftPosition.UP)
        if standing is not None:
            await hub.advance("restore_walls")
        if REJECTED_KEY in saved:                       # still waiting for a person: shown again
            self.rejected = RejectedSet.from_json(saved[REJECTED_KEY])
            for fault in self.rejected.faults:
                hub.latch(fault)
        elif below is not None:
            await self._builder.restore(below)      # the builder's machine follows the set under the table
            hub.lamps.set_ready(True)
        elif BUILDING_KEY in saved:
            begun = BuildInProgress.from_json(saved[BUILDING_KEY])
            self._build = asyncio.create_task(self.build_next(begun), name="resume-build")
        return below, standing

    def _saved_set(self, saved: dict[str, dict], key: str) -> WallMap | None:
        return WallMap.from_json(saved[key], self._hub.registry) if key in saved else None

    def drop(self) -> None:
        """No set the journal names is this table's any more (and no hand): forgotten."""
        self._journal.forget_hand()
        self._hub.lamps.set_ready(False)
        self._store.submit(self._ledger.journal_swap, {}, SET_KEYS + (HAND_KEY,))

    def wall_stands_whole(self, wall: WallMap) -> bool:
        sensors = self._hub.wall_sensors
        return all(tuple(sensors.get(side, ())) == (2,) * wall.stacks[side] for side in range(4) if wall.stacks[side])

    # -- the sets' steps ----------------------------------------------------------------------------------

    async def first_build(self) -> WallMap:
        """The first set of a run (or the one a restarted controller found begun); or, when the set
        built for the next hand was rejected, a set built anew once a person mended that one."""
        hub = self._hub
        below: WallMap | None = None
        if self.rejected is None:
            if hub.table.state == "idle":
                await hub.advance("start")
            hub.presenter.phase(Phase.BUILDING)
            below = await self.built_or_build()
        elif self.under_way:                    # the build rejected was a restart's resumed one: let go of
            await self.next_built()             # (kept, no next set was built beside the next hand, and its
                                                # stale answer sent the table to a first build from settling)
        while below is None:                    # rejected: never dealt; a person, then a new build
            await self._set_aside()
            await self._rules_meanwhile()
            below = await self.build_next()
        await hub.advance("set_built")
        return below

    async def build_next(self, begun: BuildInProgress | None = None) -> WallMap | None:
        """Build (or go on with) the next set; the journal knows it is begun, then that it is checked.
        None when the check rejected it (its faults are latched; `_set_aside` follows)."""
        # both boards in a session first: one opening a new session after a reboot has no boot counter
        # to journal yet (reading it raised "not connected" and stopped the table: campaign, 四川 70021)
        await self._hub.until(self._hub.links_up)
        try:
            if begun is None:
                # committed before the boards are asked anything: a restart must know of a build they may hold
                await self._journal.written(self._ledger.journal_put, BUILDING_KEY, self._builder.in_progress().to_json())
                wall = await self._builder.build()
            else:
                wall = await self._builder.resume(begun)
        except SetRejected as rejected:
            self.rejected = RejectedSet(rejected.faults)
            self._store.submit(self._ledger.journal_swap, {REJECTED_KEY: self.rejected.to_json()}, (BUILDING_KEY,))
            return None
        # one transaction: killed between a drop and a put, a restart would know of no set below
        self._built = wall, EncodedJson(canonical(wall.to_json()))
        self._store.submit(self._ledger.journal_swap, {NEXT_SET_KEY: self._built[1]}, (BUILDING_KEY,))
        self._hub.lamps.set_ready(True)
        return wall

    async def _set_aside(self) -> None:
        """The rejected set's walls up onto the table top, where a person can mend them, after the
        tiles lying there went into the mixer as at a hand over (the other set: the one built next,
        so the two sets never mix); then its faults are shown (latched again if a person acknowledged
        them while the walls were out of reach) and the table waits for the person's 确认.  The
        rejected set goes into the mixer at the next hand over and is built again meanwhile."""
        hub = self._hub
        rejected = self.rejected
        assert rejected is not None
        await hub.advance("set_rejected")
        if not rejected.raised:
            sides = self._plates.sides()
            await self._plates.push_in_and_lower(sides)
            await self._plates.raise_walls(sides)
            rejected = self.rejected = replace(rejected, raised=True)
            self._journal.put(REJECTED_KEY, rejected.to_json())
        hub.presenter.phase(Phase.FAULT, SET_ASIDE_ZH)     # first: the page that follows is this moment's
        if not self._set_faults_latched():              # acknowledged before the walls were up: asked again
            for fault in rejected.faults:
                hub.latch(fault)
        hub.recorder.emit("set_aside", problems=rejected.problems)
        await hub.until(lambda: not self._set_faults_latched())
        self.rejected = None
        self._journal.put(REJECTED_KEY, None)
        hub.recorder.emit("set_rebuild", problems=rejected.problems)
        await hub.advance("rebuild")
        hub.presenter.phase(Phase.BUILDING)

    def _set_faults_latched(self) -> bool:
        return any(f.source == "controller" and f.code in SET_CODES for f in self._hub.faults.latched())

    async def hand_over(self, next_set: WallMap) -> bool:
        """Push the old tiles in, lower the plates onto the new walls and raise them.  False when the
        walls that rose are not that set (`_walls_missing`): no hand is begun on them."""
        hub = self._hub
        sides = self._plates.sides()
        await self._plates.push_in_and_lower(sides, lambda: hub.advance("pushed_in"))
        await self._plates.raise_walls(sides)
        hub.lamps.set_ready(False)
        await self._builder.raised()
        if not self.wall_stands_whole(next_set):
            await self._walls_missing(next_set)
            return False
        if next_set.unknown_tags():
            await self._walls_unreadable(next_set)
            return False
        await self.journal_raised(next_set)
        state = self._session_state()
        for side in hub.ruleset.players:
            hub.presenter.seat_status(side, side == state.dealer, state.totals[side])
        hub.presenter.dealer(state.dealer, state.dealer_repeats)
        await hub.advance("walls_up")
        return True

    async def _walls_missing(self, expected: WallMap) -> None:
        """The plates rose without the checked set the journal named below (a probe: the mechanism
        reset, or tiles taken out, while the controller was stopped).  A hand was begun on empty
        plates and the table waited at 请配牌 without a word.  Said, recorded and built anew."""
        hub = self._hub
        sensors = {side: sum(hub.wall_sensors.get(side, ())) for side in range(4) if expected.stacks[side]}
        message = (f"the walls that rose are not the set built for them (tiles per side {sensors}, "
                   f"{2 * sum(expected.stacks)} expected): it was lost from under the table; the tiles are "
                   "pushed in and a set is built anew")
        await self._not_dealt(message)

    async def _walls_unreadable(self, risen: WallMap) -> None:
        """The set that rose holds tags the tile registry no longer knows: it was enrolled anew while the
        controller was stopped (a probe: a hand was then dealt on tiles the table could not read, 长春
        stopped at every start after it, 海南 paid a win on them).  Never dealt: said, recorded, and the
        tiles are pushed in and built anew, where the set check says what it finds."""
        await self._not_dealt(f"the set that rose holds {risen.unknown_tags()} tag(s) the tile registry no longer knows "
                              "(enrolled anew since it was built): no hand is dealt on tiles the table cannot read; "
                              "the tiles are pushed in and a set is built anew")

    async def _not_dealt(self, message: str) -> None:
        """The walls that rose are not played: said, recorded, and the table goes back to build a set."""
        hub = self._hub
        hub.recorder.emit("warning", message=message)          # (the table's log says it: firmware.table_log)
        await self._journal.written(self._ledger.journal_swap, {}, (NEXT_SET_KEY,))
        await hub.advance("walls_missing")
        hub.presenter.carry(WALLS_MISSING)

    async def journal_raised(self, standing: WallMap) -> None:
        """The set is the one standing on the table now, not the one below: committed before the dice
        are asked for.  Only queued, a slow disk let the players take the deal with the journal still
        naming the set below; a controller killed then took those dealt walls for a set still to rise,
        had them pushed in onto the other set in the mixer, and built both sets mixed (E07/E10, the
        players' walls empty: found by the fault campaign)."""
        await self._journal.written(self._ledger.journal_swap, {RAISED_SET_KEY: self._set_json(standing)}, (NEXT_SET_KEY,))

    def _set_json(self, wall: WallMap) -> dict | EncodedJson:
        """A checked set as the journal keeps it: the text written as it was built, when it is that set
        (nothing changes a set once checked: it was encoded twice a hand, below and risen)."""
        if self._built is not None and self._built[0] is wall:
            return self._built[1]
        return wall.to_json()
