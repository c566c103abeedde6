"""A damaged ledger (a bad page, a damaged journal row, a file lost beside its -wal) is said in one
line naming the file and what to do, never a traceback (under systemd, a restart loop); a journal row
only a start's resume data is in is said in a warning and left out; the session's is not, silently."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.faults import FaultCode, LatchedFault
from firmware.records.store import DAMAGED, LOCKED, READ_ONLY, REFUSED


def _table(db: Path, events: Path, hands: int = 1, seed: int = 5) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "firmware", "run", "--simulate", "--ruleset", "changchun",
                           "--hands", str(hands), "--seed", str(seed), "--speed", "0", "--db", str(db),
                           "--events", str(events)],
                          capture_output=True, text=True, timeout=180, env=_env(db.parent))


def _env(folder: Path) -> dict:
    import os
    return {**os.environ, "MAHJONG_TABLE_CONFIG": "", "XDG_STATE_HOME": str(folder / "xdg")}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A ledger of one hand played, its journal holding the session, the chain and the recorder."""
    folder = tmp_path_factory.mktemp("played")
    done = _table(folder / "base.db", folder / "base.jsonl")
    assert done.returncode == 0, done.stderr
    return folder / "base.db"


def _copy(played: Path, tmp_path: Path) -> Path:
    db = tmp_path / "table.db"
    shutil.copy(played, db)
    return db


def _set_row(db: Path, key: str, value) -> None:
    with sqlite3.connect(db) as con:
        con.execute("UPDATE journal SET value = ? WHERE key = ?", (value, key))
    con.close()


