"""The score ledger: sessions, hands and payments in SQLite (WAL).

A hand's result is committed before the display shows it, so a power cut never shows a result
the ledger does not hold.  One connection per ledger; no module-level state.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    ruleset TEXT NOT NULL,
    options TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    session INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    dealer INTEGER NOT NULL,
    result TEXT NOT NULL,
    winners TEXT NOT NULL,
    wall_hash TEXT NOT NULL,
    finished REAL NOT NULL,
    UNIQUE (session, number)
);
CREATE TABLE IF NOT EXISTS payments (
    hand INTEGER NOT NULL REFERENCES hands(id),
    side INTEGER NOT NULL,
    amount INTEGER NOT NULL,
    PRIMARY KEY (hand, side)
);
"""


@dataclass(frozen=True)
class HandRecord:
    number: int
    dealer: int
    result: str
    winners: tuple[int, ...]
    payments: tuple[int, int, int, int]
    wall_hash: str


class Ledger:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._db.commit()

    def start_session(self, ruleset: str, options: dict[str, str]) -> int:
        with self._db:
            cursor = self._db.execute("INSERT INTO sessions (started, ruleset, options) VALUES (?, ?, ?)",
                                      (time.time(), ruleset, json.dumps(options, sort_keys=True)))
        return int(cursor.lastrowid)

    def record_hand(self, session: int, hand: HandRecord) -> None:
        """Commit a hand and its payments in one transaction."""
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO hands (session, number, dealer, result, winners, wall_hash, finished) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session, hand.number, hand.dealer, hand.result, json.dumps(list(hand.winners)), hand.wall_hash, time.time()))
            self._db.executemany("INSERT INTO payments (hand, side, amount) VALUES (?, ?, ?)",
                                 [(cursor.lastrowid, side, amount) for side, amount in enumerate(hand.payments)])

    def totals(self, session: int) -> tuple[int, int, int, int]:
        rows = self._db.execute(
            "SELECT p.side, SUM(p.amount) FROM payments p JOIN hands h ON p.hand = h.id WHERE h.session = ? GROUP BY p.side",
            (session,)).fetchall()
        totals = [0, 0, 0, 0]
        for side, amount in rows:
            totals[side] = int(amount)
        return tuple(totals)  # type: ignore[return-value]

    def hands(self, session: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM hands WHERE session = ?", (session,)).fetchone()[0])

    def close(self) -> None:
        self._db.close()
