"""宜昌 血流成河 (RULES.md §15): 四川's 缺门 and 七对; no values, so every win is 1 point."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

YICHANG = get_region("yichang").resolve()


def judge(tiles, win, discarder=None, winner=2):
    return evaluate_hand(YICHANG, Hand.parse(tiles), WinContext(winner=winner, discarder=discarder, win_tile=Tile.parse(win)))


def test_que_men_a_void_suit_wins():
    """「必须缺门可和」: 万 and 条 only is legal."""
    assert judge("123m456m789m234s55s", "5s", discarder=1).verdict.legal


def test_que_men_three_suits_do_not_win():
    """「核心是打缺门」: a complete hand with all three suits is not legal (a 花猪 at the end, 「三方牌」)."""
    result = judge("123m456m789p234s55s", "5s", discarder=1)
    assert result.verdict.complete and not result.verdict.legal


def test_seven_pairs_are_a_win():
    """四川's 七对 (RESEARCH.md §3.12), which 宜昌 plays (「采用四川地区流行的麻将血战到底的打法」)."""
    assert judge("1133m5577m2244s66s", "6s").verdict.legal


def test_every_win_is_paid_flat_and_sums_to_zero():
    """No values in the text: 1 point from the discarder, or from each other side on a self-draw."""
    assert judge("123m456m789m234s55s", "5s", discarder=1).settlement.payments == (0, -1, 1, 0)
    drawn = judge("123m456m789m234s55s", "5s").settlement.payments
    assert drawn == (-1, -1, 3, -1) and sum(drawn) == 0