def _one_line(done: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("value", ["[]", '{"session": 1, "tot', b"\xff\xfe not text"])
def test_an_unreadable_session_row_stops_the_start_not_a_new_session_at_zero(played, tmp_path, value):
    db = _copy(played, tmp_path)
    _set_row(db, "session", value)
    line = _one_line(_table(db, tmp_path / "e.jsonl"))
    assert str(db) in line and "'session'" in line and "DELETE FROM journal WHERE key = 'session'" in line
    with sqlite3.connect(db) as con:                # nothing opened meanwhile: no session at zero
        assert con.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 1


@pytest.mark.parametrize("key, value", [("recorder", '{"path": 5, "chain": null}'), ("chain", "{}"),
                                        ("next_set", b"\xff\xfe"), ("next_set", "{not json")])
def test_a_damaged_row_of_resume_data_is_warned_of_and_the_table_plays_on(played, tmp_path, key, value):
    db = _copy(played, tmp_path)
    _set_row(db, key, value)
    done = _table(db, tmp_path / "e.jsonl")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    warned = [line for line in (done.stdout + done.stderr).splitlines() if f"'{key}' row" in line]
    assert len(warned) == 1 and "left out" in warned[0], done.stdout + done.stderr      # said once


def _damage_page(db: Path, page: int) -> None:
    """60 random bytes over the end of a page (as the probe's damage.py does)."""
    random.seed(7)
    data = bytearray(db.read_bytes())
    offset = (page - 1) * 4096 + 3996
    data[offset:offset + 60] = bytes(random.randrange(256) for _ in range(60))
    db.write_bytes(bytes(data))


def test_a_damaged_first_page_is_one_line_that_says_keep_the_file_and_recover_it(played, tmp_path):
    db = _copy(played, tmp_path)
    _damage_page(db, 1)
    line = _one_line(_table(db, tmp_path / "e.jsonl"))
    assert "damaged" in line and "keep it" in line and f"sqlite3 {db} .recover" in line
    audit = subprocess.run([sys.executable, "-m", "firmware", "audit", str(played.with_suffix(".jsonl")), "--ledger",
                            str(db)], capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert "Traceback" not in audit.stderr and "the score ledger is damaged" in audit.stderr, audit.stderr
    records = subprocess.run([sys.executable, "-m", "firmware", "records", "--db", str(db), "--folder", str(tmp_path)],
                             capture_output=True, text=True, timeout=60, env=_env(tmp_path))
    assert "Traceback" not in records.stderr and records.returncode != 0, records.stderr


def test_the_line_for_a_damaged_row_does_not_quote_the_row(tmp_path):
    from firmware.cli.files import database_trouble
    garbage = "Could not decode to UTF-8 column 'value' with text '" + "x" * 200 + "'"
    line = str(database_trouble(tmp_path / "table.db", "ledger and settings database",
                                sqlite3.OperationalError(garbage), "--db"))
    assert "x" * 20 not in line and "not UTF-8" in line and "keep it" in line and ".recover" in line


def test_an_empty_ledger_with_its_wal_beside_it_is_refused_and_the_wal_kept(played, tmp_path):
    db = tmp_path / "table.db"
    db.write_bytes(b"")
    wal = tmp_path / "table.db-wal"
    wal.write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 4092 * 8)      # (a WAL's magic, then its frames)
    line = _one_line(_table(db, tmp_path / "e.jsonl"))
    assert str(db) in line and str(wal) in line and "keep both files" in line
    assert db.stat().st_size == 0 and wal.stat().st_size == 4 + 4092 * 8     # left as they were


@pytest.mark.parametrize("error, kind", [
    (sqlite3.DatabaseError("database disk image is malformed"), DAMAGED),
    (sqlite3.OperationalError("attempt to write a readonly database"), READ_ONLY),
    (OSError(30, "Read-only file system"), READ_ONLY),
    (sqlite3.OperationalError("disk I/O error"), READ_ONLY),    # ext4 remounted read-only after an error
    (sqlite3.OperationalError("database is locked"), LOCKED),   # a sqlite3 shell holding a write
    (sqlite3.OperationalError("database or disk is full"), REFUSED),
    (OSError(28, "No space left on device"), REFUSED),
])
def test_a_refused_write_is_told_by_what_refused_it_not_always_as_a_full_card(error, kind):
    from firmware.fault_desk import FaultDesk
    latched = []
    desk = FaultDesk.__new__(FaultDesk)
    desk.latch = latched.append                     # (the desk's own latching is tested with the hub)
    desk.storage_failed(error)
    fault: LatchedFault = latched[0]
    assert fault.code == FaultCode.STORAGE and fault.label == "E24"
    says_free_space = "free space" in fault.hint.todo_en
    assert says_free_space == (kind == REFUSED)
    if kind == DAMAGED:
        assert "damaged" in fault.hint.todo_en and ".recover" in fault.hint.todo_en
    if kind == READ_ONLY:
        assert "restart the Pi" in fault.hint.todo_en and "replace the card" in fault.hint.todo_en
    if kind == LOCKED:
        assert "another program holds" in fault.hint.todo_en and "close it" in fault.hint.todo_en


def test_a_bad_page_is_found_as_the_ledger_opens_not_first_when_a_hand_is_settled(played, tmp_path):
    from firmware.records.foreign_db import DamagedDatabase
    from firmware.records.ledger import Ledger
    db = _copy(played, tmp_path)
    with sqlite3.connect(db) as con:                # a b-tree page of the hands, its cell pointers overwritten
        page = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'hands'").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    start = (page - 1) * 4096 + 8
    data[start:start + 4] = b"\xff\xff\xff\xff"
    db.write_bytes(bytes(data))
    with pytest.raises(DamagedDatabase, match="malformed"):
        Ledger(db)


def test_audit_and_records_keep_the_wal_beside_an_empty_ledger(played, tmp_path):
    """`run` refused the pair, but a look with `audit --ledger` or `records --db` before copying the files
    off the card threw the -wal away — SQLite deletes the -wal of an empty file, read-only too — and every
    hand since the last checkpoint with it (a verifying probe: 4 MB)."""
    db = tmp_path / "table.db"
    db.write_bytes(b"")
    wal = tmp_path / "table.db-wal"
    wal.write_bytes(played.with_name(played.name + "-wal").read_bytes() if played.with_name(played.name + "-wal").exists()
                    else b"\x37\x7f\x06\x82" + b"\0" * 4092 * 8)
    size = wal.stat().st_size
    for command in (["audit", str(played.with_suffix(".jsonl")), "--ledger", str(db)],
                    ["records", "--db", str(db), "--folder", str(tmp_path)]):
        done = subprocess.run([sys.executable, "-m", "firmware", *command], capture_output=True, text=True)
        assert "Traceback" not in done.stderr and str(wal) in done.stdout + done.stderr, (command, done.stderr)
        assert wal.stat().st_size == size and db.stat().st_size == 0, command       # left as they were


@pytest.mark.parametrize("error, cleared", [
    (sqlite3.OperationalError("database or disk is full"), True),          # room made: the write lands
    (sqlite3.OperationalError("database is locked"), True),                # the other program let go
    (sqlite3.DatabaseError("database disk image is malformed"), False),    # no retry mends it
])
def test_a_write_landing_clears_e24_but_not_a_damaged_ledger_s(error, cleared):
    """A small journal write landing between the tries of the hand's result, which a bad page refuses,
    cleared E24 账本文件损坏; it was raised again 4 s later, over and over (a verifying probe)."""
    from tests.firmware.test_fault_under_the_table import desk_at
    from drivers.table_ui import Phase
    desk, _, screen = desk_at(Phase.PLAY)
    desk.storage_failed(error)
    assert screen.page == "fault" and screen.texts["fault.t_code"] == "E24"
    desk.storage_back()
    assert screen.page == ("main" if cleared else "fault")


def test_a_simulated_run_s_note_of_the_hand_it_voids_reads_no_damaged_row():
    """A journal's hand or session row holding a JSON list or string: the simulated run's note of the
    hand left in play was `AttributeError: 'list' object has no attribute 'get'` (a verifying probe);
    the start's own check says what is wrong with the row."""
    from firmware.simulated import _say_a_new_table
    _say_a_new_table({"hand": [1, 2, 3], "session": "x"})
    _say_a_new_table({"hand": {"number": 2}, "session": [1]})
