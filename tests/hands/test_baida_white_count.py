"""百搭 block, house option `baida_white_count`: 「其中一张白板可以用作代替该张翻开的牌」 read as (a) every 白板
plays the 百搭 kind's face (default) or (b) one 白板 may, for the flipped tile, and any other is a 白板."""

import pytest

from rulesets.hand import Hand
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.winrules import WinContext

NINE = (Tile.M9,)           # 9m flipped under 活动百搭: 9m is the 百搭, a 白板 plays a natural 9m


def judged(count: str, tiles: str, win: str | None = None, **options):
    ruleset = get_region("baida").resolve({"baida_white_count": count, **options})
    return evaluate_hand(ruleset, Hand.parse(tiles),
                         WinContext(winner=0, win_tile=Tile.parse(win) if win else None, wilds=NINE))


def test_two_white_tiles_play_the_face_only_when_every_one_may():
    """78m 78m each need a 9m: two 白板 for it under (a); under (b) only one may."""
    assert judged("all", "123m78m78m456p11s5z5z", "5z").verdict.legal
    one = judged("one", "123m78m78m456p11s5z5z", "5z").verdict
    assert one.complete is False and not one.legal


def test_under_one_the_other_white_tiles_are_white():
    """A pair of 白板 beside the one that plays 9m: (a) reads all three as 9m; (b) keeps the pair 白板."""
    verdict = judged("one", "123m78m456p789s55z5z", "5z").verdict
    assert verdict.legal
    groups = [str(g) for g in verdict.shape.groups]
    assert "789m(5z=9m)" in groups and "55z" in groups
    assert "99m(5z=9m,5z=9m)" in [str(g) for g in judged("all", "123m78m456p789s55z5z", "5z").verdict.shape.groups]


def test_a_pung_of_white_is_a_pung_of_white_under_one():
    verdict = judged("one", "123m456p789s555z22z", "2z").verdict
    assert verdict.legal and "555z" in [str(g) for g in verdict.shape.groups]


@pytest.mark.parametrize("count", ["all", "one"])
def test_a_win_is_paid_the_same_either_way(count):
    assert judged(count, "123m78m456p789s22z5z", "5z").settlement.payments == (3, -1, -1, -1)


def test_waits_count_the_white_tile_both_ways():
    """One tile short: 6m or a 9m (the 百搭) complete it either way; a third 白板 completes it under (b) as
    789m(白) + 白白; under (a) too (789m + 99m)."""
    for count in ("all", "one"):
        waits = judged(count, "123m78m456p789s5z5z").verdict.waits
        assert set(waits) >= {Tile.M6, Tile.M9, Tile.WHITE}, (count, waits)
    # under (b) two 白板 and two 东 wait on either: a 白板 drawn makes a pung of 白板, a 东 a pung of 东
    assert {Tile.EAST, Tile.WHITE} <= set(judged("one", "123m456p789s5z5z1z1z").verdict.waits)
    # 78m 78m: one more 白板 would play a second 9m, which (b) refuses; a 9m (the 百搭) completes it
    waits = judged("one", "123m78m78m456p11s5z").verdict.waits
    assert Tile.M9 in waits and Tile.WHITE not in waits
    assert Tile.WHITE in judged("all", "123m78m78m456p11s5z").verdict.waits


def test_the_card_says_which_reading():
    rule = get_region("baida").resolve({"baida_white_count": "one"}).indicators[0]
    assert "one 白板 plays the wild kind's natural face (any other 白板 is itself)" in rule.describe()
