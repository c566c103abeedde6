"""广东 (RULES.md §6) and file 001's 鸡胡 (§7): 番 doubling, 爆和, 十三幺, 3番 minimums, 天/人/地和, 包, 买马."""

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

GUANGDONG = get_region("guangdong").resolve()
JIHU = get_region("guangdong_jihu").resolve()

JIHU_HAND = "123m456p789s234m55z"           # no 番: a 鸡胡
QINGYISE = "123m456m789m234m55m"
SHISANYAO = "19m19p19s12345677z"
DASIXI = "111z222z333z444z55m"


def judge(tiles, win, ruleset=JIHU, winner=1, dealer=0, discarder=None, melds=(), flipped=(), **ctx):
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win),
                         flipped=tuple(Tile.parse(t) for t in flipped), **ctx)
    result = evaluate_hand(ruleset, Hand.parse(tiles, melds), context)
    assert result.verdict.legal, result.verdict.failures
    assert sum(result.settlement.payments) == 0
    return result.settlement


# --- §6 -------------------------------------------------------------------------------------

def test_fan_doubles():
    """「番是2倍的意思」: each 番 doubles — 清一色 (7) is 2^7 = 128 times a 鸡胡 (0)."""
    jihu = judge(JIHU_HAND, "5z", ruleset=GUANGDONG, discarder=2).total
    qing = judge(QINGYISE, "5m", ruleset=GUANGDONG, discarder=2).total
    assert qing == 2 ** 7 * jihu


QINGPENG = "111m444m777m222m55m"            # 清一色 7 + 碰碰胡 3 = 10 番


def test_baohe_caps_the_fan():
    """「爆和（封顶），意思即为多少番为顶不再叠加番数进行计算」: 清一色 + 碰碰胡 (10 番) is worth the cap, 8 番 by default."""
    assert judge(QINGPENG, "5m", ruleset=GUANGDONG, discarder=2).total == 2 ** 8
    uncapped = get_region("guangdong").resolve({"baohe": "none"})
    assert judge(QINGPENG, "5m", ruleset=uncapped, discarder=2).total == 2 ** 10


@pytest.mark.parametrize("tiles, win, key", [(SHISANYAO, "7z", "shisanyao"), (DASIXI, "5m", "dasixi")])
def test_special_hands_break_the_cap_and_take_nothing_else(tiles, win, key):
    """「特殊牌除外比如十三幺，可突破爆和限制这些特殊牌型不再叠加其他番种」: 大四喜 is not also 杂色/碰碰胡."""
    for cap in ("6", "8", "none"):
        ruleset = get_region("guangdong").resolve({"baohe": cap})
        settlement = judge(tiles, win, ruleset=ruleset, discarder=2)
        assert settlement.total == 2 ** 13 and [i.key for i in settlement.items] == [key]


def test_seven_pairs_are_not_a_guangdong_hand():
    """Only the standard hand and 十三幺 are named: 七对 is not complete."""
    result = evaluate_hand(GUANGDONG, Hand.parse("1133m5577p2244s66z"), WinContext(win_tile=Tile.parse("6z")))
    assert not result.verdict.complete


# --- §7: stakes -----------------------------------------------------------------------------

def test_stakes_jihu_flower():
    """「1 2 3…第一个数是指花多少…第三个数是指最小的鸡胡是多少」: a 鸡胡 is 3, each flower 1 more."""
    assert judge(JIHU_HAND, "5z", discarder=2).payments == (0, 3, -3, 0)
    assert judge(JIHU_HAND + "12f", "5z", discarder=2).payments == (0, 5, -5, 0)
    assert judge(JIHU_HAND, "5z").payments == (-3, 9, -3, -3)


def test_stakes_kong():
    """「第二个数是共杠或者暗杠是多少」: every kong is 2, paid to its maker by each other side."""
    plain = judge(JIHU_HAND, "5z", discarder=2).payments
    kong = judge(JIHU_HAND, "5z", discarder=2, kongs_by_side=((3, 1, 0),)).payments
    assert [a - b for a, b in zip(kong, plain)] == [-2, -2, -2, 6]


