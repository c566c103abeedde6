"""A key answers only what was asked once it was pressed: a press the motor board sent before the
question or the request it would answer was up (`Press.heard` below the mark) is dropped and
recorded, never taken as the answer. A 确认 pressed twice at 荒庄 confirmed the push-in before a tile
was pushed in (campaign 470018; tests/e2e/test_push_in_confirm.py); the same held for a 骰子 pressed
twice, which rolled the next roll nobody had pressed for, and a 确认 that confirmed 宜昌's 换三张
before anyone had passed a tile."""

import pytest

from drivers.table_ui import Key, Panel
from firmware.hand.flow import HandFlow
from firmware.hand.phases import exchange_three
from firmware.hand.ports import Press
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_exchange_resume import rolling

SHOWN_AT = 10       # where the motor board's events stood when the prompt was up


class MarkedPorts(FakePorts):
    """Lines are up once the board had sent SHOWN_AT events; presses carry their own place."""

    async def shown(self, seat: int) -> int:
        return SHOWN_AT

    def mark(self) -> int:
        return SHOWN_AT


def dropped(ports: FakePorts) -> list[tuple[str, int, str]]:
    return [(e["why"], p["panel"], p["key"]) for e in ports.recorder.all("keys_dropped") for p in e["presses"]]


@pytest.mark.parametrize("panel", [0, Panel.FRONT])
def test_a_dice_pressed_before_the_roll_was_asked_rolls_nothing(panel):
    ports = MarkedPorts(get_region("dongbei").resolve())
    ports.keys.put(Press(panel, Key.DICE, heard=SHOWN_AT - 3))        # the second press of the roll before
    with pytest.raises(TimeoutError):
        run(HandFlow(ports).roll(0, 2), timeout=5)
    assert dropped(ports) == [("before_question", panel, "DICE")]


def test_a_dice_pressed_once_the_roll_was_asked_rolls():
    ports = MarkedPorts(get_region("dongbei").resolve())
    ports.keys.put(Press(0, Key.DICE, heard=SHOWN_AT + 1))
    assert run(HandFlow(ports).roll(0, 2), timeout=5) == (1, 1)
    assert dropped(ports) == []


def test_a_confirm_pressed_before_the_exchange_was_asked_confirms_nothing():
    hand = built_hand(get_region("yichang").resolve({"exchange_direction": "next"}), {})
    ports = MarkedPorts(hand.ruleset)
    ports.keys.put(Press(2, Key.CONFIRM, heard=SHOWN_AT - 1))
    with pytest.raises(TimeoutError):
        run(exchange_three(ports, hand, rolling(rolls=[])), timeout=5)
    assert dropped(ports) == [("before_question", 2, "CONFIRM")]
    ports.keys.put(Press(0, Key.CONFIRM, heard=SHOWN_AT))          # the dealer's, once every seat has passed
    run(exchange_three(ports, hand, rolling(rolls=[])), timeout=5)


def test_only_the_dealer_s_confirm_ends_the_exchange():
    """「庄家按确认」 (docs/table-flow.md §3): a probe at the table saw another seat's 确认 end the
    exchange before everyone had passed."""
    hand = built_hand(get_region("yichang").resolve({"exchange_direction": "next"}), {})
    ports = MarkedPorts(hand.ruleset)
    ports.keys.put(Press(2, Key.CONFIRM, heard=SHOWN_AT))
    with pytest.raises(TimeoutError):
        run(exchange_three(ports, hand, rolling(rolls=[])), timeout=5)
    ports.keys.put(Press(0, Key.CONFIRM, heard=SHOWN_AT + 1))
    run(exchange_three(ports, hand, rolling(rolls=[])), timeout=5)
    assert ports.keys.peek(lambda p: p.seat == 2) is not None        # left for play to drop (before_play)


def test_an_exchange_taken_up_after_a_restart_says_so_on_its_own_line():
    """A probe at the table (宜昌, killed at 换三张): the restart note was shown with 请配牌 and written
    over at once by the exchange's own line, so nobody read that a 确认 is to be pressed again."""
    from drivers.table_ui import RESTARTED, Phase
    hand = built_hand(get_region("yichang").resolve({"exchange_direction": "next"}), {})
    hand.phase = "revealing"
    ports = MarkedPorts(hand.ruleset)
    with pytest.raises(TimeoutError):               # (the dealer's 确认 never comes here)
        run(HandFlow(ports).resume(hand, totals=(0, 0, 0, 0), cause="restart"), timeout=5)
    assert f"{Phase.EXCHANGE.value} :下家 {RESTARTED}" in ports.screens.phases
