"""Values many region cards share, each with the reason it is the default.

A region card uses these only where its text is silent; where the text speaks, the card quotes it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from ..dealing import DealPattern
from ..definition import Flowers, HouseOption, Phase, Play
from ..dice import SumPicksWallSkipSum
from ..provenance import Amended, Choice, Derived, Given, Source, Sourced, choice, default, open_question, research
from ..reserve import FixedStacks, NoReserve
from ..rotation import RotationRule
from ..tiles import FLOWERS
from ..tilesets import TileSet
from ..walls import End, WallLayout

FOUR_SIDES = (0, 1, 2, 3)

DEFAULT_DEAL = Given(DealPattern(13), default(
    "4-4-4 then 跳牌, the common Chinese deal (DESIGN.md §4); the text does not describe the deal"))



@dataclass(frozen=True)
class BreakStart:
    """The break procedure and its house options for a region whose text states neither how many
    dice the break's roll uses nor whether the sum's stacks are skipped (RULES.md §35.1)."""

    procedure: Derived
    options: tuple[HouseOption, HouseOption]


def break_start(procedure: str) -> BreakStart:
    """One roll, the sum picking the wall; `procedure` says where the roll's procedure comes from.
    Two dice and the sum skipped by default, as 上海 states; one die, or drawing from the sum-th
    stack, by house options `break_dice` and `break_start` (RULES.md §35.1: the controller must offer
    both where the text is silent)."""
    start = HouseOption(
        "break_start", "开牌 (break)",
        (("skip", "skip the sum in stacks, then draw"), ("at", "start drawing at the stack numbered by the sum")),
        "skip", open_question("§0.1, §35.1", "「skip N」 vs 「start at N」 is not stated here; skip, as 上海 states "
                                             "(「先挪走7墩牌后开始摸牌」 §4.2); 南京 and 长沙 start at a stack (§28, §12.2)"),
        value_labels=(("skip", "跳过点数墩"), ("at", "从点数墩起")))
    dice = HouseOption(
        "break_dice", "开牌骰子 (dice for the break)",
        (("2", "two dice: their sum picks the wall and counts the stacks"), ("1", "one die: its pips do")),
        "2", open_question("§0.1, §35.1", "how many dice the break's roll uses is not stated here; two, as 上海's "
                                          "worked roll (「一个骰子2、一个骰子5，那么总和为7」 §4.2) and the table's dice cup"),
        value_labels=(("2", "两个骰子"), ("1", "一个骰子")))
    return BreakStart(Derived(lambda o: SumPicksWallSkipSum(-1 if o["break_start"] == "at" else 0,
                                                            dice_per_roll=int(o["break_dice"])),
                              default(procedure), ("break_start", "break_dice")), (start, dice))


DEFAULT_BREAK = break_start("not stated; the one-roll procedure the texts state for 上海 (RULES.md §4.2) and 螺山 (§31.2)")
THREE_SIDES_BREAK = break_start("not stated; one roll, the sum counted over the three playing sides (上海 §4.2, 螺山 §31.2)")

DEFAULT_ROTATION = Given(RotationRule("keep", "next", "keep", "nearest_winner"), default(
    "not stated; 庄家胡连庄, 闲家胡下庄, 荒庄庄家不变 as 长春 (§1.5) and file 001 (§7.5) state"))

TAIL_REPLACEMENT = Given(End.TAIL, default(
    "not stated; replacement draws come from the tail in every text that says (§1.4, §24, §25, §31.4)"))

NO_FLOWERS = Given(Flowers(), default("the tile set has no bonus tiles"))

NO_PHASES = Given((), default("the text names no special phase"))

NO_INDICATORS = Given((), default("the text names no indicator"))

DEFAULT_HAND_SIZE = Given(13, default("not stated; 13 in hand, the dealer 14"))

DEFAULT_PLAYERS = Given(FOUR_SIDES, default("not stated; 4 players"))

DEFAULT_PLAY = Given(Play(), default("not stated; 吃 from 上家, 碰 and 杠, wins on a discard or self-drawn, one winner"))


def four_players(source: Source) -> Given:
    return Given(FOUR_SIDES, source)


def walls_for(tiles: TileSet, sides: tuple[int, ...], source: Source) -> Given:
    """Stacks per side spread evenly (RESEARCH.md §1.1: 17 for 136, 18 for 144, 13.5 for 108)."""
    return Given(WallLayout.for_tiles(tiles.size, sides).stacks_per_side, source)


def flowers_from_tail(source: Source) -> Given:
    return Given(Flowers(FLOWERS, End.TAIL), source)


@dataclass(frozen=True)
class DeadWall:
    """The reserve and its house option for a region whose text keeps no dead wall."""

    choice: Choice
    option: HouseOption


def dead_wall(reason: str) -> DeadWall:
    """`reason` completes "a dead wall is …", e.g. "not stated (§6)"."""
    return DeadWall(dead_wall_choice(reason), dead_wall_option(reason))


def dead_wall_option(reason: str) -> HouseOption:
    """For regions whose text keeps no dead wall: play to the last tile, or keep 7 stacks."""
    return HouseOption(
        "dead_wall", "留牌 (dead wall)",
        (("none", "no reserve: draw to the last tile"),
         ("7_stacks", "keep the last 7 stacks (留7墩, as 长春 §1.4 without its kong rule)")),
        "none", default(f"a dead wall is {reason}; without one the hand is drawn to the last tile"),
        value_labels=(("none", "不留"), ("7_stacks", "留7墩")))


def dead_wall_choice(reason_none: str) -> Choice:
    """The reserve for a region whose text keeps no dead wall: none by default, 7 stacks by option."""
    return choice("dead_wall", {
        "none": Given(NoReserve(), default(f"a dead wall is {reason_none}: the hand is drawn to the last tile")),
        "7_stacks": Given(FixedStacks(7), default("the house keeps 7 stacks, the 留7墩 of 长春 (§1.4)")),
    })


# --- 一炮多响: the opening block's dealer rule -------------------------------------------------

YIPAO_DEALER = HouseOption(
    "yipao_dealer", "一炮多响 庄家 (the dealer among several winners)",
    (("region", "the region's own rule for several winners of one discard"),
     ("dealer_stays", "the dealer deals again when he is among them "
                      "(「如果一炮多响包括庄家在内和牌下一轮庄家继续当庄」)")),
    "region", open_question("§5", "the opening block of 000/004 states this rule without naming a region "
                                  "(「允许一炮多响，如果一炮多响包括庄家在内和牌下一轮庄家继续当庄」): every region where one "
                                  "discard can make several winners offers it; the region's own rule stays the default"),
    value_labels=(("region", "按本地规则"), ("dealer_stays", "庄家在内连庄")))


def with_yipao_dealer(rotation: Sourced) -> Amended:
    """A region's rotation with the opening block's 一炮多响 rule (RULES.md §5) as house option `yipao_dealer`."""
    return Amended(rotation, YIPAO_DEALER.key,
                   lambda rule, value: replace(rule, dealer_among_winners_keeps=value == "dealer_stays"))


# --- the first dealer of a session ------------------------------------------------------------

FIRST_DEALER = "first_dealer"


def first_dealer_option(source: Source) -> HouseOption:
    """For a region whose text chooses the first dealer by chance or by dice: a roll at the session's
    first hand (side 0 rolls; the sum counted 逆时针 from side 0 names the dealer), or side 0 (东)."""
    return HouseOption(
        FIRST_DEALER, "首局定庄 (first dealer)",
        (("dice", "the session's first hand begins with a roll: side 0 rolls two dice, and their sum counted "
                  "逆时针 from side 0 (as 1) names the dealer"),
         ("east", "side 0 (东) deals the session's first hand: the players choose their seats")),
        "dice", source, value_labels=(("dice", "掷骰定庄"), ("east", "东家先庄")))


def rolls_for_first_dealer(options: Mapping[str, str]) -> bool:
    """Whether a session's first hand begins with the dealer's roll (house option first_dealer)."""
    return options.get(FIRST_DEALER) == "dice"


# --- three-player tables ---------------------------------------------------------------------

EMPTY_SIDE_OPTION = HouseOption(
    "empty_side", "空位 (empty side)",
    (("0", "side 0 sits out"), ("1", "side 1 sits out"), ("2", "side 2 sits out"), ("3", "side 3 sits out")),
    "3", research("§1.1", "3-player games are played on a 4-seat table with one seat not dealt; "
                  "which seat is the owner's choice (default: side 3)"),
    value_labels=tuple((str(side), f"边{side}空") for side in range(4)))


def three_player_sides(options: Mapping[str, str]) -> tuple[int, ...]:
    empty = int(options["empty_side"])
    return tuple(s for s in FOUR_SIDES if s != empty)


def three_players(source: Source) -> Derived:
    return Derived(three_player_sides, source, ("empty_side",))


def three_player_walls(tiles: TileSet, source: Source) -> Derived:
    return Derived(lambda o: WallLayout.for_tiles(tiles.size, three_player_sides(o)).stacks_per_side,
                   source, ("empty_side",))


def phase(name: str, description: str) -> Phase:
    return Phase(name, description)
