"""A controller stopped as by SIGKILL: nothing it would still write reaches the disk.

A test's first controller is stopped by cancelling its task, which runs its `finally` (the hand
journaled at the stop, the store drained).  A SIGKILL runs nothing: while `down` is set, the
ledger's writes are lost, so the restarted controller finds only what was committed before.  Nor
is any board event acknowledged from the stop on: the controller goes on for a moment until the
cancel reaches it, and a lost write that seemed committed would let it acknowledge the events it
was for, which a killed controller never does (the boards send them again)."""

from __future__ import annotations

import threading

from drivers.link import HostLink
from firmware.records.ledger import Ledger

WRITES = ("journal_swap", "journal_put", "journal_drop", "record_hand")


def lose_writes_while(down: threading.Event, monkeypatch) -> None:
    for name in WRITES:
        write = getattr(Ledger, name)

        def unless_down(ledger, *args, _write=write, **kwargs):
            if not down.is_set():
                return _write(ledger, *args, **kwargs)
            return None
        monkeypatch.setattr(Ledger, name, unless_down)
    release = HostLink.release

    def unless_dead(link, mark) -> None:
        if not down.is_set():
            release(link, mark)
    monkeypatch.setattr(HostLink, "release", unless_dead)


def stop_options(down: threading.Event, killed: bool) -> dict:
    """`crash_and_restart`'s `stopping` and `meanwhile`: from the stop the first controller's writes
    are lost (`killed`, as by SIGKILL) or kept (cancelled: it journals the hand as it stops); the
    restarted controller's are kept."""
    return {"stopping": lambda session: down.set() if killed else None, "meanwhile": lambda *_: down.clear()}
