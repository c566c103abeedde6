"""A `--db` naming a file that is not ours — another program's SQLite file, another part of this
product's (the parlour's store, the tile registry, a table's ledger given to the parlour), a folder,
a device — is refused in one line with exit status 2 before anything is written: the file is left
byte for byte as it was (no WAL switch, no CREATE, no -wal or -shm beside it).  A new path, an
empty file and the product's own files in their places are taken as before."""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from pathlib import Path

import pytest

from firmware.build.registry import TileRegistry
from firmware.cli import main
from firmware.panel import Settings
from firmware.parlour.store import ParlourStore
from firmware.records.ledger import Ledger
from firmware.records.store import Store
from tests.ops.support import cli, needs_no_default_config, one_line_error

RUN = ["run", "--hands", "1", "--speed", "0"]
PARLOUR = ["parlour", "--mqtt", "mqtt://127.0.0.1:1", "--http", "127.0.0.1:0"]      # no broker there


def fingerprint(path: Path) -> tuple[str, list[str]]:
    """The file's bytes (a hash) and the names beside it (a -wal or -shm left behind is a change)."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(path.parent))


def sqlite_file(path: Path, *statements: str) -> Path:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()
    return path


def a_parlour_store(path: Path) -> Path:
    ParlourStore(path).close()                              # WAL, closed cleanly: no -wal beside it
    return path


def a_tile_registry(path: Path) -> Path:
    TileRegistry(path).close()
    return path


def a_table_ledger(path: Path) -> Path:
    """table.db as a table leaves it: the ledger with a hand, and the front panel's settings."""
    ledger = Ledger(path)
    ledger.start_session("changchun", {})
    ledger.close()
    settings = Settings(path)
    settings.save_choice("changchun", {})
    settings.close()
    return path


FOREIGN = {   # name → (how it is made, what the line says of it)
    "parlour store": (a_parlour_store, "is not a score ledger (it holds tables changes, tables)"),
    "tile registry": (a_tile_registry, "is not a score ledger (it holds table tiles)"),
    "unrelated": (lambda p: sqlite_file(p, "CREATE TABLE foo (x)", "CREATE TABLE bar (y)"),
                  "is not a score ledger (it holds tables bar, foo)"),
    "a view": (lambda p: sqlite_file(p, "CREATE VIEW v AS SELECT 1 AS one"), "(it holds table v)"),
    "clashing journal": (lambda p: sqlite_file(p, "CREATE TABLE journal (a, b)"),
                         "(its table journal has the columns a, b; a score ledger's has key, value, updated)"),
    "clashing fault_intervals": (lambda p: sqlite_file(p, "CREATE TABLE fault_intervals (a, b)"),
                                 "(its table fault_intervals has the columns a, b; a score ledger's has id, "),
    "a column we cannot leave out": (
        lambda p: sqlite_file(p, "CREATE TABLE journal (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                                 "updated REAL NOT NULL, owner TEXT NOT NULL)"),
        "(its table journal has the columns key, value, updated, owner;"),
}


@pytest.fixture
def no_config(tmp_path, monkeypatch):
    """`run` as a user with no configuration (the built-in simulator) and its state under tmp_path."""
    needs_no_default_config()
    monkeypatch.delenv("MAHJONG_TABLE_CONFIG", raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))


def one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("mahjong-table: error: ") and "Traceback" not in err, err
    assert out == "", out                                   # no banner: refused before the run began
    return err.strip()


# -- 1. run --db: another program's database, or another part of this product's -------------------

