"""The parlour page: simulated tables and the page talk through a real Mosquitto — the API, the
WebSocket, the page in a real browser, and `mahjong-table parlour` with `run --mqtt` as a user
starts them."""

import asyncio
import json
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import date

import pytest
from aiohttp.test_utils import TestClient, TestServer

from firmware.fleet.publisher import FleetPublisher
from firmware.parlour.server import build_app
from firmware.parlour.watcher import ParlourWatcher
from tests.asyncio_support import run
from tests.fleet.support import play, settings_for
from tests.ops.support import ROOT, clean_env
from tests.processes import interrupt


async def two_tables(broker, tmp_path, watcher):
    """Two tables of different regions play side by side, each reporting through the broker (b2's card
    nearly full)."""
    publishers = [FleetPublisher(settings_for(broker, name), tmp_path / f"{name}.outbox.db", tmp_path / f"{name}.db")
                  for name in ("a1", "b2")]
    for publisher in publishers:
        await publisher.start()
    try:
        results = await asyncio.gather(play("hangzhou", 2, 3, tmp_path / "a1.db", follow=publishers[0].attach),
                                       play("sichuan", 1, 4, tmp_path / "b2.db", follow=publishers[1].attach,
                                            card_nearly_full=True))
        await watcher.wait_until(lambda: watcher.stats.hands == 3, 30)
    finally:
        for publisher in publishers:
            await publisher.stop()
    await watcher.wait_until(lambda: all(watcher.tables[n].status.get("status") == "offline" for n in ("a1", "b2")), 20)
    return results


def test_the_page_and_its_api_show_every_table_and_the_recent_hands(broker, tmp_path):
    async def go():
        watcher = ParlourWatcher(broker.settings, tmp_path / "parlour.db", backoff=(0.1, 0.5))
        await watcher.start()
        try:
            async with TestClient(TestServer(build_app(watcher))) as client:
                ws = await client.ws_connect("/websocket")
                first = json.loads((await ws.receive()).data)
                await two_tables(broker, tmp_path, watcher)
                while True:                                         # the page's view follows until it has it all
                    view = json.loads((await ws.receive(timeout=20)).data)
                    if len(view["recent"]) == 3 and all(t["state"] == "offline" for t in view["tables"]):
                        break
                await ws.close()
                api = (await (await client.get("/api/parlour")).json())["result"]
                today = date.today().isoformat()
                hands = (await (await client.get(f"/api/parlour/hands?table=a1&day={today}")).json())["result"]
                bad = await client.get("/api/parlour/hands?day=yesterday")
                bad_body = await bad.json()
                for path, status in (("/api/parlour/hands?day=9999-12-31", 400), ("/api/parlour/hands?limit=1e9", 400),
                                     ("/api/parlour/hands?tabel=a1", 400), ("/api/parlour/nothing", 404)):
                    wrong = await client.get(path)
                    assert wrong.status == status and "\n" not in (await wrong.json())["error"]["message"], path
                changes = (await (await client.get("/api/parlour/changes")).json())["result"]
                page = await (await client.get("/")).text()
                script = await client.get("/static/app.js")
        finally:
            await watcher.stop()
        return first, view, api, hands, bad.status, bad_body, changes, page, script.status

    first, view, api, hands, bad_status, bad_body, changes, page, script = run(go(), timeout=120)
    assert first["tables"] == [] and first["broker"]["connected"] in (True, False)
    assert [t["name"] for t in view["tables"]] == ["a1", "b2"]
    a1, b2 = view["tables"]
    assert (a1["ruleset"], b2["ruleset"]) == ("hangzhou", "sichuan")
    assert a1["storage_low"] is None and b2["storage_low"]["total_mb"] > 0        # kept in its last status
    assert (a1["hands_received_today"], b2["hands_received_today"]) == (2, 1) and a1["hands_today"] == 2
    assert view["totals"] == {"tables": 2, "online": 0, "faults": 0, "hands_today": 3}
    assert sorted(h["table"] for h in view["recent"]) == ["a1", "a1", "b2"]
    assert api["tables"] == view["tables"]
    assert [h["hand"] for h in hands] == [2, 1] and all(h["table"] == "a1" for h in hands)
    assert bad_status == 400 and "YYYY-MM-DD" in bad_body["error"]["message"]
    assert {(c["table"], c["what"]) for c in changes} >= {("a1", "online"), ("a1", "offline"), ("b2", "offline")}
    assert "棋牌室 parlour" in page and "/static/app.js" in page and script == 200


