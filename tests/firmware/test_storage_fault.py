"""A card that refuses writes (full, or failing) for a while: E24, the table waits, then goes on.

Before, the journal's writer died on the first failed write: its events were never acknowledged,
so the boards stopped sending and the table stood still with nothing on its display; a failed
journal write under a 胡 stopped the run with a traceback.  Now a failed write latches E24
(`存储写入失败`, shown, logged, recorded), the write is tried again every `STORAGE_RETRY_S`, and once
one lands E24 clears and play goes on where it stood, nothing lost or recorded twice.
"""

from __future__ import annotations

import io
import json
import sqlite3

import pytest

from firmware.records.audit import audit_events
from firmware.records.ledger import Ledger
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


@pytest.mark.parametrize("write", ["journal_swap", "record_hand"])
def test_a_card_that_refuses_writes_for_a_while_holds_the_table_until_they_land(tmp_path, monkeypatch, write):
    refusing = []                      # the disk is full while this holds True
    refused = []
    real = getattr(Ledger, write)

    def full_for_a_while(ledger, *args, **kwargs):
        if refusing and refusing[0]:
            refused.append(write)
            raise sqlite3.OperationalError("database or disk is full")
        return real(ledger, *args, **kwargs)

    monkeypatch.setattr(Ledger, write, full_for_a_while)
    events = io.StringIO()

    def on_event(event: dict) -> None:
        if not refusing and event["event"] == "take" and event["hand"] == 2 and event["reason"] == "draw":
            refusing.append(True)       # from the first draw of hand 2 on (record_hand: at its end)
        elif refusing and refusing[0] and event["event"] == "fault" and event["code"] == "E24":
            refusing[0] = False         # the card is freed once the table shows E24

    result = run(run_simulated(get_region("dongbei").resolve(), hands=3, seed=3, events=events,
                               ledger_path=str(tmp_path / "table.db"), on_event=on_event), timeout=120)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert refused, "no write was refused"
    assert [e["code"] for e in log if e["event"] == "fault"] == ["E24"]
    assert result.hands == 3
    assert [e["hand"] for e in log if e["event"] == "hand_end"] == [1, 2, 3]
    assert audit_events(log) == []
    ledger = Ledger(str(tmp_path / "table.db"))
    try:
        rows = ledger._db.execute("SELECT number FROM hands ORDER BY number").fetchall()
    finally:
        ledger.close()
    assert rows == [(1,), (2,), (3,)]
