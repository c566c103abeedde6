"""Disk work off the event loop: one writer thread per table, in the order it was asked.

The loop is sacred (DESIGN.md §3): an fsync on a Pi's SD card can take tens of milliseconds, a
stalled card seconds.  Everything that touches the disk during play — the ledger's commits, the
journal, the remembered panel choice, the flight recorder's lines — goes through one `Store`, a
single worker thread, so the loop only ever waits on a future (or not at all), and writes land in
the order they were made: the ledger's commit of a hand always before the recorder's `hand_end`.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import sqlite3
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, TextIO, TypeVar

from ..logs import Repeats

T = TypeVar("T")
log = logging.getLogger("firmware.store")

# What a disk that is full, read-only or failing raises (the ledger is SQLite, the recorder a file)
WRITE_ERRORS = (sqlite3.Error, OSError)
FailureWatcher = Callable[[BaseException], None]
# …of which two no retry mends: the ledger file damaged (a bad page found as it is written: before,
# told as a full card, "goes on once it lands", and it never landed), and a card turned read-only
DAMAGED, READ_ONLY, LOCKED, REFUSED = "damaged", "read-only", "locked", "refused"
_DAMAGED_CODES = (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
_DAMAGED_WORDS = ("malformed", "not a database", "is damaged", "Could not decode to UTF-8")
KEPT: Any = object()      # what a write that kept its work for later returns: it says nothing of the disk
SLOW_WRITE_S = 2.0        # a write this slow holds play (the boards' events wait for the journal): said
SLOW_QUIET_S = 60.0       # …at most once this often, with how many more and the slowest


def disk_trouble(error: BaseException) -> str:
    """What a refused write says of the disk: DAMAGED (the database file is corrupt), READ_ONLY (the
    card or its file system turned read-only, or failed a write: an I/O error), LOCKED (another
    program holds a write on the file: a retry lands once it lets go) or REFUSED (full or failing: a
    retry may land)."""
    code = getattr(error, "sqlite_errorcode", None)
    text = str(error)
    if (code is not None and code & 0xFF in _DAMAGED_CODES) or any(words in text for words in _DAMAGED_WORDS):
        return DAMAGED
    # (ext4 remounting the card read-only after an error — the Pi's default — reaches SQLite as an I/O
    # error, not as SQLITE_READONLY: a verifying probe saw the full card's words for it)
    if (code is not None and code & 0xFF in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR)) or \
            "readonly database" in text or "disk I/O error" in text or \
            getattr(error, "errno", None) in (errno.EROFS, errno.EIO):
        return READ_ONLY
    if (code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)) or \
            "database is locked" in text:
        return LOCKED
    return REFUSED


# What to do, by `disk_trouble`: the log says it with the refused write, and E24's hint says it
# (firmware/faults.py STORAGE_HINTS): one text for both, not two that drift apart
TROUBLE_WORDS = {
    DAMAGED: ("the ledger file is damaged and cannot take the hand's result: stop the table, copy table.db and "
              "its -wal off the card and keep them (they hold the money), save what is readable with "
              "`sqlite3 table.db .recover`, and replace the card"),
    READ_ONLY: ("the card turned read-only or failed a write (a file-system error?): restart the Pi; if it comes "
                "back, replace the card"),
    LOCKED: ("another program holds a write on the ledger's file (a sqlite3 shell left open?): close it; the table "
             "goes on by itself once the write lands"),
}
RETRIED = "the ledger and journal writes are retried; the flight recorder's lines wait and are written behind them"


def trouble_words(error: BaseException) -> str:
    """What the log says to do about a refused write, by `disk_trouble`."""
    return TROUBLE_WORDS.get(disk_trouble(error), RETRIED)


class Store:
    """A single worker thread for the table's disk writes."""

    def __init__(self, name: str = "table-store") -> None:
        self.name = name                # whose writes: the log says what follows a refused one
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._closed = False
        self.failures = 0               # writes the disk refused (counted on the writer thread)
        self._failures_seen = 0         # …as `landed` last saw them
        self._told = False              # a failure was told, and no `landed` has said the disk is back
        self.refusing = False           # the writer thread's last disk work was refused (set on that thread, in order)
        self._watch: tuple[asyncio.AbstractEventLoop, FailureWatcher] | None = None
        self._slow = SlowWrites(name)   # (on the writer thread)

    def watch(self, on_failure: FailureWatcher) -> None:
        """On this loop: `on_failure(error)` when the disk refuses a write, once until `landed` says
        it is back (the hub shows E24 in between)."""
        self._watch = (asyncio.get_running_loop(), on_failure)

    def landed(self) -> bool:
        """A write the caller waited for landed: True when the disk is back, that is when a failure
        was told and no write failed since the last call (a journal commit lands while the flight
        recorder's lines still fail: not back)."""
        clean = self.failures == self._failures_seen
        self._failures_seen = self.failures
        if not (clean and self._told):
            return False
        self._told = False
        log.info("disk writes land again")
        return True

    @property
    def told(self) -> bool:
        """A refused write was told (E24 shown) and no `landed` has said the disk is back since."""
        return self._told

    async def caught_up(self) -> None:
        """Until everything queued so far has been tried (saying nothing of the disk: the writes
        queued behind one that landed — the recorder's lines — have had their turn)."""
        await asyncio.wrap_future(self._executor.submit(lambda: None))

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on the writer thread, after everything asked before it; await its result."""
        return await self.queue(fn, *args)

    def queue(self, fn: Callable[..., T], *args: Any) -> "asyncio.Future[T]":
        """Queue `fn(*args)` now, in order, and return what to await for its result (or its error):
        for a caller that must queue something else right behind it before waiting.  The writer
        thread hands the answer to the loop itself (`_answer`): chained through the executor's own
        future (asyncio.wrap_future), each of the journal's commits cost as much again in callbacks
        and locks as its trip to the thread."""
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._executor.submit(self._answer, answer, fn, args)
        return answer

    def _answer(self, answer: "asyncio.Future[T]", fn: Callable[..., T], args: tuple) -> None:
        """On the writer thread: `fn(*args)` for `queue`, its result or its error handed to the loop.
        A refusal is counted (and told) before the waiter hears of it, as `_done` does for `submit`.
        Not run if its waiter gave up before its turn came (as a cancelled executor job is not)."""
        if answer.cancelled():
            return
        result, error = None, None
        try:
            result = self._tracked(fn, *args)
        except BaseException as raised:     # (handed on: the waiter raises it)
            error = raised
            self._refused(error)
        loop = answer.get_loop()
        if not loop.is_closed():            # (a table stopped meanwhile: nobody waits any more)
            loop.call_soon_threadsafe(_settle, answer, result, error)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """Run `fn(*args)` on the writer thread without waiting; a failure is logged, never lost.  Asked
        once the store has closed (a fault latched as the table stops: its port closing), it is said
        in the log and left: there is no disk to write to any more (it was a traceback)."""
        try:
            future = self._executor.submit(self._tracked, fn, *args)
        except RuntimeError:                # (the executor shut down: "cannot schedule new futures")
            log.warning("a disk write asked after the table's files were closed was not made: %s",
                        getattr(fn, "__qualname__", fn))
            future = Future()
            future.cancel()
            return future
        future.add_done_callback(self._done)
        future.add_done_callback(_log_failure)
        return future

    def _tracked(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` on the writer thread, noting there whether the disk refused it: the work queued
        behind it sees the answer in order (a done-callback may run later, on another thread)."""
        started = time.monotonic()
        try:
            result = fn(*args)
        except WRITE_ERRORS:
            self.refusing = True
            raise
        finally:
            self._slow.took(time.monotonic() - started)
        if result is not KEPT:
            self.refusing = False
        return result

    def _done(self, future: Future) -> None:
        """On the writer thread: a write the disk refused is counted (`_refused`)."""
        if not future.cancelled():
            self._refused(future.exception())

    def _refused(self, error: BaseException | None) -> None:
        """On the writer thread: a write the disk refused is counted; the first after the disk was
        last known good is logged and told (the ones after it are not logged again)."""
        if error is None or not isinstance(error, WRITE_ERRORS):
            return                      # landed, or a bug (logged with its traceback by its waiter or `_log_failure`)
        self.failures += 1
        if self._told:
            return
        self._told = True
        if self.name == "table-store":      # only the table's store holds a ledger, a journal and a recorder
            log.error("a disk write failed: %s (%s)", error, trouble_words(error))
        else:
            log.error("a disk write failed in the %s: %s", self.name, error)
        if self._watch is not None and not self._watch[0].is_closed():
            loop, on_failure = self._watch
            loop.call_soon_threadsafe(on_failure, error)

    def drain(self) -> None:
        """Block until everything asked so far is written (at shutdown, off the loop or at its end)."""
        self._executor.submit(lambda: None).result()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._executor.shutdown(wait=True)


