"""广水 拳打脚踢 (RULES.md §21): 屁和只能自摸或者抢杠; named 番 hands; 最高16番到顶; 杠另算. Three players."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring import DrawContext
from rulesets.scoring.guangshui import capped
from rulesets.settlement import Item
from rulesets.tiles import Tile

GUANGSHUI = get_region("guangshui").resolve()     # 万 removed, side 3 empty
SIDES = (0, 1, 2)
PIHE = "123p456p789s11p79s8s"                     # all chows, an 8s in 7-9: no 番 hand


def judge(tiles, win, melds=(), discarder=2, **ctx):
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win), sides=SIDES, **ctx)
    return evaluate_hand(GUANGSHUI, Hand.parse(tiles, melds), context)


def keys(result):
    return [i.key for i in result.settlement.items]


def test_pihe_only_by_self_draw_or_robbing_a_kong():
    """「只能碰、杠，不能吃牌，屁和只能自摸或者抢杠」"""
    on_discard = judge(PIHE, "8s")
    assert on_discard.verdict.complete and not on_discard.verdict.legal
    assert "pihe_zimo" in " ".join(on_discard.verdict.failures)
    self_drawn = judge(PIHE, "8s", discarder=None)
    assert self_drawn.verdict.legal and keys(self_drawn) == ["pihe"]
    assert self_drawn.settlement.payments == (-1, 2, -1, 0)
    assert judge(PIHE, "8s", robbed_kong=True).verdict.legal


def test_fan_hands_win_on_a_discard():
    """「碰碰和、七对、清一色、大小三元、卡五星等都可和牌，且有相应的番数」"""
    kawu = judge("123p456p789s11p46s5s", "5s")
    assert kawu.verdict.legal and keys(kawu) == ["kawuxing"]
    assert kawu.settlement.payments == (0, 2, -2, 0)
    peng = judge("111p999p22s55z5z", "5z", ["333s"])
    assert peng.verdict.legal and keys(peng) == ["pengpenghe"] and peng.settlement.total == 2
    qidui = judge("1199p2288s33p55z7z7z", "7z")
    assert qidui.verdict.legal and "qidui" in keys(qidui) and qidui.settlement.total == 4
    qing = judge("123p456p789p11p23p4p", "4p")
    assert qing.verdict.legal and keys(qing) == ["qingyise"] and qing.settlement.total == 4


def test_dragons():
    """大三元 (three dragon pungs) and 小三元 (two and a dragon pair)."""
    da = judge("555z666z777z123p11s", "7z")
    assert "dasanyuan" in keys(da) and da.settlement.total == 8
    xiao = judge("555z666z123p456s77z", "7z")
    assert keys(xiao) == ["xiaosanyuan"] and xiao.settlement.total == 4


def test_fan_multiply_and_stop_at_16():
    """「最高16番到顶」: 七对 × 清一色 = 16; a larger product stops at 16."""
    qing_qidui = judge("1133557799p22p44p", "4p")
    assert set(keys(qing_qidui)) >= {"qidui", "qingyise"} and qing_qidui.settlement.total == 16
    big = (Item("a", "a", "a", 8, "times"), Item("b", "b", "b", 4, "times"))
    assert capped(big) == 16


def test_kongs_are_outside_the_cap():
    """「但有杠另算」: each other player pays a kong's maker (明 1, 暗 2), at a draw too."""
    result = judge("1133557799p22p44p", "4p", kongs_by_side=((0, 1, 0), (1, 0, 1)))
    assert result.settlement.total == 16
    win = (0, 16, -16, 0)
    kongs = (2 - 2, -1 + 4, -1 - 2, 0)
    assert result.settlement.payments == tuple(w + k for w, k in zip(win, kongs))
    draw = GUANGSHUI.scoring.settle_draw(GUANGSHUI, DrawContext(0, SIDES, kongs_by_side=((2, 0, 1),)))
    assert draw.payments == (-2, -2, 4, 0)
