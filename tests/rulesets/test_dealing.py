"""Dealing plans as explicit sequence positions."""

from hypothesis import given, strategies as st

from rulesets.dealing import DealPattern


@given(st.sampled_from([13, 16]), st.sampled_from([(0, 1, 2, 3), (0, 1, 2), (1, 2, 3)]), st.data())
def test_every_deal_gives_the_dealer_one_more(hand_size, sides, data):
    dealer = data.draw(st.sampled_from(sides))
    plan = DealPattern(hand_size).plan(dealer, sides)
    sizes = plan.hand_sizes()
    assert sizes[dealer] == hand_size + 1
    assert all(sizes[s] == hand_size for s in sides if s != dealer)
    dealt = [p for g in plan.grabs for p in g.positions]
    assert sorted(dealt) == list(range(plan.next_head))           # unique and complete
    assert plan.next_head == hand_size * len(sides) + 1


def test_four_four_four_then_tiaopai():
    """The dealer's 跳牌: the tops of the 1st and 3rd of the next three stacks (48 and 52)."""
    plan = DealPattern(13).plan(2, (0, 1, 2, 3))
    assert plan.order == (2, 3, 0, 1)
    assert plan.positions_of(2)[-2:] == (48, 52)
    assert [plan.owner_of()[p] for p in (49, 50, 51)] == [3, 0, 1]
    assert plan.positions_of(2)[:4] == (0, 1, 2, 3)
    assert plan.positions_of(3)[:4] == (4, 5, 6, 7)
    assert plan.next_head == 53


def test_sixteen_tile_deal():
    plan = DealPattern(16).plan(0, (0, 1, 2, 3))
    assert plan.hand_sizes() == {0: 17, 1: 16, 2: 16, 3: 16}
    assert plan.next_head == 65


def test_first_grab_is_the_standing_four():
    """立四 §24: 第一手抓的四张牌放在前面立着."""
    plan = DealPattern(13).plan(0, (0, 1, 2, 3))
    assert plan.first_grab(1) == (4, 5, 6, 7)
