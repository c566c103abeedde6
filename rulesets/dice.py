"""Dice and the break: named procedures from the texts (RULES.md §0.1).

Counting seats with dice: the roller counts as 1 and counting goes 逆时针 (towards 下家), over
the sides in play — so a sum of 7 from side 0 lands on 对家 (side 2), 9 on the roller's own wall.
Counting stacks on a wall goes from that player's right end (the draw direction), so "skip k"
means ring[0] is stack k of the wall.

Each procedure takes the rolls in order (each roll a tuple of die values) and returns a
`BreakResult`: the break, the rolls it used and who rolled each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .walls import Break

Roll = tuple[int, ...]


class DiceError(ValueError):
    """Dice values that this procedure cannot use."""


@dataclass(frozen=True)
class BreakResult:
    brk: Break
    rolls: tuple[Roll, ...]
    rollers: tuple[int, ...]


def count_seats(start: int, count: int, sides: Sequence[int]) -> int:
    """The side reached counting `count` seats 逆时针 from `start`, which counts as 1."""
    ordered = sorted(sides)
    if start not in ordered:
        raise DiceError(f"side {start} is not playing (playing sides: {ordered})")
    return ordered[(ordered.index(start) + count - 1) % len(ordered)]


def dealer_by_roll(roller: int, roll: Sequence[int], sides: Sequence[int]) -> int:
    """The first dealer a roll names (螺山 「由这一家开始逆时针数掷出的骰子点数和即为庄家」): the dice's
    sum counted 逆时针 from the roller, who counts as 1."""
    return count_seats(roller, sum(roll), sides)


def check_rolls(rolls: Sequence[Roll], needed: int, dice_per_roll: int) -> tuple[Roll, ...]:
    """Validate the number of rolls and dice and each die's value; raise DiceError naming the problem."""
    if len(rolls) < needed:
        raise DiceError(f"this break needs {needed} roll(s) of {dice_per_roll} dice, got {len(rolls)}")
    for roll in rolls[:needed]:
        if len(roll) != dice_per_roll:
            raise DiceError(f"each roll needs {dice_per_roll} {'die' if dice_per_roll == 1 else 'dice'}, "
                            f"got {len(roll)} in {list(roll)}")
        for die in roll:
            if not 1 <= die <= 6:
                raise DiceError(f"a die shows 1-6, got {die}")
    return tuple(tuple(r) for r in rolls[:needed])


@dataclass(frozen=True)
class SumPicksWallSkipSum:
    """One roll of two dice: the sum counted 逆时针 from the roller picks the wall; skip `sum + offset` stacks.

    上海 (RULES.md §4.2): 「一个骰子2、一个骰子5，那么总和为7，从摇骰子玩家的对家方向先挪走7墩牌后开始摸牌」;
    螺山 (§31.2) the same count.  `offset=-1` reads "start at the sum-th stack" instead of "skip";
    `dice_per_roll=1` rolls one die (a region whose text does not say how many: house option `break_dice`).
    """

    offset: int = 0
    name: str = "sum_picks_wall_skip_sum"
    rolls_needed: int = 1
    dice_per_roll: int = 2

    def describe(self) -> str:
        start = "skip the sum in stacks" if self.offset == 0 else "start at the stack numbered by the sum"
        dice = {1: "one die", 2: "two dice"}.get(self.dice_per_roll, f"{self.dice_per_roll} dice")
        return f"the dealer rolls {dice} once; the sum counted 逆时针 from the dealer picks the wall; {start}"

    def break_for(self, dealer: int, sides: Sequence[int], rolls: Sequence[Roll]) -> BreakResult:
        (roll,) = check_rolls(rolls, 1, self.dice_per_roll)
        wall = count_seats(dealer, sum(roll), sides)
        return BreakResult(Break(wall, sum(roll) + self.offset), (roll,), (dealer,))


