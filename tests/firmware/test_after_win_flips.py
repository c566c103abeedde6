"""After-win flips (鸡, 马, 鸟) are read from the wall map: a check begun again where the wall has not
changed — after a restart, or another claim on the same discard — reads the same flip, and the hand
records it once (found by the fault campaign: a 长沙 hand killed in its win check recorded its 鸟
twice, and the audit saw them twice)."""

from firmware.hand.state import HandState
from rulesets.indicators import Timing
from rulesets.regions import get_region
from tests.firmware.test_asked_facts import built_hand
from tests.firmware.test_liang_and_la_zhuang import take_head


def after_win(hand: HandState):
    return [r for r in hand.reveals if r.rule.timing is Timing.AFTER_WIN]


def test_the_same_flip_read_again_is_recorded_once_and_a_new_one_after_a_take():
    hand = built_hand(get_region("changsha").resolve(), {})
    take_head(hand, hand.deal_size)
    (rule,) = hand.rules_at(Timing.AFTER_WIN)
    first = hand.reveal(rule)
    resumed = HandState.from_json(hand.to_json())           # the journal held the flip, not the win
    (rule_again,) = resumed.rules_at(Timing.AFTER_WIN)
    again = resumed.reveal(rule_again)
    assert (again.slots, again.tiles) == (first.slots, first.tiles)
    assert len(after_win(resumed)) == 1
    take_head(resumed, 1)                                    # play went on: the wall changed
    later = resumed.reveal(rule_again)                      # 鸟 are read from the wall's end: moved on
    assert later.slots != first.slots and len(after_win(resumed)) == 2
