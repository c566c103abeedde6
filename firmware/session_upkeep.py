"""What a session looks after around its hands, apart from playing them: the room left on the storage
card, steps of the wall clock, a new flight-recorder file each day, and the ledger's intervals a fault
was latched (its table hours).

Each is asked by the session (`firmware/session.py`) at its moments and writes through the store, off
the loop; none of them holds play up but the new day's file, which the next hand's lines must follow.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import Future
from pathlib import Path
from typing import Callable

from .clock_watch import ClockWatch
from .controller import TableController
from .journal import HandJournal
from .records.ledger import RECORDER_KEY, Ledger
from .records.recorder import RecorderFiles
from .records.space import SpaceWatch
from .records.store import Store

log = logging.getLogger("firmware.session")
SessionId = Callable[[], "int | None"]          # the session open now (None before the first opens)


class Upkeep:
    """The card's room, the wall clock's steps and the recorder's file of the day, for one session."""

    CLOCK_LOOK_S = 5.0          # a look is two clock reads: cheap, and a step is kept within seconds

    def __init__(self, hub: TableController, ledger: Ledger, store: Store, journal: HandJournal,
                 recorder_files: RecorderFiles | None, session_id: SessionId) -> None:
        """`recorder_files`: where the recorder's file is the events folder's, a new one each day."""
        self._hub = hub
        self._ledger = ledger
        self._store = store
        self._journal = journal
        self._recorder_files = recorder_files
        self._session_id = session_id
        self.space = SpaceWatch(self._storage_folders())   # room on the card, asked after each hand
        self._clock = ClockWatch(ledger.clock)              # a step of the wall clock is not time played
        self._space_task: asyncio.Task | None = None
        self._clock_task: asyncio.Task | None = None
        hub.card_room = self.card_room                      # (the service page shows it)

    def start(self) -> None:
        """The card looked at now, the clock from now on."""
        self.look_at_space()
        self._clock_task = asyncio.get_running_loop().create_task(self._watch_clock(), name="clock")

    def tasks(self) -> list[asyncio.Task]:
        """Its tasks, to cancel as the session stops."""
        tasks = [t for t in (self._space_task, self._clock_task) if t is not None]
        self._space_task = self._clock_task = None
        return tasks

    # -- room on the card -------------------------------------------------------------------------

    def _storage_folders(self) -> list[Path]:
        files = [self._ledger.path if self._ledger.path != ":memory:" else None, self._ledger.events]
        return [Path(os.path.abspath(f)).parent for f in files if f]

    def look_at_space(self) -> None:
        """Ask the card how much room is left (off the loop; never waited for): said once when it runs
        low, and once when there is room again."""
        if self._space_task is None or self._space_task.done():
            self._space_task = asyncio.get_running_loop().create_task(self._say_space(), name="space")

    async def _say_space(self) -> None:
        space = await self.space.change()
        if space is None:
            return
        if self.space.low:
            self._hub.recorder.emit(
                "warning", hand=0, storage="low", free_mb=space.free_mb, total_mb=space.total_mb,
                message=f"the storage card is nearly full: {space.free_mb} MB free of {space.total_mb} MB; a full card "
                        "stops the table (E24): move old flight recorders off it (mahjong-table records move "
                        "--before YYYY-MM-DD --to DIR), or fit a larger card")
        else:
            self._hub.recorder.emit("storage_room", hand=0, free_mb=space.free_mb, total_mb=space.total_mb)

    def card_room(self) -> tuple[int, int] | None:
        last = self.space.last
        return (last.free_mb, last.total_mb) if last is not None else None

    # -- steps of the wall clock ----------------------------------------------------------------

    async def _watch_clock(self) -> None:
        while True:
            await asyncio.sleep(self.CLOCK_LOOK_S)
            self.look_at_clock()

    def look_at_clock(self) -> None:
        """A step of the wall clock: said once, and kept with the session for its hours."""
        step = self._clock.look()
        if step is None:
            return
        log.warning("%s", step.words())
        session = self._session_id()
        if session is not None:
            self._store.submit(self._ledger.clock_stepped, session, step.before, step.after)

    # -- the recorder's file of the day ---------------------------------------------------------------

    def recorder_file(self) -> str | None:
        """This run's flight recorder file, as the journal names it (None: the run keeps none)."""
        return os.path.abspath(self._ledger.events) if self._ledger.events is not None else None

    async def new_day_new_file(self) -> None:
        """The first hand begun on a later day than the recorder's file begins a new file (a table
        left on wrote one file for ever, which `records move` can never take): the file ends with a
        `recorder_end` saying `continued`, and the next goes on from its chain, as a restart's does.
        Not while lines wait for a refusing card (they are this file's), nor on a file that holds no
        hand yet (two files would begin from the same head)."""
        files, recorder = self._recorder_files, self._hub.recorder
        if files is None or not recorder.hands_ended or not files.due() or recorder.lines_owed():
            return
        recorder.end_file()
        path = os.path.abspath(await self._store.run(files.next_file))     # behind the last line of the file before
        self._ledger.events = path              # the hands settled from here name it (every earlier one is written)
        await self._journal.written(self._ledger.journal_put, RECORDER_KEY, {"path": path, "chain": recorder.chain_head()})
        log.info("a new day: the flight recorder goes on in %s", path)


class FaultHours:
    """The ledger's intervals a fault was latched (table hours; the ledger keeps them raw): opened,
    widened and closed after every change at the hub, by the store's thread, in order (an interval's
    id is known there when it is closed)."""

    def __init__(self, hub: TableController, ledger: Ledger, store: Store, session_id: SessionId) -> None:
        self._hub = hub
        self._ledger = ledger
        self._store = store
        self._session_id = session_id
        self._interval: Future | None = None      # the open interval, as the store gives it
        self._codes: set[str] = set()             # every fault latched in it so far
        hub.watch(self.note)

    def session_changed(self) -> None:
        """A new session: the interval open (ended with the session before) is not this one's."""
        self._interval = None

    def note(self) -> None:
        latched = [f for f in self._hub.faults.latched() if not f.stop_asked]
        codes = {f.label for f in latched}
        session = self._session_id()
        if latched and self._interval is None and session is not None:
            self._codes = codes
            self._interval = self._store.submit(self._ledger.fault_started, session, sorted(codes))
        elif latched and self._interval is not None and not codes <= self._codes:
            # a fault latched while others were: the interval names it too (it kept only the first ones)
            self._codes = every = self._codes | codes
            opened = self._interval
            self._store.submit(lambda: self._ledger.fault_codes(opened.result(), sorted(every)))
        elif not latched and self._interval is not None:
            opened, self._interval = self._interval, None
            self._store.submit(lambda: self._ledger.fault_ended(opened.result()))
