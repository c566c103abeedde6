"""The API through aiohttp's test client: the table now, the history, the hours, the stream, access."""

import csv
import io
import re
from pathlib import Path

import asyncio

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from firmware.records.history import History
from firmware.simulated import run_simulated
from firmware.web.live import LiveTable
from firmware.web.server import WebError, build_app, is_loopback, parse_listen, WebSettings
from rulesets.regions import get_region
from tests.asyncio_support import run

TOKEN = "a-token-long-enough-1234"
OUTSIDE = re.compile(r"""(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|fetch\(\s*["'`](https?:)?//|@import""")


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Two hands of 长春 against the simulator, with a ledger file and a recorder file."""
    folder = tmp_path_factory.mktemp("played")
    db, events = folder / "table.db", folder / "events.jsonl"
    sessions = []

    async def play():
        with open(events, "w", encoding="utf-8") as sink:
            await run_simulated(get_region("changchun").resolve(), hands=2, seed=3, events=sink, ledger_path=str(db),
                                events_path=str(events), on_session=sessions.append)
    run(play(), timeout=120)
    return db, events, sessions[0]


def serve(live, db, test, settings=WebSettings()):
    """Run `test(client)` against the app (a header X-Test-Remote plays a client on another machine)."""
    app = build_app(live, History(db) if db else None, settings)

    @web.middleware
    async def remote(request, handler):
        fake = request.headers.get("X-Test-Remote")
        return await handler(request.clone(remote=fake) if fake else request)
    app.middlewares.insert(0, remote)

    async def go():
        async with TestClient(TestServer(app)) as client:
            return await test(client)
    return run(go(), timeout=60)


async def result(response, status=200):
    body = await response.json()
    assert response.status == status, body
    return body["result"] if status == 200 else body["error"]


def test_the_table_now_shows_the_session_scores_and_the_display_as_drawn(played):
    db, _, session = played
    live = LiveTable()
    live.attach(session.public_feed())

    async def test(client):
        state = await result(await client.get("/api/state"))
        table, display = state["status"]["table"], state["status"]["display"]
        assert table["ruleset"] == "changchun" and table["ruleset_name"] == "长春麻将"
        assert table["scores"] == list(session.state.totals) and table["session"] == session.state.session_id
        assert display["pages"]["main"]["t_ruleset"] == "长春麻将" and display["page"] == "main"
        assert "sim" not in state["status"]                           # a table that is not the simulator
        picked = await result(await client.get("/api/state?objects=faults"))
        assert set(picked["status"]) == {"faults"} and picked["status"]["faults"]["latched"] == []
        info = await result(await client.get("/api/server/info"))
        assert info["simulator"] is False and info["history"] is True and info["refused"] == 0
    serve(live, db, test)


def test_history_lists_sessions_and_hands_links_the_recorder_lines_and_their_audit(played):
    db, events, session = played

    async def test(client):
        sessions = await result(await client.get("/api/sessions"))
        assert [s["hands"] for s in sessions] == [2] and sessions[0]["events"] == events.name
        hands = await result(await client.get(f"/api/hands?session={sessions[0]['id']}"))
        assert [h["number"] for h in hands] == [1, 2]
        assert hands[-1]["totals"] == list(session.state.totals) and len(hands[0]["wall_hash"]) == 64
        later = await result(await client.get(f"/api/hands?since={hands[0]['finished']}"))
        assert [h["number"] for h in later] == [2]
        after = await result(await client.get(f"/api/hands?after={hands[0]['id']}"))
        assert [h["number"] for h in after] == [2] and "recorders" not in after[0]
        today = await result(await client.get(f"/api/hands?day={_day(hands[0]['finished'])}"))
        assert len(today) == 2
        lines = await result(await client.get(f"/api/hands/{hands[0]['id']}/events"))
        assert lines["audit"] == {"sound": True, "problems": []}
        assert {e["hand"] for e in lines["events"]} == {1} and lines["events"][0]["event"] == "hand_start"
        assert lines["events"][-1]["event"] == "hand_end"
        exported = await client.get("/api/hands.csv")
        assert exported.content_type == "text/csv"
        rows = list(csv.reader(io.StringIO(await exported.text())))
        assert len(rows) == 3 and rows[2][rows[0].index("wall_hash")] == hands[1]["wall_hash"]
        hours = await result(await client.get("/api/hours"))
        assert hours["sessions"][0]["hands"] == 2 and hours["days"][0]["hands"] == 2
        assert hours["days"][0]["played_s"] == pytest.approx(hours["days"][0]["wall_s"])
        for day, rows in ((_day(hands[0]["finished"]), 2), ("2000-01-01", 1)):     # a day's sessions only
            by_session = await client.get(f"/api/hours.csv?by=session&day={day}")
            assert len(list(csv.reader(io.StringIO(await by_session.text())))) == rows, day
            assert len((await result(await client.get(f"/api/hours?day={day}")))["sessions"]) == rows - 1
    serve(LiveTable(), db, test)


def _day(t):
    from datetime import datetime
    return datetime.fromtimestamp(t).date().isoformat()


@pytest.mark.parametrize("listed", [True, False], ids=["files-listed", "older-ledger"])
def test_a_recorder_that_no_longer_holds_the_hand_says_so(played, tmp_path, listed):
    db, events, _ = played
    copy_db, copy_events = tmp_path / "t.db", tmp_path / "events.jsonl"
    copy_db.write_bytes(Path(db).read_bytes())
    import sqlite3
    with sqlite3.connect(copy_db) as con:
        con.execute("UPDATE sessions SET events = ?", (str(copy_events),))
        con.execute("UPDATE hands SET events = ?, recorders = ?",        # the file of the run that settled it
                    (str(copy_events), f'["{copy_events}"]' if listed else None))
    copy_events.write_text("", encoding="utf-8")                        # another run overwrote the file

    async def test(client):
        error = await result(await client.get("/api/hands/1/events"), 400)
        assert "no longer holds this hand" in error["message"]
    serve(LiveTable(), copy_db, test)


@pytest.mark.parametrize("path, status, words", [
    ("/api/hands?day=30-11-2026", 400, "YYYY-MM-DD"),
    ("/api/hands?limit=lots", 400, "whole number"),
    ("/api/hands?since=yesterday", 400, "seconds since 1970"),
    ("/api/hands?after=-1", 400, "whole number from 0"),
    ("/api/hands?limit=9223372036854775808", 400, "whole number from 1 to 9223372036854775807"),
    ("/api/hands/99999999999999999999999", 400, "whole number"),
    ("/api/hands/1.5", 400, "whole number"),
    # a sign twice and digits that are not ASCII were taken for numbers, then refused by int() (a 500 and
    # a traceback) or read as another number (٣ as 3): a probe
    ("/api/hands?limit=--1", 400, "whole number"),
    ("/api/hands?limit=%C2%B2", 400, "whole number"),
    ("/api/hands/--1", 400, "whole number"),
    ("/api/hands/%C2%B2", 400, "whole number"),
    ("/api/hands/%D9%A3", 400, "whole number"),
    ("/api/hands.csv?limit=--1", 400, "whole number"),
    ("/api/hands?limit=" + "9" * 5000, 400, "whole number"),
    ("/api/hands?since=nan", 400, "seconds since 1970"),
    ("/api/hands?day=9999-12-31", 400, "out of the clock's range"),
    ("/api/sessions?day=0001-01-01", 400, "out of the clock's range"),
    ("/api/hands.csv?day=9999-12-31", 400, "out of the clock's range"),
    ("/api/hours.csv?by=session&day=bad", 400, "YYYY-MM-DD"),
    ("/api/hands?day=1969-12-31", 400, "from 1970 to 9998"),          # the day before the clock's first
    ("/api/hands?day=" + "x" * 7000, 400, "(7002 characters)"),        # named, not echoed back whole
    ("/api", 404, "no such API path"),
    ("/api/nothing", 404, "no such API path"),
    ("/websocket", 400, "as a WebSocket"),
    ("/api/hands/999", 404, "no hand 999"),
    ("/api/hours.csv?by=week", 400, "by=day or by=session"),
    ("/api/sim/state", 404, "not the simulator"),
    ("/api/hands?dya=2026-12-01", 400, "takes no argument 'dya' (its arguments: session, day, since, after, limit, newest)"),
    ("/api/hands/1?limit=2", 400, "history.hand takes no argument 'limit'"),
    ("/api/hours.csv?by=day&days=2026-12-01", 400, "takes no argument 'days'"),
    ("/api/hands.csv?sesion=1", 400, "takes no argument 'sesion'"),
    ("/api/server/info?verbose=1", 400, "its arguments: none"),
])
def test_a_wrong_request_gets_one_line_saying_what_to_do(played, path, status, words):
    db, _, _ = played

    async def test(client):
        error = await result(await client.get(path), status)
        assert words in error["message"] and "\n" not in error["message"] and error["code"] == status
    serve(LiveTable(), db, test)


def test_a_wrong_method_or_body_gets_one_line_of_json_and_a_bug_a_logged_500(played, monkeypatch, caplog):
    db, _, _ = played
    import firmware.web.api as api

    def broken(ctx, params):
        raise KeyError("a bug")
    monkeypatch.setitem(api.METHODS, "server.info", broken)

    async def test(client):
        error = await result(await client.post("/api/hands", json={}), 405)
        assert "method" in error["message"]
        nested = "[" * 100000 + "]" * 100000
        error = await result(await client.post("/api/sim/key", data=nested, headers={"Content-Type": "application/json"}), 400)
        assert "not JSON" in error["message"]
        error = await result(await client.post("/api/sim/key", data="{}",
                                               headers={"Content-Type": "application/json; charset=bogus-xyz"}), 415)
        assert "UTF-8" in error["message"]
        error = await result(await client.get("/api/server/info"), 500)
        assert "logged" in error["message"] and "\n" not in error["message"]
        assert (await client.get("/api/hands?limit=1")).status == 200       # and the server serves on
    serve(LiveTable(), db, test)
    assert "KeyError: 'a bug'" in caplog.text


def test_a_real_table_is_read_only(played):
    db, _, _ = played

    async def test(client):
        error = await result(await client.post("/api/sim/key", json={"panel": 0, "key": "hu"}), 404)
        assert "read-only" in error["message"]
        error = await result(await client.post("/api/sim/touch", json={"page": "main", "button": "b_menu"}), 404)
        assert "read-only" in error["message"]
        posts = [r for r in client.server.app.router.routes() if r.method == "POST"]
        assert [r.resource.canonical for r in posts] == ["/api/sim/key", "/api/sim/touch"]
    serve(LiveTable(), db, test)


def test_without_a_ledger_file_the_history_says_how_to_get_one():
    async def test(client):
        error = await result(await client.get("/api/sessions"), 404)
        assert "--db" in error["message"]
    serve(LiveTable(), None, test)


def test_the_websocket_speaks_json_rpc(played):
    db, _, session = played
    live = LiveTable()
    live.attach(session.public_feed())

    async def test(client):
        ws = await client.ws_connect("/websocket")
        await ws.send_json({"jsonrpc": "2.0", "method": "table.objects.subscribe", "params": {"objects": {"table": ["scores"]}}, "id": 7})
        reply = await ws.receive_json()
        assert reply["id"] == 7 and reply["result"]["status"] == {"table": {"scores": list(session.state.totals)}}
        await ws.send_json({"jsonrpc": "2.0", "method": "history.hands", "params": {"limit": 1}, "id": 8})
        hands = await ws.receive_json()
        assert [h["number"] for h in hands["result"]] == [1]
        await ws.send_json({"jsonrpc": "2.0", "method": "printer.gcode", "id": 9})
        assert (await ws.receive_json())["error"]["code"] == -32601
        await ws.send_json({"jsonrpc": "2.0", "method": "history.hands", "params": {"day": "soon"}, "id": 10})
        assert (await ws.receive_json())["error"]["code"] == -32602
        await ws.send_str("{not json")
        assert (await ws.receive_json())["error"]["code"] == -32700
        await ws.send_json({"jsonrpc": "2.0", "method": "sim.key", "params": {"panel": 0, "key": "hu"}, "id": 11})
        assert (await ws.receive_json())["error"]["code"] == -32601    # not the simulator: nothing to press
        for rid, params in enumerate(({"id": 99999999999999999999999}, {"id": 1.5}, {"id": True}), 12):
            await ws.send_json({"jsonrpc": "2.0", "method": "history.hand", "params": params, "id": rid})
            assert (await ws.receive_json())["error"]["code"] == -32602
        await ws.send_json({"jsonrpc": "2.0", "method": "history.sessions", "params": {"day": "9999-12-31"}, "id": 15})
        assert (await ws.receive_json())["error"]["code"] == -32602
        await ws.send_json({"jsonrpc": "2.0", "method": "history.hands", "params": {"limt": 1}, "id": 18})
        assert (await ws.receive_json())["error"] == {"code": -32602, "message": "history.hands takes no argument "
                                                      "'limt' (its arguments: session, day, since, after, limit, newest)"}
        await ws.send_str('{"a":' * 5000 + "1" + "}" * 5000)
        assert (await ws.receive_json())["error"]["code"] == -32700
        await ws.send_bytes(b'{"jsonrpc": "2.0", "method": "server.info", "id": 17}')     # said, not ignored
        assert (await ws.receive_json())["error"]["code"] == -32700
        for rid in ({"a": 1}, [1], True):                              # JSON-RPC 2.0: a string, a number or null
            await ws.send_json({"jsonrpc": "2.0", "method": "server.info", "id": rid})
            assert (await ws.receive_json())["error"]["code"] == -32600
        await ws.send_json({"jsonrpc": "2.0", "method": "server.info", "id": None})  # answered: only no id is a notification
        assert (await ws.receive_json())["id"] is None
        await ws.send_json({"jsonrpc": "2.0", "method": "history.hands", "params": {"limit": 1}, "id": 16})
        assert [h["number"] for h in (await ws.receive_json())["result"]] == [1]    # the socket stayed open
        await ws.close()
    serve(live, db, test)


def test_a_dropped_client_is_closed_with_4000_and_can_subscribe_again(played):
    db, _, session = played
    live = LiveTable()
    live.attach(session.public_feed())
    subscribe = {"jsonrpc": "2.0", "method": "table.objects.subscribe", "params": {"objects": {"table": None}}, "id": 1}

    async def test(client):
        ws = await client.ws_connect("/websocket")
        await ws.send_json(subscribe)
        await ws.receive_json()
        (follower,) = live.clients
        live.drop(follower)                                   # what a full queue does
        closing = await ws.receive()
        assert closing.type.name == "CLOSE" and closing.data == 4000 and "/api/state" in closing.extra
        again = await client.ws_connect("/websocket")
        await again.send_json(subscribe)
        assert (await again.receive_json())["result"]["status"]["table"]["ruleset"] == "changchun"
        await again.close()
        assert live.dropped == 1
    serve(live, db, test)


def test_another_machine_needs_the_token_and_this_one_does_not(played):
    db, _, _ = played

    async def test(client):
        assert (await client.get("/api/server/info")).status == 200                       # loopback: trusted
        away = {"X-Test-Remote": "192.0.2.7"}
        assert (await client.get("/api/server/info", headers=away)).status == 401
        assert (await client.get("/", headers=away)).status == 401
        assert (await client.get("/api/server/info", headers={**away, "X-Api-Key": "wrong-token-wrong-token"})).status == 401
        assert (await client.get("/api/server/info", headers={**away, "X-Api-Key": TOKEN})).status == 200
        assert (await client.get("/api/server/info", headers={**away, "Authorization": f"Bearer {TOKEN}"})).status == 200
        page = await client.get(f"/?token={TOKEN}", headers=away)                       # a page opened with the token
        assert page.status == 200 and page.cookies["mjt_token"].value == TOKEN
        assert (await client.get("/api/state", headers=away)).status == 200              # its own requests carry the cookie
    serve(LiveTable(), db, test, WebSettings("0.0.0.0", 0, TOKEN))


def test_listening_beyond_this_machine_needs_a_token():
    assert parse_listen("127.0.0.1:8080") == WebSettings("127.0.0.1", 8080, None)
    assert parse_listen("[::1]:8080").loopback and parse_listen("localhost:80").loopback
    assert parse_listen("0.0.0.0:8080", TOKEN).token == TOKEN
    with pytest.raises(WebError, match=r"set a token in the config \(\[web\] token"):
        parse_listen("0.0.0.0:8080")
    for bad in ("8080", "table.local:8080", "127.0.0.1:http"):
        with pytest.raises(WebError, match="HOST:PORT|IP address"):
            parse_listen(bad)
    with pytest.raises(WebError, match="port 70000 is out of range"):
        parse_listen("127.0.0.1:70000")
    assert is_loopback("127.0.0.5") and not is_loopback("192.168.1.20") and not is_loopback(None)


def test_every_page_and_asset_is_served_from_the_package(played):
    db, _, _ = played

    async def test(client):
        for path in ("/", "/history", "/hours", "/hand?id=1", "/sim", "/static/app.js", "/static/style.css"):
            response = await client.get(path)
            text = await response.text()
            assert response.status == 200, path
            assert not OUTSIDE.search(text), f"{path} fetches something from outside"
    serve(LiveTable(), db, test)


def test_a_time_of_four_hundred_digits_is_a_wrong_argument_not_a_bug():
    """`since` as a JSON integer of 400 digits over the WebSocket: float() raised OverflowError, which
    was answered as an internal error with a traceback in the table's log (a probe)."""
    from firmware.web.api import ApiError, float_arg
    with pytest.raises(ApiError) as refused:
        float_arg({"since": 10 ** 400}, "since")
    assert refused.value.status == 400 and "seconds since 1970" in str(refused.value)


