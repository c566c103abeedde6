"""The hand's journal: the open hand, with the boards' last events applied to it, kept in the
ledger's database so that a restarted controller goes on from it.

Every event of an open hand changes its state; the writer (`_write_changes`) journals the latest
state whenever the store's thread is free, a moment (`GATHER_S`) after a change so that the events
of a burst share a commit (intermediate states are skipped, never reordered).
Two things ride on each commit:

- the boards' events it covers may be acknowledged only once it is committed: a controller killed
  before gets them again from the boards, one killed after skips them (`journaled_links`);
- the flight recorder's lines of the hand reach the file only behind it: a restarted controller
  never finds in the file a take it does not know of, nor a hand it cannot resume.

A card that refuses writes (E24) is waited out here (`until_landed`): the write is tried again
every `STORAGE_RETRY_S`, the boards' events stay unacknowledged meanwhile, so play waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
from typing import Any, Awaitable, Callable, Iterator, TypeVar

from drivers.client import BoardClient
from drivers.link import EventMark, SessionRef

from .controller import TableController
from .hand.state import HandState
from .records.ledger import HAND_KEY, EncodedJson, Ledger
from .records.store import WRITE_ERRORS, Store

LINKS_KEY = "links"                # each board's link session and the last event of it applied
STORAGE_RETRY_S = 2.0              # a disk write that failed (E24) is tried again after this long
GATHER_S = 0.005                   # a change waits this long for more before it is committed…
GATHER_EVENTS = 16                 # …or until a board has this many events waiting for it (half its window)
T = TypeVar("T")


class HandJournal:
    """Journals the open hand (and the boards' sessions) for the session that owns it."""

    def __init__(self, hub: TableController, ledger: Ledger, store: Store,
                 open_hand: Callable[[], HandState | None], begun_replaces: tuple[str, ...] = ()) -> None:
        """`open_hand` gives the hand in play (None between hands); a hand begun takes the place of
        the journal's `begun_replaces` keys (the set it is played on) in one transaction."""
        self._hub = hub
        self._ledger = ledger
        self._store = store
        self._open_hand = open_hand
        self._begun_replaces = begun_replaces
        self._changed = asyncio.Event()
        self._gathered = asyncio.Event()      # a board has GATHER_EVENTS events waiting for a commit
        self._released: dict[str, EventMark] = {}     # each board's last event released (its commit landed)
        self._text: str | None = None         # the hand's state as the journal is known to hold it (encoded)
        self._settling = False                # the hand's ledger row is being written: not journaled again
        self._applied_before: dict[str, EventMark] = {}    # what the last run journaled as applied
        self._task: asyncio.Task | None = None

    # -- the writer ------------------------------------------------------------------------------

    def start(self, saved: dict[str, dict]) -> None:
        """Begin journaling (before the hub starts: the boards' first events wait for it to be
        acknowledged); `saved` is the journal the last run left."""
        self._applied_before = _applied_marks(saved.get(LINKS_KEY, {}))
        for client in (self._hub.devices.motor, self._hub.devices.rfid):
            client.link.hold_acks()             # an event is acknowledged once its journal write commits
        self._task = self._hub.guard(asyncio.create_task(self._write_changes(), name="journal"))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    @property
    def running(self) -> bool:
        return self._task is not None

    def pending(self) -> bool:
        """A change not yet handed to the writer (or the writer not started)."""
        return self._changed.is_set() or self._task is None

    def changed(self) -> None:
        """Something to journal: an event applied, a board's session opened or resumed."""
        self._changed.set()
        if not self._gathered.is_set() and self._a_board_waits():
            self._gathered.set()

    def _a_board_waits(self) -> bool:
        """A board has GATHER_EVENTS events applied that no landed commit released yet."""
        for source, mark in self._hub.applied.items():
            released = self._released.get(source)
            if released is None or released.session != mark.session or \
                    (mark.seq - released.seq) & 0xFF >= GATHER_EVENTS:
                return True
        return False

    async def _write_changes(self) -> None:
        while True:
            await self._changed.wait()
            # A moment before the state is taken: the events that arrive meanwhile (the other board's,
            # the rest of a burst) are applied first and ride on the same commit.  Committing at once,
            # a hand at full speed took half again as many commits (each a write, acknowledgements, the
            # hand encoded) for the same events; their acknowledgements wait that moment more (the link
            # holds one up to 30 ms anyway: drivers.link_session.event_ack_delay).  Never while a board
            # has half its window waiting: behind a full window (EVENT_WINDOW, 32) a key pressed reaches
            # the table late — gathering whole bursts, a stale 确认 came in after the push-in had dropped
            # the stale ones (it is now judged by the board's own order: firmware/plates.py), and any key
            # behind a full window waits that much longer to be answered.
            if not self._gathered.is_set():
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(GATHER_S):
                        await self._gathered.wait()
            self._changed.clear()
            self._gathered.clear()
            await self.until_landed(self._commit)

    async def now(self) -> None:
        """The hand as it stands, committed now (behind whatever was queued before): a win is shown
        only once a restart would know it."""
        await self.until_landed(self._commit)

    async def _commit(self) -> None:
        """The hand (if one is open and not settling) with the boards' last events applied to it, in
        one transaction; the hand's lines reach the file behind it; once committed, those events may
        be acknowledged."""
        marks = dict(self._hub.applied)
        put: dict[str, dict | EncodedJson] = {LINKS_KEY: self._links_row(marks)}
        hand = self._open_hand()
        state = None
        if hand is not None and not self._settling:
            state = hand.journal_text()
            # most events (the next set's build) leave the hand as it was.  Compared with what is known
            # to have landed, not with what was queued: a commit that skipped a hand still in flight
            # landed alone (a small write a full card still takes) when the hand's write was refused,
            # let the lines and the boards' events it covers through, and a restart found takes in the
            # file its journal never held (campaign 650071, 螺山: slots taken twice)
            if state != self._text:
                put[HAND_KEY] = EncodedJson(state)
        written = self._store.queue(self._ledger.journal_swap, put)
        self._hub.recorder.release_lines()
        try:
            await written
            if HAND_KEY in put and not self._settling:      # (a settling ledger row drops it from the journal)
                self._text = state
            if self._store.told:
                await self._recorder_caught_up()
        except BaseException:
            self._text = None                   # not known to be written: the next commit writes it whole
            raise
        for source, mark in marks.items():
            self._client(source).link.release(mark)
            self._released[source] = mark

    async def _recorder_caught_up(self) -> None:
        """While the card refuses writes: the lines queued behind the journal write are tried too, and
        if the card still refuses them the events they record stay unacknowledged (play waits for the
        card, as it does for the journal), so no hand is played that its flight recorder lacks."""
        await self._store.caught_up()
        if self._hub.recorder.lines_owed():
            raise OSError(errno.ENOSPC, "the flight recorder's lines are not written yet")

    # -- writes the table waits for ------------------------------------------------------------------

    async def written(self, write: Callable[..., Any], *args: Any) -> Any:
        """A write the table waits for (`store.run`), through a disk that refuses it for a while."""
        return await self.until_landed(lambda: self._store.run(write, *args))

    async def until_landed(self, attempt: Callable[[], Awaitable[T]]) -> T:
        """`attempt()` (a write awaited), tried again every `STORAGE_RETRY_S` while the disk refuses it:
        E24 is shown meanwhile (`Store.watch`), and the boards' events wait unacknowledged, so play
        waits; E24 clears once the disk is back (`Store.landed`)."""
        while True:
            try:
                result = await attempt()
            except WRITE_ERRORS:
                await asyncio.sleep(STORAGE_RETRY_S)
                continue
            if self._store.told:
                await self._store.caught_up()   # the lines behind it tried too: E24 goes only when they land
            if self._store.landed():
                self._hub.storage_back()
            return result

    # -- the hand's moments ----------------------------------------------------------------------------

    def on_event(self, event: dict) -> None:
        """Every recorder event of an open hand changes its state: journal it (coalesced).  Its line
        (held by the recorder) reaches the file only behind the journal write that covers it."""
        hand = self._open_hand()
        recorder = self._hub.recorder
        if event["event"] == "hand_start" and hand is not None:      # the set on the table is the hand's now
            self._text = None                   # not waited for: the next commit writes the hand again
            self._store.submit(self._ledger.journal_swap, {HAND_KEY: EncodedJson(hand.journal_text()),
                                                           LINKS_KEY: self._links_row(dict(self._hub.applied))},
                               self._begun_replaces)
            recorder.release_lines()
        elif hand is not None and not self._settling:
            self._changed.set()                 # the writer releases the line
        else:
            recorder.release_lines()

    @contextlib.contextmanager
    def settling(self) -> Iterator[None]:
        """While the hand's ledger row is written: the ledger's commit drops the hand from the journal,
        so it is not journaled again."""
        self._settling = True
        self._text = None
        try:
            yield
        finally:
            self._settling = False

    def forget_hand(self) -> None:
        """The journal's hand was dropped: the next one is written whole."""
        self._text = None

    def put(self, key: str, value: dict | None) -> None:
        """Journal `key` (None: drop it), in order behind the writes queued before."""
        if value is None:
            self._store.submit(self._ledger.journal_drop, key)
        else:
            self._store.submit(self._ledger.journal_put, key, value)

    async def at_stop(self, session: int | None) -> None:
        """The hand's latest state, written before the store closes: the coalescing writer may be
        several takes (and a 杠 or 听 the sensors cannot give back) behind when it is cancelled."""
        hand = self._open_hand()
        links = self._links_row(dict(self._hub.applied))
        if hand is None or self._settling or session is None:
            await self._store.run(self._ledger.journal_put, LINKS_KEY, links)
            return
        self._text = None                       # written whole, or not at all if the ledger holds it
        await self._store.run(self._put_open_hand, session, hand.number, hand.to_json(), links)

    def _put_open_hand(self, session: int, number: int, state: dict, links: dict) -> None:
        """On the writer thread: journal a hand unless its ledger row is written (a stop that came
        while it settled must not bring a settled hand back), and the events applied to it."""
        if not self._ledger.has_hand(session, number):
            self._ledger.journal_swap({HAND_KEY: state, LINKS_KEY: links})
        else:
            self._ledger.journal_put(LINKS_KEY, links)

    # -- the boards' sessions ----------------------------------------------------------------------------

    def _client(self, source: str) -> BoardClient:
        return self._hub.devices.motor if source == "motor" else self._hub.devices.rfid

    def _links_row(self, marks: dict[str, EventMark]) -> dict[str, list]:
        """Each board's session and the last event of it applied (None: none known), for the next start."""
        row: dict[str, list] = {}
        for source in ("motor", "rfid"):
            ref = self._client(source).link.session_ref
            if ref is None:
                continue
            mark = marks.get(source)
            if mark is None or mark.session != ref.session:
                mark = self._applied_before.get(source)         # nothing applied yet in this run
            applied = mark.seq if mark is not None and mark.session == ref.session else None
            row[source] = [ref.session, ref.boot_counter, applied]
        return row


def journaled_links(ledger: Ledger) -> dict[str, SessionRef]:
    """The link sessions the last run journaled (to resume them when the boards are opened), each
    with the last event of it applied: the boards resend every event not acknowledged, and those
    the journal already holds are skipped."""
    saved = ledger.journal().get(LINKS_KEY, {})
    return {source: SessionRef(int(ref[0]), ref[1], ref[2] if len(ref) == 3 and isinstance(ref[2], int) else None)
            for source, ref in saved.items()
            if isinstance(ref, list) and len(ref) in (2, 3) and isinstance(ref[0], int)}


def _applied_marks(links: dict) -> dict[str, EventMark]:
    """The journaled links row as marks: what a restarted controller applied before in each session."""
    return {source: EventMark(ref[0], ref[2]) for source, ref in links.items()
            if isinstance(ref, list) and len(ref) == 3 and isinstance(ref[0], int) and isinstance(ref[2], int)}
