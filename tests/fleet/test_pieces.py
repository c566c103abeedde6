"""The fleet's pieces without a broker: the public filter at the one gate, the payloads, the
outbox, the back-off, the report's bounded queue, and the parlour reading whatever arrives."""

import asyncio
import json
import random

import pytest

from firmware.fleet.connection import Backoff
from firmware.fleet.outbox import Outbox
from firmware.fleet.payloads import SecretLeak, discovery_config, encode, event_envelope, hand_payload, status_payload
from firmware.fleet.report import TableReport
from firmware.fleet.settings import BrokerSettings
from firmware.fleet.topics import Topics, split_topic
from firmware.parlour.watcher import ParlourWatcher
from tests.asyncio_support import run


# -- the gate -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("event", [
    {"event": "take", "t": 1.0, "hand": 1, "ring": 3, "tile": "5m"},
    {"event": "indicator", "t": 1.0, "hand": 1, "kind": "bao", "public": False, "tile": ["3p"], "wilds": ["3p"]},
    {"event": "hand_start", "t": 1.0, "hand": 1, "salt": "ab", "ring": [["1m", "2m"]]},
    {"event": "warning", "t": 1.0, "hand": 1, "text": "座位0 宝:三筒"},
])
def test_an_event_that_would_reveal_a_hidden_tile_never_becomes_a_payload(event):
    with pytest.raises(SecretLeak):
        encode("event", event_envelope("t1", 1.0, 1, 2.0, event))


def test_a_status_or_a_hand_carrying_a_private_seat_line_is_refused():
    with pytest.raises(SecretLeak):
        encode("status", {"status": "online", "message": "宝:五万"})
    with pytest.raises(SecretLeak):
        encode("hand", {"id": "t1:x", "wins": [{"items": [{"name": "宝:五万"}]}]})
    assert json.loads(encode("status", {"status": "online", "message": "请掷骰子"})) == {"status": "online",
                                                                                         "message": "请掷骰子"}


def test_the_end_of_a_hand_may_show_its_wall():
    end = {"event": "hand_end", "t": 9.0, "hand": 1, "ring": [["1m", "2m"]], "salt": "ab", "digest": "d"}
    assert json.loads(encode("event", event_envelope("t1", 1.0, 5, 2.0, end)))["event"]["salt"] == "ab"


# -- the payloads -----------------------------------------------------------------------------------------

def test_a_settled_hand_carries_its_table_session_result_and_a_unique_id():
    opening = {"event": "hand_start", "hand": 4, "dealer": 2, "wall_hash": "w" * 64}
    end = {"event": "hand_end", "hand": 4, "result": "win", "winners": [1], "payments": [-2, 6, -2, -2],
           "totals": [0, 6, -3, -3], "next_dealer": 3, "digest": "d" * 64, "ring": [["1m", "2m"]], "salt": "s"}
    wins = [{"event": "win", "seat": 1, "from": None, "win_tile": "5p", "items": [{"name": "自摸"}], "tiles": ["5p"]}]
    hand = hand_payload("t3", end, opening, {"session": 7, "ruleset": "wuhan", "options": {}}, wins, 100.0, 160.5)
    assert hand["id"] == "t3:" + "d" * 64 and (hand["session"], hand["hand"], hand["dealer"]) == (7, 4, 2)
    assert hand["winners"] == [1] and hand["wins"] == [{"seat": 1, "from": None, "win_tile": "5p", "items": [{"name": "自摸"}]}]
    assert "ring" not in hand and "salt" not in hand and hand["wall_hash"] == "w" * 64
    encode("hand", hand)


def test_the_status_is_made_of_the_web_views_objects_and_the_ledgers_figures():
    objects = {"table": {"lifecycle": "playing", "ruleset": "wuhan", "ruleset_name": "武汉", "session": 2, "hand": 5,
                         "scores": [1, -1, 0, 0], "message": "请出牌", "hand_over": False, "dealer": 1},
               "faults": {"active": True, "latched": [{"code": "E04", "message": "jam", "name_zh": "卡牌", "since": 3.0,
                                                       "secret": "not copied"}]}}
    status = status_payload("t1", objects, {"hands_today": 9, "hours_today": 2.5, "session_started": 50.0},
                            now=99.0, heartbeat=60.0, version="1.0")
    assert status["status"] == "online" and status["phase"] == "playing" and status["totals"] == [1, -1, 0, 0]
    assert status["fault"] and status["faults"][0]["code"] == "E04" and "secret" not in status["faults"][0]
    assert (status["hands_today"], status["hours_today"], status["updated"]) == (9, 2.5, 99.0)