def test_other_hands_are_multiples_of_the_jihu_stake():
    """「其他胡法就是按倍数计算」: with stakes 10-20-30 a 鸡胡 is 30, a 清一色 30 × 2^番."""
    big = get_region("guangdong_jihu").resolve({"stakes": "10-20-30"})
    assert judge(JIHU_HAND, "5z", ruleset=big, discarder=2).total == 30
    assert judge(QINGYISE, "5m", ruleset=big, discarder=2).total == 30 * 2 ** 7


# --- §7: minimums and 天/人/地和 -------------------------------------------------------------

@pytest.mark.parametrize("ctx, name", [
    (dict(kong_replacement=True), "杠上开花"),
    (dict(last_tile=True), "海底捞月"),
    (dict(discarder=2, robbed_kong=True), "抢杠"),
    (dict(discarder=2, extra=(("ron_winners", 3),)), "一炮三响"),
])
def test_three_fan_minimum(ctx, name):
    """「胡牌者不满3番牌型，按照3番满计算」: a 鸡胡 counts 3 番 (3 × 8 = 24)."""
    settlement = judge(JIHU_HAND, "5z", **ctx)
    assert settlement.total == 3 * 2 ** 3
    assert any(name in i.zh for i in settlement.items)


def test_three_fan_minimum_keeps_bigger_hands():
    """「大于3番的牌型，按照实际牌型计算」: a 清一色 on 杠上开花 keeps its 7 番."""
    assert judge(QINGYISE, "5m", kong_replacement=True).total == 3 * 2 ** 7


@pytest.mark.parametrize("winner, discarder, name", [(0, None, "天和"), (1, 0, "人和"), (1, None, "地和")])
def test_tian_ren_di_he_six_fan(winner, discarder, name):
    """「天和…人和…地和…按6番计算」."""
    settlement = judge(JIHU_HAND, "5z", winner=winner, discarder=discarder, first_turn=True)
    assert settlement.total == 3 * 2 ** 6
    assert any(i.zh == name for i in settlement.items)



def test_a_bigger_first_turn_hand_keeps_its_fan_unless_the_house_says_flat():
    """「按6番计算」: a 天和 清一色 counts its own 7 番 by default (first_turn_fan=at_least); flat: 6 番 whatever the hand."""
    flush = "123m456m789m234m55m"
    assert judge(flush, "5m", winner=0, first_turn=True).total == 3 * 2 ** 7
    flat = get_region("guangdong_jihu").resolve({"first_turn_fan": "flat"})
    settlement = judge(flush, "5m", winner=0, first_turn=True, ruleset=flat)
    assert settlement.total == 3 * 2 ** 6 and [i.zh for i in settlement.items if i.unit == "fan"] == ["天和"]
    assert judge(JIHU_HAND, "5z", winner=0, first_turn=True, ruleset=flat).total == 3 * 2 ** 6

# --- §7: 包 -----------------------------------------------------------------------------------

def test_qianggang_the_robbed_konger_pays_for_all_three():
    """「抢杠胡等同杠开，当自摸，被抢杠者（欲开杠者）包三家牌」."""
    settlement = judge(JIHU_HAND, "5z", discarder=2, robbed_kong=True)
    assert settlement.payments == (0, 72, -72, 0)        # 3 shares of 24 (3 番满)


def test_gangshang_kaihua_baogang():
    """「杠上开花包杠：开暗刻明杠补牌后胡牌，计自摸，点杠者包三家牌」."""
    settlement = judge(JIHU_HAND, "5z", kong_replacement=True, extra=(("kong_feeder", 3),))
    assert settlement.payments == (0, 72, 0, -72)


def test_shier_zhang_luodi_bao_zimo():
    """「十二张落地包自摸」: four melds shown and a self-drawn single wait; the side that made the twelve pays all."""
    melds = ["123m", "456p", "789s", "234m"]
    bao = judge("55z", "5z", melds=melds, extra=(("luodi_feeder", 2),))
    assert bao.payments == (0, 9, -9, 0)
    nobody = judge("55z", "5z", melds=melds)
    assert nobody.payments == (-3, 9, -3, -3)
    on_discard = judge("55z", "5z", melds=melds, discarder=3, extra=(("luodi_feeder", 2),))
    assert on_discard.payments == (0, 3, 0, -3)          # 包自摸 only on a self-draw


