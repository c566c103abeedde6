"""The recorders against the score ledger: the same hands, the same results, nothing missing.

The ledger is opened read-only (an audit never writes).  A hand is found in it by its wall hash
(unique: a fresh random salt each hand), so a hand can be matched even when its session_start is in
a recorder that was not given.  For every finished hand the ledger must hold the same number,
dealer, result, winners and payments (and session, when the recorder names it); a hand that never
ended must not have been settled; and every hand of the ledger's sessions the recorders touch must
be in the recorders.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from .foreign_db import WalWithoutDatabase, connect_read_only
from .store import DAMAGED, disk_trouble
from .stream import BadInput, Finding, HandSummary


@dataclass(frozen=True)
class LedgerHand:
    session: int
    number: int
    dealer: int
    result: str
    winners: object              # the winners as the ledger holds them (a list when well-formed)
    wall_hash: str
    payments: tuple[int | str, ...]    # the four seats', then any row no seat has ("side 9 paid 50")


@dataclass(frozen=True)
class LedgerView:
    """What an audit reads from a ledger: its sessions and its hands with their payments."""

    name: str
    sessions: dict[int, tuple[str, dict]]
    hands: tuple[LedgerHand, ...]

    @staticmethod
    def open(path: str) -> "LedgerView":
        """Read a ledger file; raises BadInput if it cannot be read or is not a ledger."""
        if not Path(path).is_file():
            raise BadInput(f"no ledger at {path}")
        try:
            db = connect_read_only(path)
            try:
                return LedgerView(path, _sessions(db), _hands(db))
            finally:
                db.close()
        except UnicodeDecodeError:          # a bad page's text: the ledger, damaged (it was a traceback)
            raise BadInput(damaged_ledger(path, "text that is not UTF-8")) from None
        except WalWithoutDatabase as error:
            raise BadInput(str(error)) from None
        except sqlite3.Error as error:
            if disk_trouble(error) == DAMAGED:      # the ledger all the same: said so, not "not a ledger"
                raise BadInput(damaged_ledger(path, str(error))) from None
            raise BadInput(f"{path} is not a score ledger ({error})") from None

    def by_wall(self) -> dict[str, LedgerHand]:
        return {hand.wall_hash: hand for hand in self.hands}


def damaged_ledger(path: str, why: str) -> str:
    """The one line for a ledger SQLite reads as damaged: it holds the money, so keep it."""
    return (f"{path}: the score ledger is damaged ({why}); keep it (copy it off the card): "
            f"`sqlite3 {path} .recover` saves what is readable, to audit against")


def _sessions(db: sqlite3.Connection) -> dict[int, tuple[str, dict]]:
    found: dict[int, tuple[str, dict]] = {}
    for session, ruleset, options in db.execute("SELECT id, ruleset, options FROM sessions"):
        try:
            found[session] = (ruleset, json.loads(options))
        except (TypeError, ValueError):
            found[session] = (ruleset, {"(unreadable options)": str(options)})
    return found


def _hands(db: sqlite3.Connection) -> tuple[LedgerHand, ...]:
    paid: dict[int, list[int | str]] = {}
    for hand, side, amount in db.execute("SELECT hand, side, amount FROM payments ORDER BY side"):
        row = paid.setdefault(hand, [0, 0, 0, 0])
        if isinstance(side, int) and 0 <= side < 4:
            row[side] = amount
        else:                           # no seat's: shown with the payments, which then differ from the recorder's
            row.append(f"side {side!r} paid {amount!r}")
    hands = []
    for row_id, session, number, dealer, result, winners, wall in db.execute(
            "SELECT id, session, number, dealer, result, winners, wall_hash FROM hands ORDER BY id"):
        try:
            parsed = json.loads(winners)
        except (TypeError, ValueError):
            parsed = winners
        hands.append(LedgerHand(session, number, dealer, result, parsed, wall, tuple(paid.get(row_id, [0, 0, 0, 0]))))
    return tuple(hands)


@dataclass
class LedgerCheck:
    problems: list[Finding] = field(default_factory=list)
    files_in_doubt: set[str] = field(default_factory=set)     # files whose hands the ledger does not bear out

    def agrees(self, file: str) -> bool:
        return file not in self.files_in_doubt

    def add(self, finding: Finding, files: set[str]) -> None:
        self.problems.append(finding)
        self.files_in_doubt |= files


def _kept_as_said(said: dict | None, row) -> bool:
    """A hand whose hand_end a kill cut off, as the next file's session_resumed says the ledger kept it."""
    return said is not None and said.get("result") == row.result and list(said.get("payments", ())) == list(row.payments)


def cross_check(hands: list[HandSummary], ledger: LedgerView) -> LedgerCheck:
    check = LedgerCheck()
    by_wall = ledger.by_wall()
    sessions: dict[int, set[str]] = {}                       # ledger session → the files that show it
    seen: set[str] = set()
    for hand in hands:
        row = by_wall.get(hand.wall_hash)
        seen.add(hand.wall_hash)
        if hand.session is not None:
            sessions.setdefault(hand.session["session"], set()).update(hand.files)
            _check_session(hand, ledger, check)
        if row is not None:
            sessions.setdefault(row.session, set()).update(hand.files)
        where = hand.start_where if hand.end is None else hand.end.where
        if hand.end is None:
            if row is not None and not _kept_as_said(hand.ledger_end, row):
                check.add(Finding(where, f"hand {hand.number}: the ledger settled it ({_said(row)}) but the recorder "
                                         "has no hand_end for it"), hand.files)
            continue
        if row is None:
            check.add(Finding(where, f"hand {hand.number} is not in {ledger.name} (no hand with its wall hash)"), hand.files)
            continue
        differences = _differences(hand, row)
        if differences:
            check.add(Finding(where, f"hand {hand.number}: the ledger holds {'; '.join(differences)}"), hand.files)
    for session, files in sessions.items():
        for row in ledger.hands:
            if row.session == session and row.wall_hash not in seen:
                check.add(Finding(ledger.name, f"session {session} hand {row.number} ({_said(row)}) is in the ledger "
                                               "but not in the recorder"), files)
    return check


def _check_session(hand: HandSummary, ledger: LedgerView, check: LedgerCheck) -> None:
    if not hand.new_session or hand.session is None:
        return
    session = hand.session
    held = ledger.sessions.get(session["session"])
    if held is None:
        check.add(Finding(hand.start_where, f"session {session['session']} is not in {ledger.name}"), hand.files)
    elif held != (session["ruleset"], session["options"]):
        check.add(Finding(hand.start_where, f"session {session['session']} is {held[0]} {held[1]} in the ledger, "
                                            f"{session['ruleset']} {session['options']} in the recorder"), hand.files)


def _differences(hand: HandSummary, row: LedgerHand) -> list[str]:
    end = hand.end
    assert end is not None
    pairs = [("number", row.number, hand.number), ("dealer", row.dealer, hand.dealer),
             ("result", row.result, end.result), ("winners", row.winners, end.winners),
             ("payments", list(row.payments), end.payments)]
    if hand.session is not None:
        pairs.append(("session", row.session, hand.session["session"]))
    return [f"{name} {held}, the recorder {recorded}" for name, held, recorded in pairs if held != recorded]


def _said(row: LedgerHand) -> str:
    return f"{row.result}, winners {row.winners}, payments {list(row.payments)}"
