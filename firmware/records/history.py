"""The ledger read back: sessions, hands with their payments, and the table's hours.

The write side (firmware/records/ledger.py) keeps raw times only; every figure here is computed on
read.  A `History` opens the ledger's file read-only for each query (its own connection, so the web
server can run queries in a thread while the table writes), and never changes it.

Hours: a session's wall time runs from its start to its end (to now while it is the newest open
session; to its last recorded moment when a power cut left it open).  Time lost to faults is the
union of its fault intervals; hours played = wall time - fault time.  Per day, every interval is
clipped to the local calendar day, so a session over midnight counts in both days.

The wall clock can go back (a Pi keeps no time through a power cut; a time server corrects it), so
a session's time is read from its times in the order they were written (its start, each hand's start
and finish, its end) and split into stretches where one is earlier than the one before: each stretch
counts on the days its own times fall on, and the step back counts nothing (its real length is not
known).  A step the controller saw against its monotonic clock (either way; a `CLOCK` row the
ledger keeps) cuts the time the same way, where it was seen: a step forward is not played.  A hand
counts on the day it finished, as `hands(day=…)` lists it.
"""

from __future__ import annotations

import csv
import io
import json
import math
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, Callable, Collection

from rulesets.tiles import quoted

from .audit_ledger import damaged_ledger
from .foreign_db import connect_read_only
from .hand_lines import RecorderUnreadable, hand_lines, listed_hand_lines
from .ledger import CLOCK_STEP
from .session_time import ClockStep, SessionSpan, stretches, with_faults, with_steps
from .store import DAMAGED, disk_trouble

SIDES = 4


class HistoryError(Exception):
    """A query that cannot be answered (a bad filter, an unknown hand); the message is one line."""


class LedgerDamaged(HistoryError):
    """The ledger cannot be read: a bad page (text that is not UTF-8, `malformed`).  One line, not a
    traceback and a bare 500 (a verifying probe: a hands row's bad page passes quick_check)."""


@dataclass(frozen=True)
class SessionRow:
    id: int
    started: float
    ended: float | None
    status: str                    # "open", "closed" or "interrupted" (no end recorded, not the newest)
    ruleset: str
    options: dict[str, str]
    hands: int
    totals: tuple[int, ...]
    events: str | None             # the flight recorder file of the run


@dataclass(frozen=True)
class HandRow:
    id: int
    session: int
    number: int
    ruleset: str
    options: dict[str, str]
    dealer: int
    result: str                    # "win", "draw" or "void" (paid nothing)
    winners: tuple[int, ...]
    payments: tuple[int, ...]
    totals: tuple[int, ...]        # the session's totals after this hand
    items: tuple[dict[str, Any], ...]
    started: float | None
    finished: float
    wall_hash: str
    events: str | None             # the flight recorder file of the run that settled it (older ledgers: the session's)
    recorders: tuple[str, ...] = ()  # every file holding its lines, oldest first (older ledgers: none kept)


