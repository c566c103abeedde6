"""The flight recorder's file on the card: whole lines only, synced at each hand's end, and written
again whole if it is deleted while the table runs."""

from __future__ import annotations

import logging
import os
import sys
from datetime import date
from pathlib import Path
from typing import Callable

from .whole_file import write_all

log = logging.getLogger(__name__)

CHUNK = 1 << 20        # bytes copied at a time when a deleted file is written again


class EventsFile:
    """A flight recorder file opened at its first line: a run that stops before any event leaves
    no empty file.  `exclusive` files are new (O_EXCL, owner-only); an old one is never truncated.

    Written straight to its descriptor: what the disk does not take (a full card) is kept and
    written first at the next write; a line the disk took only part of is cut back off the file, so
    the file holds whole lines only, even if the controller dies before the card has room again.
    The write that could not finish raises, as any refused write does.

    A file deleted while the table runs (by hand, by a clean-up script) lived on only in the
    descriptor: every line of the run, the audit's evidence, would have gone at the close, and the
    next start would not find the chain's head.  At each hand's end (`sync`) and at the close, such
    a file is written again at its name, whole, from the descriptor, and the lines go on there."""

    def __init__(self, path: Path, exclusive: bool) -> None:
        self.path = path
        self.exclusive = exclusive
        self._fd: int | None = None
        self._unwritten = bytearray()       # whole lines not yet on the disk (their first bytes may be)
        self._on_disk = 0                   # …this many of them: part of a line the disk took before it refused
        self._write = os.write              # (a test's full card stands in here)
        self._restore_failed = False        # said once until a restore succeeds

    def write(self, text: str) -> int:
        self._unwritten += text.encode("utf-8")
        self._push()
        return len(text)

    def flush(self) -> None:
        self._push()

    def sync(self) -> None:
        """What was written, onto the card (fsync): the recorder asks at each hand's end.  A file
        deleted meanwhile is written again first."""
        if self._fd is not None:
            self._restore_if_deleted()
            os.fsync(self._fd)

    def _push(self) -> None:
        """Write what is unwritten; a line the disk took only part of before refusing more is taken
        back (the file is cut to the line before it) and written whole at the next call."""
        if self._fd is None and self._unwritten:
            self._fd = self._open()
        while self._unwritten:
            try:
                done = self._write(self._fd, self._unwritten[self._on_disk:])
            except OSError:
                if self._on_disk:
                    end = os.lseek(self._fd, -self._on_disk, os.SEEK_CUR)
                    os.ftruncate(self._fd, end)
                    self._on_disk = 0
                raise
            self._on_disk += done
            whole = self._unwritten.rfind(b"\n", 0, self._on_disk) + 1
            del self._unwritten[:whole]
            self._on_disk -= whole

    def close(self) -> None:
        if self._fd is None:
            return
        try:
            self._push()
            self._restore_if_deleted()
        except OSError as error:        # a full or failing card: its last lines are lost, said in one line
            print(f"mahjong-table: the flight recorder {self.path} was not written to its end ({error.strerror}): "
                  "free space on the card", file=sys.stderr)
        finally:
            os.close(self._fd)
            self._fd = None

    def _restore_if_deleted(self) -> None:
        """The file gone from its folder (no name left: a file moved elsewhere keeps one and is left
        where it went) is written again at its name from the descriptor, which the lines then go on
        into.  Said in the log; a restore that cannot be made (the folder removed, the card full, a
        new file at that name) is said once, and tried again at the next hand's end."""
        assert self._fd is not None
        if os.fstat(self._fd).st_nlink:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600 if self.exclusive else 0o666)
        except OSError as error:
            return self._not_restored(error)
        try:
            _copy(self._fd, fd)
            os.fsync(fd)
        except OSError as error:
            os.close(fd)
            _remove(self.path)
            return self._not_restored(error)
        os.close(self._fd)
        self._fd = fd
        self._restore_failed = False
        log.warning("the flight recorder %s was deleted while the table ran: written again there, whole, from the "
                    "open file. Recorders are the audit's evidence: move old ones off the card with "
                    "`mahjong-table records move`, never delete them", self.path)

    def _not_restored(self, error: OSError) -> None:
        if not self._restore_failed:
            self._restore_failed = True
            log.warning("the flight recorder %s was deleted while the table ran and cannot be written again there "
                        "(%s): its lines go on into the open file and are lost when the table stops; make its "
                        "folder writable again (tried again at each hand's end)", self.path, error.strerror or error)

    def _open(self) -> int:
        # read and write: a file deleted while open is copied back from its descriptor
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC
        if not self.exclusive:
            return os.open(self.path, flags | os.O_TRUNC, 0o666)
        return os.open(self.path, flags | os.O_EXCL, 0o600)


class EventsFolder:
    """The flight recorder in the events folder: a new file at each start and, for a table left on,
    with the first hand begun on a later day (`next_file`, asked by the session between hands), so
    `records move` can take the days before without a restart (a table never restarted wrote one
    file for ever, which `records move` could never take).  The lines go to the file now (an
    `EventsFile`: new, owner-only, opened at its first line)."""

    def __init__(self, name_next: Callable[[], Path], today: Callable[[], date] = date.today) -> None:
        self._name_next = name_next
        self._today = today
        self._file = EventsFile(name_next(), exclusive=True)
        self._day = today()

    @property
    def path(self) -> Path:
        return self._file.path

    def write(self, text: str) -> int:
        return self._file.write(text)

    def flush(self) -> None:
        self._file.flush()

    def sync(self) -> None:
        self._file.sync()

    def close(self) -> None:
        self._file.close()

    def due(self) -> bool:
        return self._today() != self._day

    def next_file(self) -> str:
        self._file.close()
        self._file = EventsFile(self._name_next(), exclusive=True)
        self._day = self._today()
        return str(self._file.path)


def _copy(source: int, target: int) -> None:
    """Every byte of `source` (from its start, whatever its position) onto the end of `target`."""
    offset = 0
    while chunk := os.pread(source, CHUNK, offset):
        write_all(target, chunk)
        offset += len(chunk)


def _remove(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


__all__ = ["EventsFile"]
