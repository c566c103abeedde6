"""南昌 (RULES.md §10): honour chows and 十三烂; the 精 count of RESEARCH.md §3.7 [P] (正精 2, 副精 1 a copy)."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

REGION = get_region("nanchang")
NANCHANG = REGION.resolve()
JING = (Tile.P3, Tile.P4)          # flipped 3p: 正精 3p, 副精 4p


def judge(tiles, win, melds=(), wilds=JING, options=None, discarder=2, **ctx):
    ruleset = REGION.resolve(options) if options else NANCHANG
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win), wilds=wilds, **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds, honour_chows=True), context)


def test_three_different_winds_or_dragons_are_a_chow():
    """「三张不重复的同类的字牌可以组成一副顺子」"""
    assert judge("123m789s55s123z567z", "7z", wilds=()).verdict.legal            # 东南西, 中发白
    assert judge("123m789s55s567z124z", "4z", wilds=()).verdict.legal            # 东南北
    mixed = judge("123m789s55s567z345z", "5z", wilds=())                          # 西北白: not 同类
    assert not mixed.verdict.complete


def test_an_honour_chow_may_be_declared():
    """A claimed honour chow (parsed with honour chows on) counts as a meld."""
    assert judge("789s55s567z123m", "3m", ["123z"], wilds=()).verdict.legal


def test_shisanlan():
    """「“十三烂”的新牌型」: 147m 258p 369s and five different honours."""
    result = judge("147m258p369s12345z", "5z", wilds=())
    assert result.verdict.legal and result.verdict.shape.shape.value == "shisanlan"
    assert not judge("147m258p368s12345z", "5z", wilds=()).verdict.complete


def test_win_is_1_and_jing_points_collected_from_everyone():
    """正精 2 and 副精 1 per copy (RESEARCH.md §3.7 [P]): 3p ×2 + 4p ×1 = 5 from each other side; the win 1."""
    result = judge("123m789s55s123z3p3p4p", "4p")
    assert result.verdict.legal
    items = {i.key: i.value for i in result.settlement.items}
    assert items == {"hu": 1, "zhengjing": 4, "fujing": 1}
    assert result.settlement.payments == (-5, 16, -6, -5)


def test_other_sides_jing_are_settled_too():
    """Every side collects its 精分 from each other side (house option `jing_settlement`)."""
    others = (("jing_by_side", ((0, 1, 0), (3, 0, 2))),)      # side 0: 2 points, side 3: 2 points
    result = judge("123m789s55s123z567z", "7z", extra=others)
    assert result.settlement.payments == (2 * 3 - 2, 1 - 2 - 2, -1 - 2 - 2, 2 * 3 - 2)
    winner_only = judge("123m789s55s123z567z", "7z", extra=others, options={"jing_settlement": "winner_only"})
    assert winner_only.settlement.payments == (0, 1, -1, 0)
