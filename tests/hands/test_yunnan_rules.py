"""云南 (RULES.md §29): 平和 only by self-draw, no 弃先胡后, the payers, 明杠 2分, 流局查大叫 / 杠钱不算."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring import DrawContext
from rulesets.tiles import Tile

YUNNAN = get_region("yunnan").resolve()

PINGHU = "123m456p789s234m55z"          # no 大牌型
PENGPENG = "111m444p777s222m55z"        # 碰碰胡, a 大牌型


def judge(tiles, win, ruleset=YUNNAN, winner=1, discarder=None, melds=(), **ctx):
    context = WinContext(winner=winner, dealer=0, discarder=discarder, win_tile=Tile.parse(win), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def test_pinghu_must_be_self_drawn():
    """「平和必须自摸不能点炮」."""
    on_discard = judge(PINGHU, "5z", discarder=2)
    assert on_discard.verdict.complete and not on_discard.verdict.legal
    assert any("平和" in f for f in on_discard.verdict.failures)
    assert judge(PINGHU, "5z").verdict.legal


def test_big_hands_may_be_won_on_a_discard():
    """「大牌型可以点炮也可以自摸」: 碰碰胡 and 清一色 win on a discard."""
    assert judge(PENGPENG, "5z", discarder=2).verdict.legal
    assert judge("123m456m789m234m55m", "5m", discarder=2).verdict.legal


def test_all_chows_reading_of_pinghu():
    """pinghu_reading=all_chows: a hand with a 刻 is no 平和 and wins on a discard; four chows do not."""
    chows = get_region("yunnan").resolve({"pinghu_reading": "all_chows"})
    assert judge("111m456p789s234m55z", "5z", discarder=2, ruleset=chows).verdict.legal
    assert not judge(PINGHU, "5z", discarder=2, ruleset=chows).verdict.legal


def test_no_win_after_passing_one():
    """「在自己未摸下一张牌的一圈内，不能弃先胡后」: having passed a win, no discard win before the next draw."""
    passed = (("passed_since_draw", True),)
    assert not judge(PENGPENG, "5z", discarder=2, extra=passed).verdict.legal
    assert judge(PENGPENG, "5z", extra=passed).verdict.legal          # his own draw is allowed


def test_self_draw_three_pay_discard_the_discarder_alone():
    """「和牌时若为自摸，按牌型则三家输分；若为点炮，按牌型则点炮者输分」."""
    drawn = judge(PINGHU, "5z").settlement.payments
    assert drawn[0] == drawn[2] == drawn[3] < 0 and sum(drawn) == 0
    discard = judge(PENGPENG, "5z", discarder=3).settlement.payments
    assert discard[0] == discard[2] == 0 and discard[3] < 0 and sum(discard) == 0


def test_minggang_the_discarder_pays_2():
    """「明杠…打出一张牌的闲家给玩家2分」: side 0 fed side 2's kong; he pays 2 more, nobody else pays for it."""
    without = judge(PENGPENG, "5z", discarder=3).settlement.payments
    kong = judge(PENGPENG, "5z", discarder=3, extra=(("kong_events", ((2, "ming", 0),)),)).settlement.payments
    assert [a - b for a, b in zip(kong, without)] == [-2, 0, 2, 0]


def test_angang_and_zhuanwan_are_paid_by_each_other_side():
    """暗杠/转弯杠 values are not stated: by option from each other side (defaults 2 and 1)."""
    without = judge(PENGPENG, "5z", discarder=3).settlement.payments
    an = judge(PENGPENG, "5z", discarder=3, extra=(("kong_events", ((2, "an", None),)),)).settlement.payments
    assert [a - b for a, b in zip(an, without)] == [-2, -2, 6, -2]
    zw = judge(PENGPENG, "5z", discarder=3, extra=(("kong_events", ((2, "zhuanwan", None),)),)).settlement.payments
    assert [a - b for a, b in zip(zw, without)] == [-1, -1, 3, -1]


def test_draw_cha_da_jiao_and_no_kong_money():
    """「流局查大叫，杠钱不算」: the sides not ready pay the ready ones; kongs are not paid."""
    draw = YUNNAN.scoring.settle_draw(YUNNAN, DrawContext(0, ready=(1,), kongs_by_side=((2, 1, 1),)))
    assert draw.payments == (-1, 3, -1, -1)
    nobody = YUNNAN.scoring.settle_draw(YUNNAN, DrawContext(0, kongs_by_side=((2, 1, 1),)))
    assert nobody.payments == (0, 0, 0, 0)


def test_the_end_of_the_wall_is_a_house_option_drawn_last_by_default():
    """§29.3 (c): what becomes of the shown 尾牌 at the end of the wall is not stated.  By default
    (weipai_wall_end=drawn_last) they are drawn last: a kong with no face-down tail tile left takes one,
    and with no dead wall the hand is played to the last tile.  Kept, the hand ends when only the shown
    tiles and those under them are left (4 for the tops of the last two stacks, 2 for the last stack)."""
    region = get_region("yunnan")
    option = region.option("weipai_wall_end")
    assert option.default == "drawn_last" and option.values == ("drawn_last", "kept")
    assert option.source.kind == "open" and "§29.3" in option.source.ref
    assert option.label_zh == "尾牌到底" and option.value_label("kept") == "尾牌不摸"
    (weipai,) = YUNNAN.indicators
    assert weipai.replaces_at_wall_end and YUNNAN.reserve.reserved_tiles(0, 0) == 0
    kept = region.resolve({"weipai_wall_end": "kept"})
    assert not kept.indicators[0].replaces_at_wall_end
    assert [kept.reserve.reserved_tiles(k, t) for k, t in ((0, 0), (2, 3))] == [4, 4]
    last_stack = region.resolve({"weipai_wall_end": "kept", "weipai_reading": "both_of_last_stack"})
    assert last_stack.reserve.reserved_tiles(0, 0) == 2
    seven = region.resolve({"weipai_wall_end": "kept", "dead_wall": "7_stacks"})
    assert seven.reserve == region.resolve({"dead_wall": "7_stacks"}).reserve      # the 14 tiles hold them already
