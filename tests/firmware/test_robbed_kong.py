"""抢杠: a win on the tile a seat adds to its 碰 (its 杠 pressed, its replacement not drawn yet) is a
robbed kong, and the scorer is told so (上海: 「抢杠…由杠的支付」; 广东: 抢杠胡 as 自摸, the konger pays
for all; 武汉 抢杠; 长沙 抢杠胡).  Before, no win at the table was ever one: the fact was never set."""

from rulesets.tiles import Tile
from tests.firmware.test_won_already import a_hand


def a_kong_pending(region: str, seat: int, concealed: bool):
    hand, ring = a_hand(region)
    hand.on_wall_change(ring[0], 0)                 # two tiles dealt from the head
    hand.pending_kong[seat] = concealed             # 杠 pressed: its replacement not drawn yet
    return hand, ring


def context(hand, winner: int, discarder: int | None):
    return hand.win_context(winner, discarder, Tile.parse("5p"), (), ())


def test_a_win_on_the_tile_of_a_kong_not_yet_replaced_is_a_robbed_kong():
    hand, _ = a_kong_pending("shanghai", 3, concealed=False)
    assert context(hand, 0, 3).robbed_kong


def test_no_rob_once_the_replacement_is_drawn_nor_of_a_concealed_kong_nor_from_another_seat():
    hand, ring = a_kong_pending("shanghai", 3, concealed=False)
    assert not context(hand, 0, 2).robbed_kong                  # another seat's discard
    assert not context(hand, 0, None).robbed_kong               # self-drawn
    hand.on_wall_change(ring.tail, 1)                            # the replacement drawn: the kong stands
    assert not context(hand, 0, 3).robbed_kong
    concealed, _ = a_kong_pending("shanghai", 3, concealed=True)
    assert not context(concealed, 0, 3).robbed_kong            # a 暗杠's tile is never shown


def test_the_robbed_konger_pays_for_all_in_shanghai():
    """上海 §4.7 [002:40]: 「抢杠…由杠的支付，相当于杠的人付 3份」."""
    from rulesets.hand import Hand
    from rulesets.judging import evaluate_hand
    hand, _ = a_kong_pending("shanghai", 3, concealed=False)
    won = Hand.parse("111m555m999p55p", ["777s"])
    robbed = evaluate_hand(hand.ruleset, won, context(hand, 0, 3)).settlement
    plain_hand, _ = a_hand("shanghai")
    plain = evaluate_hand(hand.ruleset, won, context(plain_hand, 0, 3)).settlement
    assert robbed is not None and plain is not None and plain.payments[3] < 0
    assert robbed.payments[3] == 3 * plain.payments[3] and robbed.payments[1] == robbed.payments[2] == 0
