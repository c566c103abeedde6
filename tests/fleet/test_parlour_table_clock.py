"""A table whose clock is wrong, as the parlour starts again: a Pi has no clock of its own, and in a
parlour with no time server it runs hours behind (or ahead).  Its retained status says when it was
sent by that clock; read as the parlour's own time, a table playing on was written down "lost" at
every start of the parlour (then "online" at its next status), and a table gone quiet with its clock
ahead was not lost until the parlour's clock caught up."""

from __future__ import annotations

import json

import pytest

from firmware.fleet.settings import BrokerSettings
from firmware.parlour.watcher import ParlourWatcher
from tests.asyncio_support import run

HEARTBEAT = 10.0                      # so three heartbeats without a word: lost after 30 s


def _status(table: str, updated: float) -> tuple[str, bytes]:
    payload = {"status": "online", "table": table, "heartbeat_s": HEARTBEAT, "updated": updated}
    return f"mahjong/{table}/status", json.dumps(payload).encode()


def _parlour(path, now: list[float]) -> ParlourWatcher:
    return ParlourWatcher(BrokerSettings("127.0.0.1", 1), path, backoff=(5.0, 5.0), clock=lambda: now[0])


def _across_a_restart(tmp_path, table: str, skew: float, live: int, away: float):
    """The parlour hears `live` statuses a heartbeat apart from a table whose clock is `skew` off,
    stops, and starts again `away` seconds after the last: the broker gives it that last status,
    retained.  What its page and its changes then say."""
    now = [1_800_000_000.0]

    async def go():
        first = _parlour(tmp_path / "p.db", now)
        await first.start()
        try:
            for n in range(live):
                if n:
                    now[0] += HEARTBEAT
                await first.receive(*_status(table, now[0] + skew))
        finally:
            await first.stop()
        sent = now[0] + skew
        now[0] += away
        again = _parlour(tmp_path / "p.db", now)
        await again.start()
        try:
            await again.receive(*_status(table, sent), retain=True)
            return again.snapshot(), await again.changes()
        finally:
            await again.stop()

    return run(go(), timeout=30)


@pytest.mark.parametrize("skew", [-10 * 3600.0, 0.0, 6 * 3600.0])
def test_a_table_playing_on_with_its_clock_wrong_is_not_lost_when_the_parlour_starts_again(tmp_path, skew):
    """Its statuses every heartbeat; the parlour stops and starts again: its retained status is 15 s
    old.  The table is online, and the changes hold no "lost"."""
    view, changes = _across_a_restart(tmp_path, "t1", skew, live=3, away=15)
    (table,) = view["tables"]
    assert table["state"] == "online"
    assert [c["what"] for c in changes] == ["online"]


@pytest.mark.parametrize("skew", [-10 * 3600.0, 6 * 3600.0])
def test_a_table_gone_quiet_with_its_clock_wrong_is_lost_when_the_parlour_starts_again(tmp_path, skew):
    """Its last status 10 minutes before the parlour came back (the broker kept it): lost, whatever its
    clock says."""
    view, changes = _across_a_restart(tmp_path, "t2", skew, live=1, away=600)
    (table,) = view["tables"]
    assert table["state"] == "lost"
    assert [c["what"] for c in changes] == ["lost", "online"]            # (newest first)
