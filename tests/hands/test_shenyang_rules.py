"""沈阳: the win requirements of RULES.md §32.2 and the 2^N 番 scoring of §32.4."""

from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

REGION = get_region("shenyang")
SHENYANG = REGION.resolve()

# One 碰 (555p), 1m and 9p for 幺九, three suits; the winning 5s sits between 4s and 6s (夹和).
OPEN_HAND = ("123m789p46s11s5s", ["555p"])


def judge(tiles, win, melds=(), options=None, winner=1, dealer=0, discarder=2, **ctx):
    ruleset = REGION.resolve(options) if options else SHENYANG
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def failures(result):
    return " ".join(result.verdict.failures)


# --- requirements ---------------------------------------------------------------------------

def test_must_open_by_pung_or_exposed_kong():
    """「在门清状态下不允许和牌，必须通过碰或杠（明杠）“开门”。」"""
    assert judge(OPEN_HAND[0], "5s", OPEN_HAND[1]).verdict.legal
    assert judge("123m789p46s11s5s", "5s", ["5555p"]).verdict.legal
    closed = judge("123m555p789p46s11s5s", "5s")
    assert closed.verdict.complete and not closed.verdict.legal and "kaimen" in failures(closed)


def test_a_chow_or_a_concealed_kong_does_not_open():
    """「必须通过碰或杠（明杠）“开门”」: a 吃 or a 暗杠 is not 开门."""
    chow = judge("555p789p46s11s5s", "5s", ["123m"])
    assert chow.verdict.complete and "kaimen" in failures(chow)
    concealed_kong = judge("123m789p46s11s5s", "5s", ["concealed:5555p"])
    assert concealed_kong.verdict.complete and "kaimen" in failures(concealed_kong)


def test_no_missing_suit():
    """「不允许缺门」: 万, 筒 and 条 must all be there."""
    two_suits = judge("123m789p46m11m5m", "5m", ["555p"])
    assert two_suits.verdict.complete and "sanmen" in failures(two_suits)


def test_needs_a_one_or_nine_honours_do_not_count():
    """「不允许缺“幺九”，可以缺字」: a suited 1 or 9 is needed; honours are not needed and do not replace it."""
    no_terminal = judge("234m678p46s22s5s", "5s", ["555p"])
    assert no_terminal.verdict.complete and "yaojiu" in failures(no_terminal)
    honour_pair = judge("234m46s22s5s", "5s", ["555p", "111z"])
    assert honour_pair.verdict.complete and "yaojiu" in failures(honour_pair)
    assert judge(*OPEN_HAND[:1], "5s", OPEN_HAND[1]).verdict.legal          # no honour at all: 「可以缺字」


def test_shoubayi_is_a_house_option():
    """「是否允许“手把一”（即只剩一张手牌）以玩家间的协商结果为准」"""
    melds = ["111m", "555p", "999s", "234p"]
    assert judge("5s5s", "5s", melds).verdict.legal
    forbidden = judge("5s5s", "5s", melds, options={"shoubayi": "forbidden"})
    assert forbidden.verdict.complete and "no_shoubayi" in failures(forbidden)
    assert judge(OPEN_HAND[0], "5s", OPEN_HAND[1], options={"shoubayi": "forbidden"}).verdict.legal


def test_unshown_liang_set_reading_b():
    """「④“亮牌”不算作“开门”，且未亮时不允许和牌。」 reading (b): 中发白 held one each, unshown, block the win."""
    held = "555z666z777z123m99p"
    assert "liang_first" not in failures(judge(held, "9p"))
    assert "liang_first" in failures(judge(held, "9p", options={"liang_unshown": "must_show"}))
    assert judge(OPEN_HAND[0], "5s", OPEN_HAND[1], options={"liang_unshown": "must_show"}).verdict.legal


# --- scoring --------------------------------------------------------------------------------

def test_jiahe_is_2_fan_so_4_points_from_the_discarder():
    """「和的牌为两张之间的牌…构成“夹和”，算2番」; 「有N番，分数就是2的N次方」."""
    result = judge(OPEN_HAND[0], "5s", OPEN_HAND[1])
    assert [i.key for i in result.settlement.items] == ["jiahe"]
    assert result.settlement.total == 4
    assert result.settlement.payments == (0, 4, -4, 0)


def test_bianhe_is_2_fan():
    """「手中牌为1、2饼…并和3饼…即构成“边和”，算2番」"""
    result = judge("123m789p12s11s3s", "3s", ["555p"])
    assert [i.key for i in result.settlement.items] == ["bianhe"] and result.settlement.total == 4


def test_xiaohe_is_1_fan():
    """「其他和牌方式称为“小和”，算1番」: a two-sided wait."""
    result = judge("123m789p45s11s6s", "6s", ["555p"])
    assert [i.key for i in result.settlement.items] == ["xiaohe"] and result.settlement.total == 2


def test_piao_is_3_fan():
    """「碰碰和在沈阳称为“飘”，算3番」"""
    result = judge("999s777p22z", "2z", ["555p", "111m"])
    assert [i.key for i in result.settlement.items] == ["piao"] and result.settlement.total == 8


