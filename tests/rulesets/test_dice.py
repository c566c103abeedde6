"""Dice and break procedures: the worked examples of the texts."""

import pytest

from rulesets.dice import (DiceError, SecondRollerPicksStart, SumPicksWallSkipSum, SumWallSmallerDieStart,
                           TwoRollsWallThenSkip, count_seats, parse_rolls)
from rulesets.regions import get_region
from rulesets.walls import StackPos, WallLayout

ALL = (0, 1, 2, 3)


def test_counting_seats_roller_counts_as_one():
    """RULES §0.1: 7 → 对家, 6 → 下家, 9 → 自手."""
    assert count_seats(0, 7, ALL) == 2
    assert count_seats(0, 6, ALL) == 1
    assert count_seats(0, 9, ALL) == 0
    assert count_seats(3, 2, ALL) == 0


def test_shanghai_two_plus_five_is_opposite_skip_seven():
    """上海 §4.2: 一个骰子2、一个骰子5，那么总和为7，从摇骰子玩家的对家方向先挪走7墩牌后开始摸牌."""
    result = get_region("shanghai").resolve().dice.break_for(0, ALL, [(2, 5)])
    assert (result.brk.wall, result.brk.skip) == (2, 7)
    ring = WallLayout((18, 18, 18, 18)).ring(result.brk)
    assert ring.head == StackPos(2, 7)


def test_nanjing_six_then_eleven_starts_at_the_twelfth_stack_of_xiajia():
    """南京 §28: 庄家掷6点，则由下家掷，下家掷11点，则由庄家开始从下家第12墩开始抓牌."""
    result = SecondRollerPicksStart("second").break_for(0, ALL, [(3, 3), (5, 6)])
    assert result.rollers == (0, 1)
    ring = WallLayout((18, 18, 18, 18)).ring(result.brk)
    assert ring.head == StackPos(1, 11)      # 0-based stack 11 is the 12th stack


def test_changsha_four_plus_five_own_wall_from_the_fourth_stack():
    """长沙 §12.2: 比如4点加5点为“九自手”从自己门前牌墙开始抓牌，但是从第4敦开始."""
    result = SumWallSmallerDieStart().break_for(2, ALL, [(4, 5)])
    ring = WallLayout((14, 13, 14, 13)).ring(result.brk)
    assert ring.head == StackPos(2, 3)       # own wall, the 4th stack


def test_changchun_roll_one_picks_the_wall_roll_two_the_skip():
    """长春 §1.2: 第一次逆时针数点找到先拿牌的人…按根据第二次摇筛子的两个筛子点数之和的点数开始拿牌."""
    result = TwoRollsWallThenSkip().break_for(1, ALL, [(3, 4), (6, 6)])
    assert (result.brk.wall, result.brk.skip) == (3, 12)
    assert TwoRollsWallThenSkip(-1).break_for(1, ALL, [(3, 4), (6, 6)]).brk.skip == 11


def test_wenzhou_adds_both_rolls():
    result = SecondRollerPicksStart("both").break_for(0, ALL, [(1, 1), (6, 6)])
    assert (result.brk.wall, result.brk.skip) == (1, 14)


def test_three_players_count_over_playing_sides():
    result = SumPicksWallSkipSum().break_for(0, (0, 1, 2), [(2, 2)])
    assert result.brk.wall == 0              # 4 → 1, 2, 0(=3rd player)… counted over 3 sides: 0,1,2,0


@pytest.mark.parametrize("text", ["2,x", "7,1", "", "1;;2", "２,５", "٣,4", "+2,5", "2, 5,"])
def test_malformed_dice_are_refused(text):
    with pytest.raises(DiceError):
        parse_rolls(text)


def test_wrong_number_of_rolls_is_refused():
    with pytest.raises(DiceError, match="needs 2 roll"):
        TwoRollsWallThenSkip().break_for(0, ALL, [(3, 4)])
    with pytest.raises(DiceError, match="2 dice"):
        SumPicksWallSkipSum().break_for(0, ALL, [(3,)])


def test_parse_rolls():
    assert parse_rolls(" 2 , 5 ") == ((2, 5),)
    assert parse_rolls("6,5;5,6") == ((6, 5), (5, 6))
