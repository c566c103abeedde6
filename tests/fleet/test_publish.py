"""A simulated table reports through a real Mosquitto: its retained status, its public events, its
settled hands (the ledger's, every one, once), Home Assistant's discovery; and the parlour sees it."""

import json

import aiomqtt

from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.topics import Topics
from firmware.parlour.watcher import ParlourWatcher
from tests.asyncio_support import run
from tests.fleet.support import Subscriber, ledger_hands, play, settings_for


def test_a_table_publishes_and_the_parlour_receives_it_all(broker, tmp_path):
    ledger = tmp_path / "table.db"
    topics = Topics("t01")

    async def go():
        watcher = ParlourWatcher(broker.settings, tmp_path / "parlour.db", backoff=(0.1, 0.5))
        await watcher.start()
        publisher = FleetPublisher(settings_for(broker, "t01"), tmp_path / "outbox.db", ledger)
        await publisher.start()
        try:
            async with Subscriber(broker, "mahjong/t01/#", "homeassistant/#") as sub:
                await watcher.connected.wait()
                result = await play("hangzhou", 3, 2, ledger, follow=publisher.attach)
                await watcher.wait_until(lambda: watcher.stats.hands == 3, 20)
                await publisher.stop()
                await sub.wait_for(lambda: any(m.json()["status"] == "offline" for m in sub.on(topics.status)))
                await watcher.wait_until(lambda: watcher.tables["t01"].status["status"] == "offline", 20)
        finally:
            await publisher.stop()
            await watcher.stop()
        return result, sub, watcher, publisher

    result, sub, watcher, publisher = run(go(), timeout=90)
    assert result.hands == 3 and publisher.stats.refused == 0 and publisher.waiting_hands == 0

    # every settled hand, once, as the ledger has it
    hands = [m.json() for m in sub.on(topics.hands)]
    assert [(h["hand"], tuple(h["payments"]), tuple(h["totals"])) for h in hands] == ledger_hands(ledger)
    assert len({h["id"] for h in hands}) == 3 and all(h["ruleset"] == "hangzhou" and h["finished"] for h in hands)

    # every public event of the recorder, numbered without a gap, the recorder's own lines
    events = [m.json() for m in sub.on(topics.events)]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len(events) == result.events + 1                  # and the recorder_end written after the run
    assert [e["event"]["event"] for e in events].count("hand_end") == 3
    assert events[0]["event"]["event"] == "recorder_start" and events[-1]["event"]["event"] == "recorder_end"

    # the status: online while playing (the ruleset, the scores), then a clean offline with the last state
    statuses = [m.json() for m in sub.on(topics.status)]
    online = [s for s in statuses if s["status"] == "online"]
    assert online and any(s["ruleset"] == "hangzhou" and s["phase"] not in ("starting",) for s in online)
    last = statuses[-1]
    assert last["status"] == "offline" and last["reason"] == "stopped" and last["totals"] == list(result.totals)
    assert last["hands_today"] == 3 and last["session_started"] > 0

    # Home Assistant's device discovery, retained, naming the status as its state and availability
    (config,) = [m.json() for m in sub.on(topics.discovery)][:1]
    assert config["dev"]["ids"] == ["mjt_t01"] and config["state_topic"] == topics.status
    assert config["availability"][0]["topic"] == topics.status
    assert {c["unique_id"] for c in config["cmps"].values()} >= {"mjt_t01_phase", "mjt_t01_fault", "mjt_t01_hours_today"}

    # the parlour: the table, its last state, the hands in its store, no event missed
    view = watcher.snapshot()
    (table,) = view["tables"]
    assert table["name"] == "t01" and table["state"] == "offline" and table["reason"] == "stopped"
    assert table["hands_received_today"] == 3 and table["missed"] == 0 and table["events"] == len(events)
    assert [h["hand"] for h in view["recent"]] == [3, 2, 1]


def test_a_late_reader_gets_the_retained_status_and_discovery(broker, tmp_path):
    ledger = tmp_path / "table.db"
    topics = Topics("late")

    async def go():
        publisher = FleetPublisher(settings_for(broker, "late"), tmp_path / "outbox.db", ledger)
        await publisher.start()
        try:
            await play("wuhan", 1, 3, ledger, follow=publisher.attach)
            await publisher.connected.wait()
            async with Subscriber(broker, "mahjong/late/status") as sub:     # the table still runs
                online = await sub.wait_for(lambda: sub.on(topics.status))
                await sub.wait_for(lambda: any(m.json()["ruleset"] == "wuhan" for m in sub.on(topics.status)))
            async with Subscriber(broker, "homeassistant/device/+/config") as ha:
                found = await ha.wait_for(lambda: ha.on(topics.discovery))
        finally:
            await publisher.stop()
        async with Subscriber(broker, "mahjong/late/status") as sub:         # and after it stopped
            stopped = await sub.wait_for(lambda: sub.on(topics.status))
        return online, found, stopped

    online, found, stopped = run(go(), timeout=60)
    assert online[0].retain and online[0].json()["status"] == "online" and online[0].json()["table"] == "late"
    assert found[0].retain and found[0].json()["o"]["name"] == "mahjong-table"
    assert stopped[0].retain and stopped[0].json()["status"] == "offline" and stopped[0].json()["reason"] == "stopped"


def test_home_assistant_coming_online_gets_the_discovery_again(broker, tmp_path):
    topics = Topics("ha1")

    async def go():
        publisher = FleetPublisher(settings_for(broker, "ha1"), tmp_path / "outbox.db")
        await publisher.start()
        try:
            async with Subscriber(broker, topics.discovery) as sub:
                await sub.wait_for(lambda: sub.on(topics.discovery))
                before = len(sub.on(topics.discovery))
                async with aiomqtt.Client("127.0.0.1", broker.port) as client:     # Home Assistant's birth message
                    await client.publish(topics.home_assistant_status, b"online", qos=1)
                await sub.wait_for(lambda: len(sub.on(topics.discovery)) > before)
                return json.loads(sub.on(topics.discovery)[-1].payload)
        finally:
            await publisher.stop()

    config = run(go(), timeout=30)
    assert config["dev"]["ids"] == ["mjt_ha1"]
