"""The score ledger and the table's journal: sessions, hands, payments and the state in play, in SQLite.

A hand's result is committed before the display shows it, so a power cut never shows a result
the ledger does not hold.  The journal (one row per key: the session's state, the hand in play,
the set built under the table) lives in the same database, so settling a hand — its rows, the
session's new state, the hand leaving the journal — is one transaction: a hand is never settled
twice and never lost.  WAL with synchronous=FULL: a committed transaction survives a power cut.
One connection per ledger, used by one thread at a time (firmware.records.store); no module-level
state.

The ledger keeps raw times only (a session's start and end, a hand's start and finish, each
interval a fault was latched); hours and bills are computed on read (firmware/records/history.py).
Columns added after the first release are migrated in place on an existing database (`_migrate`).
An existing file that is not a ledger (another program's tables, or ours with other columns) is
refused before anything is written into it (`check_ledger_file`): it is left byte for byte as it was.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .chain import canonical
from .foreign_db import DamagedDatabase, check_ours, create_schema, schema_columns

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
CREATE TABLE IF NOT EXISTS fault_intervals (
    id INTEGER PRIMARY KEY,
    session INTEGER NOT NULL REFERENCES sessions(id),
    started REAL NOT NULL,
    ended REAL,
    codes TEXT NOT NULL
);
"""

# The tables other parts of this product keep in the ledger's file (table.db): the front panel's
# choice (firmware/panel.py Settings; tests/records/test_foreign_databases.py keeps the two alike).
SHARED_SCHEMA = "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);"

CLOCK_KEY = "clock_step"     # the last step of the wall clock seen: written with it (`clock_stepped`)
SESSION_KEY = "session"      # the SessionState of the session in play
HAND_KEY = "hand"            # the HandState of the hand in play (absent between hands)
NEXT_SET_KEY = "next_set"    # the set checked under the table, ready to rise
RECORDER_KEY = "recorder"    # {"path", "chain"}: the file the last run's flight recorder wrote (its chain goes
#                              on), and the head it began from (for a file a power cut left empty)


# Columns added to the first schema: (table, column, declaration).  Added when missing, so a ledger
# written by an older controller keeps its rows; their new columns read as NULL.
ADDED_COLUMNS = (
    ("sessions", "ended", "REAL"),                 # NULL while open, or after a power cut
    ("sessions", "events", "TEXT"),                # the flight recorder file of the run, if any
    ("hands", "started", "REAL"),
    ("hands", "items", "TEXT"),                    # JSON: [{seat, items: [{name, pinyin, value, unit}]}]
    ("hands", "events", "TEXT"),                   # the flight recorder file of the run that settled it
    ("hands", "recorders", "TEXT"),                # JSON: every file holding its lines, in the order written
    ("fault_intervals", "step_at", "REAL"),        # a CLOCK step's place among its session's hands (`clock_stepped`)
)

CLOCK_STEP = "CLOCK"    # the code of a step of the wall clock: started = the clock before it, ended = after


@dataclass(frozen=True)
class HandRecord:
    number: int
    dealer: int
    result: str
    winners: tuple[int, ...]
    payments: tuple[int, int, int, int]
    wall_hash: str
    started: float | None = None                  # wall-clock time the hand began (its dice)
    items: tuple[dict[str, Any], ...] = ()         # per win: {"seat", "items": [...]}; a draw's: {"seat": None, …}
    recorders: tuple[str, ...] = ()                # the flight recorder files holding its lines, oldest first


@dataclass(frozen=True)
class EncodedJson:
    """A journal value its maker encoded already (compact JSON text): the hand's state, encoded
    piecewise as it grows (firmware.hand.state.HandState.journal_text); a checked set, encoded once
    for its row below and its row once risen (firmware.session)."""

    text: str


