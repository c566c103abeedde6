"""The live table's objects, changes and clients, on a feed the test controls."""

import asyncio
import json

import pytest

from drivers.messages import FaultCode
from firmware.faults import LatchedFault
from firmware.presenter import Presenter
from firmware.records.recorder import SecretLeak
from firmware.state import SessionState
from firmware.web.live import Client, LiveTable
from rulesets.regions import get_region
from tests.asyncio_support import run


class FakeFeed:
    """A table the test drives: a real presenter (its mirror), a session state, faults, events."""

    def __init__(self) -> None:
        self.ruleset_ = get_region("changchun").resolve()
        self.presenter = Presenter(None, lambda side, line, text: None, 64)
        self.state = SessionState.new(1, self.ruleset_)
        self.latched: tuple[LatchedFault, ...] = ()
        self.on_event = self.on_change = None

    def mirror(self):
        return self.presenter.public_mirror()

    def session_state(self):
        return self.state

    def ruleset(self):
        return self.ruleset_

    def lifecycle(self):
        return "playing"

    def faults(self):
        return self.latched

    def listen(self, on_event, on_change):
        self.on_event, self.on_change = on_event, on_change
        self.presenter.listen(on_change)


def messages(client: Client) -> list[dict]:
    out = []
    while not client.queue.empty():
        item = client.queue.get_nowait()
        if item is not None:
            out.append(json.loads(item))
    return out


def test_a_subscriber_gets_the_whole_state_then_only_what_changed():
    async def go():
        feed, live = FakeFeed(), LiveTable()
        live.attach(feed)
        feed.presenter.phase_text("请掷骰子")
        client = Client()
        full = live.subscribe(client, {"table": None, "display": ["page", "pages"]})
        assert set(full["status"]) == {"table", "display"} and set(full["status"]["display"]) == {"page", "pages"}
        assert full["status"]["table"]["message"] == "请掷骰子" and full["status"]["table"]["scores"] == [0, 0, 0, 0]
        feed.presenter.phase_text("请配牌")
        feed.presenter.scores((5, -5, 0, 0))
        await asyncio.sleep(0)                            # one turn of the loop: the changes go out together
        (update,) = messages(client)
        assert update["method"] == "notify_status_update"
        changes = update["params"][0]
        assert changes["table"] == {"message": "请配牌"}
        assert changes["display"]["pages"]["main"]["t_score0"] == "+5"
        await asyncio.sleep(0)
        assert messages(client) == []                     # nothing changed: nothing sent
    run(go())


def test_a_private_seat_line_never_leaves_and_a_prompt_makes_it_public_again():
    async def go():
        feed, live = FakeFeed(), LiveTable()
        live.attach(feed)
        feed.presenter.private(2, "宝:五筒 骰子=换宝")
        state = live.query({"table": None, "display": None})["status"]
        assert state["display"]["seats"][2] == ["", None] and state["table"]["seats"][2]["private"] is True
        assert "五筒" not in json.dumps(state, ensure_ascii=False)
        feed.presenter.prompt(2, "摆副露后确认")
        assert live.query({"display": None})["status"]["display"]["seats"][2] == ["", "摆副露后确认"]
    run(go())


def test_the_public_filter_stops_a_private_line_that_slipped_through():
    feed, live = FakeFeed(), LiveTable()
    live.attach(feed)
    feed.presenter.prompt(1, "宝:五筒")                  # a bug: private text written as a prompt
    with pytest.raises(SecretLeak):
        live.query({"display": None})
    assert live.refused == 1


def test_events_are_checked_like_the_recorders_and_a_bad_one_is_not_sent():
    async def go():
        feed, live = FakeFeed(), LiveTable()
        live.attach(feed)
        client = Client()
        live.subscribe(client, {"table": None})
        feed.on_event({"event": "take", "t": 1.0, "hand": 1, "end": "head", "ring": 3, "layer": "top", "tile": "5p"})
        feed.on_event({"event": "ready", "t": 1.1, "hand": 1, "seat": 2})
        await asyncio.sleep(0)
        sent = [m["params"][0]["event"] for m in messages(client) if m["method"] == "notify_table_event"]
        assert sent == ["ready"] and live.refused == 1
    run(go())


def test_a_client_that_falls_behind_is_dropped_and_the_others_go_on():
    async def go():
        feed, live = FakeFeed(), LiveTable()
        live.attach(feed)
        slow, fast = Client(limit=3), Client()
        live.subscribe(slow, {"table": None})
        live.subscribe(fast, {"table": None})
        for n in range(10):
            feed.presenter.phase_text(f"消息 {n}")
            await asyncio.sleep(0)
            messages(fast)                                # the fast client reads as it goes
        assert slow.dropped and live.dropped == 1 and slow not in live.clients
        assert slow.queue.get_nowait() is None            # its writer is told to close the socket
        feed.presenter.phase_text("最后")
        await asyncio.sleep(0)
        (last,) = messages(fast)
        assert last["params"][0]["table"]["message"] == "最后"
    run(go())


def test_faults_carry_their_chinese_hint_and_the_text_is_drawn_as_gb2312_draws_it():
    feed, live = FakeFeed(), LiveTable()
    live.attach(feed)
    feed.latched = (LatchedFault(FaultCode.PUSH_JAM, 2, "push jam (unit 2, detail 0)", "motor"),)
    feed.presenter.phase_text("请推牌 ♠")                # ♠ is outside GB2312: the screen shows '?'
    status = live.query({"faults": None, "display": None})["status"]
    (fault,) = status["faults"]["latched"]
    assert fault["code"] == "E01" and fault["name_zh"] == "推牌卡住" and fault["todo_zh"].endswith("按确认")
    assert status["faults"]["active"] is True
    assert status["display"]["pages"]["main"]["t_msg"] == "请推牌 ?"
    assert [name for name, _ in status["display"]["layout"]["main"]][:2] == ["t_ruleset", "t_round"]


def test_a_card_nearly_full_shows_on_the_table_object_and_the_fleet_status_until_there_is_room():
    from firmware.fleet.payloads import status_payload

    feed, live = FakeFeed(), LiveTable()
    live.attach(feed)
    assert live.status({"table"})["table"]["storage_low"] is None
    feed.on_event({"event": "warning", "hand": 0, "storage": "low", "free_mb": 380, "total_mb": 29500,
                   "message": "the storage card is nearly full"})
    feed.on_event({"event": "warning", "hand": 0, "message": "an unknown key: ignored"})     # another warning
    table = live.status({"table"})["table"]
    assert table["storage_low"] == {"free_mb": 380, "total_mb": 29500}
    status = status_payload("t1", live.status({"table", "faults"}), {}, now=1.0, heartbeat=60.0, version="1")
    assert status["storage_low"] == {"free_mb": 380, "total_mb": 29500}
    feed.on_event({"event": "storage_room", "hand": 0, "free_mb": 9000, "total_mb": 29500})
    assert live.status({"table"})["table"]["storage_low"] is None
