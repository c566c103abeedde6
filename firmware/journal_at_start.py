"""The journal as a start reads it, before the table runs: the rows it can read (a damaged one said,
and left out unless it is the session's), whether the ledger lost writes its last flight recorder
shows, and the chain the new recorder goes on from."""

from __future__ import annotations

import os
from typing import Any

from .records.chain_tail import file_chain_head, last_sealed_hand
from .records.ledger import HAND_KEY, RECORDER_KEY, SESSION_KEY, Ledger
from .records.store import Store
from .state import SessionState

CHAIN_KEY = "chain"                # the flight recorder's chain head after the last hand


class JournalUnreadable(Exception):
    """The journal holds a hand this version of the controller cannot read: a person chooses the version."""


class LedgerBehind(JournalUnreadable):
    """The last run's flight recorder seals a hand the ledger does not keep: the card lost the
    ledger's last writes (its -wal gone or damaged after a power cut).  Resumed, the hand the players
    were paid for would be voided and paid again; a person keeps both files and decides."""


class JournalAtStart:
    """One start's reading of the journal; `warnings`: what it left out, to be said once the new
    recorder's chain is known."""

    def __init__(self, store: Store, ledger: Ledger) -> None:
        self.store = store
        self.ledger = ledger
        self.warnings: list[str] = []

    def readable(self, saved: dict[str, Any]) -> dict[str, Any]:
        """The journal's rows this start can read.  A row the journal holds only for a start to go on
        from (the hand in play's resume data, a set, the recorder's name) that is damaged (not JSON, not
        UTF-8, not the shape written) is said in one warning and left out: the start goes on without
        it, as between hands.  The session's row is not: it holds the running totals and the dealer,
        and going on without it opened a new session at zero, silently (a probe) — JournalUnreadable."""
        where = self.ledger.path
        for error in self.ledger.journal_errors:
            if repr(SESSION_KEY) in error:
                raise JournalUnreadable(self._session_lost(error))
            self._warn_journal(f"{where}: {error}: left out, the start goes on without it")
        if SESSION_KEY in saved:
            try:
                SessionState.from_json(saved[SESSION_KEY])
            except (KeyError, TypeError, ValueError, AttributeError) as error:
                raise JournalUnreadable(self._session_lost(f"the journal's 'session' row is not a session "
                                                           f"({type(error).__name__})")) from None
        shapes = {CHAIN_KEY: lambda v: isinstance(v.get("head"), (str, type(None))) and "head" in v,
                  RECORDER_KEY: lambda v: isinstance(v.get("path"), str),
                  HAND_KEY: lambda v: True}        # (a hand's own fields: `_journaled_hand`)
        for key, fits in shapes.items():
            if key in saved and not (isinstance(saved[key], dict) and fits(saved[key])):
                self._warn_journal(f"{where}: the journal's {key!r} row is not what this controller writes: left "
                                   "out, the flight recorder's chain goes on from what else is known")
                del saved[key]
        return saved

    def _session_lost(self, why: str) -> str:
        path = self.ledger.path
        return (f"{path}: {why}; it holds the session's running totals and dealer, so the table does not start "
                f"a new session at zero by itself (the settled hands are safe in the ledger's hands and payments): "
                f"keep the file (copy it off the card); to start a new session, "
                f"sqlite3 {path} \"DELETE FROM journal WHERE key = 'session'\"")

    def _warn_journal(self, line: str) -> None:
        """Said as a warning event once the recorder's chain is known (and so logged once: it was
        logged here too, every line twice: a verifying probe)."""
        self.warnings.append(line)

    async def ledger_not_behind(self, saved: dict[str, dict]) -> None:
        """LedgerBehind when the last run's recorder seals a hand the ledger lacks.  Its lines reach
        the file only behind the ledger's commit, so a ledger that lacks one lost writes it had made
        (a probe: the -wal deleted after a kill; the settled 荒庄 became a void, the money gone)."""
        path = saved.get(RECORDER_KEY, {}).get("path") if isinstance(saved.get(RECORDER_KEY), dict) else None
        if not isinstance(path, str):
            return
        sealed = await self.store.run(last_sealed_hand, path)
        if sealed is None or await self.store.run(self.ledger.holds_wall, sealed[1]):
            return
        raise LedgerBehind(f"the ledger {self.ledger.path} lacks hand {sealed[0]}, which the flight recorder {path} "
                           "shows ended: the card lost the ledger's last writes (a power cut, or a damaged card); "
                           "nothing was changed: keep both files (copy them off the card), see what is missing "
                           f"with `mahjong-table audit {path} --ledger {self.ledger.path}`, and to play on with the "
                           "ledger as it is (the hand then paid only in the recorder), move the recorder off the "
                           "card and start again")

    async def chain_head(self, saved: dict[str, dict]) -> str | None:
        """The head the last run's recorder file ends at (read from the file: the journal's head is
        written after the seal, so a kill can leave it one hand behind).  A file that is there but
        says nothing (a power cut before its first line reached the card) goes on from where that
        run began, as its name was journaled with; the journal's head when the file is gone."""
        head = saved[CHAIN_KEY]["head"] if CHAIN_KEY in saved else None
        if RECORDER_KEY in saved:
            named = saved[RECORDER_KEY]
            on_file = await self.store.run(file_chain_head, named["path"])
            if on_file is not None:
                return on_file
            if named.get("chain") is not None and await self.store.run(os.path.exists, named["path"]):
                return named["chain"]
        return head
