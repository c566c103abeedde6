"""A card that refuses writes (full, or failing) for a while: E24, the table waits, then goes on.

Before, the journal's writer died on the first failed write: its events were never acknowledged,
so the boards stopped sending and the table stood still with nothing on its display; a failed
journal write under a 胡 stopped the run with a traceback.  Now a failed write latches E24
(`存储写入失败`, shown, logged, recorded), the write is tried again every `STORAGE_RETRY_S`, and once
one lands E24 clears and play goes on where it stood, nothing lost or recorded twice.
"""

from __future__ import annotations

import errno
import io
import json
import os
import sqlite3

import pytest

from firmware.cli.files import EventsFile
from firmware.records.audit import audit_events
from firmware.records.ledger import Ledger
from firmware.records.store import Store, ThreadedSink
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.busy_machine import fault_codes_besides_link_episodes


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
    assert fault_codes_besides_link_episodes(log) == ["E24"]
    assert result.hands == 3
    assert [e["hand"] for e in log if e["event"] == "hand_end"] == [1, 2, 3]
    assert audit_events(log) == []
    ledger = Ledger(str(tmp_path / "table.db"))
    try:
        rows = ledger._db.execute("SELECT number FROM hands ORDER BY number").fetchall()
    finally:
        ledger.close()
    assert rows == [(1,), (2,), (3,)]


def test_a_full_card_loses_no_recorder_line_and_writes_none_ahead_of_its_journal(tmp_path, monkeypatch):
    """The card full under both the journal and the flight recorder: the recorder's lines wait (a
    line the disk took only half of is finished first) and go out behind the journal write that
    lands, so the file, once the card has room, holds every line whole and the audit finds nothing.
    Before, the lines written while the card was full were lost: hands without their end, a chain
    that no longer matched, pages that no longer held their hands."""
    full = []
    real_swap = Ledger.journal_swap

    def journal_swap(ledger, *args, **kwargs):
        if full and full[0] and refused_lines:       # the file ran out of room first, then the journal
            raise sqlite3.OperationalError("database or disk is full")
        return real_swap(ledger, *args, **kwargs)

    monkeypatch.setattr(Ledger, "journal_swap", journal_swap)
    refused_lines: list[int] = []

    def card_write(fd, data):
        if full and full[0]:
            refused_lines.append(len(data))
            if len(refused_lines) == 1:
                return os.write(fd, bytes(data[:len(data) // 2]))     # the last bytes the card had room for
            raise OSError(errno.ENOSPC, "No space left on device")
        return os.write(fd, data)

    path = tmp_path / "events.jsonl"
    events = EventsFile(path, exclusive=True)
    events._write = card_write

    def on_event(event: dict) -> None:
        if not full and event["event"] == "take" and event["hand"] == 2 and event["reason"] == "draw":
            full.append(True)
        elif full and full[0] and event["event"] == "fault" and event["code"] == "E24":
            full[0] = False

    try:
        result = run(run_simulated(get_region("dongbei").resolve(), hands=3, seed=3, events=events,
                                   ledger_path=str(tmp_path / "table.db"), on_event=on_event), timeout=120)
    finally:
        events.close()
    assert refused_lines, "the card never refused a line"
    text = path.read_text(encoding="utf-8")
    log = [json.loads(line) for line in text.splitlines()]        # every line whole
    assert result.hands == 3 and [e["hand"] for e in log if e["event"] == "hand_end"] == [1, 2, 3]
    assert audit_events(log) == []


def test_lines_wait_while_the_work_before_them_is_refused_and_follow_the_next_landing():
    store = Store()
    target = io.StringIO()
    sink = ThreadedSink(target, store, close_target=False)

    def refused() -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    try:
        store.submit(refused)
        sink.write("a\n")
        sink.write("b\n")
        store.drain()
        assert target.getvalue() == "" and store.refusing
        store.submit(lambda: None)             # the journal's write lands
        sink.write("c\n")
        store.drain()
        assert target.getvalue() == "a\nb\nc\n" and not store.refusing
        store.submit(refused)
        sink.write("d\n")
        sink.close()                           # the last try, at the end of the run
        assert target.getvalue() == "a\nb\nc\nd\n"
    finally:
        store.close()


def test_a_line_the_card_took_only_part_of_is_cut_back_so_the_file_holds_whole_lines(tmp_path):
    path = tmp_path / "events.jsonl"
    events = EventsFile(path, exclusive=True)
    room = [10**6]

    def card_write(fd, data):
        if room[0] <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        taken = bytes(data[:room[0]])
        room[0] -= len(taken)
        return os.write(fd, taken)

    events._write = card_write
    events.write('{"a":1}\n')
    room[0] = 12                                   # the next two lines: the first whole, the second in part
    with pytest.raises(OSError):
        events.write('{"b":2}\n{"c":3}\n')
    assert path.read_bytes() == b'{"a":1}\n{"b":2}\n'       # not '{"c' as well: a kill now leaves whole lines
    room[0] = 10**6
    events.write('{"d":4}\n')
    events.close()
    assert path.read_bytes() == b'{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n'


def test_a_session_opened_while_the_card_refuses_its_journal_row_is_resumed_after_a_crash(tmp_path, monkeypatch):
    """The session's journal row is waited for through a card that refuses it (as its ledger row is):
    a controller stopped in the session's first hand is followed by one that resumes that hand in that
    session.  Before, the row was written once and lost: the next controller found no session,
    opened a new one and dropped the hand in play, which no ledger row ever settled."""
    from firmware.records.ledger import SESSION_KEY
    from tests.firmware.test_restart import crash_and_restart

    real_put = Ledger.journal_put
    refused: list[str] = []

    def put(ledger, key, value):
        if key == SESSION_KEY and not refused:
            refused.append(key)
            raise sqlite3.OperationalError("database or disk is full")
        real_put(ledger, key, value)

    monkeypatch.setattr(Ledger, "journal_put", put)
    def first_draw(event: dict) -> bool:
        return event["event"] == "take" and event["hand"] == 1 and event["reason"] == "draw"

    _, before, after = run(crash_and_restart("dongbei", 3, str(tmp_path / "table.db"), stop_when=first_draw),
                           timeout=120)
    assert refused
    assert any(e["event"] == "fault" and e["code"] == "E24" for e in before)
    assert [e["event"] for e in after if e["event"] in ("session_start", "session_resumed")] == ["session_resumed"]
    resumed = [e["hand"] for e in after if e["event"] == "resumed"]
    assert resumed == [1], resumed
    assert [e["hand"] for e in after if e["event"] == "hand_end"][:1] == [1]