class Ledger:
    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time, events: str | None = None) -> None:
        """`clock` gives wall-clock seconds (tests fix it); `events` names the run's flight recorder
        file, kept with every session so a hand's page can find its lines."""
        self.path = str(path)
        self.clock = clock
        self.events = events
        check_ledger_file(self.path)        # before connecting: connecting writes (WAL, CREATE)
        self._db = sqlite3.connect(self.path, check_same_thread=False)   # used by the store's one thread
        self.journal_errors: list[str] = []
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            _quick_check(self._db)
            create_schema(self._db, SCHEMA + SHARED_SCHEMA)     # the panel's table too: one commit for both
            _migrate(self._db)
            self._db.commit()
            # read before this run writes anything: a run killed without its end left this as its last moment
            self._last_run_wrote = self._last_journal_write()
        except UnicodeDecodeError:          # a bad page's names: damaged, said so (it was a traceback)
            self._db.close()
            raise DamagedDatabase("its table list holds text that is not UTF-8") from None
        except sqlite3.Error:
            self._db.close()
            raise

    def start_session(self, ruleset: str, options: dict[str, str]) -> int:
        with self._db:
            cursor = self._db.execute("INSERT INTO sessions (started, ruleset, options, events) VALUES (?, ?, ?, ?)",
                                      (self.clock(), ruleset, json.dumps(options, sort_keys=True), self.events))
        return int(cursor.lastrowid)

    def end_session(self, session: int) -> None:
        """The session closed (the run stopped, or the panel chose new rules): its end time, and the
        end of a fault interval still open."""
        now = self.clock()
        with self._db:
            self._db.execute("UPDATE sessions SET ended = ? WHERE id = ? AND ended IS NULL", (now, session))
            self._db.execute("UPDATE fault_intervals SET ended = ? WHERE session = ? AND ended IS NULL", (now, session))

    def resume_session(self, session: int) -> None:
        """A restarted controller goes on with the session: it is open again, and the time the table
        was off (from its end, or from the last journal write when it died) is kept as an interval
        that is not played (code "OFF").  The last write is the one found when this ledger was opened:
        this run writes the journal (its recorder, the links) before it resumes, so the newest write
        now is its own."""
        now = self.clock()
        with self._db:
            ended = self._db.execute("SELECT ended FROM sessions WHERE id = ?", (session,)).fetchone()
            off = ended[0] if ended and ended[0] is not None else self._last_run_wrote
            # a fault latched when the table died ends there: left open, every hour after the restart
            # counted as fault time (a probe); one still latched opens an interval of its own
            self._db.execute("UPDATE fault_intervals SET ended = MAX(started, ?) WHERE session = ? AND ended IS NULL",
                             (off if off is not None else now, session))
            if off is not None and off < now:
                self._db.execute("INSERT INTO fault_intervals (session, started, ended, codes) VALUES (?, ?, ?, ?)",
                                 (session, off, now, json.dumps(["OFF"])))
            elif off is not None:       # the clock came back behind: how long it was off is not known
                self._step(session, off, now)
            self._db.execute("UPDATE sessions SET ended = NULL WHERE id = ?", (session,))

    def clock_stepped(self, session: int, before: float, after: float) -> None:
        """The wall clock stepped from `before` to `after` (the monotonic clock says so): the history
        cuts the session's time there, so a step forward is not played and a step back loses nothing."""
        with self._db:
            self._step(session, before, after)
            # the journal's last write moves past the step: a power cut before its next write had the
            # restart take a write from before the step back for the last moment, and the half hour
            # from the step to it was played (a soak: 29 minutes that never happened)
            self._put(CLOCK_KEY, {"before": before, "after": after})

    def _step(self, session: int, before: float, after: float) -> None:
        # its place among the hands' times: after those settled, and after the start of one in play
        settled = self._db.execute("SELECT COUNT(*) FROM hands WHERE session = ?", (session,)).fetchone()[0]
        in_play = self._db.execute("SELECT 1 FROM journal WHERE key = ?", (HAND_KEY,)).fetchone() is not None
        self._db.execute("INSERT INTO fault_intervals (session, started, ended, codes, step_at) VALUES (?, ?, ?, ?, ?)",
                         (session, before, after, json.dumps([CLOCK_STEP]), settled + (0.5 if in_play else 0)))

    def fault_started(self, session: int, codes: list[str]) -> int:
        """The fault latch went from clear to latched; returns the interval to end."""
        with self._db:
            cursor = self._db.execute("INSERT INTO fault_intervals (session, started, codes) VALUES (?, ?, ?)",
                                      (session, self.clock(), json.dumps(codes)))
        return int(cursor.lastrowid)

    def fault_codes(self, interval: int, codes: list[str]) -> None:
        """Faults latched during an open interval: its codes are every one latched in it."""
        with self._db:
            self._db.execute("UPDATE fault_intervals SET codes = ? WHERE id = ?", (json.dumps(codes), interval))

    def fault_ended(self, interval: int) -> None:
        with self._db:
            self._db.execute("UPDATE fault_intervals SET ended = ? WHERE id = ? AND ended IS NULL", (self.clock(), interval))

    def record_hand(self, session: int, hand: HandRecord, session_state: dict | None = None) -> None:
        """Commit a hand and its payments in one transaction; with `session_state`, the journal's
        session takes it and the hand leaves the journal in the same transaction."""
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO hands (session, number, dealer, result, winners, wall_hash, finished, started, items, "
                "events, recorders) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (session, hand.number, hand.dealer, hand.result, json.dumps(list(hand.winners)), hand.wall_hash,
                 self.clock(), hand.started, json.dumps(list(hand.items), ensure_ascii=False), self.events,
                 json.dumps(list(hand.recorders)) if hand.recorders else None))
            self._db.executemany("INSERT INTO payments (hand, side, amount) VALUES (?, ?, ?)",
                                 [(cursor.lastrowid, side, amount) for side, amount in enumerate(hand.payments)])
            if session_state is not None:
                self._put(SESSION_KEY, session_state)
                self._db.execute("DELETE FROM journal WHERE key = ?", (HAND_KEY,))

    def last_hand(self, session: int) -> dict | None:
        """The session's last hand kept, as its `hand_end` said it (`session_resumed` carries it: a
        SIGKILL between the commit and the recorder's line loses the line, never the hand)."""
        row = self._db.execute("SELECT id, number, result, winners, wall_hash FROM hands WHERE session = ? "
                               "ORDER BY id DESC LIMIT 1", (session,)).fetchone()
        if row is None:
            return None
        payments = [0, 0, 0, 0]
        for side, amount in self._db.execute("SELECT side, amount FROM payments WHERE hand = ? AND side BETWEEN 0 AND 3", (row[0],)):
            payments[side] = amount
        return {"hand": row[1], "result": row[2], "winners": json.loads(row[3]), "payments": payments,
                "wall_hash": row[4]}

    def holds_wall(self, wall_hash: str) -> bool:
        """Whether a hand played on the wall of this hash is kept (settled or void)."""
        return self._db.execute("SELECT 1 FROM hands WHERE wall_hash = ?", (wall_hash,)).fetchone() is not None

    def has_hand(self, session: int, number: int) -> bool:
        return self._db.execute("SELECT 1 FROM hands WHERE session = ? AND number = ?", (session, number)).fetchone() is not None

    # -- the journal -----------------------------------------------------------------------------

    def journal_put(self, key: str, value: dict) -> None:
        with self._db:
            self._put(key, value)

    def journal_swap(self, put: dict[str, dict | EncodedJson], drop: tuple[str, ...] = ()) -> None:
        """Put some values and drop some keys in one transaction (a hand begun takes its set's place)."""
        with self._db:
            for key, value in put.items():
                self._put(key, value)
            for key in drop:
                self._db.execute("DELETE FROM journal WHERE key = ?", (key,))

    def journal_drop(self, key: str) -> None:
        with self._db:
            self._db.execute("DELETE FROM journal WHERE key = ?", (key,))

    def journal(self) -> dict[str, dict]:
        """Every journaled value; a row that is not UTF-8 JSON (a bad page) is left out, and said in
        `journal_errors` (the session says them at its start: `firmware.session`).  Read as bytes, so
        one damaged row is one row left out, not a traceback at every start."""
        found: dict[str, dict] = {}
        self.journal_errors = []
        for raw_key, raw in self._db.execute("SELECT CAST(key AS BLOB), CAST(value AS BLOB) FROM journal"):
            key = bytes(raw_key or b"").decode("utf-8", "replace")
            try:
                found[key] = json.loads(bytes(raw or b"").decode("utf-8"))
            except UnicodeDecodeError:
                self.journal_errors.append(f"the journal's {key!r} row is not UTF-8 text (a damaged page)")
            except (ValueError, RecursionError) as error:
                self.journal_errors.append(f"the journal's {key!r} row is not JSON ({str(error)[:60]})")
        return found

    def _put(self, key: str, value: dict | EncodedJson) -> None:
        text = value.text if isinstance(value, EncodedJson) else canonical(value)
        # REPLACE, not an upsert: the row is written anew, so the newest write has the largest rowid
        # (`_last_journal_write`), whatever the wall clock said
        self._db.execute("INSERT OR REPLACE INTO journal (key, value, updated) VALUES (?, ?, ?)", (key, text, self.clock()))

    def _last_journal_write(self) -> float | None:
        """The time of the journal's last write: the last row written, not the largest time (after the
        clock went back, a row written before the step holds a later time than the last one)."""
        row = self._db.execute("SELECT updated FROM journal ORDER BY rowid DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def totals(self, session: int) -> tuple[int, int, int, int]:
        rows = self._db.execute(
            "SELECT p.side, SUM(p.amount) FROM payments p JOIN hands h ON p.hand = h.id WHERE h.session = ? "
            "AND p.side BETWEEN 0 AND 3 GROUP BY p.side",     # a row no seat has (written by hand) is the audit's
            (session,)).fetchall()
        totals = [0, 0, 0, 0]
        for side, amount in rows:
            totals[side] = int(amount)
        return tuple(totals)  # type: ignore[return-value]

    def hands(self, session: int) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM hands WHERE session = ?", (session,)).fetchone()[0])

    def close(self) -> None:
        self._db.close()


def _quick_check(db: sqlite3.Connection) -> None:
    """A bad page found as the ledger opens, not first when a hand's result is written into it (the
    settlement then failed for ever, E24 "free space").  Cheap: 4 ms on a ledger of 5000 hands."""
    found = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    if found != "ok":
        raise DamagedDatabase(f"database disk image is malformed: {' '.join(str(found).split())[:80]}")


def _migrate(db: sqlite3.Connection) -> None:
    """Add the columns a ledger written before them lacks (ALTER TABLE … ADD COLUMN keeps the rows), in
    one transaction (a new ledger gets them all)."""
    missing = []
    for table, column, declaration in ADDED_COLUMNS:
        present = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in present:
            missing.append(f"ALTER TABLE {table} ADD COLUMN {column} {declaration};")
    if missing:
        create_schema(db, "\n".join(missing))


def check_ledger_file(path: str | Path) -> None:
    """ForeignDatabase unless the file at `path` is a ledger (with the settings, or not), an older one
    (its new columns and tables are added), an empty file or no file yet."""
    check_ours(path, LEDGER_TABLES, "a score ledger")


LEDGER_TABLES = schema_columns(SCHEMA + SHARED_SCHEMA)     # the first release's columns: those it needs
