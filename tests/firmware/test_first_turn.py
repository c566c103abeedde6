"""天和, 地和, 人和 (广东鸡胡 [001:43-47], 6番): the table judges them from the draws since the deal —
a claim skips a seat's draw, so the draws number the seats from the dealer to a first-round
self-drawer only when nobody claimed.  Before, no win at the table was ever one (the fact was never
set), and the audit checks the fact against the log."""

from rulesets.tiles import Tile
from tests.firmware.test_won_already import a_hand, won


def dealt(region: str = "guangdong_jihu"):
    hand, ring = a_hand(region)                     # dealer 0; 53 tiles dealt (4 × 13 + the dealer's 14th)
    for stack in range(26):
        hand.on_wall_change(ring[stack], 0)
    hand.on_wall_change(ring[26], 1)
    assert hand.draws_after_deal() == 0
    return hand, ring


def draws(hand, ring, n: int) -> None:
    """`n` more draws from the head."""
    for _ in range(n):
        done = hand.draws_after_deal() + 53
        stack, left = divmod(done + 1, 2)
        hand.on_wall_change(ring[stack - 1 + (left > 0)], 1 if left else 0)


def first_turn(hand, seat: int, discarder: int | None) -> bool:
    return hand.win_context(seat, discarder, Tile.parse("5p"), (), ()).first_turn


def test_tianhe_renhe_dihe():
    hand, ring = dealt()
    assert first_turn(hand, 0, None)                        # 天和: the dealer, on his dealt tiles
    assert first_turn(hand, 2, 0)                           # 人和: on the dealer's first discard
    assert not first_turn(hand, 2, 1)                       # …not on another's
    draws(hand, ring, 1)
    assert hand.draws_after_deal() == 1
    assert first_turn(hand, 1, None)                        # 地和: 下家 on his first draw
    assert not first_turn(hand, 2, None) and not first_turn(hand, 2, 0)
    draws(hand, ring, 1)
    assert first_turn(hand, 2, None) and not first_turn(hand, 1, None)
    draws(hand, ring, 2)                                    # the round is over: the dealer drew again
    assert not any(first_turn(hand, seat, None) for seat in range(4))


def test_a_claim_that_skipped_a_draw_or_a_kong_or_an_earlier_win_ends_it():
    hand, ring = dealt()
    draws(hand, ring, 1)                                    # 下家 drew; then 对家 pung: 上家 draws next
    assert not first_turn(hand, 3, None)                    # one draw, not the three before 上家
    won(hand, 1)
    assert not first_turn(hand, 1, None)                    # the hand's first win only
    konged, ring = dealt()
    konged.pending_kong[0] = True
    konged.on_wall_change(ring.tail, 1)                     # the dealer's 暗杠 replacement
    assert not first_turn(konged, 0, None)


def test_the_first_turn_survives_a_restart_of_the_journal():
    from firmware.hand.state import HandState
    hand, ring = dealt()
    draws(hand, ring, 2)
    again = HandState.from_json(hand.to_json())
    assert first_turn(again, 2, None) and not first_turn(again, 1, None)
