"""Named hands: each test is one shape or rule, with its Chinese name, on hand-written hands."""

from __future__ import annotations

from rulesets.tiles import Tile, parse_tiles
from rulesets.winning import (PAIRS_258, Evaluator, GroupKind, ShapeKind, Shapes, WinRole,
                              decompositions, evaluate, is_complete, min_wilds_as_wild, waits)

NONE: frozenset[Tile] = frozenset()
ALL_KINDS = tuple(Tile(k) for k in range(34))
ONE_SUIT_M = tuple(Tile(k) for k in range(9))


def hand(text: str) -> list[Tile]:
    return parse_tiles(text)


def test_pinghu_plain_standard_hand() -> None:
    """平胡: four melds and a pair, no wilds."""
    assert is_complete(hand("123m456p789s111z55m"), NONE, 4, Shapes())
    assert not is_complete(hand("123m456p789s112z55m"), NONE, 4, Shapes())


def test_declared_melds_reduce_the_melds_needed() -> None:
    """碰/吃 melds are declared: the concealed part of a 13-tile hand with two melds is 8 tiles."""
    assert is_complete(hand("123m456p55s"), NONE, 2, Shapes())
    assert is_complete(hand("55s"), NONE, 0, Shapes())
    assert not is_complete(hand("56s"), NONE, 0, Shapes())


def test_sixteen_tile_hand_five_melds() -> None:
    """16 张麻将: five melds and a pair from 17 tiles."""
    assert is_complete(hand("123m456m789m123p456p11z"), NONE, 5, Shapes())
    assert not is_complete(hand("123m456m789m123p457p11z"), NONE, 5, Shapes())


def test_caishen_wild_assignment_hangzhou_baiban() -> None:
    """杭州 财神 = 白板 (fixed wild): the 白板 completes 78s as 6s or 9s, and says which."""
    shape = evaluate(hand("123m456p78s111z55m5z"), {Tile.WHITE}, 4, Shapes())
    assert shape is not None and shape.shape is ShapeKind.STANDARD
    assert shape.assignment in (((Tile.WHITE, Tile.S6),), ((Tile.WHITE, Tile.S9),))
    assert shape.wilds_as_wild == 1 and shape.wilds_natural == 0
    chow = next(g for g in shape.groups if Tile.WHITE in g.sources)
    assert chow.kind is GroupKind.CHOW and chow.wild_positions == (chow.sources.index(Tile.WHITE),)


def test_baida_baiban_plays_the_wild_face_wenzhou() -> None:
    """温州 / 百搭: 白板 = 财神本牌 — with 9m wild, a 白板 is a natural 9m, never a wild."""
    wilds, stand = frozenset({Tile.M9}), {Tile.WHITE: Tile.M9}
    tiles = hand("78m5z456p789s111z22p")
    shape = evaluate(tiles, wilds, 4, Shapes(), stand_ins=stand)
    assert shape is not None and shape.assignment == () and shape.wilds_as_wild == 0
    chow = next(g for g in shape.groups if g.tiles == (Tile.M7, Tile.M8, Tile.M9))
    assert chow.sources == (Tile.M7, Tile.M8, Tile.WHITE) and chow.wild_positions == ()
    # without the stand-in rule the 白板 is just a 白板
    assert not is_complete(tiles, wilds, 4, Shapes())


def test_zuanpai_hongzhong_plays_the_zuan_face() -> None:
    """钻牌 (§26.2): 红中 plays the natural face of the 钻 kind (here 3p)."""
    tiles = hand("12p7z456m789s111z99m")
    assert is_complete(tiles, {Tile.P3}, 4, Shapes(), stand_ins={Tile.RED: Tile.P3})
    assert not is_complete(tiles, {Tile.P3}, 4, Shapes())


def test_wild_standing_for_its_own_face_is_natural() -> None:
    """A wild used as itself is natural: 硬胡 (no wild used as a wild) needs 0 wilds as wild."""
    tiles = hand("123m456p789s111z9m9m")  # 9m wild, the pair 99m is natural
    assert min_wilds_as_wild(tiles, {Tile.M9}, 4, Shapes()) == 0
    shape = evaluate(tiles, {Tile.M9}, 4, Shapes())
    assert shape is not None and shape.wilds_natural == 2 and shape.wilds_as_wild == 0
    assert shape.assignment == ((Tile.M9, Tile.M9), (Tile.M9, Tile.M9))


def test_at_most_one_laizi_in_a_pihu() -> None:
    """武汉 (§20): 「两个癞子胡屁胡不能胡」 — this hand needs two 赖子 as wilds, that one only one."""
    wilds = {Tile.RED}
    assert min_wilds_as_wild(hand("13m456p789s111z55m7z"), wilds, 4, Shapes(pair_kinds=PAIRS_258)) == 1
    assert min_wilds_as_wild(hand("1m456p789s111z55m7z7z"), wilds, 4, Shapes(pair_kinds=PAIRS_258)) == 2
    assert min_wilds_as_wild(hand("1m456p789s111z56m7z7z"), wilds, 4, Shapes(pair_kinds=PAIRS_258)) is None