def test_kongs():
    """「“中发白”明杠算2番，暗杠算4番；“东南西北”和其他牌的明杠算1番，暗杠算2番」"""
    ming = judge("123m789p45s11s6s", "6s", ["5555p"])
    assert ming.settlement.total == 2 ** (1 + 1)                       # 小和 + 明杠
    dragon_an = judge("123m45s11s6s", "6s", ["555p", "concealed:7777z"])
    assert [i.value for i in dragon_an.settlement.items if i.key.startswith("gang")] == [4]
    dragon_ming = judge("123m45s11s6s", "6s", ["555p", "7777z"])
    assert [i.value for i in dragon_ming.settlement.items if i.key.startswith("gang")] == [2]
    wind_an = judge("123m45s11s6s", "6s", ["555p", "concealed:1111z"])
    assert [i.value for i in wind_an.settlement.items if i.key.startswith("gang")] == [2]
    assert dragon_an.settlement.total == 2 ** (1 + 4)


def test_pung_of_a_dragon_is_1_fan():
    """「一般情况下，碰“中发白”算1番」"""
    result = judge("123m789p45s11s6s", "6s", ["777z"])
    assert result.verdict.legal and result.settlement.total == 2 ** (1 + 1)


def test_liang_pai_2_fan_and_honour_pung_after_it_2_fan():
    """「“亮牌”为2番」; 「③亮出后，若有人碰字牌（东南西北中发白）则该碰算作2番。」"""
    result = judge("123m789p5s5s", "5s", ["special:567z", "111z"])
    assert result.verdict.complete
    keys = {i.key: i.value for i in result.settlement.items}
    assert keys["liang_5z"] == 2 and keys["peng_1z"] == 2 and keys["xiaohe"] == 1
    assert result.settlement.total == 2 ** 5


def test_men_san_jia_and_bi_men_pao():
    """「“闷三家”…即和牌时只有和牌者“开门”，算1番。计算“闷三家”时加算“闭门炮”。」"""
    chow = Meld(MeldKind.CHOW, (Tile.M2, Tile.M3, Tile.M4))
    pung = Meld(MeldKind.PUNG, (Tile.P7,) * 3)
    closed_others = ((0, ()), (2, ()), (3, (chow,)))
    result = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], exposed_by_side=closed_others)
    keys = [i.key for i in result.settlement.items]
    assert "mensanjia" in keys and "bimenpao" in keys and result.settlement.total == 2 ** 4
    self_drawn = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], discarder=None, exposed_by_side=closed_others)
    assert "mensanjia" in [i.key for i in self_drawn.settlement.items]
    assert "bimenpao" not in [i.key for i in self_drawn.settlement.items]
    someone_open = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], exposed_by_side=((0, ()), (2, ()), (3, (pung,))))
    assert "mensanjia" not in [i.key for i in someone_open.settlement.items]
    unknown = judge(OPEN_HAND[0], "5s", OPEN_HAND[1])
    assert "mensanjia" not in [i.key for i in unknown.settlement.items]


def test_pung_also_in_a_chow_counts_as_a_kong():
    """「已碰的对子若在之后的对局中吃或手牌的顺子中也有已碰的这张牌，算1杠（即加算1番）」"""
    result = judge("123m11s45s6s", "6s", ["555p", "456p"])
    assert "peng_chi_5p" in [i.key for i in result.settlement.items]
    concealed_chow = judge("456p11s45s6s", "6s", ["555p", "123m"])
    assert "peng_chi_5p" in [i.key for i in concealed_chow.settlement.items]


def test_kong_flower_last_tile_and_tears():
    """「杠上开花、海底捞月、杠上流泪（即过杠时，打出的牌点炮）算1番」"""
    base = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], discarder=None).settlement.total
    assert judge(OPEN_HAND[0], "5s", OPEN_HAND[1], discarder=None, kong_replacement=True).settlement.total == base * 2
    assert judge(OPEN_HAND[0], "5s", OPEN_HAND[1], discarder=None, last_tile=True).settlement.total == base * 2
    tears = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], extra=(("gang_shang_liulei", True),))
    assert tears.settlement.total == base * 2


def test_shoubayi_adds_1_fan():
    """「“手把一”，加算1番，和牌时生效。」"""
    result = judge("5s5s", "5s", ["111m", "555p", "999s", "234p"])
    assert {"shoubayi", "xiaohe"} <= {i.key for i in result.settlement.items}


def test_self_draw_everyone_pays_and_payer_option():
    """Who pays is not stated (§32.5): self-draw everyone; a discard the discarder alone, or all by option."""
    self_drawn = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], discarder=None)
    assert self_drawn.settlement.payments == (-4, 12, -4, -4)
    all_pay = judge(OPEN_HAND[0], "5s", OPEN_HAND[1], options={"payer": "all_pay"})
    assert all_pay.settlement.payments == (-4, 12, -4, -4)
    for result in (self_drawn, all_pay):
        assert sum(result.settlement.payments) == 0


def test_cap_is_optional():
    """「是否设置封顶值由对局的玩家们决定」"""
    big = ("999s777p22z", ["555p", "concealed:1111m"])         # 飘 3 + 暗杠 2 = 5番 = 32
    assert judge(big[0], "2z", big[1]).settlement.total == 32
    assert judge(big[0], "2z", big[1], options={"cap": "16"}).settlement.total == 16
