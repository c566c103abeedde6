"""长春 / 吉林 宝 (RULES.md §1.3): the 宝 wins only as the texts allow — 摸宝 and 对宝, after 报听.

「听牌者摸到宝牌或者所听之牌为宝牌即赢」 [002:222]; 「听牌后若再次摸到宝牌，宝牌可代替任何牌，即：听牌后摸到宝牌即可胡」
[002:196]; 「听牌时可看宝，未听牌者不许看」 [002:85]; 「玩家不选择报听…无法看“宝”」 [002:208].
"""

import pytest

from rulesets.bao import NEEDS_TING, ON_DISCARD, OWN_DRAW, private_bao
from rulesets.hand import Hand, WinContext
from rulesets.indicators import Effect
from rulesets.judging import evaluate_hand
from rulesets.regions import all_regions, get_region
from rulesets.tiles import Tile

REGIONS = ("changchun", "jilin")


def judge(region, tiles, win, *, melds=(), wild=None, discarder=3, ready=True, bao_hit=False):
    ruleset = get_region(region).resolve()
    wilds = (Tile.parse(wild),) if wild else ()
    context = WinContext(winner=0, dealer=1, discarder=discarder, win_tile=Tile.parse(win), wilds=wilds,
                         ready_declared=ready, bao_hit=bao_hit)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def item_keys(result):
    return [i.key for i in result.settlement.items]


@pytest.mark.parametrize("region", REGIONS)
def test_a_discarded_bao_is_an_ordinary_tile(region):
    """The issue's hand: 111m 13m … 4z won on a discarded 4z (the 宝) must not read 4z as 2m."""
    result = judge(region, "111m13m456p789s99s4z", "4z", wild="4z")
    assert not result.verdict.complete and not result.verdict.legal
    assert ON_DISCARD in result.verdict.failures


@pytest.mark.parametrize("region", REGIONS)
def test_a_bao_held_in_the_hand_does_not_stand_in_on_a_discard(region):
    """Neither the discarded tile nor 宝 kinds held in the hand stand for other tiles on a discard win."""
    result = judge(region, "111m13m456p789s4z99s", "9s", wild="4z")      # 4z held, 9s discarded
    assert not result.verdict.legal
    assert ON_DISCARD in result.verdict.failures


@pytest.mark.parametrize("region", REGIONS)
def test_mobao_the_drawn_bao_stands_for_the_wait(region):
    """摸宝: 「听牌后摸到宝牌即可胡」 — the drawn 宝 stands in, and the win is a 宝 win (自摸 and 宝)."""
    result = judge(region, "111m13m456p789s99s4z", "4z", wild="4z", discarder=None)
    assert result.verdict.legal
    assert result.verdict.shape.assignment == ((Tile.NORTH, Tile.M2),)
    assert {"zimo", "bao"} <= set(item_keys(result))


@pytest.mark.parametrize("region", REGIONS)
def test_duibao_the_wait_is_the_bao_kind(region):
    """对宝: 「所听之牌为宝牌即赢」, 「算胡自摸、宝牌」 — the tile waited for is the 宝 kind itself."""
    result = judge(region, "111m123m456p789s9s9s", "9s", wild="9s", discarder=None)
    assert result.verdict.legal
    assert {"zimo", "bao"} <= set(item_keys(result))


def test_only_the_drawn_bao_stands_in():
    """Two 宝 tiles: one held, one drawn. Only the drawn one may stand for another tile."""
    needs_two = judge("changchun", "111m1m456p789s99s4z4z", "4z", wild="4z", discarder=None)    # 1m 4z 4z → 123m
    assert needs_two.verdict.complete and not needs_two.verdict.legal
    assert "bao_stands_in_once" in " ".join(needs_two.verdict.failures)
    held_is_itself = judge("changchun", "111m13m456p789s4z4z4z", "4z", wild="4z", discarder=None)  # 4z 4z pair + 宝→2m
    assert held_is_itself.verdict.legal
    assert held_is_itself.verdict.shape.assignment.count((Tile.NORTH, Tile.M2)) == 1


@pytest.mark.parametrize("region", REGIONS)
def test_a_bao_win_needs_ting(region):
    """The issue's hand: 「未听牌者不许看」 — without 报听 there is no 宝 win, whatever the hand."""
    result = judge(region, "111m123s99s56m7z", "7z", melds=["456p"], wild="7z", discarder=None, ready=False,
                   bao_hit=True)
    assert not result.verdict.legal and result.settlement is None
    assert NEEDS_TING in result.verdict.failures
    ready = judge(region, "111m123s99s56m7z", "7z", melds=["456p"], wild="7z", discarder=None, bao_hit=True)
    assert ready.verdict.legal and "bao" in item_keys(ready)


def test_a_ready_seat_without_the_bao_wins_naturally():
    """A seat that has not declared 听 may still win normally (「玩家不选择报听也可以正常胡牌」), without the 宝."""
    natural = judge("changchun", "111m123m456p789s99s", "9s", wild="4z", discarder=None, ready=False)
    assert natural.verdict.legal and "bao" not in item_keys(natural)


def test_a_bao_win_on_a_discard_is_refused():
    """A 宝 win is the ready player's own draw: 「听牌后摸到宝牌」, 「算胡自摸、宝牌」."""
    result = judge("changchun", "111m123m456p789s99s", "9s", wild="9s", bao_hit=True)
    assert not result.verdict.legal and OWN_DRAW in result.verdict.failures


def test_every_private_bao_is_the_only_wild_of_its_region():
    """The judge reads every wild of a 宝 region as the 宝: sound only while no such region has another wild."""
    for region in all_regions():
        ruleset = region.resolve()
        if private_bao(ruleset) is None:
            continue
        wild_rules = [r for r in ruleset.indicators if r.effect is Effect.WILD]
        assert wild_rules == [private_bao(ruleset)], region.id
