"""钻牌 block (RULES.md §26): 杠牌 in hand block a win; 红中 plays the 钻's face; 「几个发算几个翻的钱」."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.zuanpai import gang_kinds
from rulesets.tiles import Tile

REGION = get_region("zuanpai")
ZUAN = (Tile.M5,)                 # flipped 4m: the 钻 is 5m


def judge(tiles, win, melds=(), wilds=ZUAN, options=None, discarder=2, **ctx):
    ruleset = REGION.resolve(options)
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win), wilds=wilds, **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def blocked(result):
    return result.verdict.complete and "no_gang_pai" in " ".join(result.verdict.failures)


def test_white_and_green_in_hand_block_a_win():
    """「杠牌：如果不是中发白的钻牌时候，发财和白板是杠牌，只能用来杠，手上有，就不能和牌」"""
    assert judge("123m456p789s55s111z", "1z").verdict.legal
    assert blocked(judge("123m456p789s55s555z", "5z"))
    assert blocked(judge("123m456p789s55s666z", "6z"))


def test_a_declared_kong_of_a_gang_tile_is_fine():
    """「只能用来杠」: a kong of 白板 is what it is for."""
    assert judge("123m456p789s55s", "5s", ["5555z"]).verdict.legal



def test_no_pung_of_a_gang_tile_or_of_the_zuan_and_no_meld_of_the_shown_green():
    """「发财和白板是杠牌，只能用来杠」: a 碰 of 白板 is no use the text allows; 「钻不可以碰」; 「发：必须亮出了」: a shown 发
    stands in no meld (before: all three were judged wins)."""
    def refused(melds, wilds=ZUAN, options=None):
        result = judge("123p456p789s55s", "5s", melds, wilds=wilds, options=options)
        return result.verdict.complete and "gang_pai_melds" in " ".join(result.verdict.failures)
    assert refused(["555z"])                                    # 碰 of 白板
    assert refused(["555m"])                                    # 碰 of the 钻 (5m)
    assert refused(["666z"]) and refused(["6666z"])             # the shown 发
    assert refused(["777z"], wilds=(Tile.GREEN,))               # 发 is the 钻: 红中 is a 杠牌 (and the shown one)
    assert not refused(["5555z"]) and not refused(["111z"])     # a kong of 白板; a 碰 of 东
    assert not refused(["666z"], options={"da_que": "on"})      # 打缺: 发 is a wind-like tile

def test_red_dragon_plays_the_zuan_face():
    """「红中：可以代替钻牌本身的那张牌」; 「比如7万为钻牌，红中在这一盘就可以当7万用」."""
    result = judge("123m456p789s55s777z", "7z")
    assert result.verdict.legal
    assert all(t == Tile.M5 for g in result.verdict.shape.groups if Tile.RED in g.sources for t in g.tiles)


def test_dragon_zuan_makes_the_other_two_gang_tiles():
    """「如果是中发白的钻牌，则其余两个就成了杠牌。比如发财的钻牌，红中和白板就可以用来杠牌。」"""
    assert gang_kinds((Tile.GREEN,)) == frozenset({Tile.RED, Tile.WHITE})
    assert blocked(judge("123m456p789s55s555z", "5z", wilds=(Tile.GREEN,)))
    assert blocked(judge("123m456p789s55s777z", "7z", wilds=(Tile.GREEN,)))
    assert judge("123m456p789s55s111z", "1z", wilds=(Tile.GREEN,)).verdict.legal


def test_da_que_green_counts_as_a_wind_and_a_suit_is_void():
    """「当打缺时发可以不必亮出来，算风牌」: 发 no longer blocks, 白板 still does; 打缺 = a void suit."""
    que = {"da_que": "on"}
    assert judge("123m456m789p55p666z", "6z", options=que).verdict.legal
    assert blocked(judge("123m456m789p55p555z", "5z", options=que))
    three_suits = judge("123m456p789s55s666z", "6z", options=que)
    assert three_suits.verdict.complete and "da_que" in " ".join(three_suits.verdict.failures)


def test_each_shown_green_is_one_fan_of_money():
    """「几个发算几个翻的钱」: two shown 发 → 2^2 = 4, from the discarder; or 1 + 2 = 3 by option."""
    hand = ("123m456p789s55s111z", "1z")
    result = judge(*hand, extra=(("fa_shown", 2),))
    assert result.settlement.total == 4 and result.settlement.payments == (0, 4, -4, 0)
    added = judge(*hand, options={"fa_value": "add"}, extra=(("fa_shown", 2),))
    assert added.settlement.total == 3
    self_drawn = judge(*hand, discarder=None, extra=(("fa_shown", 1),))
    assert self_drawn.settlement.payments == (-2, 6, -2, -2)
    assert judge(*hand).settlement.total == 1


def test_da_que_green_is_not_money():
    """「当打缺时发可以不必亮出来，算风牌，但不算钱」"""
    result = judge("123m456m789p55p111z", "1z", options={"da_que": "on"}, extra=(("fa_shown", 2),))
    assert result.settlement.total == 1