def test_the_page_in_a_browser_shows_the_tables_and_their_hands(broker, tmp_path):
    from tests.web.browser import browser_page, need_browser
    need_browser()

    async def go():
        watcher = ParlourWatcher(broker.settings, tmp_path / "parlour.db", backoff=(0.1, 0.5))
        await watcher.start()
        server = TestServer(build_app(watcher))
        await server.start_server()
        try:
            async with browser_page() as page:
                await page.goto(str(server.make_url("/")))
                await page.locator("#tables", has_text="no table has reported yet").wait_for()
                await two_tables(broker, tmp_path, watcher)
                await page.locator(".tablecard[data-table='a1'][data-state='offline']", has_text="杭州").wait_for()
                await page.locator(".tablecard[data-table='b2'][data-state='offline']", has_text="四川").wait_for()
                await page.locator(".tablecard[data-table='b2'] .storage", has_text="存储卡将满").wait_for()
                storage_notes = await page.locator(".tablecard[data-table='a1'] .storage").count()
                await page.locator("#recent tr[data-hand]").nth(2).wait_for()
                rows = await page.locator("#recent tr[data-hand]").count()
                summary = await page.locator("#summary").text_content()
                assert page.errors == []
        finally:
            await server.close()
            await watcher.stop()
        return rows, summary, storage_notes

    rows, summary, storage_notes = run(go(), timeout=150)
    assert storage_notes == 0
    assert rows == 3 and "0/2 在线 online" in summary and "今日 3 局" in summary


def test_the_parlour_command_and_a_reporting_table_talk_through_the_broker(broker, tmp_path):
    env = clean_env(tmp_path)
    parlour = subprocess.Popen([sys.executable, "-m", "firmware", "parlour", "--mqtt", broker.url, "--http",
                                "127.0.0.1:0", "--db", str(tmp_path / "parlour.db")], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = parlour.stdout.readline()
        assert line.startswith("parlour page at http://127.0.0.1:") and broker.url in line, line
        address = line.split()[3].rstrip(";")
        table = subprocess.run([sys.executable, "-m", "firmware", "run", "--hands", "2", "--speed", "0",
                                "--mqtt", broker.url, "--table", "cli1", "--db", str(tmp_path / "t.db")],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert table.returncode == 0, table.stderr
        assert f"reporting to {broker.url} as table cli1" in table.stdout
        view = until(lambda: view_of(address), lambda v: len(v["recent"]) == 2 and v["tables"][0]["state"] == "offline")
        parlour.send_signal(signal.SIGINT)                 # Ctrl-C
        out, err = parlour.communicate(timeout=30)
    finally:
        interrupt(parlour)
    assert parlour.returncode == 0 and "Traceback" not in err and "stopped by SIGINT" in out
    (only,) = view["tables"]
    assert only["name"] == "cli1" and only["hands_received_today"] == 2 and only["reason"] == "stopped"


def view_of(address: str) -> dict:
    with urllib.request.urlopen(address + "api/parlour", timeout=10) as response:
        return json.loads(response.read())["result"]


def until(read, holds, timeout: float = 60.0):
    """Read again until the condition holds (the parlour is another process: nothing to await)."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if holds(value):
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"the parlour never showed it: {json.dumps(value, ensure_ascii=False)[:1000]}")
        time.sleep(0.1)