def test_pair_258_changsha() -> None:
    """长沙 二五八将 (§12): the pair must be a 2, 5 or 8; two wilds may be one."""
    shapes = Shapes(pair_kinds=PAIRS_258)
    assert is_complete(hand("123m456m789m234p55p"), NONE, 4, shapes)
    assert not is_complete(hand("123m456m789m234p33p"), NONE, 4, shapes)
    assert is_complete(hand("123m456m789m234p33p"), NONE, 4, Shapes())
    wild_pair = evaluate(hand("123m456m789m234p7z7z"), {Tile.RED}, 4, shapes)
    assert wild_pair is not None and wild_pair.pairs[0].tiles[0] in PAIRS_258
    assert waits(hand("123m456m789m234p5p"), NONE, 4, shapes, ALL_KINDS) == (Tile.P2, Tile.P5)
    assert waits(hand("123m456m789m234p3p"), NONE, 4, shapes, ALL_KINDS) == ()


def test_listed_pair_kinds() -> None:
    """A region may list any pair kinds (here dragons only)."""
    shapes = Shapes(pair_kinds=frozenset({Tile.WHITE, Tile.GREEN, Tile.RED}))
    assert is_complete(hand("123m456m789m234p66z"), NONE, 4, shapes)
    assert not is_complete(hand("123m456m789m234p11z"), NONE, 4, shapes)
    assert waits(hand("123m456m789m234p6z"), NONE, 4, shapes, ALL_KINDS) == (Tile.GREEN,)


def test_seven_pairs_qidui_with_a_four_of_a_kind() -> None:
    """七对 / 豪华七对: a four-of-a-kind counts as two pairs unless the region says not."""
    tiles = hand("11112233445566m")
    assert is_complete(tiles, NONE, 4, Shapes(standard=False, seven_pairs=True))
    assert not is_complete(tiles, NONE, 4, Shapes(standard=False, seven_pairs=True, four_as_two_pairs=False))
    shape = evaluate(hand("1133557799m1133p"), NONE, 4, Shapes(seven_pairs=True))
    assert shape is not None and shape.shape is ShapeKind.SEVEN_PAIRS and len(shape.pairs) == 7


def test_seven_pairs_with_wilds() -> None:
    """七对 with wilds: each single takes one wild; extra wilds pair up."""
    shapes = Shapes(standard=False, seven_pairs=True)
    assert is_complete(hand("1133557799m13p7z7z"), {Tile.RED}, 4, shapes)
    assert not is_complete(hand("1133557799m135p7z"), {Tile.RED}, 4, shapes)
    shape = evaluate(hand("1133557799m7z7z7z7z"), {Tile.RED}, 4, shapes)
    assert shape is not None and shape.wilds_natural == 4  # two pairs of 红中 as themselves
    distinct = Shapes(standard=False, seven_pairs=True, four_as_two_pairs=False)
    shape = evaluate(hand("11335577m99p7z7z7z7z"), {Tile.RED}, 4, distinct)
    assert shape is not None and len({g.tiles[0] for g in shape.pairs}) == 7


def test_thirteen_orphans_shisanyao_with_wilds() -> None:
    """十三幺: one of each terminal and honour plus one more; wilds fill the gaps."""
    shapes = Shapes(standard=False, thirteen_orphans=True)
    assert is_complete(hand("19m19p19s1234567z1m"), NONE, 4, shapes)
    assert not is_complete(hand("19m19p19s1234567z2m"), NONE, 4, shapes)
    tiles = hand("19m19p19s123456z") + [Tile.P5, Tile.P5]  # 5p wild: 7z and a duplicate missing
    shape = evaluate(tiles, {Tile.P5}, 4, shapes)
    assert shape is not None and shape.shape is ShapeKind.THIRTEEN_ORPHANS
    assert (Tile.P5, Tile.RED) in shape.assignment and shape.wilds_as_wild == 2
    assert len(decompositions(tiles, {Tile.P5}, 4, shapes)) == 13  # the pair can be any orphan
    assert waits(hand("19m19p19s123456z1m"), NONE, 4, shapes, ALL_KINDS) == (Tile.RED,)
    assert len(waits(hand("19m19p19s1234567z"), NONE, 4, shapes, ALL_KINDS)) == 13


def test_shisanlan_nanchang() -> None:
    """十三烂 (南昌 §10): 14 different tiles, suit tiles at least three ranks apart, honours distinct."""
    shapes = Shapes(standard=False, shisanlan=True)
    assert is_complete(hand("147m258p369s12345z"), NONE, 4, shapes)
    assert is_complete(hand("159m14p369s123457z"), NONE, 4, shapes)
    assert not is_complete(hand("147m258p369s12344z"), NONE, 4, shapes)  # two 北
    assert not is_complete(hand("124m258p369s12345z"), NONE, 4, shapes)  # 1m 2m too close
    shape = evaluate(hand("147m258p36s12345z") + [Tile.S9], {Tile.S9}, 4, shapes)
    assert shape is not None and shape.wilds_as_wild == 0  # the wild 9s is itself
    shape = evaluate(hand("147m258p36s12345z8s"), {Tile.S8}, 4, shapes)
    assert shape is not None and shape.assignment == ((Tile.S8, Tile.GREEN),)  # honours first


