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


def _multi_winner_regions():
    from rulesets.regions import all_regions
    out = []
    for region in all_regions():
        option_sets = [{}] + [{o.key: v} for o in region.options for v in o.values]
        if any(region.resolve(chosen).play.multiple_winners for chosen in option_sets):
            out.append(region)
    return out


def test_every_region_with_several_winners_offers_the_opening_blocks_dealer_rule():
    """RULES.md §5: 「允许一炮多响，如果一炮多响包括庄家在内和牌下一轮庄家继续当庄」 — a house option wherever one
    discard can make several winners; off, the region's own rule decides."""
    regions = _multi_winner_regions()
    assert {r.id for r in regions} >= {"sichuan", "yichang", "guizhou", "yunnan", "shanghai", "changsha",
                                       "sixteen_tile", "guangdong_jihu"}
    for region in regions:
        assert "yipao_dealer" in {o.key for o in region.options}, region.id
        sides = region.resolve().players
        dealer, other, discarder = sides[0], sides[2], sides[1]
        outcome = HandOutcome((other, dealer), discarder)          # the nearer winner is not the dealer
        own = region.resolve().rotation
        stays = region.resolve({"yipao_dealer": "dealer_stays"}).rotation
        assert stays.next_dealer(dealer, sides, outcome) == dealer, region.id
        assert stays.next_dealer(dealer, sides, HandOutcome((other,), discarder)) == \
            own.next_dealer(dealer, sides, HandOutcome((other,), discarder)), region.id
        without_dealer = HandOutcome((other, sides[3]), discarder)
        assert stays.next_dealer(dealer, sides, without_dealer) == own.next_dealer(dealer, sides, without_dealer)
    sichuan = get_region("sichuan")
    assert sichuan.resolve().rotation.next_dealer(0, ALL, HandOutcome((2, 0), 1)) == 1     # its own: 下庄
    assert sichuan.resolve({"yipao_dealer": "dealer_stays"}).rotation.next_dealer(0, ALL, HandOutcome((2, 0), 1)) == 0


def test_regions_with_one_winner_have_no_such_option():
    ids = {r.id for r in _multi_winner_regions()}
    from rulesets.regions import all_regions
    for region in all_regions():
        if region.id not in ids:
            assert "yipao_dealer" not in {o.key for o in region.options}, region.id
