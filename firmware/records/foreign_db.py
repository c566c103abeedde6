"""Whose SQLite file is it: an existing database holding tables that are not ours (another program's,
or ours with other columns) is refused before anything is written into it, so a file named by
mistake is left byte for byte as it was (`--db` naming a parlour's store, the tile registry, a
table's ledger for the parlour).  Everything here only reads, but `create_schema`, which makes our
tables in a file that has passed the check."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
from pathlib import Path


class DamagedDatabase(sqlite3.DatabaseError):
    """A file of ours SQLite opens but whose text is not text (a bad page: the table list's names, a
    journal row, not UTF-8): damaged, as `database disk image is malformed` is (it was a traceback)."""


class WalWithoutDatabase(sqlite3.DatabaseError):
    """An empty database file with a -wal beside it that holds writes: the file was lost or cut
    (a card fault, a copy that left it behind).  SQLite would take it as a new database and throw the
    -wal away, and the history with it, so nothing opens it: a person decides."""


class ForeignDatabase(sqlite3.DatabaseError):
    """An existing SQLite file that is not ours: it holds another program's tables, or tables of our
    names with other columns.  Raised before anything is written, so the file is left as it was."""


def schema_columns(schema: str) -> dict[str, tuple[str, ...]]:
    """Each table a schema creates → its columns, in order (the schema run on a database in memory)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(schema)
        return {name: tuple(_columns(db, name)) for name in _names(db)}
    finally:
        db.close()


def create_schema(db: sqlite3.Connection, schema: str) -> None:
    """Our tables made (or the columns a later release added, added) in one transaction: one sync of
    the card, not one per statement (a fresh install made 30 before the table could say READY: at
    seconds an fsync, a worn card outlasted systemd's start timeout)."""
    db.executescript(f"BEGIN;\n{schema}\nCOMMIT;")


def check_ours(path: str | Path, ours: dict[str, tuple[str, ...]], what: str) -> None:
    """ForeignDatabase when the database at `path` holds a table `ours` does not name, or one of ours
    with other columns (`_check_columns`).  Read only: nothing is written, whatever it holds."""
    refuse_lost_file(Path(path))
    db = _open_read_only(Path(path))
    if db is None:
        return
    try:
        names = _names(db)
        foreign = sorted(set(names) - set(ours))        # (before any column is read: a view may be broken)
        if foreign:
            tables = f"table{'s' if len(foreign) > 1 else ''} {', '.join(foreign)}"
            raise ForeignDatabase(f"{path} is not {what} (it holds {tables})")
        for name in names:
            _check_columns(path, what, name, _columns(db, name), ours[name])
    except UnicodeDecodeError:
        raise DamagedDatabase("its table list holds text that is not UTF-8") from None
    finally:
        db.close()


def refuse_lost_file(path: Path) -> None:
    """WalWithoutDatabase when the file at `path` is empty (or missing) but its -wal holds writes: only
    an empty file and an empty (or no) -wal is a new database."""
    wal = path.with_name(path.name + "-wal")
    try:
        size = path.stat().st_size if path.exists() else 0
        logged = wal.stat().st_size if wal.is_file() else 0
    except OSError:
        return                              # (SQLite's open says what is wrong)
    if size == 0 and logged > 0:
        raise WalWithoutDatabase(f"{path} is {'empty' if path.exists() else 'missing'} but {wal} beside it holds "
                                 f"{logged} bytes of its last writes: the database file was lost or cut, and "
                                 "opening it would throw the -wal away; keep both files (copy them off the card), "
                                 f"put back {path.name} from a backup with the -wal beside it, or move both away "
                                 "to start a new one")


