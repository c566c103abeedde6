"""The wall map: reads land in their slots; doubled reads and stray tags are resolved, never guessed."""

from firmware.build.registry import Registered, TileRegistry
from firmware.build.wall_map import WallMap
from rulesets.tiles import Tile
from rulesets.tilesets import TileSet
from rulesets.walls import Layer, StackPos


def uid(n: int) -> bytes:
    return bytes([0xE0, 0x04, 0, 0, 0, 0, 0, n])


def setup(kinds):
    registry = TileRegistry()
    registry.enroll([Registered(uid(i + 1), kind, 0, i) for i, kind in enumerate(kinds)])
    registry.enroll([Registered(uid(100), Tile.RED, 1, 0)])
    return registry, WallMap(None, (1, 0, 0, 0), registry)


EXPECTED = TileSet("two", ((Tile.M1, 1), (Tile.M2, 1)))


def test_reads_land_in_top_then_bottom():
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(2),))
    assert wall.tile_at(StackPos(0, 0), Layer.TOP) == Tile.M1 and wall.tile_at(StackPos(0, 0), Layer.BOTTOM) == Tile.M2
    assert wall.check(EXPECTED, 0) == []


def test_a_doubled_read_keeps_the_new_tag():
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(1), uid(2)))          # the previous tile's tag still in the field
    assert wall.uid_at(StackPos(0, 0), Layer.BOTTOM) == uid(2) and wall.check(EXPECTED, 0) == []


def test_a_stray_tag_beside_the_tile_is_only_noted():
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, (uid(1), uid(77)))
    wall.on_head_read(0, 1, (uid(2),))
    assert wall.check(EXPECTED, 0) == [] and wall.stray_tags() == [uid(77)]


def test_a_missed_read_is_flagged_not_guessed():
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, ())
    wall.on_head_read(0, 1, (uid(2),))
    problems = [p.message for p in wall.check(EXPECTED, 0)]
    assert problems == ["slot side 0 stack 0 top was not read; rebuild the set"]


def test_a_foreign_tile_and_a_tile_of_the_other_set_are_named():
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, (uid(77),))
    wall.on_head_read(0, 1, (uid(100),))
    messages = " / ".join(p.message for p in wall.check(EXPECTED, 0))
    assert "unknown tag" in messages and "slot side 0 stack 0 top" in messages
    assert "红中 (7z) of set 1 in a build of set 0" in messages


def test_missing_and_extra_tiles_are_named():
    registry, wall = setup([Tile.M1, Tile.M1])
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(2),))
    messages = [p.message for p in wall.check(EXPECTED, 0)]
    assert "missing 1 × 二万 (2m): find it and put it in the table" in messages
    assert "1 extra 一万 (1m) this ruleset does not use: take it out" in messages
