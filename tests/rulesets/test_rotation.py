"""Dealer rotation."""

from rulesets.regions import get_region
from rulesets.rotation import HandOutcome, RotationRule, following_side, nearest_winner

ALL = (0, 1, 2, 3)


def test_changchun_lianzhuang():
    """长春 §1.5: 庄家胡牌，则庄家继续做庄，闲家胡牌，则庄家的下一家坐庄。荒庄，则庄家继续坐庄."""
    rule = get_region("changchun").resolve().rotation
    assert rule.next_dealer(1, ALL, HandOutcome((1,), None)) == 1
    assert rule.next_dealer(1, ALL, HandOutcome((3,), 0)) == 2
    assert rule.next_dealer(1, ALL, HandOutcome()) == 1


def test_luoshan_winner_deals():
    """螺山 §31.2: 从第二盘开始和牌者为庄家。荒和，则由前一盘庄家继续当庄家."""
    rule = get_region("luoshan").resolve().rotation
    assert rule.next_dealer(0, ALL, HandOutcome((2,), 1)) == 2
    assert rule.next_dealer(0, ALL, HandOutcome()) == 0


def test_shanghai_multi_win_readings():
    """上海 §4.5: 点炮者最近的一个胡牌者下家为下盘庄家."""
    outcome = HandOutcome((3, 1), 0)         # discarder 0; winners 1 and 3; nearest is 1
    assert get_region("shanghai").resolve().rotation.next_dealer(2, ALL, outcome) == 1
    assert get_region("shanghai").resolve({"multi_win_dealer": "after_nearest_winner"}).rotation.next_dealer(2, ALL, outcome) == 2


def test_changsha_tongpao_discarder_deals():
    """长沙 §12.5: 首局后，通炮者坐庄其次和家坐庄."""
    rule = get_region("changsha").resolve().rotation
    assert rule.next_dealer(0, ALL, HandOutcome((1, 2), 3)) == 3
    assert rule.next_dealer(0, ALL, HandOutcome((2,), 3)) == 2


def test_dealer_stays_if_among_winners():
    rule = RotationRule("keep", "winner", "keep", "dealer_if_winner")
    assert rule.next_dealer(2, ALL, HandOutcome((1, 2), 0)) == 2


def test_three_player_rotation_skips_the_empty_side():
    assert following_side(2, (0, 1, 2)) == 0
    assert nearest_winner(2, (0, 1), (0, 1, 2)) == 0
    rule = get_region("guangshui").resolve().rotation
    assert rule.next_dealer(2, (0, 1, 2), HandOutcome((1,), 0)) == 0
