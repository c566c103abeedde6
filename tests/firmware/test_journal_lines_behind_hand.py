"""A recorder line reaches the file only behind a journal write that holds the hand it records.

Found by the fault campaign (650071, 螺山: a full card, then a power cut; the restarted controller
recorded three takes a second time and the audit found their slots taken twice).  Two commits were
in flight at once (the writer's, and one the hand asked for before showing something).  The second
saw the hand as the first had queued it and wrote only the boards' sessions: the card refused the
first (the hand), took the second (a small write), and the lines and board events both covered went
out.  The journal compares the hand with what is known to have landed, so both commits carry it.
"""

from __future__ import annotations

import asyncio
import io
import sqlite3
import threading
from dataclasses import dataclass, field

from drivers.link import EventMark
from firmware.journal import HandJournal
from firmware.records.ledger import HAND_KEY, Ledger
from firmware.records.recorder import FlightRecorder
from firmware.records.store import Store, ThreadedSink
from tests.asyncio_support import run


@dataclass
class Link:
    released: list[EventMark] = field(default_factory=list)
    session_ref = None

    def hold_acks(self) -> None:
        pass

    def release(self, mark: EventMark) -> None:
        self.released.append(mark)


@dataclass
class Board:
    link: Link = field(default_factory=Link)


@dataclass
class Devices:
    motor: Board = field(default_factory=Board)
    rfid: Board = field(default_factory=Board)


class Hub:
    """What the journal sees of the controller: the events applied, the boards' links, the recorder."""

    def __init__(self, recorder: FlightRecorder) -> None:
        self.recorder = recorder
        self.devices = Devices()
        self.applied: dict[str, EventMark] = {}

    def guard(self, task: asyncio.Task) -> asyncio.Task:
        return task

    def storage_back(self) -> None:
        pass


class Hand:
    def __init__(self, text: str) -> None:
        self.text = text

    def journal_text(self) -> str:
        return self.text


def written_out(target: io.StringIO | str) -> bool:
    text = target if isinstance(target, str) else target.getvalue()
    return "take" in text


def test_two_commits_in_flight_on_a_card_that_refuses_the_hand_let_no_line_or_event_through(tmp_path, monkeypatch):
    real_swap = Ledger.journal_swap
    refused = []

    def refuses_the_hand(ledger, put, drop=()):
        if HAND_KEY in put:                 # a full card: the hand's pages do not fit, a small row does
            refused.append(put[HAND_KEY])
            raise sqlite3.OperationalError("database or disk is full")
        return real_swap(ledger, put, drop)

    monkeypatch.setattr(Ledger, "journal_swap", refuses_the_hand)

    async def scenario() -> tuple[str, list[EventMark], dict]:
        ledger = Ledger(str(tmp_path / "table.db"))
        store = Store()
        target = io.StringIO()
        recorder = FlightRecorder(ThreadedSink(target, store, close_target=False), clock=lambda: 0.0)
        recorder.hold_lines()
        hub = Hub(recorder)
        hand = Hand('{"takes": 52}')
        journal = HandJournal(hub, ledger, store, lambda: hand)
        journal.start({})
        gate = threading.Event()
        store.submit(gate.wait)                             # the writer thread busy: both commits queue first
        try:
            hub.applied["motor"] = EventMark(1, 7)          # the board's event the take came in
            recorder.emit("warning", hand=5, message="a take")
            asked = asyncio.create_task(journal.now())      # a commit the hand asks for …
            await asyncio.sleep(0)
            recorder.emit("warning", hand=5, message="the next take")
            journal.changed()                               # … and the writer's, while the first is in flight
            for _ in range(3):
                await asyncio.sleep(0)
            gate.set()
            while len(refused) < 2 and not written_out(target):
                await asyncio.sleep(0.01)
            await store.caught_up()
            asked.cancel()
            await asyncio.gather(asked, return_exceptions=True)
        finally:
            await journal.stop()
            store.close()
        saved = ledger.journal()
        ledger.close()
        return target.getvalue(), hub.devices.motor.link.released, saved

    written, released, saved = run(scenario(), timeout=30)
    assert HAND_KEY not in saved
    assert not written_out(written)
    assert released == []
