"""One program at a time drives a table.

Two controllers on the same boards would each read half of every board's bytes and answer the
other's events; `enroll` beside a running controller would fight it for the RFID board and change
the registry under its cache.  So `run` and `enroll` on a real table hold an exclusive lock on
`controller.lock` in the table's state folder for as long as they run; a second one is refused in
one line naming the holder and how to stop it.  The lock is the kernel's (flock): a controller that
dies, even by SIGKILL or a power cut, holds nothing.  The file stays (removing it would let two
programs lock two different files); it holds the holder's name, pid and start time.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import time
from pathlib import Path
from typing import Iterator

from .errors import UserError
from .files import CardFull, TableBusy, ensure_dir

LOCK_NAME = "controller.lock"


@contextlib.contextmanager
def table_held(state_dir: Path, doing: str) -> Iterator[None]:
    """Hold the table in `state_dir` (created if missing: it holds the tile registry) while the body
    runs, for `mahjong-table <doing>`."""
    path = ensure_dir(state_dir, "tile registry") / LOCK_NAME
    fd = _open(path)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd) or "another program"
            raise TableBusy(f"{holder} is driving this table ({path}): stop it first "
                            f"(sudo systemctl stop mahjong-table, or Ctrl-C where it runs), then {doing} again") from None
        _write_holder(fd, doing)
        yield
    finally:
        os.close(fd)


def _open(path: Path) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError as error:
        if error.errno == errno.ENOSPC:
            raise CardFull(f"{path}: cannot create the table's lock ({error.strerror})", path.parent) from None
        raise UserError(f"cannot create {path} ({error.strerror}): the state folder must be writable by "
                        "the table's user") from None


def _holder(fd: int) -> str:
    with contextlib.suppress(OSError):
        return os.pread(fd, 300, 0).decode("utf-8", "replace").strip()
    return ""


def _write_holder(fd: int, doing: str) -> None:
    """Who holds the table, for the one line a second program says; a full card keeps it empty."""
    text = f"mahjong-table {doing} (pid {os.getpid()}, since {time.strftime('%Y-%m-%d %H:%M:%S')})\n"
    with contextlib.suppress(OSError):
        os.ftruncate(fd, 0)
        os.pwrite(fd, text.encode(), 0)
