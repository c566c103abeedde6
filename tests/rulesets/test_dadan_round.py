"""长春 大蛋 (house option dadan): the kongs a seat lays, and what the settlement round pays for them."""

import pytest

from rulesets.hand import MeldKind
from rulesets.regions import get_region
from rulesets.rounds import RoundContext, SeatShown, judge_round, kongs_laid, round_seats
from rulesets.tiles import Tile, parse_tiles

WHITE_KONG, RED_KONG, M2_KONG = (tuple(parse_tiles(t)) for t in ("5555z", "7777z", "2222m"))


def test_the_laid_kongs_are_read_exposed_first_then_concealed():
    hand = kongs_laid(WHITE_KONG, WHITE_KONG + RED_KONG, exposed=1, concealed=1)
    assert [(m.kind, m.kind_tile) for m in hand.melds] == [(MeldKind.KONG, Tile.WHITE), (MeldKind.CONCEALED_KONG, Tile.RED)]
    assert hand.concealed == ()


@pytest.mark.parametrize("first, everything, exposed, concealed", [
    (WHITE_KONG, WHITE_KONG + RED_KONG, 2, 0),            # the 暗杠 laid with the 明杠
    (WHITE_KONG + RED_KONG, WHITE_KONG + RED_KONG, 1, 1),  # the 暗杠 laid in the first read
    (WHITE_KONG[:3], WHITE_KONG[:3] + RED_KONG, 1, 1),     # three tiles are no kong
    (WHITE_KONG, RED_KONG + M2_KONG, 1, 1),               # the 明杠 taken away before the second read
    (WHITE_KONG, WHITE_KONG + RED_KONG + (Tile.M1,), 1, 1),  # a tile more
])
def test_anything_but_the_pressed_kongs_is_not_shown(first, everything, exposed, concealed):
    assert kongs_laid(list(first), list(everything), exposed, concealed) is None


def ruleset(**options):
    return get_region("changchun").resolve({"dadan": "laid", **options})


def settle(rules, shown, pressed, winners=()):
    context = RoundContext(0, (0, 1, 2, 3), winners, tuple(SeatShown(side, hand) for side, hand in shown), kongs=pressed)
    return judge_round(rules, context).settlement


def test_a_ming_dadan_pays_its_kong_again_and_an_an_dadan_twice_at_a_draw_too():
    """底注 = kong_value: an ordinary 明杠 1 / 暗杠 2 from each other player (paid with the hand); 大蛋 twice
    that, so the round adds 1 for the 明大蛋 白板 and 2 for the 暗大蛋 红中; the 二万 kong adds nothing."""
    laid = kongs_laid(list(WHITE_KONG + M2_KONG), list(WHITE_KONG + M2_KONG + RED_KONG), 2, 1)
    found = settle(ruleset(), [(1, laid)], ((1, 2, 1),))
    assert found.payments == (-3, 9, -3, -3)
    assert [i.zh for i in found.items] == ["明大蛋白板 (side 1)", "暗大蛋红中 (side 1)"]
    assert settle(ruleset(kong_value="5"), [(1, laid)], ((1, 2, 1),)).payments == (-15, 45, -15, -15)
    assert settle(ruleset(), [(1, laid)], ((1, 2, 1),), winners=(3,)).payments == (-3, 9, -3, -3)


def test_kongs_that_are_not_the_pressed_ones_are_paid_nothing():
    laid = kongs_laid(list(WHITE_KONG), list(WHITE_KONG), 1, 0)
    assert settle(ruleset(), [(2, laid)], ((2, 1, 1),)).payments == (0, 0, 0, 0)     # it pressed an 暗杠 too
    assert settle(ruleset(), [(2, laid)], ()).payments == (0, 0, 0, 0)              # it pressed none


def test_only_the_kong_seats_are_asked_and_only_with_the_option():
    assert round_seats(ruleset(), (0,), (2, 3)) == (2, 3)
    assert round_seats(ruleset(), (), (2,)) == (2,)
    assert round_seats(get_region("changchun").resolve(), (0,), (2, 3)) == ()
    assert "dadan" not in [o.key for o in get_region("jilin").options]
