"""A fresh install's files are made in few syncs of the card: a worn SD card can take seconds an
fsync, and the table says READY to systemd only after its files are open (TimeoutStartSec=60).
Each statement SQLite runs outside a transaction is a commit of its own, and each commit a sync:
made in one transaction, the tables cost one commit, and the columns later releases added one more.
Counted in the write-ahead log, where every commit ends with a frame that says so."""

from __future__ import annotations

from pathlib import Path

from firmware.build.registry import TileRegistry
from firmware.panel import Settings
from firmware.records.ledger import Ledger

WAL_HEADER = 32
FRAME_HEADER = 24


def commits_in_wal(database: Path) -> int:
    """The commits the database's write-ahead log holds (read before the last connection closes:
    closing checkpoints the log away).  A frame whose header gives the database's size after it is
    the last frame of a commit (sqlite.org/fileformat2.html, "WAL File Format")."""
    wal = Path(f"{database}-wal").read_bytes()
    if len(wal) < WAL_HEADER:
        return 0
    page_size = int.from_bytes(wal[8:12], "big")
    frame = FRAME_HEADER + page_size
    return sum(1 for at in range(WAL_HEADER, len(wal) - frame + 1, frame)
               if int.from_bytes(wal[at + 4:at + 8], "big") != 0)


def test_a_new_ledger_is_made_in_two_commits(tmp_path):
    ledger = Ledger(tmp_path / "table.db")
    try:
        assert commits_in_wal(tmp_path / "table.db") == 2   # its tables; the columns added since the first release
    finally:
        ledger.close()


def test_the_panel_s_settings_beside_a_new_ledger_commit_nothing_more(tmp_path):
    ledger = Ledger(tmp_path / "table.db")
    settings = Settings(tmp_path / "table.db")
    try:
        assert commits_in_wal(tmp_path / "table.db") == 2
    finally:
        settings.close()
        ledger.close()


def test_an_existing_ledger_opens_without_a_commit(tmp_path):
    Ledger(tmp_path / "table.db").close()
    ledger = Ledger(tmp_path / "table.db")
    try:
        assert commits_in_wal(tmp_path / "table.db") == 0
    finally:
        ledger.close()


def test_a_new_tile_registry_is_made_in_one_commit(tmp_path):
    registry = TileRegistry(tmp_path / "tiles.db")
    try:
        assert commits_in_wal(tmp_path / "tiles.db") == 1
    finally:
        registry.close()
