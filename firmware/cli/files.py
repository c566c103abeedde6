"""The files the table's commands read and write, each mistake one line naming what to do.

- which configuration is in use (`--config`, `$MAHJONG_TABLE_CONFIG`, /etc/mahjong-table/config.toml,
  or none: the built-in simulator), and `--simulate` to demo on a configured table;
- the state folders: a real table's (`storage.state_dir`) and, apart from it, a simulated run's
  (`<state>/simulator/`), so a demo never changes the real table's choice or ledger;
- the SQLite files in them (a file that is not a database is one line, not a traceback);
- the flight recorder: `--events FILE`, `--events -` (stdout) or a new file per start in
  `storage.events_dir`; created on the first event, so a run that stops before it leaves no empty file.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import logging
import os
import pwd
import sqlite3
import stat
import sys
import time
from pathlib import Path
from typing import Any, Callable, Mapping, TextIO, TypeVar

from firmware.config import ConfigError, TableConfig, find_config, load_config
from firmware.logs import at_level
from firmware.records.chain import START

from .errors import UserError
from .events_file import EventsFile, EventsFolder
from .paths import real_path, symlink_loop

T = TypeVar("T")
CARD_FULL_BYTES = 1 << 20          # less room than this where a database opens: the card is full, not the file damaged


def refuse_empty(args: Any, examples: Mapping[str, str], flags: Mapping[str, str] | None = None) -> None:
    """An empty value (`--db ""`, a shell variable that was never set) would read as no flag at all,
    and the command would quietly use its default: each flag of `examples` (by its argument's name;
    `flags` names a flag whose name is not that) given empty is refused, with an example of a value."""
    for name, example in examples.items():
        refuse_empty_value((flags or {}).get(name) or "--" + name.replace("_", "-"), getattr(args, name, None), example)


def refuse_empty_value(flag: str, value: str | None, example: str) -> None:
    if value is not None and not value.strip():
        raise UserError(f"{flag} is empty; give a value, e.g. {flag} {example}, or leave the flag out")


def table_config(explicit: str | None, simulate: bool = False) -> TableConfig:
    """The configuration in use; `devices is None` means the built-in simulator.

    `--simulate` keeps the file's ruleset, options and state folder (the simulator's own part of
    it) but not its boards or events folder."""
    # (an unset shell variable: not "no configuration")
    refuse_empty_value("--config", explicit, "/etc/mahjong-table/config.toml")
    try:
        path = find_config(explicit)
        config = load_config(path) if path is not None else TableConfig(devices=None)
    except ConfigError as error:
        raise UserError(str(error)) from None
    if simulate and config.devices is not None:
        config = dataclasses.replace(config, devices=None, events_dir=None)
    return config


def state_dir(config: TableConfig) -> Path:
    """The folder for this run's ledger and settings: the simulator's own one when simulating."""
    return config.simulator_state_dir if config.devices is None else config.state_dir


def ensure_dir(path: Path, what: str, flag: str | None = None) -> Path:
    """Create a state folder (owner-only, like the service's) or say in one line how to."""
    try:
        path.mkdir(mode=0o750, parents=True, exist_ok=True)
    except FileExistsError:
        raise UserError(f"{path} is a file, not a folder, so the {what} cannot go there") from None
    except OSError as error:
        other = f", or choose another with {flag}" if flag else ""
        if error.errno == errno.EROFS:
            raise UserError(f"cannot create {path} for the {what} (read-only file system): {READ_ONLY}{other}") from None
        raise UserError(f"cannot create {path} for the {what} ({error.strerror}); create it once as root: "
                        f"sudo install -d -o {_user()} -m 0750 {path}{other}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise _cannot_write(path, what, flag)
    return path


def folder_of_named_file(file: Path, what: str, flag: str) -> Path:
    """The folder of a file a person named with `flag` (`run --db`, `enroll --registry`): it must be
    there already.  Created like a state folder, a typo (`--db /srv/tabel/x.db`) made folders at any
    depth and started a new ledger, scores from zero, without a word; `--events` refused the same."""
    folder = file.parent
    if not folder.exists():
        raise UserError(f"{flag} {file}: the folder {folder} does not exist; check the path for a typo, or "
                        f"create the folder first (mkdir -p {folder})")
    if not folder.is_dir():
        raise UserError(f"{flag} {file}: {folder} is a file, not a folder; name a file in a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _cannot_write(folder, what, flag)
    return folder


# Why a folder that is there cannot be written although permissions allow it: no chown mends these.
READ_ONLY = ("the card or the folder is read-only: a failing SD card turns itself read-only (`dmesg` says so; copy the "
             "state off and replace the card), and the systemd unit lets the table write only under its "
             "ReadWritePaths (/var/lib/mahjong-table): keep storage.state_dir and storage.events_dir there, "
             "or add the folder to ReadWritePaths in a drop-in")


def _cannot_write(path: Path, what: str, flag: str | None) -> UserError:
    """The one line for a folder we may not write in, naming the real cause: a read-only file system
    (EROFS), or the folder's permissions (EACCES: another owner, or the owner's own mode)."""
    other = f", or choose another with {flag}" if flag else ""
    if _read_only(path):
        return UserError(f"cannot write in {path} for the {what} (read-only file system): {READ_ONLY}{other}")
    if path.stat().st_uid == os.geteuid():
        return UserError(f"cannot write in {path} for the {what} (permission denied: its mode does not let its "
                         f"owner write); give the owner write access: chmod u+rwx {path}{other}")
    return UserError(f"cannot write in {path} for the {what} (permission denied); run as its owner "
                     f"or give it to {_user()}: sudo chown {_user()} {path}{other}")


def _read_only(path: Path) -> bool:
    """Whether `path` lies on a file system mounted read-only (for this process: a unit's
    ProtectSystem=strict shows the folders outside ReadWritePaths so)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def open_database(factory: Callable[[str], T], path: Path | str, what: str, flag: str | None = None) -> T:
    """Open one of our SQLite files; a file that is not one (or cannot be opened) is one line, and
    the line says what to do: move a damaged file away, but free a full card (opening writes), and
    name another file for a folder, a device or another program's database (left as it was)."""
    from firmware.records.foreign_db import ForeignDatabase, WalWithoutDatabase

    _must_be_a_file(Path(path), what, flag)
    try:
        return factory(str(path))
    except ForeignDatabase as error:        # someone else's file: never "move it away"
        raise UserError(f"{error}; choose another{f' with {flag}' if flag else ''}") from None
    except WalWithoutDatabase as error:     # its line says what to do: the history is in the -wal
        raise UserError(str(error)) from None
    except sqlite3.Error as error:
        raise database_trouble(Path(path), what, error, flag) from None
    except UnicodeDecodeError:              # (a read that is not ours: the file is damaged all the same)
        raise database_trouble(Path(path), what, sqlite3.DatabaseError("text that is not UTF-8"), flag) from None


def _must_be_a_file(path: Path, what: str, flag: str | None) -> None:
    """A folder or a device named for a database is a wrong name, not a damaged file or a card that
    refuses (SQLite would say "unable to open" or "disk I/O error"); a path not there yet is fine."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        if error.errno == errno.ELOOP:      # (SQLite's "unable to open" read as a damaged ledger)
            raise symlink_loop(f"{flag} {path}" if flag else str(path)) from None
        return                              # new (SQLite creates it), or SQLite's open says what is wrong
    do = f"name a file with {flag} FILE" if flag else f"move it away: the {what} is a file"
    if stat.S_ISDIR(mode):
        raise UserError(f"{path} is a folder; {do}")
    if not stat.S_ISREG(mode):
        raise UserError(f"{path} is not a regular file (a device, a pipe or a socket); {do}")


class CardFull(UserError):
    """One of our files cannot open because its folder's card has no room: freeing it is a person's
    job, and `run` waits for it (`folder` is where to look for room) rather than exiting."""

    def __init__(self, failure: str, folder: Path, free: int | None = None) -> None:
        room = f" ({free // 1024} KB free)" if free is not None else ""
        super().__init__(f"{failure}: the card is full{room}; free space on it "
                         "(`mahjong-table records move` takes old flight recorders off it)")
        self.folder = folder


class TableBusy(UserError):
    """Another program drives this table (its lock, `table_lock.py`, or its database): said in one
    line, and never shown on the table's display, which belongs to the program that holds the table."""


def card_has_room(folder: Path) -> bool:
    """Whether the card holding `folder` has room enough to open a database again (a folder gone
    is no reason to wait: the next try says what is wrong)."""
    from firmware.records.space import space_left
    space = space_left([folder])
    return space is None or space.free >= CARD_FULL_BYTES


def database_trouble(path: Path, what: str, error: sqlite3.Error, flag: str | None, doing: str = "open") -> UserError:
    """The one-line error for an SQLite file of ours that failed as it was opened (or first written:
    `doing`): a full card (`CardFull`), a card refusing, a file held by another program, or a damaged file."""
    from firmware.records.space import space_left        # (an error's path: not imported at every start)
    from firmware.records.store import DAMAGED, disk_trouble
    text = _short(" ".join(str(error).split()))     # (one line: quick_check's answer has several)
    damaged = disk_trouble(error) == DAMAGED or any(words in text for words in ("encrypted", "not UTF-8"))
    if not damaged:
        space = space_left([path.parent])
        if space is not None and space.free < CARD_FULL_BYTES:
            return CardFull(f"{path}: cannot {doing} the {what} ({text})", path.parent, space.free)
        if "locked" in text:
            return TableBusy(f"{path}: cannot {doing} the {what} ({text}): another program holds it; is another "
                             "controller running? (systemctl status mahjong-table) Stop it, then start again")
        if "I/O" in text or "disk is full" in text or "readonly" in text:
            return UserError(f"{path}: cannot {doing} the {what} ({text}): the card refused it; check that it is not "
                             "full, read-only or failing, then start again")
    other = f" or choose another with {flag}" if flag else ""
    if "ledger" not in what:
        return UserError(f"{path}: cannot use it as the {what} ({text}); move it away{other}")
    # the money is in it: kept, not thrown away with "move it away"
    return UserError(f"{path}: the {what} is damaged ({text}); it holds the table's money: keep it (copy it and "
                     f"any {path.name}-wal off the card), save what is readable with `sqlite3 {path} .recover`, "
                     f"then move it away{other}")


def _short(text: str) -> str:
    """An SQLite error without the damaged row it quotes ("Could not decode to UTF-8 column 'value'
    with text '…' ": 200 characters of garbage in a one-line error)."""
    if "Could not decode to UTF-8" in text:
        column = text.split(" with text ", 1)[0].replace("Could not decode to UTF-8 ", "")
        return f"text that is not UTF-8 in {column}"
    return text if len(text) <= 100 else text[:100] + "…"


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def check_recorder_name(path: str) -> None:
    """The ledger and the recorder's own lines name the file: a name that is not UTF-8 text (bytes a
    shell passed through) is refused before anything is opened, and so is a loop of symbolic links."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise UserError(f"--events {ascii(path)}: the name is not UTF-8 text; give the recorder a name in "
                        "UTF-8, e.g. --events events.jsonl") from None
    if path != "-":
        real_path(Path(path), f"--events {path}")  # (a loop: the run began, and every write failed as E24)


def open_events(path: str | None, events_dir: Path | None) -> TextIO | EventsFile | EventsFolder | None:
    """Where the flight recorder goes: `--events FILE`, `-` (stdout), else a new file in the
    configured events folder, else nowhere.  Unwritable places are refused before the run starts (a name
    that is not UTF-8 was refused with the arguments: `check_recorder_name`)."""
    if path == "-":
        return sys.stdout
    if path is not None:
        target = Path(path)
        if target.is_dir():
            raise UserError(f"--events {path} is a folder; name a file, e.g. {target / 'events.jsonl'}")
        folder = target.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise UserError(f"cannot write the flight recorder to {path} ({folder} is not a folder you can write in)")
        # a file: a pipe left the next start waiting for ever for a writer (it reads the last run's file),
        # a device (/dev/full) stopped the table at its first line with E24's "free space" (a probe)
        _must_be_a_file(target, "flight recorder", "--events")
        if target.exists() and not os.access(target, os.W_OK):
            raise UserError(f"cannot write the flight recorder to {path} (permission denied)")
        _keep_what_is_there(target)
        return EventsFile(target, exclusive=False)
    if events_dir is None:
        return None
    folder = ensure_dir(events_dir, "flight recorders")
    return EventsFolder(lambda: new_events_path(folder))


def _keep_what_is_there(target: Path) -> None:
    """`--events FILE` never overwrites anything: an earlier run's flight recorder (the audit's
    evidence) is moved aside, to a name of its own time, and said so; any other file is refused."""
    if not target.is_file() or target.stat().st_size == 0:
        return
    if not _is_recorder(target):
        raise UserError(f"--events {target} exists and is not a flight recorder (it was left as it is): "
                        "name a new file for the recorder")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(target.stat().st_mtime))
    aside = _free_name(target.parent, f"{target.stem}.{stamp}", target.suffix)
    target.rename(aside)
    print(f"{target} held an earlier run's flight recorder: kept as {aside}", file=at_level(sys.stderr, logging.INFO))


def _is_recorder(path: Path) -> bool:
    """Its first line is a flight recorder's opening line."""
    try:
        with open(path, "rb") as handle:
            first = json.loads(handle.readline(1 << 16))
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and first.get("event") == START


def new_events_path(folder: Path) -> Path:
    """A name no earlier start used: the start time and the process id (and a counter if needed)."""
    return _free_name(folder, f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}", ".jsonl")


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    """`folder/stem+suffix`, or with -1, -2 … after the stem: a name no file holds yet."""
    candidate, n = folder / f"{stem}{suffix}", 1
    while candidate.exists():
        candidate, n = folder / f"{stem}-{n}{suffix}", n + 1
    return candidate


def require_enrolled(config: TableConfig) -> Path:
    """The real table's registry must hold tags before a run; say how to enrol if it does not."""
    from firmware.build.registry import TileRegistry

    path = config.state_dir / "tiles.db"
    how = f"run `mahjong-table enroll --config {config.source}` first"
    if not path.exists():
        raise UserError(f"no tiles are enrolled ({path} does not exist): {how}")
    registry = open_database(TileRegistry, path, "tile registry")
    try:
        count = len(registry)
    except sqlite3.Error as error:
        raise UserError(f"{path}: cannot use it as the tile registry ({error}); move it away and enrol again") from None
    finally:
        registry.close()
    if not count:
        raise UserError(f"no tiles are enrolled in {path}: {how}")
    return path