def test_a_starting_table_publishes_no_placeholder_hand_or_scores():
    """Before its session is known the parlour's card must not read hand 0 and scores 0 0 0 0 as real."""
    status = status_payload("t1", {"table": {"lifecycle": "starting"}, "faults": {"active": False, "latched": []}},
                            {}, now=99.0, heartbeat=60.0, version="1.0")
    assert (status["phase"], status["hand"], status["totals"], status["ruleset"]) == ("starting", None, None, None)


def test_home_assistant_sees_one_device_with_its_status_sensors():
    config = discovery_config(Topics("t03"), "1.2")
    assert Topics("t03").discovery == "homeassistant/device/mjt_t03/config"
    assert config["dev"]["ids"] == ["mjt_t03"] and config["o"]["sw"] == "1.2"
    ids = [c["unique_id"] for c in config["cmps"].values()]
    assert len(ids) == len(set(ids)) and all(i.startswith("mjt_t03_") for i in ids)
    assert all("p" in c and "value_template" in c for c in config["cmps"].values())
    assert "playing" in config["cmps"]["phase"]["options"] and config["cmps"]["fault"]["p"] == "binary_sensor"


def test_topics_are_read_back_by_table_and_kind():
    assert split_topic("mahjong/t03/hands") == ("t03", "hands")
    assert split_topic("mahjong/t03/other") is None and split_topic("homeassistant/status") is None
    assert split_topic("mahjong//status") is None and split_topic("mahjong/a/b/status") is None


# -- the outbox, the back-off, the report's queue -------------------------------------------------------

def test_the_outbox_keeps_hands_in_order_once_each_and_bounded(tmp_path):
    box = Outbox(tmp_path / "o.db", limit=3)
    assert [box.put(f"k{i}", "mahjong/t/hands", f"{i}".encode()) for i in range(3)] == [1, 2, 3]
    assert box.put("k1", "mahjong/t/hands", b"again") == 3                       # the same hand: kept once
    assert [payload for _, _, payload in box.peek(10)] == [b"0", b"1", b"2"]
    assert box.put("k3", "mahjong/t/hands", b"3") == 3 and box.dropped == 1      # full: the oldest goes
    rows = box.peek(2)
    assert [p for _, _, p in rows] == [b"1", b"2"] and box.remove([r[0] for r in rows]) == 1
    box.close()
    again = Outbox(tmp_path / "o.db")                                              # a restart finds what waits
    assert [p for _, _, p in again.peek(10)] == [b"3"]
    again.close()


def test_the_back_off_doubles_to_its_longest_and_starts_again_after_a_connection():
    backoff = Backoff(1.0, 8.0, random.Random(4))
    waits = [backoff.next() for _ in range(6)]
    for wait, nominal in zip(waits, [1, 2, 4, 8, 8, 8]):
        assert 0.8 * nominal <= wait <= 1.2 * nominal
    backoff.reset()
    assert backoff.next() <= 1.2


def test_the_reports_event_queue_drops_the_oldest_and_takes_back_what_was_not_sent():
    report = TableReport("t1", clock=lambda: 5.0, event_limit=3)
    for n in range(5):
        report._on_event({"event": "warning", "t": 0.0, "hand": 0, "n": n})
    assert [seq for seq, _, _ in report.events] == [3, 4, 5] and report.events_dropped == 2
    batch = report.take_events(2)
    report._on_event({"event": "warning", "t": 0.0, "hand": 0, "n": 5})
    report.put_back(batch)                          # room for one: the newer of the two goes back in front
    assert [seq for seq, _, _ in report.events] == [4, 5, 6] and report.events_dropped == 3


