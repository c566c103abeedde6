"""Settled hands waiting for the broker, on disk: a hand is removed only once the broker acknowledged it.

A plain SQLite queue (one file per table, beside the ledger).  Every method is blocking and runs
on the publisher's own writer thread (firmware.records.store.Store), never on the event loop.
Bounded: past `limit` rows the oldest are dropped and counted — at one hand every few minutes the
default is weeks of hands, and the ledger keeps every hand regardless.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

log = logging.getLogger("firmware.fleet")

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    queued REAL NOT NULL
);
"""


class OutboxError(Exception):
    """The outbox file cannot be used; the message is one line."""


class Outbox:
    def __init__(self, path: str | Path, limit: int = 10000) -> None:
        self.path = str(path)
        self.limit = limit
        self.dropped = 0
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as error:
            raise OutboxError(f"{self.path}: cannot use it as the MQTT outbox ({error}); move it away") from None

    def put(self, key: str, topic: str, payload: bytes) -> int:
        """Queue one message (once: a key already waiting is not queued again); returns how many wait."""
        with self._db:
            self._db.execute("INSERT OR IGNORE INTO outbox (key, topic, payload, queued) VALUES (?, ?, ?, ?)",
                             (key, topic, payload, time.time()))
            waiting = self.count()
            if waiting > self.limit:
                excess = waiting - self.limit
                self._db.execute("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox ORDER BY id LIMIT ?)", (excess,))
                self.dropped += excess
                log.warning("the MQTT outbox is full (%d hands): dropped the %d oldest (the ledger keeps them)",
                            self.limit, excess)
                waiting = self.limit
        return waiting

    def peek(self, limit: int = 20) -> list[tuple[int, str, bytes]]:
        """The oldest waiting messages, in the order they were queued."""
        return [(row[0], row[1], bytes(row[2])) for row in
                self._db.execute("SELECT id, topic, payload FROM outbox ORDER BY id LIMIT ?", (limit,))]

    def remove(self, ids: list[int]) -> int:
        """The broker has these: forget them; returns how many are still waiting."""
        with self._db:
            self._db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in ids])
        return self.count()

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def close(self) -> None:
        self._db.close()


__all__ = ["Outbox", "OutboxError"]
