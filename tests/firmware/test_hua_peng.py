"""螺山 花碰 at the read zone: 「用一张财神替代一张大料或座风的碰称为花碰」 (RULES.md §31.3).

A winner lays a 碰 of two 红中 and a 财神: the controller splits it as that 花碰 (before, the zone's
tiles did not split, and the seat had to enter the whole hand tile by tile, which then judged the
花碰 as a concealed 暗刻), and scores it as the 碰 it stands for (F5).  A 花碰 of another seat's wind,
or with a tile that is not the 财神, is not split that way.
"""

from firmware.hand.melds import melds_from_tiles
from firmware.hand.state import HandState
from firmware.hand.win_check import judge_laid
from rulesets.regions import get_region
from rulesets.tiles import DRAGONS, Tile, parse_tiles
from tests.firmware.test_asked_facts import built_hand


def luoshan_with_caishen() -> tuple[HandState, Tile]:
    """A 螺山 hand whose 财神 is revealed: the tile after the deal, as the indicator rule finds it."""
    hand = built_hand(get_region("luoshan").resolve(), {})
    (rule,) = hand.ruleset.indicators
    reveal = hand.reveal(rule)
    (caishen,) = reveal.special
    return hand, caishen


def other_than(tiles, *exclude: Tile) -> Tile:
    return next(t for t in tiles if t not in exclude)


def test_the_seat_may_stand_a_caishen_in_a_pung_of_a_dragon_or_its_own_wind():
    hand, caishen = luoshan_with_caishen()
    stand_ins, kinds = hand.hua_peng(hand.dealer)
    assert stand_ins == {caishen}
    assert kinds == set(DRAGONS) | {Tile.EAST}                   # the dealer sits 东
    assert hand.hua_peng((hand.dealer + 1) % 4)[1] == set(DRAGONS) | {Tile.SOUTH}
    hangzhou = built_hand(get_region("hangzhou").resolve(), {})
    assert hangzhou.hua_peng(0) == (frozenset(), frozenset())


def test_a_hua_peng_laid_in_the_zone_is_split_and_scored_as_the_pung_it_stands_for():
    hand, caishen = luoshan_with_caishen()
    dragon = other_than(DRAGONS, caishen)
    suit = other_than((Tile.P9, Tile.S9), caishen)
    melds = melds_from_tiles([dragon, dragon, caishen, suit, suit, suit], 0, 0, (), hand.hua_peng(hand.dealer))
    hua, natural = sorted(melds, key=lambda m: not m.stand_ins)
    assert hua.kind_tile == dragon and hua.stand_ins == (caishen,) and hua.standing == (dragon,) * 3
    assert natural.tiles == (suit,) * 3 and not natural.stand_ins
    concealed = parse_tiles("11122233m" if caishen.suit != "m" else "11122233s")   # no 财神 among them
    win_tile = concealed[-1]
    laid_hand, context = hand.laid_hand(hand.dealer, None, melds, tuple(concealed), (), win_tile, ())
    result = judge_laid(hand.ruleset, laid_hand, context)
    assert result.verdict.legal, result.verdict.failures
    assert any(item.zh == f"碰{dragon.zh}" and item.value == 4 for item in result.settlement.items)


def test_natural_melds_come_first_and_a_wrong_stand_in_does_not_split():
    hand, caishen = luoshan_with_caishen()
    kinds = hand.hua_peng(hand.dealer)
    dragon = other_than(DRAGONS, caishen)
    natural = melds_from_tiles([dragon, dragon, dragon, caishen, caishen, caishen], 0, 0, (), kinds)
    assert not any(m.stand_ins for m in natural)                    # two natural 碰, not two 花碰
    for wrong in ([Tile.SOUTH, Tile.SOUTH, caishen],                 # another seat's wind
                  [dragon, dragon, other_than((Tile.M5, Tile.M6), caishen)]):   # not the 财神
        try:
            melds_from_tiles(wrong, 0, 0, (), kinds)
        except ValueError as error:
            assert "do not split into melds" in str(error)
        else:
            raise AssertionError(f"{wrong} split as a 花碰")