# -- the parlour reads whatever arrives -------------------------------------------------------------------

def test_the_parlour_skips_what_is_malformed_and_keeps_a_hand_once(tmp_path):
    async def go():
        watcher = ParlourWatcher(BrokerSettings("127.0.0.1", 1), tmp_path / "p.db", backoff=(5.0, 5.0))
        await watcher.start()
        try:
            for topic, payload in [("mahjong/t1/status", b"\xff\xfe"), ("mahjong/t1/status", b"[1, 2]"),
                                   ("mahjong/t1/status", b'{"status": "maybe"}'),
                                   ("mahjong/t1/events", b'{"run": 1, "seq": "x", "event": {}}'),
                                   ("mahjong/t1/hands", b'{"id": "t2:x", "table": "t2", "finished": 1}'),
                                   ("mahjong/t1/hands", b'{"table": "t1"}')]:
                await watcher.receive(topic, payload)
            hand = json.dumps({"id": "t1:d", "table": "t1", "hand": 1, "finished": watcher.clock(),
                               "payments": [1, -1, 0, 0], "totals": [1, -1, 0, 0]}).encode()
            for _ in range(2):
                await watcher.receive("mahjong/t1/hands", hand)
            for seq in (1, 2, 2, 5):
                await watcher.receive("mahjong/t1/events", json.dumps({"run": 7, "seq": seq, "at": 1.0,
                                                                       "event": {"event": "x"}}).encode())
            await watcher.receive("mahjong/t1/events", json.dumps({"run": 8, "seq": 1, "at": 1.0,
                                                                   "event": {"event": "x"}}).encode())
            stored = await watcher.hands()
        finally:
            await watcher.stop()
        return watcher, stored

    watcher, stored = run(go(), timeout=20)
    assert watcher.stats.malformed == 6 and watcher.stats.hands == 1 and watcher.stats.duplicates == 1
    assert [h["id"] for h in stored] == ["t1:d"]
    seen = watcher.tables["t1"]
    assert (seen.events, seen.repeated, seen.missed) == (4, 1, 2)       # 1 2 [2] 5 | a new run from 1


def test_a_will_is_written_down_only_once_the_table_stays_away(tmp_path):
    """A broker restart sends every table's last will though the tables play on: a table back within
    three heartbeats leaves no line in the changes; one that stays away is written down as lost, at
    the time its will came."""
    now = [1000.0]

    def status(table, state, **more):
        return f"mahjong/{table}/status", json.dumps({"status": state, "table": table, "heartbeat_s": 10, **more}).encode()

    async def go():
        watcher = ParlourWatcher(BrokerSettings("127.0.0.1", 1), tmp_path / "p.db", backoff=(5.0, 5.0),
                                 clock=lambda: now[0])
        await watcher.start()
        try:
            for table in ("back", "gone"):
                await watcher.receive(*status(table, "online"))
                await watcher.receive(*status(table, "offline", reason="lost"))
            now[0] += 20                                         # the broker is back; one table too
            await watcher.receive(*status("back", "online"))
            pages = {name: seen.state(now[0]) for name, seen in watcher.tables.items()}
            now[0] += 15                                         # past three heartbeats: the other is gone
            while not any(c["what"] == "offline" for c in await watcher.changes()):
                await asyncio.sleep(0.1)
            return pages, await watcher.changes()
        finally:
            await watcher.stop()

    pages, changes = run(go(), timeout=30)
    assert pages == {"back": "online", "gone": "offline"}       # the page shows the will as it stands
    assert sorted((c["table"], c["what"], c["detail"], c["at"]) for c in changes) == [
        ("back", "online", "", 1000.0), ("gone", "offline", "lost", 1000.0), ("gone", "online", "", 1000.0)]