def test_eight_pairs_plus_single_wenzhou() -> None:
    """八对+单张 (温州, 17 tiles): eight pairs and one single."""
    shapes = Shapes(standard=False, eight_pairs_plus_single=True)
    assert is_complete(hand("1122334455667788m9p"), NONE, 5, shapes)
    assert not is_complete(hand("1122334455667789m9p"), NONE, 5, shapes)
    assert is_complete(hand("1122334455667789m") + [Tile.RED], {Tile.RED}, 5, shapes)
    shape = evaluate(hand("1122334455667788m9p"), NONE, 5, shapes)
    assert shape is not None and len(shape.pairs) == 8
    assert [g.kind for g in shape.groups].count(GroupKind.SINGLE) == 1


def test_honour_chows_nanchang() -> None:
    """南昌 (§10): three different winds, or 中发白, form a chow."""
    shapes = Shapes(honour_chows=True)
    assert is_complete(hand("123z567z123m456m11p"), NONE, 4, shapes)
    assert is_complete(hand("124z567z123m456m11p"), NONE, 4, shapes)  # 东南北
    assert not is_complete(hand("123z567z123m456m11p"), NONE, 4, Shapes())
    assert not is_complete(hand("125z567z123m456m11p"), NONE, 4, shapes)  # 东南白 is not a class
    shape = evaluate(hand("12z567z123m456m11p") + [Tile.M9], {Tile.M9}, 4, shapes, win_tile=Tile.SOUTH)
    assert shape is not None and shape.win_role is WinRole.HONOUR_CHOW
    assert shape.assignment[0][1] in (Tile.WEST, Tile.NORTH)


def test_jiulian_waits_nine_kinds() -> None:
    """九莲宝灯 1112345678999m waits on all nine 万."""
    assert waits(hand("1112345678999m"), NONE, 4, Shapes(), ALL_KINDS) == ONE_SUIT_M


def test_waits_with_wilds_and_the_fourth_copy() -> None:
    """A kind held four times is no wait; a wild in hand widens the waits."""
    assert waits(hand("11112m234p567s88s"), NONE, 4, Shapes(), ALL_KINDS) == (Tile.M3,)
    assert waits(hand("1111m234p567s888s"), NONE, 4, Shapes(), ALL_KINDS) == ()  # only 1m would do
    wide = waits(hand("1111m234p567s88s7z"), {Tile.RED}, 4, Shapes(), ALL_KINDS)
    assert Tile.M1 not in wide and Tile.RED in wide and Tile.S8 in wide and Tile.M2 in wide
    ev = Evaluator({Tile.RED}, Shapes())
    assert ev.waits(hand("7z"), 0, ALL_KINDS) == ALL_KINDS  # a lone wild pairs with anything


def test_win_tile_roles() -> None:
    """单吊, 边张, 坎张, 两面, 双碰: the role of the winning tile in its group."""

    def roles(text: str, win: str) -> set[WinRole]:
        return {d.win_role for d in decompositions(hand(text), NONE, 4, Shapes(), win_tile=Tile.parse(win))}

    assert roles("123m456p789s111z55m", "5m") == {WinRole.PAIR}
    assert roles("123m456p789s111z55m", "3m") == {WinRole.EDGE}
    assert roles("123m456p789s111z55m", "7s") == {WinRole.EDGE}
    assert roles("123m456p789s111z55m", "2m") == {WinRole.CLOSED}
    assert roles("123m456p789s111z55m", "4p") == {WinRole.OPEN}
    assert roles("123m456p789s111z55m", "1z") == {WinRole.PUNG}
    assert roles("123m345m789s111z55m", "3m") == {WinRole.EDGE, WinRole.OPEN}


def test_decompositions_pungs_or_chows() -> None:
    """111222333m: three pungs (碰碰胡 reading) or three chows — both are listed."""
    readings = decompositions(hand("111222333m456p99s"), NONE, 4, Shapes())
    assert len(readings) == 2
    assert sum(1 for d in readings if d.all_pungs) == 0  # 456p is a chow in both
    kinds = sorted(sorted(g.kind.value for g in d.melds) for d in readings)
    assert kinds == [["chow", "chow", "chow", "chow"], ["chow", "pung", "pung", "pung"]]


def test_free_wild_groups_are_listed_once() -> None:
    """Three wilds make one free group (any meld), shown as a pung of the wild's own face."""
    readings = decompositions(hand("123m456p55s") + [Tile.RED] * 3, {Tile.RED}, 3, Shapes())
    free = [g for d in readings for g in d.groups if g.free]
    assert free and all(set(g.tiles) == {Tile.RED} for g in free)
    assert {g.kind for g in free} == {GroupKind.PUNG, GroupKind.PAIR}
    assert any(d.wilds_as_wild == 0 for d in readings)
