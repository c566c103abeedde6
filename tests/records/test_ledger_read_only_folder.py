"""`audit --ledger` (and `records --db`) of a ledger in a folder that cannot be written — a copy on a
read-only USB stick, a mounted backup.  SQLite's read-only open of a WAL database must make the -shm
beside it, so the audit failed, calling the ledger "not a score ledger (unable to open database
file)".  It is read now, with nothing written beside it, and the -wal's writes too."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from contextlib import contextmanager
from pathlib import Path

import pytest

from firmware.cli import main
from tests.records.tampering import as_text


@contextmanager
def read_only(folder: Path):
    """`folder` made read-only: by its mode (0555), or as root, whom no mode stops, as a read-only bind
    mount of itself (a stick mounted read-only); skipped in one line where neither binds."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"as root a read-only folder needs a read-only bind mount ({mounted.stderr.strip() or 'failed'})")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True, capture_output=True)
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False, capture_output=True)


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def last_writes_in_the_wal(ledger: str, folder: Path) -> Path:
    """A copy of a table taken as it ran: table.db without its rows, the rows in table.db-wal beside it,
    no -shm (the copy left it behind)."""
    work = folder.parent / "work.db"
    shutil.copyfile(ledger, work)
    db = sqlite3.connect(work)
    db.execute("PRAGMA wal_autocheckpoint=0")
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    rows = {table: db.execute(f"SELECT * FROM {table}").fetchall() for table in tables}
    for table in tables:
        db.execute(f"DELETE FROM {table}")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")           # the file itself without the rows
    for table, kept in rows.items():
        for row in kept:
            db.execute(f"INSERT INTO {table} VALUES ({', '.join('?' * len(row))})", row)
    db.commit()
    shutil.copyfile(work, folder / "table.db")
    shutil.copyfile(work.with_name("work.db-wal"), folder / "table.db-wal")
    db.close()
    assert (folder / "table.db-wal").stat().st_size > 0
    return folder / "table.db"


@pytest.mark.parametrize("copy", ["closed cleanly", "closed, its -shm copied too", "its last writes in the -wal"])
def test_a_ledger_in_a_read_only_folder_is_audited_and_left_as_it_was(recorders, tmp_path, capsys, copy):
    events, ledger = recorders["changchun"]
    recorder = tmp_path / "r.jsonl"
    recorder.write_bytes(as_text(events))
    stick = tmp_path / "stick"
    stick.mkdir()
    if copy.startswith("closed"):
        shutil.copyfile(ledger, stick / "table.db")
        if "-shm" in copy:
            (stick / "table.db-shm").write_bytes(bytes(32768))
    else:
        last_writes_in_the_wal(ledger, stick)
    before = contents(stick)
    with read_only(stick):
        code = main(["audit", str(recorder), "--ledger", str(stick / "table.db")])
        assert capsys.readouterr().out == "4 hand(s) audited: sound\n" and code == 0
        events_folder = tmp_path / "events"
        events_folder.mkdir()
        assert main(["records", "--folder", str(events_folder), "--db", str(stick / "table.db")]) == 0
    assert contents(stick) == before                        # nothing written beside it, nothing changed


def test_what_is_not_a_ledger_in_a_read_only_folder_is_one_line(recorders, tmp_path, capsys):
    events, _ = recorders["changchun"]
    recorder = tmp_path / "r.jsonl"
    recorder.write_bytes(as_text(events))
    stick = tmp_path / "stick"
    stick.mkdir()
    (stick / "table.db").write_bytes(b"not sqlite at all, just text" * 10)
    assert main(["audit", str(recorder), "--ledger", str(stick / "table.db")]) == 2
    writable = capsys.readouterr().err
    with read_only(stick):
        assert main(["audit", str(recorder), "--ledger", str(stick / "table.db")]) == 2
    err = capsys.readouterr().err
    assert err == writable and err.count("\n") == 1 and "table.db" in err, err      # the same line as anywhere
