"""河北: 只能自摸 (RULES.md §17) and the 番 「混儿吊⑵ 没混儿⑵ 捉伍儿⑶ 龙⑷ 杠开⑵ 本混儿龙(×2)」, added up."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

REGION = get_region("hebei")
HEBEI = REGION.resolve()
HUN = (Tile.S5, Tile.S6)          # flipped 5s: the other 5s and all 6s are 混儿 (reading (a))


def settle(tiles, win, melds=(), wilds=HUN, options=None, discarder=None, **ctx):
    ruleset = REGION.resolve(options) if options else HEBEI
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win), wilds=wilds, **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def keys(result):
    return [i.key for i in result.settlement.items]


def test_only_self_drawn_wins():
    """「河北麻将规则，可碰不可吃，只能自摸，有混儿」"""
    on_discard = settle("123m456p789p11m23s4s", "4s", discarder=2)
    assert on_discard.verdict.complete and not on_discard.verdict.legal
    assert "zimo" in " ".join(on_discard.verdict.failures)
    assert settle("123m456p789p11m23s4s", "4s").verdict.legal


def test_mei_hun_2():
    """「”没混儿“⑵」: no 混儿 in the hand."""
    result = settle("123m456p789p11m23s4s", "4s")
    assert keys(result) == ["meihun"] and result.settlement.total == 2
    assert result.settlement.payments == (-2, 6, -2, -2)


def test_a_plain_win_with_a_hun_is_1():
    """No item: the plain win is 1 (the 混儿 stands for 3s in 2-3-4)."""
    result = settle("123m456p789p11m2s5s4s", "4s")
    assert result.verdict.legal and keys(result) == [] and result.settlement.total == 1


def test_hun_diao_2():
    """「有“混儿吊”⑵」: the winning tile pairs with a 混儿."""
    result = settle("123m456p789p123s5s9m", "9m")
    assert keys(result) == ["hundiao"] and result.settlement.total == 2


def test_zhuo_wu_3_added_to_mei_hun():
    """「“捉伍儿”⑶」: the 5 caught between 4 and 6; 没混儿 2 + 捉伍儿 3 = 5 (added, 「叠加」)."""
    result = settle("46m123p789p789s11s5m", "5m")
    assert keys(result) == ["meihun", "zhuowu"] and result.settlement.total == 5


def test_zhuo_wu_wan_only_option():
    """House option: 捉伍儿 only on 五万 (天津 捉五魁)."""
    pin = ("46p123m789m789s11s5p", "5p")
    assert settle(*pin).settlement.total == 5
    assert settle(*pin, options={"zhuowu": "wan"}).settlement.total == 2


def test_long_4():
    """「“龙“⑷」: 123 456 789 of one suit; with 没混儿 2 → 6."""
    result = settle("123m456m789m11p999p", "9p")
    assert keys(result) == ["meihun", "long"] and result.settlement.total == 6


def test_long_with_a_hun_standing_for_another_tile_is_a_plain_long():
    """A 混儿 (6s) standing for 5m in the 龙: 龙 4, no 本混儿龙."""
    result = settle("123m4m6s6m789m11p999p", "9p")
    assert keys(result) == ["long"] and result.settlement.total == 4


def test_ben_hun_long_doubles():
    """「”本混儿龙"(×2）」: the 混儿 (5m, 6m) play their own face in the 龙: 龙 4 × 2 = 8."""
    result = settle("123m456m789m11p999p", "9p", wilds=(Tile.M5, Tile.M6))
    assert keys(result) == ["long", "benhunlong"] and result.settlement.total == 8


def test_gang_kai_2():
    """「”杠开“⑵」"""
    result = settle("123m456p789p11m23s4s", "4s", kong_replacement=True)
    assert keys(result) == ["meihun", "gangkai"] and result.settlement.total == 4


def test_base_points_multiply():
    """「基点为1、2、3」 read as the stake: 没混儿 2 × 基点 3 = 6 from each other player."""
    result = settle("123m456p789p11m23s4s", "4s", options={"base_points": "3"})
    assert result.settlement.total == 6 and result.settlement.payments == (-6, 18, -6, -6)
