"""四川 血战到底: 缺一门 (RULES.md §14), 七对, and the scoring rules 「一杠为一番」 and 「点炮的一个人负责」."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

SICHUAN = get_region("sichuan").resolve()


def judge(tiles, win, melds=(), ruleset=SICHUAN, winner=1, dealer=0, discarder=None, **ctx):
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


TWO_SUITS = "123m456m789m234p55p"        # 万 and 筒 only
THREE_SUITS = "123m456m789s234p55p"      # all three suits


def test_que_yi_men_a_hand_with_a_void_suit_wins():
    """「必须缺门可和」: a hand lacking 条 is legal."""
    result = judge(TWO_SUITS, "5p", discarder=2)
    assert result.verdict.legal


def test_que_yi_men_a_hand_with_three_suits_does_not():
    """「必须缺一门」: a complete hand holding 万, 筒 and 条 is not legal."""
    result = judge(THREE_SUITS, "5p", discarder=2)
    assert result.verdict.complete and not result.verdict.legal
    assert any("缺一门" in f for f in result.verdict.failures)


def test_que_yi_men_follows_the_declared_void_suit():
    """定缺: having declared 筒 void, a hand holding 筒 is not legal even though 条 is missing."""
    assert not judge(TWO_SUITS, "5p", discarder=2, extra=(("void_suit", "p"),)).verdict.legal
    assert judge(TWO_SUITS, "5p", discarder=2, extra=(("void_suit", "s"),)).verdict.legal


def test_nanchong_option_drops_the_void_suit():
    """「必须缺门可和（部分地区除外，如南充）」: with que_men=not_required three suits may win."""
    nanchong = get_region("sichuan").resolve({"que_men": "not_required"})
    assert judge(THREE_SUITS, "5p", discarder=2, ruleset=nanchong).verdict.legal


def test_seven_pairs_win():
    """七对 is a hand of RESEARCH.md §3.12's table; four of a kind counts as two pairs (龙七对)."""
    assert judge("1122m3344m5566p7p", "7p", winner=1, dealer=0).verdict.complete is False   # 13 tiles: a wait
    result = judge("1122m3344m5566p77p", "7p", discarder=3)
    assert result.verdict.legal
    assert judge("1111m3344m5566p77p", "7p", discarder=3).verdict.legal


def test_the_discarder_alone_pays():
    """「点炮时点炮的一个人负责」."""
    payments = judge(TWO_SUITS, "5p", discarder=2).settlement.payments
    assert payments[2] < 0 and payments[0] == payments[3] == 0
    assert sum(payments) == 0


def test_each_kong_doubles_the_hand():
    """「和牌时有杠加番一杠为一番」: one kong doubles what the payer pays, two kongs double it again."""
    plain = judge("456m789m234p55p", "5p", melds=["111m"], discarder=2).settlement.total
    one = judge("456m789m234p55p", "5p", melds=["1111m"], discarder=2).settlement.total
    two = judge("456m234p55p", "5p", melds=["1111m", "concealed:7777m"], discarder=2).settlement.total
    assert one == 2 * plain and two == 4 * plain


def test_self_draw_is_paid_by_everyone_still_playing():
    """血战到底: on a self-draw the sides still in the hand pay; a side that has won already does not."""
    everyone = judge(TWO_SUITS, "5p").settlement.payments
    assert everyone[0] == everyone[2] == everyone[3] < 0 and sum(everyone) == 0
    after_a_win = judge(TWO_SUITS, "5p", extra=(("finished", (3,)),)).settlement.payments
    assert after_a_win[3] == 0 and after_a_win[0] == after_a_win[2] < 0 and sum(after_a_win) == 0


def test_research_table_orders_the_hands():
    """RESEARCH.md §3.12: 基本胡 < 碰碰 < 清一色 = 七对 < 金钩钓 < 清碰 < 清七对 < 清金钩钓."""
    def value(tiles, win, melds=()):
        return judge(tiles, win, melds, discarder=2).settlement.total

    jiben = value(TWO_SUITS, "5p")
    pengpeng = value("111m444m777p888p55p", "5p")
    qingyise = value("123m456m789m234m55m", "5m")
    qidui = value("1133m5577m2244p66p", "6p")
    jingou = value("55p", "5p", ["111m", "444m", "777p", "888p"])
    qingpeng = value("111m444m777m888m55m", "5m")
    qing_qidui = value("1133m5577m224466m", "6m")
    qing_jingou = value("55m", "5m", ["111m", "444m", "777m", "888m"])
    assert jiben < pengpeng < qingyise == qidui < jingou < qingpeng < qing_qidui < qing_jingou
    assert qing_jingou == 8 * jiben


def test_gen_option_counts_a_four_of_a_kind_without_a_kong():
    """根 (RESEARCH.md §3.12): with gen=four_of_a_kind, 龙七对's four 1m add a 番; by default only kongs do."""
    dragon = ("1111m3344m5566p77p", "7p")
    default = judge(*dragon, discarder=2).settlement.total
    gen = judge(*dragon, discarder=2, ruleset=get_region("sichuan").resolve({"gen": "four_of_a_kind"})).settlement.total
    assert gen == 2 * default
