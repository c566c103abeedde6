"""杭州 (RULES.md §9: 爆头, 财飘, 杠开; RESEARCH.md §3.4: self-draw only, 七对, 4番封顶, 老庄, 三吃承包)."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

HANGZHOU = get_region("hangzhou").resolve()      # 白板 is the fixed 财神
CAI = (Tile.WHITE,)
BAOTOU = ("123m456p789s555s5z2p", "2p")          # a 财神 and the drawn 2p make the pair


def settle(tiles, win, melds=(), discarder=None, winner=1, dealer=0, **ctx):
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), wilds=CAI, **ctx)
    return evaluate_hand(HANGZHOU, Hand.parse(tiles, melds), context)


def keys(result):
    return [i.key for i in result.settlement.items]


def test_self_draw_only():
    """RESEARCH.md §3.4: 「Self-draw only」."""
    on_discard = settle(*BAOTOU, discarder=2)
    assert on_discard.verdict.complete and "zimo" in " ".join(on_discard.verdict.failures)
    assert settle(*BAOTOU).verdict.legal


def test_baotou_doubles():
    """爆头 (§9): the winning tile pairs with a 财神 — 1番, ×2 from each other player."""
    result = settle(*BAOTOU)
    assert keys(result) == ["baotou"] and result.settlement.total == 2
    assert result.settlement.payments == (-2, 6, -2, -2)


def test_a_plain_hand_with_a_caishen_standing_in_is_1():
    """No item: the 财神 stands for 3m in 1-2-3."""
    result = settle("12m5z456p789s555s11p", "1p")
    assert keys(result) == [] and result.settlement.total == 1


def test_caipiao_each_piao_doubles_again():
    """财飘 (§9): 爆头 after discarding 财神 — 一飘 ×4, 二飘 ×8, 三飘 ×16."""
    for piao, total in ((1, 4), (2, 8), (3, 16)):
        assert settle(*BAOTOU, extra=(("cai_piao", piao),)).settlement.total == total


def test_caipiao_needs_baotou():
    """A 飘 without 爆头 adds nothing."""
    result = settle("12m5z456p789s555s11p", "1p", extra=(("cai_piao", 2),))
    assert result.settlement.total == 1


def test_four_fan_cap():
    """RESEARCH.md §3.4 「4 番封顶」: 三飘 爆头 (4番) + 杠开 stays at ×16."""
    result = settle(*BAOTOU, kong_replacement=True, extra=(("cai_piao", 3),))
    assert result.settlement.total == 16


def test_gangkai_and_no_caishen():
    """杠开 (§9) 1番; 无财神 1番: 2番 = ×4."""
    result = settle("123m456p789s555s11p", "1p", kong_replacement=True)
    assert keys(result) == ["gangkai", "wucaishen"] and result.settlement.total == 4


def test_seven_pairs_and_luxury():
    """七对 1番, 豪华七对 2番 (a four as two pairs), each with 无财神 1番."""
    assert settle("1122m3344p5566s77z", "7z").settlement.total == 4
    assert settle("1111m2233p5566s77z", "7z").settlement.total == 8


def test_laozhuang():
    """RESEARCH.md §3.4 「老庄 ×2/×4/×8」: a dealer on his second 连庄 doubles twice what he pays or gets."""
    result = settle(*BAOTOU, consecutive_dealer=2)
    assert result.settlement.payments == (-8, 12, -2, -2)
    dealer_wins = settle(*BAOTOU, winner=0, consecutive_dealer=5)
    assert dealer_wins.settlement.payments == (48, -16, -16, -16)


def test_san_chi_cheng_bao():
    """RESEARCH.md §3.4 三吃承包: the player who fed three claims pays for everyone."""
    result = settle("789s555s5z2p", "2p", ["123m", "456p"], extra=(("chengbao", 3),))
    assert result.settlement.payments == (0, 6, 0, -6)
