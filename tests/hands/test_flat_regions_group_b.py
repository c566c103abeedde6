"""十七张 (§18), 东北 (§3) and 百搭 (§27) give no values and no win requirement: any standard hand wins 1 point."""

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile


@pytest.mark.parametrize("region_id, tiles, win", [
    ("seventeen_tile", "111m234m567m789p234s55s", "5s"),      # 16 held + 1: five melds and a pair
    ("dongbei", "123m456p789s234m55z", "5z"),
    ("baida", "123m456p789s234m55z", "5z"),
])
def test_flat_point_and_zero_sum(region_id, tiles, win):
    ruleset = get_region(region_id).resolve()
    drawn = evaluate_hand(ruleset, Hand.parse(tiles), WinContext(winner=2, win_tile=Tile.parse(win)))
    assert drawn.verdict.legal and drawn.settlement.payments == (-1, -1, 3, -1)
    discard = evaluate_hand(ruleset, Hand.parse(tiles), WinContext(winner=2, discarder=1, win_tile=Tile.parse(win)))
    assert discard.settlement.payments == (0, -1, 1, 0)


def test_baida_wild_and_white_stand_in():
    """「其中一张白板可以用作代替该张翻开的牌」: with 9m 百搭, a 白板 plays 9m; a 9m stands for any tile."""
    ruleset = get_region("baida").resolve()
    white = evaluate_hand(ruleset, Hand.parse("123m78m456p789s22z5z"), WinContext(winner=0, win_tile=Tile.WHITE, wilds=(Tile.M9,)))
    assert white.verdict.legal
    assert any(Tile.WHITE in g.sources and Tile.M9 in g.tiles for g in white.verdict.shape.groups)
    wild = evaluate_hand(ruleset, Hand.parse("123m456p789s45s22z9m"), WinContext(winner=0, win_tile=Tile.M9, wilds=(Tile.M9,)))
    assert wild.verdict.legal and wild.settlement.payments == (3, -1, -1, -1)
