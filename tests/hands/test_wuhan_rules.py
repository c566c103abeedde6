"""武汉 红中赖子杠: the win requirements of RULES.md §20 (+ RESEARCH.md §3.8) and 大胡/屁胡 scoring."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

REGION = get_region("wuhan")
WUHAN = REGION.resolve()
LAIZI = (Tile.WEST,)        # 西风 is the 赖子 in these hands (皮 = 南)

PIHU = ("456m789p234s55s", ["123m"])          # opened by a 吃, 2/5/8 pair, no 赖子: a 硬 屁胡


def judge(tiles, win, melds=(), options=None, discarder=2, winner=1, **ctx):
    ruleset = REGION.resolve(options) if options else WUHAN
    context = WinContext(winner=winner, dealer=0, discarder=discarder, win_tile=Tile.parse(win), wilds=LAIZI, **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def failed(result):
    return " ".join(result.verdict.failures)


# --- requirements ---------------------------------------------------------------------------

def test_must_open():
    """「武汉的红中赖子杠讲究开口（即碰，吃，杠），不开口不能胡」"""
    assert judge(PIHU[0], "4s", PIHU[1]).verdict.legal
    closed = judge("123m456m789p234s55s", "4s")
    assert closed.verdict.complete and "(kaikou)" in failed(closed)
    concealed_kong = judge("456m789p234s55s", "4s", ["concealed:1111m"])
    assert "(kaikou)" in failed(concealed_kong)
    assert judge("456m789p234s55s", "4s", ["1111m"]).verdict.legal


def test_no_red_dragon_in_hand():
    """「红中留在手上不能胡」 — even in a 大胡."""
    red = judge("456m789p777z55s", "5s", ["123m"])
    assert red.verdict.complete and "(no_hongzhong)" in failed(red)
    red_pengpeng = judge("444m777p777z55s", "5s", ["111m"])
    assert "(no_hongzhong)" in failed(red_pengpeng)


def test_pihu_with_two_laizi_cannot_win():
    """「两个癞子胡屁胡不能胡」: one 赖子 standing in is fine, two are not."""
    one = judge("456m78p3z234s55s", "4s", ["123m"])
    assert one.verdict.legal
    two = judge("456m7p3z3z234s55s", "4s", ["123m"])
    assert two.verdict.complete and "(pihu_one_laizi)" in failed(two)




def test_pihu_holding_two_laizi_cannot_win_however_they_play():
    """RESEARCH.md §3.8 「屁胡 … may hold at most 1 赖子」 (house option pihu_laizi=held, the default): 西风 held three
    times as its own pung is a 屁胡 held with three 赖子, none standing for another tile (before: won, as
    pihu_laizi=as_wild still does — it counts only the 赖子 standing for another tile)."""
    own_pung = ("456m789p333z55s", "5s", ["123m"])
    assert "(pihu_one_laizi)" in failed(judge(*own_pung))
    assert judge(*own_pung, options={"pihu_laizi": "as_wild"}).verdict.legal
    assert judge("456m789p46p3z55s", "5s", ["123m"]).verdict.legal       # one held, standing for 5p

def test_a_dahu_may_use_two_laizi():
    """The rule is about 屁胡: a 碰碰胡 (大胡) with two 赖子 wins."""
    result = judge("444m7p3z3z222s55s", "5s", ["111m"])
    assert result.verdict.legal
    assert [i.key for i in result.settlement.items] == ["pengpenghu"]


def test_pihu_needs_a_258_pair():
    """RESEARCH.md §3.8: 「屁胡 needs 2/5/8 将」; a 大胡 does not."""
    pair7 = judge("456m789p234s77s", "4s", ["123m"])
    assert pair7.verdict.complete and "(pihu_258)" in failed(pair7)
    assert judge("456m789p234s77s", "4s", ["123m"], kong_replacement=True, discarder=None).verdict.legal   # 杠开
    assert judge("456s789s222s33s", "3s", ["123s"]).verdict.legal                                         # 清一色


# --- scoring --------------------------------------------------------------------------------

def test_pihu_yinghu_is_2_from_the_discarder():
    """「其他就都是屁胡」: 屁胡 1; 硬胡 (no 赖子 standing in) ×2 (RESEARCH.md §3.8)."""
    result = judge(PIHU[0], "4s", PIHU[1])
    assert [i.key for i in result.settlement.items] == ["pihu", "yinghu"]
    assert result.settlement.total == 2 and result.settlement.payments == (0, 2, -2, 0)


def test_ruanhu_is_1():
    """软胡 ×1: a 赖子 stands for 9p."""
    result = judge("456m78p3z234s55s", "4s", ["123m"])
    assert [i.key for i in result.settlement.items] == ["pihu"] and result.settlement.total == 1


def test_dahu_values_add_up():
    """「碰碰胡、将一色、清一色…都算大胡」: 清一色 10 × 硬 2 = 20; 清一色 + 碰碰胡 = 20 × 2 = 40."""
    qing = judge("456s789s222s33s", "3s", ["123s"])
    assert [i.key for i in qing.settlement.items] == ["qingyise", "yinghu"] and qing.settlement.total == 20
    qing_peng = judge("444s777s222s33s", "3s", ["111s"])
    assert qing_peng.settlement.total == 40
    five = judge("444s777s222s33s", "3s", ["111s"], options={"dahu_value": "5"})
    assert five.settlement.total == 20


def test_every_named_dahu():
    """将一色, 风一色, 全求人, 海底捞, 抢杠 are 大胡 too."""
    jiang = judge("222m555p888p22s", "2s", ["888s"])
    assert "jiangyise" in [i.key for i in jiang.settlement.items]
    feng = judge("111z222z444z66z", "6z", ["555z"])
    assert "fengyise" in [i.key for i in feng.settlement.items]
    qiuren = judge("77s", "7s", ["123m", "456p", "789p", "234s"])
    assert "quanqiuren" in [i.key for i in qiuren.settlement.items]
    hai = judge("456m789p234s77s", "4s", ["123m"], last_tile=True, discarder=None)
    assert "haidilao" in [i.key for i in hai.settlement.items]
    robbed = judge("456m789p234s77s", "4s", ["123m"], robbed_kong=True)
    assert "qianggang" in [i.key for i in robbed.settlement.items]


def test_seat_fan_double_each_payment():
    """Each side's 番 (赖子杠 2, 皮 1 — RESEARCH.md §3.8) doubles what passes between it and the winner."""
    result = judge(PIHU[0], "4s", PIHU[1], extra=(("gang_events", ((1, 1, 0, 0), (2, 0, 1, 0))),))
    assert result.settlement.payments == (0, 2 * 2 ** 3, -(2 * 2 ** 3), 0)
    kongs = judge(PIHU[0], "4s", PIHU[1], discarder=None, kongs_by_side=((3, 1, 0),))
    assert kongs.settlement.payments == (-2, 8, -2, -4)


def test_payer_option():
    """Who pays a discard win is not stated: the discarder alone, or all by option."""
    result = judge(PIHU[0], "4s", PIHU[1], options={"payer": "all_pay"})
    assert result.settlement.payments == (-2, 6, -2, -2)


def test_yise_baopei():
    """RESEARCH.md §3.8 一色包赔: the third feeder of a 清一色 pays for everyone."""
    result = judge("456s789s222s33s", "3s", ["123s"], discarder=None, extra=(("yise_liable", 3),))
    assert result.settlement.payments == (0, 60, 0, -60)
    plain = judge(PIHU[0], "4s", PIHU[1], discarder=None, extra=(("yise_liable", 3),))
    assert plain.settlement.payments == (-2, 6, -2, -2)
