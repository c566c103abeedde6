"""The score ledger and the table's journal: sessions, hands, payments and the state in play, in SQLite.

A hand's result is committed before the display shows it, so a power cut never shows a result
the ledger does not hold.  The journal (one row per key: the session's state, the hand in play,
the set built under the table) lives in the same database, so settling a hand — its rows, the
session's new state, the hand leaving the journal — is one transaction: a hand is never settled
twice and never lost.  WAL with synchronous=FULL: a committed transaction survives a power cut.
One connection per ledger, used by one thread at a time (firmware.records.store); no module-level
state.
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
CREATE TABLE IF NOT EXISTS journal (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated REAL NOT NULL
);
"""

SESSION_KEY = "session"      # the SessionState of the session in play
HAND_KEY = "hand"            # the HandState of the hand in play (absent between hands)
NEXT_SET_KEY = "next_set"    # the set checked under the table, ready to rise


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
        self._db = sqlite3.connect(self.path, check_same_thread=False)   # used by the store's one thread
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._db.commit()

    def start_session(self, ruleset: str, options: dict[str, str]) -> int:
        with self._db:
            cursor = self._db.execute("INSERT INTO sessions (started, ruleset, options) VALUES (?, ?, ?)",
                                      (time.time(), ruleset, json.dumps(options, sort_keys=True)))
        return int(cursor.lastrowid)

    def record_hand(self, session: int, hand: HandRecord, session_state: dict | None = None) -> None:
        """Commit a hand and its payments in one transaction; with `session_state`, the journal's
        session takes it and the hand leaves the journal in the same transaction."""
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO hands (session, number, dealer, result, winners, wall_hash, finished) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (session, hand.number, hand.dealer, hand.result, json.dumps(list(hand.winners)), hand.wall_hash, time.time()))
            self._db.executemany("INSERT INTO payments (hand, side, amount) VALUES (?, ?, ?)",
                                 [(cursor.lastrowid, side, amount) for side, amount in enumerate(hand.payments)])
            if session_state is not None:
                self._put(SESSION_KEY, session_state)
                self._db.execute("DELETE FROM journal WHERE key = ?", (HAND_KEY,))

    def has_hand(self, session: int, number: int) -> bool:
        return self._db.execute("SELECT 1 FROM hands WHERE session = ? AND number = ?", (session, number)).fetchone() is not None

    # -- the journal -----------------------------------------------------------------------------

    def journal_put(self, key: str, value: dict) -> None:
        with self._db:
            self._put(key, value)

    def journal_drop(self, key: str) -> None:
        with self._db:
            self._db.execute("DELETE FROM journal WHERE key = ?", (key,))

    def journal(self) -> dict[str, dict]:
        """Every journaled value; a row that is not valid JSON is left out (and said in `journal_errors`)."""
        found: dict[str, dict] = {}
        self.journal_errors: list[str] = []
        for key, value in self._db.execute("SELECT key, value FROM journal"):
            try:
                found[key] = json.loads(value)
            except ValueError as error:
                self.journal_errors.append(f"journal {key}: not JSON ({error})")
        return found

    def _put(self, key: str, value: dict) -> None:
        self._db.execute("INSERT INTO journal (key, value, updated) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE "
                         "SET value = excluded.value, updated = excluded.updated",
                         (key, json.dumps(value, ensure_ascii=False, separators=(",", ":")), time.time()))

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
