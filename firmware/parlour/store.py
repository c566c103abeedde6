"""The parlour's own SQLite store: every table's last status, every settled hand, and the
moments a table came, went or latched a fault.

Blocking methods, run on the watcher's writer thread (firmware.records.store.Store).  A hand is
stored once by its id (the table and the hand's recorder digest), so a hand the broker delivers
twice — a table sends again what it was not sure the broker had — is kept once.  An existing file
holding other tables (a table's ledger, another program's database) is refused before anything is
written into it (`check_store`), and left as it was.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..records.history import day_bounds
from ..records.foreign_db import check_ours, schema_columns

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    status TEXT NOT NULL,              -- the last status payload (JSON)
    last_seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    id TEXT PRIMARY KEY,               -- "<table>:<digest>"
    tbl TEXT NOT NULL,
    finished REAL NOT NULL,
    received REAL NOT NULL,
    payload TEXT NOT NULL              -- the hand as published (JSON)
);
CREATE INDEX IF NOT EXISTS hands_by_finish ON hands (finished);
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tbl TEXT NOT NULL,
    at REAL NOT NULL,
    what TEXT NOT NULL,                -- online, offline, lost, fault, clear
    detail TEXT NOT NULL DEFAULT ''
);
"""


STORE_TABLES = schema_columns(SCHEMA)          # table → its columns: what an existing store must hold


def check_store(path: str | Path) -> None:
    """ForeignDatabase (an sqlite3.DatabaseError) unless the file at `path` is a parlour's store, an
    empty file or no file yet; read only (the command checks before its writer thread opens it)."""
    check_ours(path, STORE_TABLES, "a parlour store")


class ParlourStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        check_store(self.path)              # before connecting: connecting writes (WAL, CREATE)
        self._db = sqlite3.connect(self.path, check_same_thread=False)     # used by the writer thread only
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)

    def save_statuses(self, statuses: list[tuple[str, dict[str, Any], float]]) -> None:
        """(table, status, last seen) of each table whose status changed, in one transaction."""
        with self._db:
            self._db.executemany(
                "INSERT INTO tables (name, status, last_seen) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET status = excluded.status, last_seen = excluded.last_seen",
                [(name, json.dumps(status, ensure_ascii=False), seen) for name, status, seen in statuses])

    def add_hand(self, hand: dict[str, Any], received: float) -> bool:
        """Store a settled hand; False when it was already stored."""
        with self._db:
            cursor = self._db.execute("INSERT OR IGNORE INTO hands (id, tbl, finished, received, payload) "
                                      "VALUES (?, ?, ?, ?, ?)",
                                      (hand["id"], hand["table"], hand["finished"], received,
                                       json.dumps(hand, ensure_ascii=False)))
        return cursor.rowcount == 1

    def note(self, table: str, at: float, what: str, detail: str = "") -> None:
        with self._db:
            self._db.execute("INSERT INTO changes (tbl, at, what, detail) VALUES (?, ?, ?, ?)", (table, at, what, detail))

    def tables(self) -> list[tuple[str, dict[str, Any], float]]:
        return [(row[0], json.loads(row[1]), row[2])
                for row in self._db.execute("SELECT name, status, last_seen FROM tables ORDER BY name")]

    def hands(self, *, table: str | None = None, day: date | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Settled hands, newest first."""
        sql, args = "SELECT payload FROM hands WHERE 1=1", []
        if table is not None:
            sql += " AND tbl = ?"
            args.append(table)
        if day is not None:
            lo, hi = day_bounds(day)
            sql += " AND finished >= ? AND finished < ?"
            args += [lo, hi]
        sql += " ORDER BY finished DESC, id LIMIT ?"
        args.append(limit)
        return [json.loads(row[0]) for row in self._db.execute(sql, args)]

    def hands_per_table(self, day: date) -> Counter:
        lo, hi = day_bounds(day)
        return Counter({row[0]: row[1] for row in self._db.execute(
            "SELECT tbl, COUNT(*) FROM hands WHERE finished >= ? AND finished < ? GROUP BY tbl", (lo, hi))})

    def changes(self, limit: int = 50) -> list[dict[str, Any]]:
        return [{"table": row[0], "at": row[1], "what": row[2], "detail": row[3]} for row in self._db.execute(
            "SELECT tbl, at, what, detail FROM changes ORDER BY id DESC LIMIT ?", (limit,))]

    def last_states(self) -> dict[str, str]:
        """Each table's state last written to the changes (online, offline or lost): what a parlour
        started again has already said, so it neither says it twice nor leaves a loss unsaid."""
        return {row[0]: row[1] for row in self._db.execute(
            "SELECT tbl, what FROM changes WHERE id IN (SELECT MAX(id) FROM changes "
            "WHERE what IN ('online', 'offline', 'lost') GROUP BY tbl)")}

    def close(self) -> None:
        self._db.close()


def day_of(t: float) -> date:
    return datetime.fromtimestamp(t).date()


__all__ = ["ParlourStore", "check_store", "day_of"]
