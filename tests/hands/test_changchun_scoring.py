"""长春: the worked examples of RULES.md §1.8 and the win requirements of §1.6."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

CHANGCHUN = get_region("changchun").resolve()


def settle(tiles, win, winner=1, dealer=0, discarder=None, melds=(), ruleset=CHANGCHUN, **ctx):
    hand = Hand.parse(tiles, melds)
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), **ctx)
    return evaluate_hand(ruleset, hand, context)


# 门清 + 夹 (5s in 4_6s) + 自摸 + 宝
JIA_HAND = "111m234p789s456s99p"


def test_xian_menqing_jia_zimo_bao_is_16_dealer_32():
    """「如闲家胡牌为门清、夹、自摸、宝，其他玩家输牌番型累计乘16，庄家输番数为32」"""
    result = settle(JIA_HAND, "5s", winner=1, dealer=0, bao_hit=True, ready_declared=True)
    assert result.verdict.legal
    assert result.settlement.payments == (-32, 64, -16, -16)


def test_zhuang_menqing_jia_zimo_bao_is_32():
    """「如庄家胡牌门清、夹、自摸、宝，其他闲家输牌番型累计乘32」"""
    result = settle(JIA_HAND, "5s", winner=0, dealer=0, bao_hit=True, ready_declared=True)
    assert result.settlement.payments == (96, -32, -32, -32)


def test_xian_menqing_piao_zimo_bao_is_32_dealer_64():
    """「如闲家胡牌为门清、飘、自摸、宝，其他玩家输牌番型累计乘32，庄家输番数为64」"""
    result = settle("111m222p333s999p77z", "9p", winner=2, dealer=0, bao_hit=True, ready_declared=True)
    assert result.verdict.legal
    assert result.settlement.payments == (-64, -32, 128, -32)


def test_zhuang_menqing_piao_zimo_bao_is_64():
    """「如庄家胡牌门清、飘、自摸、宝，其他闲家输牌番型累计乘64」"""
    result = settle("111m222p333s999p77z", "9p", winner=3, dealer=3, bao_hit=True, ready_declared=True)
    assert result.settlement.payments == (-64, -64, -64, 192)


def test_payment_list_one_items_2_to_5():
    """「2.自摸小胡2元,庄4元总计8元 … 5.庄站立自摸夹胡16元,总计48元」"""
    open_hand = ("234p789s456s99p", "5s", ["111m"])
    xiao = settle("234p789s456s99p", "6s", melds=["111m"])                 # open wait 45s, not 夹
    assert xiao.verdict.legal
    assert sum(-p for p in xiao.settlement.payments if p < 0) == 8          # 自摸小胡: 2 + 2 + 庄 4
    jia = settle(*open_hand[:2], melds=open_hand[2])
    assert sum(-p for p in jia.settlement.payments if p < 0) == 16          # 自摸夹胡: 4 + 4 + 8
    zhuang_jia = settle(*open_hand[:2], melds=open_hand[2], winner=0)
    assert sum(-p for p in zhuang_jia.settlement.payments if p < 0) == 24   # 庄自摸夹胡 8 × 3
    zhanli = settle(JIA_HAND, "5s", winner=0)
    assert sum(-p for p in zhanli.settlement.payments if p < 0) == 48       # 庄站立自摸夹胡 16 × 3


def test_discard_payment_readings():
    """S1: 「只有放炮家输分」 vs 「点炮者不需要承包其它两家输的点数」."""
    everyone = settle("234p789s456s99p", "5s", melds=["111m"], discarder=3)
    assert everyone.settlement.payments == (-4, 10, -2, -4)     # 夹 ×2; dealer ×2; discarder ×2
    alone = settle("234p789s456s99p", "5s", melds=["111m"], discarder=3,
                   ruleset=get_region("changchun").resolve({"discard_payment": "discarder_only"}))
    assert alone.settlement.payments == (0, 4, 0, -4)


def test_kongs_are_paid_separately_and_at_a_draw():
    """「杠：又称蛋，单独算，不随庄走…暗杠番数是普通杠的2倍」; 荒庄 「但有杠者可以赢得相应点数」."""
    from rulesets.scoring import DrawContext
    draw = CHANGCHUN.scoring.settle_draw(CHANGCHUN, DrawContext(0, kongs_by_side=((2, 1, 1),)))
    assert draw.payments == (-3, -3, 9, -3)


def test_must_have_three_suits():
    """「必须三色全，即手牌中必须条，饼，万三门花色都要有」"""
    result = settle("111m234m789s456s99s", "5s")
    assert result.verdict.complete and not result.verdict.legal
    assert any("三色" in f for f in result.verdict.failures)


def test_must_have_a_terminal_unless_honours():
    """「不能缺1，9，当手牌中有风、字牌和中发白的时候可免1、9」"""
    assert not settle("222m234p678s456s88p", "5s").verdict.legal
    assert settle("222m234p678s456s11z", "5s").verdict.legal


def test_must_have_a_pung_unless_dragons_or_kongs():
    """「最少有一叉…当手牌有中发白和各种杠牌…的时可免叉」"""
    assert not settle("123m234p789s456s99p", "5s").verdict.legal
    assert settle("123m234p789s456s55z", "5s").verdict.legal
    assert settle("123m234p789s456s99p", "5s", melds=[]).verdict.legal is False


def test_no_shoubayi_except_piaohu():
    """「除了飘胡之外禁止手把1…最少也要4张」"""
    one_left = settle("9p9p", "9p", melds=["123m", "234p", "789s", "456s"])
    assert one_left.verdict.complete and not one_left.verdict.legal
    piao = settle("9p9p", "9p", melds=["111m", "222p", "333s", "777z"])
    assert piao.verdict.legal


def test_seven_pairs_is_not_a_win():
    """「2、无其它胡牌方式。例如：七对子、清一色、海底捞月等等」"""
    assert not settle("1199m1199p1199s1z", "1z").verdict.complete


def test_jiahu_is_a_wait_on_one_tile_only():
    """「夹胡：单张、单贴胡边张、砍张和单调都算夹胡，同独听」: a 单吊 or 坎张 the hand alone waited on is 夹胡; a 单吊
    that another tile completes too (1234s waits on 1s and on 4s) or a 双碰 is no 独听 (before: ×2 all the same)."""
    def items(tiles, win):
        return {i.key for i in settle(tiles, win, ready_declared=True).settlement.items}
    assert "jiahu" in items("111m456p789s68m99s7m", "7m")                 # 坎张, waits on 7m only
    assert "jiahu" in items("111m456p789s1299s3s", "3s")                  # 边张
    assert "jiahu" in items("111m456p789s123s5p5p", "5p")                 # 单吊
    assert "jiahu" not in items("111m456p789s1234s4s", "4s")              # 单吊 of 1234s: 1s would do too
    assert "jiahu" not in items("111m456p789s1234s1s", "1s")
    assert "jiahu" not in items("111m456p789s1199s1s", "1s")              # 双碰: 9s too


def test_jiahu_on_a_drawn_bao_reads_the_hand_it_left():
    """摸宝: the drawn 宝 stands for the tile waited for; the hand without it waited on one tile (夹胡) or on two."""
    def items(tiles, win):
        result = settle(tiles, win, bao_hit=True, ready_declared=True, wilds=(Tile.parse(win),))
        assert result.verdict.legal, result.verdict
        return {i.key for i in result.settlement.items}
    assert "jiahu" in items("111m456p789s68m99s3z", "3z")                 # 68m: the 宝 is the 7m
    assert "jiahu" not in items("111m456p789s1234s3z", "3z")              # 1234s: 1s or 4s