@pytest.mark.timeout(60)        # before the fix some of these played on and waited for ever (E24)
@pytest.mark.parametrize("kind", FOREIGN)
def test_run_refuses_a_database_that_is_not_a_ledger_and_leaves_it_as_it_was(tmp_path, capsys, no_config, kind):
    make, said = FOREIGN[kind]
    path = make(tmp_path / "other.db")
    before = fingerprint(path)
    assert main([*RUN, "--db", str(path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"mahjong-table: error: {path} is not a score ledger") and said in line
    assert line.endswith("; choose another with --db") and "move it away" not in line
    assert fingerprint(path) == before


@pytest.mark.parametrize("kind", FOREIGN)
def test_the_ledger_itself_refuses_a_foreign_database_before_writing(tmp_path, kind):
    path = FOREIGN[kind][0](tmp_path / "other.db")
    before = fingerprint(path)
    with pytest.raises(sqlite3.DatabaseError, match="is not a score ledger"):        # (ForeignDatabase)
        Ledger(path)
    assert fingerprint(path) == before


def test_the_ledger_takes_a_new_path_an_empty_file_its_own_file_and_an_older_one(tmp_path):
    Ledger(tmp_path / "new.db").close()
    (tmp_path / "empty.db").write_bytes(b"")
    Ledger(tmp_path / "empty.db").close()
    Ledger(a_table_ledger(tmp_path / "table.db")).close()                     # with the settings beside it
    settings_only = tmp_path / "settings.db"                                  # `run` saves the rules first
    Settings(settings_only).close()
    Ledger(settings_only).close()
    older = sqlite_file(tmp_path / "older.db", "CREATE TABLE sessions (id INTEGER PRIMARY KEY, started REAL NOT NULL, "
                                               "ruleset TEXT NOT NULL, options TEXT NOT NULL)")
    Ledger(older).close()                                                     # its new tables and columns are added
    later = sqlite_file(tmp_path / "later.db", "CREATE TABLE journal (key TEXT PRIMARY KEY, value TEXT NOT NULL, "
                                               "updated REAL NOT NULL, note TEXT DEFAULT '')")
    Ledger(later).close()                                                     # a column a later release adds


def test_the_settings_table_the_ledger_accepts_is_the_one_the_front_panel_keeps(tmp_path):
    """SHARED_SCHEMA in ledger.py repeats panel.Settings' table: if one changes, so must the other."""
    from firmware.records.ledger import LEDGER_TABLES

    Settings(tmp_path / "s.db").close()
    db = sqlite3.connect(tmp_path / "s.db")
    columns = tuple(row[1] for row in db.execute("PRAGMA table_info(settings)"))
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    db.close()
    assert tables == {"settings"} and columns == LEDGER_TABLES["settings"]


@pytest.mark.timeout(60)
def test_run_on_its_own_ledger_twice_still_plays(tmp_path, capsys, no_config):
    path = tmp_path / "table.db"
    for _ in range(2):
        assert main([*RUN, "--db", str(path)]) == 0
        assert "1 hand(s) played" in capsys.readouterr().out


# -- 2. parlour --db: a table's ledger, a file that is not a database, a folder --------------------

def test_parlour_refuses_a_tables_ledger_in_one_line_and_leaves_it_as_it_was(tmp_path, capsys, caplog):
    path = a_table_ledger(tmp_path / "aud.db")
    before = fingerprint(path)
    assert main([*PARLOUR, "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"mahjong-table: error: {path} is not a parlour store (it holds tables fault_intervals, journal, "
                   "payments, sessions, settings); choose another with --db\n")
    assert fingerprint(path) == before
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]    # no "a disk write failed" line


@pytest.mark.parametrize("make, said", [
    (a_table_ledger, "is not a parlour store (it holds tables fault_intervals, journal, payments, sessions, settings)"),
    (lambda p: p.write_bytes(b"this is not a database" * 100) and p, "cannot use it as the parlour's store"),
    (lambda p: p.mkdir() or p, "is a folder; name a file with --db FILE"),
], ids=["a table's ledger", "not a database", "a folder"])
def test_parlour_prints_one_line_and_no_log_line_for_a_store_it_cannot_use(tmp_path, make, said):
    """As a user sees it (a process of its own: the log's lines reach stderr)."""
    path = make(tmp_path / "store.db")
    before = fingerprint(path) if path.is_file() else None
    one_line_error(cli([*PARLOUR, "--db", str(path)], tmp_path, timeout=60), said)
    assert before is None or fingerprint(path) == before


def test_the_parlour_store_refuses_a_ledger_and_takes_its_own_an_empty_and_a_new_file(tmp_path):
    from firmware.parlour.store import check_store

    path = a_table_ledger(tmp_path / "aud.db")
    before = fingerprint(path)
    with pytest.raises(sqlite3.DatabaseError, match="is not a parlour store"):        # (ForeignDatabase)
        ParlourStore(path)
    assert fingerprint(path) == before
    check_store(a_parlour_store(tmp_path / "parlour.db"))
    ParlourStore(tmp_path / "parlour.db").close()
    (tmp_path / "empty.db").write_bytes(b"")
    ParlourStore(tmp_path / "empty.db").close()
    check_store(tmp_path / "new.db")
    assert not (tmp_path / "new.db").exists()                                 # a check writes nothing


def test_a_refused_write_is_logged_as_its_owners(caplog):
    """Only the table's store has a ledger, a journal and a recorder to speak of."""
    def refused() -> None:
        raise sqlite3.OperationalError("no such column: payload")

    for name in ("parlour-store", "table-store"):
        store = Store(name) if name != "table-store" else Store()
        with pytest.raises(sqlite3.OperationalError):
            store.submit(refused).result()
        store.close()
    parlour, table = [r.getMessage() for r in caplog.records if "a disk write failed" in r.getMessage()]
    assert parlour == "a disk write failed in the parlour-store: no such column: payload"
    assert "ledger" not in parlour and "recorder" not in parlour
    assert "the ledger and journal writes are retried" in table


# -- 3. run --db: a folder, a device, a pipe ---------------------------------------------------------

@pytest.mark.timeout(60)
@pytest.mark.parametrize("name, said", [
    ("folder", "is a folder; name a file with --db FILE"),
    ("/dev/null", "is not a regular file (a device, a pipe or a socket); name a file with --db FILE"),
    ("pipe", "is not a regular file (a device, a pipe or a socket); name a file with --db FILE"),
])
def test_run_says_what_a_db_that_is_not_a_file_is(tmp_path, capsys, no_config, name, said):
    path = Path(name) if name.startswith("/") else tmp_path / name
    if name == "folder":
        path.mkdir()
    elif name == "pipe":
        os.mkfifo(path)
    assert main([*RUN, "--db", str(path)]) == 2
    assert one_line(capsys) == f"mahjong-table: error: {path} {said}"
    if name == "folder":
        assert list(path.iterdir()) == []


def test_enroll_refuses_a_table_ledger_as_its_registry_and_leaves_it_as_it_was(tmp_path, capsys, no_config):
    ledger = a_table_ledger(tmp_path / "table.db")
    before = ledger.read_bytes()
    assert main(["enroll", "--simulate", "--registry", str(ledger)]) == 2
    err = capsys.readouterr().err
    assert f"{ledger} is not a tile registry (it holds tables " in err and "--registry" in err and err.count("\n") == 1
    assert ledger.read_bytes() == before