def test_a_burst_of_websocket_requests_lets_the_table_run_between_them(played, monkeypatch):
    """Fifty clients each sent 250 requests at once: the server answered every buffered request of a
    socket without giving the loop a turn, held it 1.9 s, and the motor board stopped its motors for a
    host lost (E13, a probe). One request is answered a turn: what the table has to do runs between."""
    import firmware.web.server as server_module

    db, _, session = played
    live = LiveTable()
    live.attach(session.public_feed())
    answered: list[int] = []
    table_ran_after: list[int] = []
    real_reply = server_module.rpc_reply

    async def rpc_reply(ctx, client, text):
        if not answered:            # the table's next step, asked for as the burst begins
            asyncio.get_running_loop().call_soon(lambda: table_ran_after.append(len(answered)))
        answered.append(1)
        return await real_reply(ctx, client, text)
    monkeypatch.setattr(server_module, "rpc_reply", rpc_reply)

    async def test(client):
        ws = await client.ws_connect("/websocket")
        for rid in range(200):                      # all in the socket before the server reads any
            await ws.send_json({"jsonrpc": "2.0", "method": "server.info", "id": rid})
        for _ in range(200):
            assert "result" in await ws.receive_json()
        await ws.close()
    serve(live, db, test)
    assert len(answered) == 200 and table_ran_after[0] <= 2, table_ran_after
