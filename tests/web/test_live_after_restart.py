"""After a restart mid-hand the web view and the fleet's report go on showing the hand in play: its
number, dice, public indicators and wins, from the `resumed` event — as they showed it before the
controller stopped (before: hand 0, no dice, no 财神 until the next hand began, and a 血战 hand's
earlier wins missing from the settled hand sent to the broker)."""

import json

import pytest

from firmware.fleet.report import TableReport
from firmware.state import SessionState
from firmware.web.live import LiveTable
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart
from tests.web.test_live import FakeFeed

HAND_FIELDS = ("hand", "hand_dealer", "dice", "indicators", "wilds", "wins", "hand_over")


def after_in_a_hand(first: str, takes_after: int, hand_from: int = 2):
    """Stop `takes_after` takes after the first public event named `first` of a hand from `hand_from` on."""
    seen = {"hand": None, "takes": 0}

    def stop_when(event: dict) -> bool:
        if event["hand"] < hand_from:
            return False
        if seen["hand"] is None and event["event"] == first and event.get("public", True):
            seen["hand"] = event["hand"]
        elif event["event"] == "take" and event["hand"] == seen["hand"]:
            seen["takes"] += 1
        return seen["takes"] == takes_after
    return stop_when


class Feed(FakeFeed):
    """The session's public feed, as the test tells it the recorder's events: every listener hears them."""

    def __init__(self, region_id: str) -> None:
        super().__init__()
        self.ruleset_ = get_region(region_id).resolve()
        self.state = SessionState.new(1, self.ruleset_)
        self.listeners = []

    def listen(self, on_event, on_change):
        self.listeners.append(on_event)
        self.presenter.listen(on_change)

    def tell(self, events: list[dict]) -> None:
        for event in events:
            for listener in self.listeners:
                listener(event)


def shown(region_id: str, events: list[dict]) -> dict:
    """The web view's table object once it has heard `events`."""
    feed, live = Feed(region_id), LiveTable()
    live.attach(feed)
    feed.tell(events)
    table = live.status({"table"})["table"]
    return {key: table[key] for key in HAND_FIELDS}


def up_to_resumed(events: list[dict]) -> list[dict]:
    at = next(i for i, e in enumerate(events) if e["event"] == "resumed")
    return events[:at + 1]


@pytest.mark.parametrize("region_id", ["hangzhou", "wuhan"])
def test_the_web_view_shows_a_resumed_hand_as_it_showed_it_before_the_restart(tmp_path, region_id):
    """杭州: its 白板 财神, a fixed wild announced after the deal; 武汉: a 赖子 flipped from the wall.
    The controller stopped in play, a new one resumes the hand."""
    _result, before, after = run(crash_and_restart(region_id, 3, str(tmp_path / "table.db"),
                                                   after_in_a_hand("indicator", 5)), timeout=180)
    at_the_stop, resumed = shown(region_id, before), shown(region_id, up_to_resumed(after))
    assert at_the_stop["hand"] >= 2 and at_the_stop["indicators"] and at_the_stop["wilds"]
    assert resumed == at_the_stop


def test_a_bloody_hands_earlier_wins_are_shown_and_reported_after_a_restart(tmp_path):
    """四川 血战到底: a win, the controller stopped three takes after it, the hand resumed and settled."""
    _result, before, after = run(crash_and_restart("sichuan", 3, str(tmp_path / "table.db"),
                                                   after_in_a_hand("win", 3)), timeout=180)
    number = next(e for e in after if e["event"] == "resumed")["hand"]
    wins_before = [e for e in before if e["event"] == "win" and e["hand"] == number]
    assert wins_before, "the stop must come after a win of the hand resumed"
    at_the_stop, resumed = shown("sichuan", before), shown("sichuan", up_to_resumed(after))
    assert at_the_stop["wins"] and resumed == at_the_stop

    feed, report = Feed("sichuan"), TableReport("t1", clock=lambda: 5.0)
    report.attach(feed)
    feed.tell(after)
    settled = next(h for h in report.hands if h["hand"] == number)     # the settled hands waiting for the broker
    reported = [(w["seat"], w["win_tile"]) for w in settled["wins"]]
    assert [(w["seat"], w["win_tile"]) for w in wins_before] == reported[:len(wins_before)]
    assert json.dumps(settled)                      # a payload, whole