@dataclass(frozen=True)
class Hours:
    """The figures a parlour charges by, for one session or one day."""

    key: str                       # the session id or the day (YYYY-MM-DD)
    wall_s: float                  # from open to close
    fault_s: float                 # latched faults (usually not billed)
    played_s: float                # wall_s - fault_s
    hands: int
    sessions: tuple[int, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["sessions"] = list(self.sessions)
        data["played_h"] = round(self.played_s / 3600, 3)
        return data


def parse_day(text: str) -> date:
    """A calendar day, YYYY-MM-DD, that the clock can count from (1970 to 9998)."""
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise HistoryError(f"day {quoted(text)}: give a date as YYYY-MM-DD, e.g. 2026-11-30") from None
    try:
        if not 1970 <= day.year <= 9998:
            raise ValueError(day)
        day_bounds(day)
    except (OverflowError, ValueError, OSError):
        raise HistoryError(f"day {quoted(text)}: out of the clock's range; give a date from 1970 to 9998") from None
    return day


def day_bounds(day: date) -> tuple[float, float]:
    """The local calendar day as [start, end) in epoch seconds."""
    start = datetime.combine(day, datetime.min.time())
    return start.timestamp(), (start + timedelta(days=1)).timestamp()


def _among(column: str, ids: Collection[int] | None) -> tuple[str, tuple[int, ...]]:
    """A WHERE clause keeping the rows whose `column` is one of `ids` (None: every row; so many
    that SQLite would refuse the parameters: every row too, as right and only slower)."""
    if ids is None or len(ids) > 900:
        return "", ()
    return f"WHERE {column} IN ({', '.join('?' * len(ids))})", tuple(ids)


class History:
    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock

    def _connect(self) -> sqlite3.Connection | None:
        if not self.path.exists():
            return None                                # no ledger yet: an empty history
        db = connect_read_only(self.path)
        db.row_factory = sqlite3.Row
        return db

    def _query(self, sql: str, args: tuple = ()) -> list[sqlite3.Row]:
        db = self._connect()
        if db is None:
            return []
        try:
            return db.execute(sql, args).fetchall()
        except UnicodeDecodeError:
            raise LedgerDamaged(damaged_ledger(str(self.path), "text that is not UTF-8")) from None
        except sqlite3.DatabaseError as error:
            if disk_trouble(error) == DAMAGED:
                raise LedgerDamaged(damaged_ledger(str(self.path), str(error))) from None
            raise
        finally:
            db.close()

    # -- sessions ----------------------------------------------------------------------------------

    def sessions(self, day: date | None = None) -> list[SessionRow]:
        """Every session (newest first), or those that were open on `day` (or finished a hand on it,
        the clock having gone back: as `day_hours` counts them)."""
        if day is None:
            return self._sessions()
        lo, hi = day_bounds(day)
        return self._sessions([span.session for span in self._session_spans(self._touching(lo, hi))
                               if span.on_day(lo, hi)])

    def session(self, session_id: int) -> SessionRow:
        for session in self._sessions([session_id]):
            return session
        raise HistoryError(f"no session {session_id} in the ledger")

    def session_started(self, session_id: int) -> float:
        """When a session began (its figures not read: a session open for months has paid a
        hundred thousand payments)."""
        for row in self._query("SELECT started FROM sessions WHERE id = ?", (session_id,)):
            return row["started"]
        raise HistoryError(f"no session {session_id} in the ledger")

    def _sessions(self, ids: Collection[int] | None = None) -> list[SessionRow]:
        """Every session, or those in `ids`, newest first, with their hands and totals."""
        if ids is not None and not ids:
            return []
        among, args = _among("s.id", ids)
        rows = self._query("SELECT s.*, (SELECT COUNT(*) FROM hands h WHERE h.session = s.id) AS hand_count "
                           f"FROM sessions s {among} ORDER BY s.id DESC", args)
        totals = self._totals(ids)
        newest = self._newest()
        return [self._session(row, newest, totals.get(row["id"], (0,) * SIDES)) for row in rows]

    def _newest(self) -> int | None:
        """The newest session's id: the one still open, if any is."""
        rows = self._query("SELECT MAX(id) AS id FROM sessions")
        return rows[0]["id"] if rows else None

    def _session(self, row: sqlite3.Row, newest: int | None, totals: tuple[int, ...]) -> SessionRow:
        status = "closed" if row["ended"] is not None else "open" if row["id"] == newest else "interrupted"
        return SessionRow(row["id"], row["started"], row["ended"], status, row["ruleset"], json.loads(row["options"]),
                          row["hand_count"], totals, row["events"])

    def _end(self, row: sqlite3.Row, newest: int | None) -> float:
        """When a session's time stops counting (its end; now while it is the newest open one; else its
        last recorded moment)."""
        if row["ended"] is not None:
            return row["ended"]
        if row["id"] == newest:
            return self.clock()
        return max(x for x in (row["started"], row["last_hand"], row["last_fault"]) if x is not None)

    def _totals(self, ids: Collection[int] | None = None) -> dict[int, tuple[int, ...]]:
        totals: dict[int, list[int]] = {}
        among, args = _among("h.session", ids)
        for row in self._query("SELECT h.session, p.side, SUM(p.amount) AS amount FROM payments p "
                               f"JOIN hands h ON p.hand = h.id {among} {'AND' if among else 'WHERE'} "
                               "p.side BETWEEN 0 AND 3 GROUP BY h.session, p.side", args):
            totals.setdefault(row["session"], [0] * SIDES)[row["side"]] = int(row["amount"])
        return {k: tuple(v) for k, v in totals.items()}

    def _touching(self, lo: float, hi: float) -> list[int]:
        """The sessions whose times could reach into [lo, hi): every time a session wrote (its start
        and end, its hands', its faults' and the clock's steps) bounds its stretches, whatever the
        clock did, so a session whose times all lie before `lo` or from `hi` on has no time in it.
        The rest need not be read hand by hand (`day_hours` of today, asked after every hand)."""
        hands = {row[0]: row[1:] for row in self._query(
            "SELECT session, MIN(finished), MAX(finished), MIN(started), MAX(started) FROM hands GROUP BY session")}
        faults = {row[0]: row[1:] for row in self._query(
            "SELECT session, MIN(started), MAX(started), MIN(ended), MAX(ended) FROM fault_intervals GROUP BY session")}
        sessions = self._query("SELECT id, started, ended FROM sessions")
        newest = max((row["id"] for row in sessions), default=None)
        out = []
        for row in sessions:
            times = [t for t in (row["started"], row["ended"], *hands.get(row["id"], ()), *faults.get(row["id"], ()))
                     if t is not None]
            last = math.inf if row["ended"] is None and row["id"] == newest else max(times)     # open: up to now
            if min(times) < hi and last >= lo:
                out.append(row["id"])
        return out

    # -- hands -------------------------------------------------------------------------------------

    def hands(self, *, session: int | None = None, day: date | None = None, since: float | None = None,
              after: int | None = None, limit: int | None = 500, newest: bool = False) -> list[HandRow]:
        """Finished hands, in the order they were settled: of one session, of one day, finished after
        the time `since`, or settled after the hand with id `after`.  The order and `after` go by the
        ledger's ids, which only grow: the table's clock can go back (a Pi keeps no time through a
        power cut), so a hand settled after another may carry an earlier time.  At most `limit` (None:
        every one): the first ones, or with `newest` the last ones, still in the order settled (the
        history page showed a session's first 500: after a month without a restart, a month old)."""
        where, args = [], []
        if session is not None:
            where.append("h.session = ?")
            args.append(session)
        if day is not None:
            lo, hi = day_bounds(day)
            where += ["h.finished >= ?", "h.finished < ?"]
            args += [lo, hi]
        if since is not None:
            where.append("h.finished > ?")
            args.append(since)
        if after is not None:
            where.append("h.id > ?")
            args.append(after)
        sql = ("SELECT h.*, s.ruleset, s.options, COALESCE(h.events, s.events) AS recorder FROM hands h "
               "JOIN sessions s ON s.id = h.session"
               + (" WHERE " + " AND ".join(where) if where else "")
               + (" ORDER BY h.id DESC LIMIT ?" if newest else " ORDER BY h.id LIMIT ?"))
        rows = self._query(sql, (*args, -1 if limit is None else limit))      # (SQLite: -1 is no limit)
        if newest:
            rows.reverse()
        payments = self._payments([row["id"] for row in rows])
        running = self._running_totals(rows)
        return [self._hand(row, payments.get(row["id"], (0,) * SIDES), running.get(row["id"], (0,) * SIDES))
                for row in rows]

    def hand(self, hand_id: int) -> HandRow:
        rows = self._query("SELECT h.*, s.ruleset, s.options, COALESCE(h.events, s.events) AS recorder FROM hands h "
                           "JOIN sessions s ON s.id = h.session "
                           "WHERE h.id = ?", (hand_id,))
        if not rows:
            raise HistoryError(f"no hand {hand_id} in the ledger")
        row = rows[0]
        return self._hand(row, self._payments([hand_id]).get(hand_id, (0,) * SIDES),
                          self._running_totals([row]).get(hand_id, (0,) * SIDES))

    def _hand(self, row: sqlite3.Row, payments: tuple[int, ...], totals: tuple[int, ...]) -> HandRow:
        return HandRow(row["id"], row["session"], row["number"], row["ruleset"], json.loads(row["options"]), row["dealer"],
                       row["result"], tuple(json.loads(row["winners"])), payments, totals,
                       tuple(json.loads(row["items"])) if row["items"] else (), row["started"], row["finished"],
                       row["wall_hash"], row["recorder"], _recorders(row["recorders"]))

    def _payments(self, hand_ids: list[int]) -> dict[int, tuple[int, ...]]:
        if not hand_ids:
            return {}
        marks = ",".join("?" * len(hand_ids))
        out: dict[int, list[int]] = {}
        for row in self._query(f"SELECT hand, side, amount FROM payments WHERE hand IN ({marks}) AND side BETWEEN 0 AND 3",
                               tuple(hand_ids)):
            out.setdefault(row["hand"], [0] * SIDES)[row["side"]] = row["amount"]
        return {k: tuple(v) for k, v in out.items()}

    def _running_totals(self, rows: list[sqlite3.Row]) -> dict[int, tuple[int, ...]]:
        """Each hand's session totals after it (the sum of its session's payments so far).  Only the
        hands asked for are read row by row: what came before them in their session is one sum, so a
        hand's page reads a few rows however long its session ran (it read every payment of the
        session: a month without a restart is one session of thousands of hands)."""
        spans: dict[int, tuple[int, int]] = {}          # session -> (first, last) hand number asked for
        for row in rows:
            lo, hi = spans.get(row["session"], (row["number"], row["number"]))
            spans[row["session"]] = (min(lo, row["number"]), max(hi, row["number"]))
        out: dict[int, tuple[int, ...]] = {}
        for session, (lo, hi) in spans.items():
            totals = [0] * SIDES
            for before in self._query("SELECT p.side, SUM(p.amount) AS amount FROM payments p JOIN hands h ON p.hand = h.id "
                                      "WHERE h.session = ? AND h.number < ? AND p.side BETWEEN 0 AND 3 GROUP BY p.side",
                                      (session, lo)):
                totals[before["side"]] = int(before["amount"])
            running: dict[int, list[int]] = {}
            for row in self._query("SELECT h.id, p.side, p.amount FROM hands h JOIN payments p ON p.hand = h.id "
                                   "WHERE h.session = ? AND h.number BETWEEN ? AND ? AND p.side BETWEEN 0 AND 3 "
                                   "ORDER BY h.number, p.side", (session, lo, hi)):
                totals[row["side"]] += row["amount"]
                running[row["id"]] = list(totals)
            out.update((k, tuple(v)) for k, v in running.items())
        return out

    # -- hours -------------------------------------------------------------------------------------

    def _session_spans(self, ids: Collection[int] | None = None) -> list[SessionSpan]:
        """Every session's time (or that of the sessions in `ids`) in stretches, with its faults and
        its hands' finish times; newest first."""
        if ids is not None and not ids:
            return []
        newest = self._newest()           # before the rows: a session begun meanwhile is not the open one
        among, args = _among("s.id", ids)
        rows = self._query(
            "SELECT s.id, s.started, s.ended, (SELECT MAX(finished) FROM hands h WHERE h.session = s.id) AS last_hand, "
            "(SELECT MAX(COALESCE(ended, started)) FROM fault_intervals f WHERE f.session = s.id) AS last_fault "
            f"FROM sessions s {among} ORDER BY s.id DESC", args)
        among, args = _among("session", ids)
        faults: dict[int, list[tuple[float, float | None]]] = {}
        steps: dict[int, list[tuple[float, ClockStep]]] = {}
        for row in self._query(f"SELECT session, started, ended, codes, step_at FROM fault_intervals {among} ORDER BY id",
                               args):
            if row["step_at"] is not None and json.loads(row["codes"]) == [CLOCK_STEP]:
                steps.setdefault(row["session"], []).append((row["step_at"], ClockStep(row["started"], row["ended"])))
            else:
                faults.setdefault(row["session"], []).append((row["started"], row["ended"]))
        times: dict[int, list[tuple[float | None, float]]] = {}     # in the order written: the ids, not the clock
        for row in self._query(f"SELECT session, started, finished FROM hands {among} ORDER BY id", args):
            times.setdefault(row["session"], []).append((row["started"], row["finished"]))
        spans = []
        for row in rows:
            session, end = row["id"], self._end(row, newest)
            intervals = [(a, b if b is not None else end) for a, b in faults.get(session, [])]
            hand_times = times.get(session, [])
            finishes = tuple(finished for _, finished in hand_times)
            pieces = stretches([row["started"], *with_steps(hand_times, steps.get(session, [])), end])
            spans.append(SessionSpan(session, with_faults(pieces, intervals), finishes))
        return spans

    def session_hours(self) -> list[Hours]:
        """Hours of every session, newest first."""
        out = []
        for span in self._session_spans():
            wall = sum(part.end - part.start for part in span.stretches)
            lost = sum(part.lost(part.start, part.end) for part in span.stretches)
            out.append(Hours(str(span.session), wall, lost, wall - lost, len(span.finishes), (span.session,)))
        return out

    def day_hours(self, day: date | None = None) -> list[Hours]:
        """Hours per local calendar day (newest first), or of one day (of the sessions reaching
        into it alone)."""
        per_day: dict[date, list[Any]] = {}
        if day is not None:
            lo, hi = day_bounds(day)
            spans = [span for span in self._session_spans(self._touching(lo, hi)) if span.on_day(lo, hi)]
        else:
            spans = self._session_spans()
        for span in spans:
            for d in [day] if day is not None else span.days():
                lo, hi = day_bounds(d)
                wall = sum(part.wall(lo, hi) for part in span.stretches)
                lost = sum(part.lost(lo, hi) for part in span.stretches)
                hands = sum(1 for t in span.finishes if lo <= t < hi)
                entry = per_day.setdefault(d, [0.0, 0.0, 0, []])
                entry[0] += wall
                entry[1] += lost
                entry[2] += hands
                entry[3].append(span.session)
        return [Hours(d.isoformat(), wall, lost, wall - lost, hands, tuple(sorted(ids)))
                for d, (wall, lost, hands, ids) in sorted(per_day.items(), reverse=True)]


# -- a hand's flight recorder lines and its audit --------------------------------------------------

def _recorders(text: str | None) -> tuple[str, ...]:
    try:
        paths = json.loads(text) if text else []
    except json.JSONDecodeError:
        return ()                           # unreadable: the page looks for the files by name instead
    return tuple(p for p in paths if isinstance(p, str)) if isinstance(paths, list) else ()


def hand_events(hand: HandRow) -> list[dict[str, Any]]:
    """The recorder lines of a finished hand: from the files its runs wrote, as the ledger lists them,
    or (older ledgers) from the file of the run that settled it and the files named before it
    (firmware/records/hand_lines.py)."""
    if hand.events is None:
        raise HistoryError(f"hand {hand.id}: its run wrote no flight recorder (run --events FILE or storage.events_dir)")
    try:
        if hand.recorders:
            events = listed_hand_lines([Path(p) for p in hand.recorders], hand.number, hand.wall_hash)
        else:
            events = hand_lines(Path(hand.events), hand.number, hand.wall_hash)
    except RecorderUnreadable as error:
        raise HistoryError(f"hand {hand.id}: {error}") from None
    if not events:
        files = [Path(p) for p in hand.recorders] or [Path(hand.events)]
        if not any(path.exists() for path in files):
            raise HistoryError(f"hand {hand.id}: its recorder {files[-1].name} is no longer in its folder (moved off "
                               "the card with `records move`, or deleted)")
        raise HistoryError(f"hand {hand.id}: {Path(hand.events).name} no longer holds this hand (another run wrote it)")
    return events


def hand_audit(hand: HandRow, events: list[dict[str, Any]]) -> list[str]:
    """The audit's findings on one hand (firmware/records/audit.py): empty when it is sound."""
    from .audit import audit_one_hand
    if not any(e["event"] == "hand_end" for e in events):
        return [f"hand {hand.number}: the recorder has no hand_end for it"]
    return audit_one_hand(events)


# -- CSV export ------------------------------------------------------------------------------------

HAND_COLUMNS = ("session", "hand", "number", "ruleset", "options", "dealer", "result", "winners",
                *(f"payment{s}" for s in range(SIDES)), *(f"total{s}" for s in range(SIDES)),
                "items", "started", "finished", "wall_hash")
HOURS_COLUMNS = ("key", "wall_s", "fault_s", "played_s", "played_h", "hands", "sessions")


def iso(t: float | None) -> str:
    return "" if t is None else datetime.fromtimestamp(t).isoformat(timespec="seconds")


def hands_csv(hands: list[HandRow], header: bool = True) -> str:
    """The hands as CSV rows, after the header row (`header`: an export written a page at a time)."""
    out = io.StringIO()
    writer = csv.writer(out)
    if header:
        writer.writerow(HAND_COLUMNS)
    for h in hands:
        items = "; ".join(f"{'座位' + str(w['seat']) if w['seat'] is not None else '荒庄'}: "
                          + ", ".join(f"{i['name']} {i['value']}" for i in w["items"]) for w in h.items)
        writer.writerow([h.session, h.id, h.number, h.ruleset, json.dumps(h.options, ensure_ascii=False), h.dealer,
                         h.result, " ".join(map(str, h.winners)), *h.payments, *h.totals, items, iso(h.started),
                         iso(h.finished), h.wall_hash])
    return out.getvalue()


def hours_csv(hours: list[Hours]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HOURS_COLUMNS)
    for h in hours:
        data = h.to_json()
        writer.writerow([data["key"], round(h.wall_s), round(h.fault_s), round(h.played_s), data["played_h"], h.hands,
                         " ".join(map(str, h.sessions))])
    return out.getvalue()


def session_json(session: SessionRow) -> dict[str, Any]:
    data = asdict(session)
    data["totals"] = list(session.totals)
    data["events"] = Path(session.events).name if session.events else None
    return data


def hand_json(hand: HandRow) -> dict[str, Any]:
    data = asdict(hand)
    for key in ("winners", "payments", "totals", "items"):
        data[key] = list(data[key])
    data["events"] = Path(hand.events).name if hand.events else None
    del data["recorders"]                   # the card's paths: the page's business, not the API's
    return data


__all__ = ["HandRow", "History", "HistoryError", "Hours", "SessionRow", "hand_audit", "hand_events", "hand_json", "hands_csv", "hours_csv",
           "parse_day", "session_json"]