@dataclass(frozen=True)
class TwoRollsWallThenSkip:
    """The dealer rolls twice: roll 1 counted 逆时针 picks the wall, roll 2's sum the stacks to skip.

    长春/吉林 (RULES.md §1.2): 「庄家摇两次筛子，第一次逆时针数点找到先拿牌的人，先拿牌的人再从自己面前的牌堆右向左
    按根据第二次摇筛子的两个筛子点数之和的点数开始拿牌」.  `offset=-1` reads "start at that stack".
    """

    offset: int = 0
    name: str = "two_rolls_wall_then_skip"
    rolls_needed: int = 2
    dice_per_roll: int = 2

    def describe(self) -> str:
        start = "skips that many stacks" if self.offset == 0 else "starts at that stack"
        return ("the dealer rolls twice: roll 1's sum counted 逆时针 from the dealer picks the wall; "
                f"roll 2's sum, counted from that wall's right end, {start}")

    def break_for(self, dealer: int, sides: Sequence[int], rolls: Sequence[Roll]) -> BreakResult:
        first, second = check_rolls(rolls, 2, 2)
        wall = count_seats(dealer, sum(first), sides)
        return BreakResult(Break(wall, sum(second) + self.offset), (first, second), (dealer, dealer))


@dataclass(frozen=True)
class SecondRollerPicksStart:
    """The dealer's roll picks the second roller (counted 逆时针); the break is on the second roller's wall.

    南京 (RULES.md §28): 「庄家掷6点，则由下家掷，下家掷11点，则由庄家开始从下家第12墩开始抓牌」 — skip roll 2
    (`skip_from="second"`).  温州 (RESEARCH.md §3.3) adds both rolls (`skip_from="both"`).
    """

    skip_from: str = "second"
    name: str = "second_roller_picks_start"
    rolls_needed: int = 2
    dice_per_roll: int = 2

    def describe(self) -> str:
        skip = "roll 2's sum" if self.skip_from == "second" else "the sum of both rolls"
        return ("the dealer rolls; counted 逆时针 it picks who rolls second; on the second roller's wall, "
                f"skip {skip} in stacks from the right")

    def break_for(self, dealer: int, sides: Sequence[int], rolls: Sequence[Roll]) -> BreakResult:
        first, second = check_rolls(rolls, 2, 2)
        roller = count_seats(dealer, sum(first), sides)
        skip = sum(second) if self.skip_from == "second" else sum(first) + sum(second)
        return BreakResult(Break(roller, skip), (first, second), (dealer, roller))


@dataclass(frozen=True)
class SumWallSmallerDieStart:
    """One roll: the sum picks the wall, drawing starts AT the stack numbered by the smaller die.

    长沙 (RULES.md §12.2): 「比如4点加5点为“九自手”从自己门前牌墙开始抓牌，但是从第4敦开始」.
    """

    name: str = "sum_wall_smaller_die_start"
    rolls_needed: int = 1
    dice_per_roll: int = 2

    def describe(self) -> str:
        return "the dealer rolls two dice once; the sum counted 逆时针 picks the wall; drawing starts at the stack numbered by the smaller die"

    def break_for(self, dealer: int, sides: Sequence[int], rolls: Sequence[Roll]) -> BreakResult:
        (roll,) = check_rolls(rolls, 1, 2)
        wall = count_seats(dealer, sum(roll), sides)
        return BreakResult(Break(wall, min(roll) - 1), (roll,), (dealer,))


BreakProcedure = SumPicksWallSkipSum | TwoRollsWallThenSkip | SecondRollerPicksStart | SumWallSmallerDieStart


def parse_rolls(text: str) -> tuple[Roll, ...]:
    """'2,5' → ((2, 5),); '6,5;5,6' → ((6, 5), (5, 6)).  Raises DiceError naming the bad part."""
    rolls: list[Roll] = []
    for part in text.split(";"):
        part = part.strip()
        values = [v.strip() for v in part.split(",")]
        # digits as typed on a keyboard: int() also reads ２ or ٣ (full-width, Arabic-Indic), and '+5'
        if not all(v.isascii() and v.isdigit() for v in values):
            raise DiceError(f"malformed dice {part!r} in {text!r}: write die values 1-6 as A,B and separate rolls with ';', e.g. 2,5;6,5")
        roll = tuple(int(v) for v in values)
        if any(not 1 <= die <= 6 for die in roll):
            raise DiceError(f"a die shows 1-6, got {part!r} in {text!r}")
        rolls.append(roll)
    return tuple(rolls)


def exchange_direction_of(dice: tuple[int, ...]) -> str:
    """宜昌 换三张 by the dice: sum % 3 = 1 下家 ("next"), 2 上家 ("previous"), 0 对家 ("opposite")."""
    return {1: "next", 2: "previous", 0: "opposite"}[sum(dice) % 3]
