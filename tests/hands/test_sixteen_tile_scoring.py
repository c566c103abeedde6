"""16-tile block (RULES.md §8): 「每连庄一次便加上一番」 and 拉庄."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

SIXTEEN = get_region("sixteen_tile").resolve()
HAND = "111m234m567m789p234s55s"     # 5 melds + a pair: a 17-tile hand


def settle(winner, dealer, discarder=None, streak=0, **ctx):
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.S5,
                         consecutive_dealer=streak, **ctx)
    result = evaluate_hand(SIXTEEN, Hand.parse(HAND), context)
    assert result.verdict.legal
    return result.settlement


def test_a_sixteen_tile_hand_wins():
    """「十六张牌：开牌时每家取十六张牌」: five melds and a pair."""
    assert settle(1, 0, discarder=2).payments == (0, 1, -1, 0)


def test_each_lianzhuang_adds_a_fan_for_the_dealer():
    """「每连庄一次便加上一番」: a dealer on his 2nd 连庄 wins ×4 from each payer (番 = ×2)."""
    once = settle(0, 0, streak=1).payments
    twice = settle(0, 0, streak=2).payments
    assert once == (6, -2, -2, -2)
    assert twice == (12, -4, -4, -4)


def test_lianzhuang_applies_when_the_dealer_pays():
    """A non-dealer's self-draw: the dealer pays the 连庄 番, the others the base."""
    assert settle(2, 0, streak=2).payments == (-4, -1, 6, -1)


def test_la_zhuang_carries_a_third():
    """「闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一作下一盘的博注」."""
    result = settle(0, 0, streak=2, extra=(("la_zhuang", (1,)),))
    assert result.payments == (11, -3, -4, -4) and sum(result.payments) == 0
    assert any("拉庄" in note and "carries 1" in note for note in result.notes)


def test_lianzhuang_is_listed_only_where_the_dealer_wins_or_pays():
    """A discard win between two others pays the base: no 连庄 番 is paid, and none is listed."""
    between_others = settle(1, 0, discarder=2, streak=2)
    assert between_others.payments == (0, 1, -1, 0)
    assert "lianzhuang" not in {i.key for i in between_others.items}
    assert "lianzhuang" in {i.key for i in settle(2, 0, streak=2).items}          # the dealer pays it
