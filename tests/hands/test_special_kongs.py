"""长春's opening special kongs (RULES.md §1.7): which sets they are, what they count, what they draw."""

import pytest

from rulesets.special_kongs import best_declaration, kind_named, kongs_of, replacements_of, special_meld
from rulesets.tiles import parse_tiles


@pytest.mark.parametrize("name, tiles, kongs, replacements", [
    ("旋风杠", "1234z", 1, 1),      # 「可以亮出算一个明杠」; four tiles: a replacement
    ("旋风杠", "12344z", 2, 2),     # 「每补一张风牌多算一个明杠」
    ("喜杠", "567z", 1, 0),         # three tiles: no replacement (the card's reading)
    ("幺蛋", "1m1p1s1s", 2, 1),
    ("九蛋", "9m9p9s", 1, 0),
])
def test_what_a_special_kong_counts_and_draws(name, tiles, kongs, replacements):
    kind = kind_named(name)
    meld = special_meld(kind, parse_tiles(tiles))
    assert meld is not None
    assert (kongs_of(meld, kind), replacements_of(meld, kind)) == (kongs, replacements)


def test_a_set_missing_a_base_tile_or_adding_the_wrong_kind_is_not_one():
    assert special_meld(kind_named("旋风杠"), parse_tiles("123z5z")) is None
    assert special_meld(kind_named("幺蛋"), parse_tiles("1m1p1s9s")) is None


def test_version_a_adds_any_honour_to_the_xi_kong_version_b_only_dragons():
    """A: 「如果再有其他的字牌可以补杠」; B: 「如果再有其他的箭牌(中、发、白)时可以补杠」."""
    assert special_meld(kind_named("喜杠", "A"), parse_tiles("1567z")) is not None
    assert special_meld(kind_named("喜杠", "B"), parse_tiles("1567z")) is None
    assert special_meld(kind_named("喜杠", "B"), parse_tiles("5567z")) is not None


def test_the_dealer_adds_nothing():
    """「庄家第一手不允许补杠」."""
    assert special_meld(kind_named("旋风杠"), parse_tiles("12344z"), additions_allowed=False) is None
    kind, tiles = best_declaration(parse_tiles("12344z123m456p78s"), additions_allowed=False)
    assert (kind.zh, tiles) == ("旋风杠", tuple(parse_tiles("1234z")))


def test_a_hand_without_a_special_set_shows_nothing():
    assert best_declaration(parse_tiles("123z55z123m456p78s")) is None
