"""Tiles, notation and tile sets."""

import pytest
from hypothesis import given, strategies as st

from rulesets.tiles import ALL_TILES, Tile, TileError, counts_of, format_tiles, parse_tiles
from rulesets.tilesets import (DRAGONS_SET, FLOWERS_SET, SET_84, SET_108, SET_112_RED, SET_112_WINDS, SET_136,
                               SET_144, SUITS, WINDS_SET)


def test_notation_round_trips_every_kind():
    for tile in ALL_TILES:
        assert Tile.parse(str(tile)) is tile
        assert Tile.parse(tile.zh) is tile


def test_compact_hand_parses_in_order():
    assert [str(t) for t in parse_tiles("123m456p789s1122z")] == \
        ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]


def test_chinese_names_shown_to_players():
    assert [t.zh for t in parse_tiles("1m9p5s1z5z6z7z1f8f")] == \
        ["一万", "九筒", "五条", "东风", "白板", "发财", "红中", "春", "菊"]
    assert parse_tiles("东南西北中发白") == parse_tiles("1234765z")


@pytest.mark.parametrize("bad", ["8z", "9f", "0m", "12", "m", "1x", "12m3", "五五"])
def test_bad_tile_text_names_the_bad_part(bad):
    with pytest.raises(TileError, match="not a tile|no tile"):
        parse_tiles(bad)


@given(st.lists(st.sampled_from(ALL_TILES), max_size=20))
def test_format_parse_round_trip(tiles):
    assert sorted(parse_tiles(format_tiles(tiles))) == sorted(tiles)
    assert sum(counts_of(tiles)) == len(tiles)


def test_tile_classes():
    assert Tile.M1.is_terminal and Tile.P9.is_terminal and not Tile.S5.is_terminal
    assert Tile.EAST.is_wind and Tile.RED.is_dragon and Tile.PLUM.is_flower
    assert Tile.NORTH.is_terminal_or_honour and not Tile.M5.is_terminal_or_honour


@pytest.mark.parametrize("tile_set, size", [
    (SET_108, 108), (SET_112_WINDS, 112), (SET_112_RED, 112), (SET_136, 136), (SET_144, 144), (SET_84, 84),
])
def test_set_sizes(tile_set, size):
    assert tile_set.size == size == len(tile_set.tiles())


def test_sets_have_the_right_multiplicities():
    assert all(SET_136.copies(k) == 4 for k in ALL_TILES if not k.is_flower)
    assert all(SET_144.copies(k) == (1 if k.is_flower else 4) for k in ALL_TILES)
    assert all(SET_108.copies(k) == (4 if k.is_suited else 0) for k in ALL_TILES)
    # 灌南: 108 + 东南西北各一张
    assert [SET_112_WINDS.copies(k) for k in (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.RED)] == [1, 1, 1, 1, 0]
    assert SET_112_RED.copies(Tile.RED) == 4 and SET_112_RED.copies(Tile.EAST) == 0
    # 卡五星: 条 + 筒 + 中发白, no 万, no winds
    assert not SET_84.has_suit("m") and SET_84.copies(Tile.S5) == 4 and SET_84.copies(Tile.GREEN) == 4
    assert SET_84.copies(Tile.EAST) == 0


def test_composition_is_addition():
    assert (SUITS + WINDS_SET + DRAGONS_SET).counts == SET_136.counts
    assert (SET_136 + FLOWERS_SET).counts == SET_144.counts
    assert SUITS.without_suit("p").size == 72
