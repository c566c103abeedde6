"""The parlour's page survives whatever is published on the broker: each field it reads is checked
where it arrives, counted and skipped when wrong, and a store holding a bad row still opens."""

import json
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer

from firmware.fleet.settings import BrokerSettings
from firmware.parlour.server import build_app
from firmware.parlour.store import ParlourStore
from firmware.parlour.watcher import ParlourWatcher
from tests.asyncio_support import run

GOOD = {"status": "online", "table": "z1", "phase": "playing", "hand": 3, "totals": [1, -1, 0, 0],
        "hands_today": 8, "hours_today": 1.5, "heartbeat_s": 60, "updated": 1000.0}


def watcher_at(tmp_path) -> ParlourWatcher:
    return ParlourWatcher(BrokerSettings("127.0.0.1", 1), tmp_path / "p.db", backoff=(5.0, 5.0))


async def page(watcher: ParlourWatcher) -> tuple[int, dict]:
    async with TestClient(TestServer(build_app(watcher))) as client:
        response = await client.get("/api/parlour")
        return response.status, await response.json()


@pytest.mark.parametrize("bad", [
    b'{"status": "online", "updated": "x"}', b'{"status": "online", "updated": 1e300}',
    b'{"status": "online", "updated": NaN}', b'{"status": "online", "heartbeat_s": Infinity}',
    b'{"status": "online", "totals": "x"}', b'{"status": "online", "hours_today": "2"}',
    b'{"status": "online", "faults": [{"code": 16}]}', b'{"status": "online", "session_started": -5}',
])
def test_a_malformed_status_is_counted_and_skipped_and_the_page_still_opens(tmp_path, bad):
    async def go():
        watcher = watcher_at(tmp_path)
        await watcher.start()
        try:
            await watcher.receive("mahjong/z1/status", json.dumps({**GOOD, "updated": time.time()}).encode(), retain=True)
            await watcher.receive("mahjong/z1/status", bad, retain=True)
            return watcher.stats.malformed, await page(watcher)
        finally:
            await watcher.stop()

    malformed, (status, view) = run(go(), timeout=20)
    assert malformed == 1 and status == 200
    (card,) = view["result"]["tables"]
    assert (card["name"], card["hand"], card["hands_today"]) == ("z1", 3, 8)     # the good status still shown


def test_a_malformed_event_or_hand_time_is_skipped(tmp_path):
    async def go():
        watcher = watcher_at(tmp_path)
        await watcher.start()
        try:
            await watcher.receive("mahjong/z1/events", b'{"run": 1e300, "seq": 1, "event": {}}')
            await watcher.receive("mahjong/z1/events", b'{"run": 5, "seq": true, "event": {}}')
            await watcher.receive("mahjong/z1/hands", b'{"id": "z1:a", "table": "z1", "finished": 1e300}')
            await watcher.receive("mahjong/z1/hands", b'{"id": "z1:b", "table": "z1", "finished": 5, "payments": 3}')
            return watcher.stats, await watcher.hands(), await page(watcher)
        finally:
            await watcher.stop()

    stats, stored, (status, view) = run(go(), timeout=20)
    assert stats.malformed == 4 and stored == [] and status == 200 and view["result"]["recent"] == []


def test_a_store_already_holding_a_malformed_status_opens_without_it(tmp_path):
    store = ParlourStore(tmp_path / "p.db")
    store.save_statuses([("z1", {"status": "online", "updated": "x"}, 1000.0), ("ok", GOOD, 1000.0),
                         ("z2", GOOD, 1e300)])
    store.close()

    async def go():
        watcher = watcher_at(tmp_path)
        await watcher.start()
        try:
            return watcher.stats.malformed, await page(watcher)
        finally:
            await watcher.stop()

    malformed, (status, view) = run(go(), timeout=20)
    assert malformed == 2 and status == 200 and [t["name"] for t in view["result"]["tables"]] == ["ok"]


def test_a_parlour_request_failing_by_a_bug_speaks_of_the_parlour(tmp_path):
    async def go():
        watcher = watcher_at(tmp_path)
        await watcher.start()
        try:
            watcher.snapshot = lambda: 1 / 0           # a bug behind the page
            return await page(watcher)
        finally:
            await watcher.stop()

    status, body = run(go(), timeout=20)
    assert status == 500 and "parlour" in body["error"]["message"] and "table" not in body["error"]["message"]


def test_a_table_without_totals_yet_shows_dashes_not_a_score_of_zero(tmp_path):
    """A table that has not opened its session publishes `totals: null`: the page drew +0 for every
    seat, as if four players had played even (a probe). It draws a dash."""
    from tests.web.browser import browser_page, need_browser
    need_browser()

    async def go():
        watcher = watcher_at(tmp_path)
        await watcher.start()
        server = TestServer(build_app(watcher))
        await server.start_server()
        try:
            for name, totals in (("z1", None), ("z2", [3, -3, 0, 0])):
                status = {**GOOD, "table": name, "totals": totals, "updated": time.time()}
                await watcher.receive(f"mahjong/{name}/status", json.dumps(status).encode(), retain=True)
            async with browser_page() as page:
                await page.goto(str(server.make_url("/")))
                cells = {}
                for name in ("z1", "z2"):
                    row = page.locator(f".tablecard[data-table='{name}'] .totals")
                    await row.wait_for()
                    cells[name] = await row.locator(":scope > div > div:nth-child(2)").all_text_contents()
                assert page.errors == []
                return cells
        finally:
            await server.close()
            await watcher.stop()

    cells = run(go(), timeout=60)
    assert cells["z1"] == ["—"] * 4
    assert cells["z2"][:2] == ["+3", "-3"] and cells["z2"][2] != "—"