def _settle(answer: "asyncio.Future[Any]", result: Any, error: BaseException | None) -> None:
    """On the loop: a queued write's answer, unless its waiter gave up meanwhile."""
    if answer.cancelled():
        return
    if error is not None:
        answer.set_exception(error)
    else:
        answer.set_result(result)


def _log_failure(future: Future) -> None:
    """A write that was not waited for failed for another reason than the disk: a bug, never lost."""
    error = None if future.cancelled() else future.exception()
    if error is not None and not isinstance(error, WRITE_ERRORS):
        log.error("a disk write failed: %s", error, exc_info=error)


class ThreadedSink:
    """A text stream whose writes happen on the store's thread (the flight recorder's file).

    `write` only queues the line; the file sees the lines in order and is flushed after each one,
    so a reader (or a crash) never finds half a line that was not written whole.  While the disk
    refuses the work queued before them (the journal write that covers them), lines are kept here
    and go out behind the next write that lands: a full card loses none of them, and the file never
    holds a line whose journal write did not land.  A target that keeps what it could not write
    (`firmware.cli.files.EventsFile`) is written again from there; a plain file loses what a failed
    write did not take.
    """

    def __init__(self, target: TextIO, store: Store, close_target: bool = True) -> None:
        self._target = target
        self._store = store
        self._close_target = close_target
        self._lock = threading.Lock()
        self._held: list[str] | None = None      # lines kept back until `release` (None: not holding)
        self._unsent: list[str] = []             # lines kept while the disk refuses (writer thread only)
        self._owed = False                       # the target's last write failed: it may still hold lines
        self._sync_held = False                  # a sync asked while lines were held: it follows their release

    def write(self, text: str) -> int:
        if self._held is not None:
            self._held.append(text)
        else:
            self._store.submit(self._write_now, text)
        return len(text)

    def hold(self) -> None:
        """Keep lines back until `release`: the session lets a hand's lines reach the file only
        after the journal write that covers them is queued (the store writes in order), so the
        file never holds what a restarted controller would not know it recorded."""
        if self._held is None:
            self._held = []

    def release(self, keep_holding: bool = True) -> None:
        """Queue every line kept back (after whatever was queued before this call), and another try
        for lines a refusing disk left unsent: behind a journal write tried again, they are too."""
        lines = self._held or []
        self._held = [] if keep_holding else None
        if lines or self._unsent or self._owed:
            self._store.submit(self._write_now, "".join(lines))
        if self._sync_held:
            self._sync_held = False
            self._store.submit(self._sync_now)

    def sync(self) -> None:
        """The lines written so far onto the card itself (the target's `sync`, an fsync), on the
        store's thread behind them; lines held back are synced once released."""
        if self._held is not None:
            self._sync_held = True
        else:
            self._store.submit(self._sync_now)

    def _sync_now(self) -> None:
        sync = getattr(self._target, "sync", None)
        with self._lock:
            if sync is not None and not (self._unsent or self._owed):     # (lines a full card kept: at their write)
                sync()

    def _write_now(self, text: str, gated: bool = True) -> Any:
        with self._lock:
            if text:
                self._unsent.append(text)
            if gated and self._store.refusing:
                return KEPT                     # the E24 is told already; these go out behind the next landing
            lines, self._unsent = "".join(self._unsent), []
            self._owed = True                   # until the target says it took everything
            if lines:
                self._target.write(lines)
            self._target.flush()                # (a target that kept what a full disk refused writes it here)
            self._owed = False
        return None

    def owed(self) -> bool:
        """Lines a refusing disk has not taken yet (as the writer thread last left them)."""
        return bool(self._unsent) or self._owed

    def flush(self) -> None:
        pass                    # each line is flushed on the writer thread once written

    def close(self) -> None:
        self.release(keep_holding=False)
        self._store.submit(self._write_now, "", False)     # the last try for lines kept while refused
        self._store.drain()
        if self._close_target:
            self._target.close()


class SlowWrites:
    """Writes that took long enough to hold play, said in the log: a card that only slows (worn, or
    failing) refuses nothing, so E24 never shows, and play stopped for half a minute without a word
    (a probe: three seconds an fsync).  Said at once, then at most once every SLOW_QUIET_S."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._said = Repeats(SLOW_QUIET_S, lambda slowest: f"the slowest {slowest:.1f} s")

    def took(self, seconds: float, now: float | None = None) -> None:
        if seconds < SLOW_WRITE_S:
            return
        more = self._said.say(seconds, time.monotonic() if now is None else now)
        if more is not None:
            log.warning("%s: a disk write took %.1f s; the table waits for its writes, so play paused meanwhile: "
                        "a slow, worn or failing storage card? replace it%s", self._name, seconds, more)


__all__ = ["DAMAGED", "KEPT", "LOCKED", "READ_ONLY", "REFUSED", "SlowWrites", "Store", "TROUBLE_WORDS",
           "ThreadedSink", "WRITE_ERRORS", "disk_trouble", "trouble_words"]
