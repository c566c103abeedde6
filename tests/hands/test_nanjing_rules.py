"""南京 (RULES.md §28): the dragons are bonus tiles; no values, so a win is 1 point."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

NANJING = get_region("nanjing").resolve()


def judge(tiles, win, discarder=None):
    return evaluate_hand(NANJING, Hand.parse(tiles), WinContext(winner=1, discarder=discarder, win_tile=Tile.parse(win)))


def test_dragons_are_flowers_and_never_stand_in_a_hand():
    """「把箭牌也算入花牌中，所以没有大三元，大四喜之类的胡法」: a hand holding 中 is not legal."""
    result = judge("123m456p789s555z11z", "1z", discarder=2)
    assert result.verdict.complete and not result.verdict.legal
    assert any("箭牌" in f for f in result.verdict.failures)


def test_a_hand_of_suits_and_winds_wins_flat():
    """No values are stated: the discarder pays 1."""
    result = judge("123m456p789s111z22z", "2z", discarder=2)
    assert result.verdict.legal
    assert result.settlement.payments == (0, 1, -1, 0)
