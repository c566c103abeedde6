"""The wall map: reads land in their slots; doubled reads and stray tags are resolved, never guessed."""

from collections import Counter

from firmware.build.registry import Registered, TileRegistry
from firmware.build.wall_map import WallMap, _multiset_problems, name_tiles, wrong_tile_set
from rulesets.tiles import FLOWERS, HONOURS, WINDS, Tile
from rulesets.tilesets import SET_108, SET_112_RED, SET_112_WINDS, SET_136, SET_144, TileSet
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


def test_missing_and_extra_tiles_are_named_in_english_and_chinese():
    registry, wall = setup([Tile.M1, Tile.M1])
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(2),))
    problems = wall.check(EXPECTED, 0)
    assert [(p.message, p.text_zh) for p in problems] == [
        ("1 extra 一万 (1m): the set holds 1; take it out", "多了 1 张 一万（一副牌只有1张）"),
        ("missing 1 × 二万 (2m): find it and put it in the table", "缺 1 张 二万"),
    ]


def test_a_kind_the_ruleset_does_not_use_is_said_so():
    registry, wall = setup([Tile.M1, Tile.M2])
    registry.enroll([Registered(uid(3), Tile.RED, 0, 0)])     # the set holds a 红中 beside its two tiles
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(3),))
    assert [p.text_zh for p in wall.check(EXPECTED, 0)] == ["牌桌有3张牌，本规则用2张：请取出红中"]
    extra = _multiset_problems(Counter({Tile.M1: 1, Tile.RED: 1}), Counter({Tile.M1: 1}), unread=False)
    assert [(p.message, p.text_zh) for p in extra] == [
        ("1 extra 红中 (7z) this ruleset does not use: take it out", "多了 1 张 红中（本规则不用）")]


def enrolled(tile_set: TileSet) -> TileRegistry:
    registry = TileRegistry()
    registry.enroll([Registered(bytes([0xE0, 0, 0, 0, 0, index >> 8, index & 0xFF, 7]), kind, 0, index)
                     for index, kind in enumerate(tile_set.tiles())])
    return registry


def test_the_wrong_tile_set_is_named_as_the_cause():
    """issue 13 item 6: a 108-tile ruleset on a 136-tile table said `missing 2 × 一万` and 22 more."""
    problem = wrong_tile_set(enrolled(SET_136).counts(0), SET_108, "四川麻将")
    assert problem.message == "this table holds 136 tiles; 四川 plays 108: take out the 字牌"
    assert problem.text_zh == "牌桌有136张牌，四川用108张：请取出字牌"
    short = wrong_tile_set(enrolled(SET_108).counts(0), SET_136, "长春麻将")
    assert short.message == "this table holds 108 tiles; 长春 plays 136: add the 字牌 (and enrol them)"
    assert short.text_zh == "牌桌有108张牌，长春用136张：请加入字牌并登记"
    other = wrong_tile_set(enrolled(SET_112_WINDS).counts(0), SET_112_RED, "")
    assert other.text_zh == "牌桌的牌与本规则不符：请取出风牌，请加入红中并登记"
    assert wrong_tile_set(enrolled(SET_144).counts(0), SET_136, "长春").text_zh.endswith("请取出花牌")
    assert wrong_tile_set(enrolled(SET_136).counts(0), SET_136, "长春") is None


def test_a_wrong_tile_set_is_one_problem_not_a_list_of_tiles():
    registry = enrolled(SET_136)
    wall = WallMap(None, (14, 13, 14, 13), registry)
    kinds = SET_136.tiles()
    for index, position in enumerate(wall.positions()):     # the first 108 tiles of a 136 set
        wall.reads[position] = (bytes([0xE0, 0, 0, 0, 0, index >> 8, index & 0xFF, 7]),)
        wall.uids[position] = wall.reads[position][0]
    assert len(kinds) == 136 and len(wall.positions()) == 108
    problems = wall.check(SET_108, 0, "四川麻将")
    assert [p.text_zh for p in problems] == ["牌桌有136张牌，四川用108张：请取出字牌"]


def test_groups_of_tiles_are_named_by_their_names():
    assert name_tiles(set(HONOURS)) == "字牌"
    assert name_tiles(set(WINDS) | {Tile.RED}) == "风牌、红中"
    assert name_tiles(set(FLOWERS) | {Tile.M1}) == "花牌、一万"


def test_a_build_of_no_tile_is_one_problem_saying_why_not_every_kind_missing():
    """A 确认 at the push-in before the tiles were pushed in built from an empty mixer: the fault page
    listed all 34 kinds as missing (缺 4 张 一万；…) instead of where the tiles were."""
    registry = TileRegistry()
    problems = WallMap(0, (17, 17, 17, 17), registry).check(SET_136, 0)
    assert len(problems) == 1 and "no tile was built" in problems[0].message
    assert problems[0].text_zh.startswith("一张牌也没有建成")


def test_a_foreign_tile_does_not_hide_the_tile_missing():
    """A probe at the table: a foreign tile in the build left the missing tile unnamed; the person took
    the foreign tile out, as the page said, and the next build came up short."""
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(77),))                # a foreign tile where the 二万 should be
    texts = [p.text_zh for p in wall.check(EXPECTED, 0)]
    assert texts == ["边0 墩0 下层有未登记的牌", "缺 1 张 二万"]


def test_a_duplicated_tag_names_the_tile_and_both_slots():
    """The page said only a tag's number read at 2 slots: a person cannot find the tiles by that."""
    registry, wall = setup([Tile.M1, Tile.M2])
    wall.on_head_read(0, 0, (uid(1),))
    wall.on_head_read(0, 1, (uid(1),))
    wall.on_head_read(0, 1, (uid(1),))                 # read again: still the same tag
    duplicated = [p for p in wall.check(EXPECTED, 0) if "重复" in p.text_zh]
    assert [p.text_zh for p in duplicated] == ["一万标签重复：边0 墩0 上层、边0 墩0 下层"]


def test_a_build_of_no_enrolled_tag_is_one_problem_naming_the_set_never_enrolled():
    """Set 1 never enrolled: its build was 136 "unknown tags" to take out one by one (E09 on every slot,
    a 17,680-character log line, and 34 kinds "missing"), where one step mends it (a probe)."""
    registry = enrolled(SET_136)                                     # set 0 only
    wall = WallMap(None, (17, 17, 17, 17), registry)
    for index, position in enumerate(wall.positions()):
        wall.reads[position] = (bytes([0xE0, 0x04, 1, 0, 0, 0, index, 9]),)
    (problem,) = wall.check(SET_136, None, "长春麻将")
    assert problem.message.startswith("none of the 136 tags read in this build is enrolled (enrolled: set 0: 136 tags)")
    assert "mahjong-table enroll --set 1" in problem.message and problem.text_zh == "这副牌未登记：请登记后按确认"
