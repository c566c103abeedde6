"""The flight recorder files in a table's events folder: what each holds, which the table still
needs, and moving old ones off the card.

The table never deletes a recorder (they are the audit's evidence).  When the card runs low (the
warning of firmware/records/space.py), the owner moves old ones elsewhere — a USB stick, a server —
with `mahjong-table records move`.  A file is moved only when the table does not need it: not the
file its last run writes (the next start reads its chain's head from it) and not a file holding lines
of the hand in play (its page is read from them once it is settled); the copy is read back and
compared before the original goes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISDIR, S_ISREG

from .chain_tail import lines_from_the_end, object_of
from .foreign_db import connect_read_only
from .ledger import HAND_KEY, RECORDER_KEY

CHUNK = 1 << 20


@dataclass(frozen=True)
class RecorderFile:
    path: Path
    size: int
    modified: float                 # when it was last written (the table's clock)
    hands: tuple[int, int] | None   # the first and last hand numbers it holds lines of
    needed: str | None              # why the table still needs it (None: it may be moved)
    unreadable: str | None = None   # why it could not be read as a recorder (None: it was read)


def needed_files(ledger: Path) -> dict[Path, str]:
    """The files the table still needs, read from its journal: the last run's file and the files of
    the hand in play (none without a ledger; LedgerUnreadable when it cannot be read)."""
    if not ledger.exists():
        return {}
    try:
        db = connect_read_only(ledger)
        try:
            rows = dict(db.execute("SELECT key, value FROM journal WHERE key IN (?, ?)", (RECORDER_KEY, HAND_KEY)))
        finally:
            db.close()
    except sqlite3.Error as error:
        raise LedgerUnreadable(f"{ledger}: cannot read the table's journal ({error})") from None
    except UnicodeDecodeError:          # a bad page (it was a traceback)
        raise LedgerUnreadable(f"{ledger}: cannot read the table's journal (damaged: text that is not UTF-8)") from None
    needed: dict[Path, str] = {}
    for path in _json(rows.get(HAND_KEY)).get("recorders", ()):
        needed[Path(path)] = "it holds lines of the hand in play"
    last = _json(rows.get(RECORDER_KEY)).get("path")
    if isinstance(last, str):
        needed[Path(last)] = "the table's last run writes it"
    return needed


def held_open(folder: Path) -> dict[Path, str]:
    """The files in `folder` a running program holds open (a table writing its recorder, whatever its
    ledger says: a simulated run, a table started with another state folder), from /proc; the
    programs this user may not look into are passed over."""
    folder = folder.resolve()
    held: dict[Path, str] = {}
    pids = [entry for entry in os.listdir("/proc") if entry.isdigit()] if os.path.isdir("/proc") else []
    for pid in pids:
        for target in _open_files(pid):
            path = Path(target)
            if path.parent == folder and path.suffix == ".jsonl":
                held.setdefault(path, f"a running program (pid {pid}, {_program(pid)}) has it open")
    return held


def _open_files(pid: str) -> list[str]:
    """What a process holds open (nothing for one gone meanwhile, or not ours to look into)."""
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return []
    targets = []
    for fd in fds:
        try:
            targets.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue                        # closed meanwhile (the listing's own, for one)
    return targets


def _program(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text(encoding="utf-8", errors="replace").strip() or "?"
    except OSError:
        return "?"


class LedgerUnreadable(Exception):
    """The ledger (and its journal) could not be read: which files the table needs is unknown."""


def survey(folder: Path, needed: dict[Path, str]) -> list[RecorderFile]:
    """Every recorder in `folder`, oldest first (by when it was last written); a file named like one
    that cannot be read, or is none, is in the list too with the reason (listed as holding no hand, it
    hid from its owner that something there could not be read)."""
    files = []
    for path in folder.glob("*.jsonl"):
        try:
            stat = path.stat()
        except OSError:
            continue                        # gone meanwhile
        kept = needed.get(path.resolve()) or needed.get(path)
        if not S_ISREG(stat.st_mode):       # a folder, a pipe (never opened: a pipe would block)
            kind = "a folder" if S_ISDIR(stat.st_mode) else "not a regular file"
            files.append(RecorderFile(path, 0, stat.st_mtime, None, kept, f"not a recorder: {kind}"))
            continue
        span, unreadable = _hand_span(path)
        files.append(RecorderFile(path, stat.st_size, stat.st_mtime, span, kept, unreadable))
    return sorted(files, key=lambda f: (f.modified, f.path.name))


def move_off(recorder: RecorderFile, to: Path) -> Path:
    """Copy the file into `to`, read the copy back and compare, then remove the original; returns the
    copy.  A copy that differs (or cannot be made) is removed and the original kept (OSError); so is
    one stopped part-way (Ctrl-C), which would otherwise block the next move as "moved there before"."""
    target = to / recorder.path.name
    if target.exists():
        raise FileExistsError(f"{target} exists already: a file of that name was moved there before")
    try:
        shutil.copyfile(recorder.path, target)
        os.chmod(target, 0o600)             # it holds the walls of its hands
        if _digest(target) != _digest(recorder.path):
            raise OSError(f"the copy at {target} does not read back the same")
    except BaseException:                   # whatever stopped it: an OSError, a Ctrl-C, a kill's SystemExit
        target.unlink(missing_ok=True)
        raise
    recorder.path.unlink()
    return target


def _hand_span(path: Path) -> tuple[tuple[int, int] | None, str | None]:
    """The first and last hand numbers with a line in the file (a damaged line is passed over), and
    why the file could not be read as a recorder: it cannot be opened, or not one of its lines is an
    event (the audit's test of a recorder; an empty file is one just begun).  The first is read from
    the beginning and the last from the end: a table left on for a month writes one file of ~100 MB,
    and reading all of it made `records list` take 4 s on a PC (far longer on a Pi) for that file alone."""
    first = None
    events = lines = 0
    try:
        with path.open("rb") as handle:
            for line in handle:
                if not line.strip():
                    continue
                lines += 1
                event = _event_of(line)
                if event is None:
                    continue
                events += 1
                first = _hand_of(event)
                if first is not None:
                    break
        if lines and not events:
            return None, f"not a recorder: not one of its {lines} line(s) is a recorder's event"
        if first is None:
            return None, None
        last = next((n for n in map(_hand_of, map(_event_of, lines_from_the_end(path))) if n is not None), first)
    except OSError as error:
        return None, _cannot_open(error)
    return (first, last), None


def _event_of(line: bytes) -> dict | None:
    """A line's event, or None for a damaged line (`object_of`) or an object that is no event."""
    event = object_of(line)
    return event if event is not None and isinstance(event.get("event"), str) else None


def _hand_of(event: dict | None) -> int | None:
    number = None if event is None else event.get("hand")
    return number if isinstance(number, int) and not isinstance(number, bool) and number > 0 else None


def _cannot_open(error: OSError) -> str:
    if isinstance(error, PermissionError):
        return ("unreadable: permission denied — run records as the table's user (sudo -u mahjong mahjong-table "
                "records), or make the file readable to you")
    return f"unreadable: {(error.strerror or str(error)).lower()}"


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _json(text: str | None) -> dict:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


__all__ = ["LedgerUnreadable", "RecorderFile", "held_open", "move_off", "needed_files", "survey"]
