"""宜昌 换三张 across a restart: the direction the dice gave is kept in the hand, journaled before it
is shown, and shown again by a restarted controller — never rolled again (found by the fault
campaign: a controller killed before the 确认 rolled 上家 where the players had passed to 对家, and
the table stalled)."""

import pytest

from drivers.table_ui import Key, Phase
from firmware.hand.phases import exchange_three
from firmware.hand.state import HandState
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.fake_ports import FakePorts
from tests.firmware.test_asked_facts import built_hand


def rolling(*values: int, rolls: list):
    async def roll(seat: int, count: int, prompt: str) -> tuple[int, ...]:
        rolls.append(values)
        return values
    return roll


def test_a_restarted_controller_shows_the_direction_rolled_before_and_does_not_roll_again():
    hand = built_hand(get_region("yichang").resolve(), {})
    rolls: list = []
    killed = FakePorts(hand.ruleset)                       # nobody confirms before the kill
    with pytest.raises(TimeoutError):
        run(exchange_three(killed, hand, rolling(3, 3, rolls=rolls)), timeout=5)    # 6 % 3 = 0: 对家
    assert killed.screens.phases == [f"{Phase.EXCHANGE.value} :对家"]
    assert [e["direction"] for e in killed.recorder.all("exchange")] == ["opposite"]

    resumed = HandState.from_json(hand.to_json())          # what the journal held
    again = FakePorts(resumed.ruleset, [(resumed.dealer, Key.CONFIRM)])
    run(exchange_three(again, resumed, rolling(1, 1, rolls=rolls)), timeout=5)      # would be 上家
    assert again.screens.phases == [f"{Phase.EXCHANGE.value} :对家"]
    assert len(rolls) == 1 and not again.recorder.all("exchange")
    # the dice that gave the direction stay on the dice line, after the hand's own roll
    hand_roll = [tuple(r) for r in hand.rolls]
    assert killed.screens.dice_shown[-1] == again.screens.dice_shown[-1] == hand_roll + [(3, 3)]


def test_a_fixed_direction_is_kept_too():
    hand = built_hand(get_region("yichang").resolve({"exchange_direction": "next"}), {})
    ports = FakePorts(hand.ruleset, [(0, Key.CONFIRM)])
    run(exchange_three(ports, hand, rolling(rolls=[])), timeout=5)
    assert hand.facts.exchange == "next" and ports.screens.phases == [f"{Phase.EXCHANGE.value} :下家"]
    assert ports.screens.dice_shown[-1] == [tuple(r) for r in hand.rolls]      # no roll: nothing added
