"""The ledger lost its last writes (a power cut, and the -wal deleted or damaged: SQLite drops the
commits after a bad frame without a word), while the flight recorder, written only behind the
ledger's commits, kept the hand's end: the restarted table took the hand for one in play and voided
it — a settled 荒庄 paid -2 -2 -2 +6 became a void paying nothing (a probe).  The start stops with
one line (E25), both files as they were."""

from __future__ import annotations

import sqlite3

import pytest

from firmware.records.chain_tail import last_sealed_hand
from firmware.journal_at_start import LedgerBehind
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def played(db: str, events: str, hands: int) -> None:
    with open(events, "w", encoding="utf-8") as file:
        run(run_simulated(get_region("changchun").resolve(), hands=hands, seed=3, ledger_path=db, events=file,
                          events_path=events), timeout=120)


def test_a_start_on_a_ledger_that_lost_a_hand_its_recorder_ended_stops_in_one_line(tmp_path):
    db, first = str(tmp_path / "table.db"), str(tmp_path / "first.jsonl")
    played(db, first, 2)
    number, wall = last_sealed_hand(first)
    assert number == 2
    with sqlite3.connect(db) as ledger:             # the ledger's last commits lost
        ledger.execute("DELETE FROM payments WHERE hand = (SELECT id FROM hands WHERE wall_hash = ?)", (wall,))
        ledger.execute("DELETE FROM hands WHERE wall_hash = ?", (wall,))
    before = (tmp_path / "table.db").read_bytes()
    with pytest.raises(LedgerBehind) as stopped:
        played(db, str(tmp_path / "second.jsonl"), 1)
    line = str(stopped.value)
    assert "\n" not in line and "lacks hand 2" in line and first in line and "keep both files" in line
    assert (tmp_path / "table.db").read_bytes() == before          # nothing voided, nothing written


def test_a_ledger_that_holds_every_hand_its_recorder_ended_starts(tmp_path):
    db = str(tmp_path / "table.db")
    played(db, str(tmp_path / "first.jsonl"), 1)
    played(db, str(tmp_path / "second.jsonl"), 1)                   # no LedgerBehind