def test_a_table_lost_around_a_parlour_restart_is_written_down_when_it_went(tmp_path):
    """kill -9 a table, restart the parlour 20 s later: once the will has stood three heartbeats the
    changes say the table was lost, at the time it went, and the page says it was last heard then (the
    restarted parlour took its own start for both, and never wrote the loss).  A table gone before a
    parlour that never heard of it starts is written down at once, saying its last word is unknown."""
    now = [1000.0]

    def status(table, state, **more):
        return f"mahjong/{table}/status", json.dumps({"status": state, "table": table, "heartbeat_s": 10, **more}).encode()

    def parlour(path):
        return ParlourWatcher(BrokerSettings("127.0.0.1", 1), path, backoff=(5.0, 5.0), clock=lambda: now[0])

    async def wait_for_line(watcher, table):
        while not any(c["table"] == table and c["what"] == "offline" for c in await watcher.changes()):
            await asyncio.sleep(0.1)

    async def go():
        first = parlour(tmp_path / "p.db")
        await first.start()
        try:
            await first.receive(*status("t6", "online", updated=now[0]), retain=False)
            now[0] += 10
            await first.receive(*status("t6", "offline", reason="lost"))           # killed: the broker's will
            now[0] += 20
        finally:
            await first.stop()
        again = parlour(tmp_path / "p.db")
        await again.start()
        try:
            await again.receive(*status("t6", "offline", reason="lost"), retain=True)   # the retained will
            now[0] += 60                                                        # past three heartbeats
            await wait_for_line(again, "t6")
            changes, view = await again.changes(), again.snapshot()
        finally:
            await again.stop()
        fresh = parlour(tmp_path / "fresh.db")
        await fresh.start()
        try:
            await fresh.receive(*status("t7", "offline", reason="lost"), retain=True)
            await wait_for_line(fresh, "t7")
            return changes, view, await fresh.changes()
        finally:
            await fresh.stop()

    changes, view, fresh = run(go(), timeout=30)
    assert [(c["what"], c["detail"], c["at"]) for c in changes] == [("offline", "lost", 1010.0), ("online", "", 1000.0)]
    assert view["tables"][0]["last_seen"] == 1010.0
    ((what, detail, at),) = [(c["what"], c["detail"], c["at"]) for c in fresh]
    assert what == "offline" and "last heard is unknown" in detail and at == now[0]


# -- the client ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("guarded", [True, False])
def test_a_write_interest_for_a_socket_closed_before_the_loop_got_to_it_is_dropped(guarded):
    """paho asks to be told when its socket can take bytes; aiomqtt schedules the registration.
    A broker gone in between closes the socket first: the guarded client drops the registration;
    aiomqtt's own raised EBADF inside the event loop (the run below fails on any such error)."""
    import socket

    import aiomqtt

    from firmware.fleet.connection import GuardedClient
    from tests.asyncio_support import LeakError

    async def closed_before_registered() -> None:
        client = (GuardedClient if guarded else aiomqtt.Client)("127.0.0.1", 1)
        mine, theirs = socket.socketpair()
        client._on_socket_register_write(client._client, None, mine)   # as paho calls it
        mine.close()                                                   # the broker went away
        theirs.close()
        await asyncio.sleep(0.01)

    if guarded:
        run(closed_before_registered())
    else:                                       # what the guard is for: the stock client's error
        with pytest.raises(LeakError, match="Bad file descriptor"):
            run(closed_before_registered())


def test_a_broker_that_cannot_be_reached_because_the_network_is_closed_says_which_drop_in_opens_it(
        network_closed, caplog):
    """Under the shipped systemd unit (RestrictAddressFamilies=AF_UNIX) the connection is refused its
    address family: the warning names the drop-in, not only "unreachable"."""
    import logging

    from firmware.fleet.connection import keep_connected, new_client

    broker = BrokerSettings("127.0.0.1", 1883, None, None, False)

    async def one_attempt() -> None:
        stopping = asyncio.Event()

        def connect():
            stopping.set()                        # this attempt is the last
            return new_client(broker, "t1", tls=None, timeout=2.0, keepalive=10)

        async def serve(client) -> None:
            raise AssertionError("connected through a closed network")
        await keep_connected(connect, serve, stopping, Backoff(0.01, 0.01), name="table t1")

    with caplog.at_level(logging.WARNING, logger="firmware.fleet"):
        run(one_attempt(), timeout=30)
    said = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert said and "deploy/network.conf" in said[0], said