def connect_read_only(path: str | Path) -> sqlite3.Connection:
    """A read-only connection to one of our databases, refused first (WalWithoutDatabase) when the file
    is empty beside a -wal that holds writes: SQLite throws that -wal away, read-only too (`audit`,
    `records` and the history each lost the hands in it: a verifying probe).

    In a folder that cannot be written (a copy on a read-only stick, a mounted backup) SQLite's
    read-only open of a WAL database fails, "unable to open database file": it must make the -shm
    beside it.  Nothing is written beside the owner's copy then: a database closed cleanly (no -wal
    holding writes) is read as immutable, one whose -wal holds its last writes (a copy of a table that
    was running) from a private copy of both, so those writes are read too (an immutable open would
    leave them out without a word)."""
    path = Path(path)
    refuse_lost_file(path)
    uri = path.resolve().as_uri()
    if os.access(path.parent, os.W_OK) or not _is_wal(path):
        return sqlite3.connect(uri + "?mode=ro", uri=True)
    if not _logged(path):
        return sqlite3.connect(uri + "?immutable=1", uri=True)
    return _read_from_a_copy(path)


def _logged(path: Path) -> bool:
    """Whether the -wal beside `path` holds writes (a -wal of no bytes holds none)."""
    try:
        return path.with_name(path.name + "-wal").stat().st_size > 0
    except OSError:
        return False


def _read_from_a_copy(path: Path) -> sqlite3.Connection:
    """The database and its -wal copied into a private folder, read from there into memory (SQLite
    reads the -wal's writes as it opens the copy), the copy removed: the owner's files stay as they were."""
    wal = path.with_name(path.name + "-wal")
    with tempfile.TemporaryDirectory(prefix="mahjong-table-") as folder:
        copy = Path(folder) / path.name
        try:
            shutil.copyfile(path, copy)
            shutil.copyfile(wal, copy.with_name(copy.name + "-wal"))
        except OSError as error:
            raise sqlite3.OperationalError(f"cannot copy it and {wal.name} to read them from a folder that cannot "
                                           f"be written ({error.strerror or error})") from None
        source = sqlite3.connect(copy.as_uri() + "?mode=ro", uri=True)
        memory = sqlite3.connect(":memory:")
        try:
            source.backup(memory)
        except BaseException:
            memory.close()
            raise
        finally:
            source.close()
    return memory


def _check_columns(path: str | Path, what: str, table: str, found: dict[str, bool], ours: tuple[str, ...]) -> None:
    """A table of our name is ours if it has our columns, and no other column an insert of ours cannot
    leave out (NOT NULL without a default: a column a later release adds never is one)."""
    stuck = any(required for column, required in found.items() if column not in ours)
    if stuck or not set(ours) <= set(found):
        raise ForeignDatabase(f"{path} is not {what} (its table {table} has the columns {', '.join(found)}; "
                              f"{what}'s has {', '.join(ours)})")


def _open_read_only(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to the database at `path`; None for no file or an empty one (and for
    what is not a file: SQLite's own open says what is wrong with it)."""
    try:
        info = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return None
    return sqlite3.connect(_read_only_uri(path), uri=True)


def _names(db: sqlite3.Connection) -> list[str]:
    """The tables and views (not SQLite's own), by name."""
    return [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
                                         "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")]


def _columns(db: sqlite3.Connection, table: str) -> dict[str, bool]:
    """A table's columns, in order → whether an insert must give it (NOT NULL, no default)."""
    return {column: bool(notnull) and default is None for column, notnull, default in
            db.execute('SELECT name, "notnull", dflt_value FROM pragma_table_info(?)', (table,))}


def _read_only_uri(path: Path) -> str:
    """`mode=ro`, but `immutable=1` for a WAL database with no -wal file beside it (closed cleanly):
    a read-only open of one leaves an empty -wal and -shm beside it, and the file must stay as it was."""
    closed = _is_wal(path) and not path.with_name(path.name + "-wal").exists()
    return path.resolve().as_uri() + ("?immutable=1" if closed else "?mode=ro")


def _is_wal(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(20)[18:19] == b"\x02"     # the header's write version: 2 is WAL
    except OSError:
        return False                                # (unreadable: SQLite's open says so)


__all__ = ["DamagedDatabase", "ForeignDatabase", "WalWithoutDatabase", "check_ours", "connect_read_only",
           "refuse_lost_file", "schema_columns"]
