"""温州 (RULES.md §19 「财神可当任何牌」; RESEARCH.md §3.3): 16-tile hands, 八对+单张, 软和/硬和/双番,
连庄, kongs 点杠 1 / 暗杠 2 / 加杠 0, 财神独立结算."""

from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.wenzhou import caishen_payments
from rulesets.tiles import Tile

WENZHOU = get_region("wenzhou").resolve()
CAI = (Tile.S9,)                          # the flipped 9s: 9s is 财神, 白板 plays 9s
HARD = ("123m456m789m123p456p11z", "1z")


def settle(tiles, win, melds=(), winner=1, dealer=0, discarder=2, **ctx):
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), wilds=CAI, **ctx)
    return evaluate_hand(WENZHOU, Hand.parse(tiles, melds), context)


def keys(result):
    return [i.key for i in result.settlement.items]


def test_sixteen_tile_hand_hard_win():
    """16-tile hands (5 melds + pair); 硬和 ×2: no 财神 stands in."""
    result = settle(*HARD)
    assert result.verdict.legal and keys(result) == ["yinghe"]
    assert result.settlement.payments == (0, 2, -2, 0)


def test_caishen_is_wild_soft_win():
    """「财神可当任何牌」: the 9s stands in the 万 run — 软和 ×1, and its holder collects 财神独立结算."""
    result = settle("123m456m78m9s123p456p11z", "1z")
    assert result.verdict.legal
    assert all(len(r.assignment) == 1 and r.assignment[0][1].suit == "m" for r in result.verdict.legal_readings)
    assert "ruanhe" in keys(result)
    win = (0, 1, -1, 0)
    caishen = (-1, 3, -1, -1)                                  # 4·1 − 1 for the winner
    assert result.settlement.payments == tuple(w + c for w, c in zip(win, caishen))


def test_white_dragon_plays_the_caishen_face():
    """白板 = 财神本牌 (RESEARCH.md §3.3): 白板 as 9s in 7-8-9 is natural, so the win is hard."""
    result = settle("123m456m123p456p78s5z11z", "1z")
    assert result.verdict.legal and "yinghe" in keys(result)


def test_eight_pairs_plus_single_is_double():
    """八对+单张 (RESEARCH.md §3.3) is read as 双番 ×4."""
    result = settle("11m22m33m44p55p66s77s88s1z", "1z")
    assert result.verdict.legal and result.verdict.shape.shape.value == "eight_pairs_plus_single"
    assert keys(result) == ["shuangfan"] and result.settlement.total == 4


def test_dealer_times_two_times_repeats_plus_one():
    """「连庄 ×2×(repeats+1)」: the dealer (连庄 twice) pays 2 × 2 × 3 = 12 for a hard win."""
    result = settle(*HARD, discarder=0, consecutive_dealer=2)
    assert result.settlement.payments == (-12, 12, 0, 0)


def test_kongs_dian_1_an_2_jia_0():
    """「kong: 点杠 1, 暗杠 2, 加杠 0」: each other player pays the maker, the winner's and the others'."""
    an = Meld(MeldKind.CONCEALED_KONG, (Tile.P9,) * 4)
    added = Meld(MeldKind.ADDED_KONG, (Tile.P8,) * 4)
    result = settle("456m789m123p456p11z", "1z", ["1111m"], exposed_by_side=((2, (an,)), (3, (added,))))
    win = (0, 2, -2, 0)
    kongs = (-1 - 2, 3 - 2, -1 + 6, -1 - 2)
    assert result.settlement.payments == tuple(w + k for w, k in zip(win, kongs))


def test_caishen_independent_settlement():
    """「财神独立结算: each player's 财神 count n pays out as 4n − total」."""
    assert caishen_payments({0: 1, 1: 2, 2: 0, 3: 1}, (0, 1, 2, 3)) == (0, 4, -4, 0)
    assert caishen_payments({0: 3, 1: 0, 2: 0, 3: 0}, (0, 1, 2, 3)) == (9, -3, -3, -3)
    result = settle(*HARD, extra=(("caishen_by_side", ((0, 2), (3, 1))),))
    assert result.settlement.payments == (0 + 8 - 3, 2 - 3, -2 - 3, 4 - 3)


def test_three_caishen_is_double():
    """三财神 (RESEARCH.md §3.3) held in a complete hand: 双番 ×4."""
    result = settle("123m456m123p456p9s9s9s11z", "1z")
    assert result.verdict.legal and "shuangfan" in keys(result)


def test_at_the_table_every_side_s_kongs_are_the_ones_the_makers_answered_for():
    """The table never sees the other sides' melds: it asks each exposed kong's maker who gave the tile
    (kong_giver), and those answers price every side's kongs — before, only the winner's were paid."""
    events = ((1, "ming", 0), (2, "an", None), (3, "zhuanwan", None))
    result = settle("456m789m123p456p11z", "1z", ["1111m"], extra=(("kong_events", events),))
    win = (0, 2, -2, 0)
    kongs = (-1 - 2, 3 - 2, -1 + 6, -1 - 2)                     # the same kongs as the melds above
    assert result.settlement.payments == tuple(w + k for w, k in zip(win, kongs))
