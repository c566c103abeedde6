"""A storage card that only slows (worn, failing) refuses nothing, so E24 never shows: with three
seconds an fsync, play stopped for half a minute at a time without a word (a probe).  A write slow
enough to hold play is said in the log at once, then at most once a minute, with a count."""

from __future__ import annotations

import logging
import time

import firmware.records.store as store_module
from firmware.records.store import SLOW_QUIET_S, SLOW_WRITE_S, SlowWrites, Store
from tests.asyncio_support import run


def test_a_slow_write_is_said_in_the_log(monkeypatch, caplog):
    monkeypatch.setattr(store_module, "SLOW_WRITE_S", 0.05)
    store = Store()

    async def writes() -> None:
        try:
            await store.run(time.sleep, 0.06)        # a write the card takes its time over
            await store.run(lambda: None)            # a quick one: nothing to say
        finally:
            store.close()                            # (its thread ends: every write has landed)
    with caplog.at_level(logging.WARNING, logger="firmware.store"):
        run(writes(), timeout=20)
    said = [r.getMessage() for r in caplog.records if r.name == "firmware.store"]
    assert len(said) == 1 and "a disk write took 0.1 s" in said[0] and "storage card" in said[0], said


def test_slow_writes_are_said_once_a_period_with_how_many_more(caplog):
    slow = SlowWrites("table-store")
    with caplog.at_level(logging.WARNING, logger="firmware.store"):
        slow.took(SLOW_WRITE_S + 1, now=100.0)
        slow.took(SLOW_WRITE_S + 3, now=110.0)
        slow.took(SLOW_WRITE_S - 1, now=120.0)          # fast enough: not counted
        slow.took(SLOW_WRITE_S + 2, now=130.0)
        slow.took(SLOW_WRITE_S + 1, now=100.0 + SLOW_QUIET_S)
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2
    assert "more since" not in said[0]
    assert f"; 2 more since the last such warning, the slowest {SLOW_WRITE_S + 3:.1f} s" in said[1]


def test_a_write_asked_after_the_store_closed_is_said_not_a_traceback(caplog):
    """A fault latched as the table stopped (its display's port closing) asked the closed store for a
    write: RuntimeError "cannot schedule new futures after shutdown" and a traceback (a campaign)."""
    store = Store()
    store.close()
    with caplog.at_level(logging.WARNING, logger="firmware.store"):
        future = store.submit(lambda: None)
    assert future.cancelled()
    assert any("after the table's files were closed" in r.getMessage() for r in caplog.records)