def test_dasanyuan_bao_zimo():
    """「大三元：玩家已碰出红中、白板、发财，任意2款．若有人打出余下一款者，那人则需承担包自模的责任」."""
    settlement = judge("123m55p", "5p", melds=["555z", "666z", "777z"], extra=(("big_hand_feeder", 0),))
    assert settlement.payments[0] == -settlement.payments[1] and settlement.payments[2] == settlement.payments[3] == 0


# --- §7: 买马 ---------------------------------------------------------------------------------

def test_horse_counted_from_the_dealer():
    """「庄家为1，逆时针算起，马的牌数是多少…算到哪家那哪家就是你买到的人」: with the dealer on side 0,
    a 2 picks side 1 (the winner here), so the winner's horse takes his win again; a 1, 5 or 9 picks the dealer."""
    plain = judge(JIHU_HAND, "5z").payments
    on_winner = judge(JIHU_HAND, "5z", flipped=("2m",)).payments
    assert on_winner == tuple(2 * p for p in plain)
    on_dealer = judge(JIHU_HAND, "5z", flipped=("5p",)).payments
    assert on_dealer == plain                             # the winner's horse on a payer: he pays himself


def test_horse_bought_by_another_side():
    """「买到的那家赢了，买马者就可以拿与赢家一样的数，相反你买的那家输了，他要出多少你就出多少」."""
    plain = judge(JIHU_HAND, "5z", discarder=2).payments               # (0, 3, -3, 0)
    wins = judge(JIHU_HAND, "5z", discarder=2, flipped=("6m",), extra=(("horse_buyers", (3,)),)).payments
    assert [a - b for a, b in zip(wins, plain)] == [0, 0, -3, 3]       # 6 → side 1 (winner): side 3 takes 3 from the discarder
    loses = judge(JIHU_HAND, "5z", discarder=2, flipped=("7s",), extra=(("horse_buyers", (3,)),)).payments
    assert [a - b for a, b in zip(loses, plain)] == [0, 3, 0, -3]      # 7 → side 2 (the discarder): side 3 pays as he does


def test_honour_horses():
    """RESEARCH.md §3.10: 东 the dealer; 南/中 下家; 西/发 对家; 北/白 上家."""
    plain = judge(JIHU_HAND, "5z").payments
    assert judge(JIHU_HAND, "5z", flipped=("7z",)).payments == tuple(2 * p for p in plain)   # 中 → side 1
    assert judge(JIHU_HAND, "5z", flipped=("1z",)).payments == plain                          # 东 → the dealer


def test_gangshang_kaihua_is_paid_by_the_side_named_as_the_kong_s_giver_at_the_table():
    """[001:27-29] 「杠上开花包杠…点杠者包三家牌」: at the table the 点杠者 is the giver the winner named
    when asked who gave his 明杠 (kong_giver); the scorer read only a fact the table never set."""
    from rulesets.hand import Hand, WinContext
    from rulesets.judging import evaluate_hand
    from rulesets.regions import get_region
    from rulesets.tiles import Tile
    ruleset = get_region("guangdong_jihu").resolve()
    hand = Hand.parse("234m456p789s33p", ["5555m"])

    def paid(kong_events):
        context = WinContext(winner=0, dealer=1, discarder=None, win_tile=Tile.parse("3p"), kong_replacement=True,
                             extra=(("kong_events", kong_events),))
        return evaluate_hand(ruleset, hand, context).settlement.payments
    fed = paid(((0, "ming", 2),))
    assert fed[2] == -fed[0] and fed[1] == fed[3] == 0                # 对家 gave the tile: he pays for all
    added = paid(((0, "zhuanwan", None),))
    assert added[1] == added[2] == added[3] < 0                       # a 补杠 has no giver: everyone pays
