"""The reserve: the 留7墩 readings of RULES.md §1.4 and the fixed policies."""

import pytest

from rulesets.reserve import FixedStacks, FixedTiles, KongReserve, NoReserve, StacksPlusKongs, wall_count

# RULES.md §1.4, Ambiguity D1: undrawn tiles at 荒庄 for k = 0..5 kongs, and the physical
# full stacks (+ a lone tile) left at that moment.
TABLE = {
    "R-A": ([14, 15, 16, 17, 18, 19], [7, 7, 8, 8, 9, 9]),
    "R-B": ([14, 15, 16, 19, 20, 23], [7, 7, 8, 9, 10, 11]),
    "R-C": ([14, 13, 14, 15, 16, 17], [7, 6, 7, 7, 8, 8]),
}


def exhaust(policy, total, kongs, tail_taken=None):
    """Draw from the head until the live wall is exhausted, with `kongs` tail draws made."""
    tail_taken = kongs if tail_taken is None else tail_taken
    head = 0
    while not wall_count(policy, total, head, tail_taken, kongs).exhausted:
        head += 1
    return wall_count(policy, total, head, tail_taken, kongs)


@pytest.mark.parametrize("reading", sorted(TABLE))
def test_liu_qi_dun_readings_table(reading):
    """长春 §1.4: 1杠留7墩,2杠留8墩......依次类推, 杠完后留的单数海底牌不算一墩."""
    undrawn, stacks = TABLE[reading]
    for k in range(6):
        count = exhaust(KongReserve(reading), 136, k)
        assert count.remaining == undrawn[k], (reading, k)
        assert count.reserved_full_stacks == stacks[k], (reading, k)
        lone = count.remaining - 2 * count.reserved_full_stacks
        assert lone == k % 2, (reading, k)


def test_the_text_data_points_hold_in_r_a_and_r_b():
    """No kong → 7 stacks; 1 kong → 7; 2 kongs → 8 (full stacks standing)."""
    for reading in ("R-A", "R-B"):
        assert [exhaust(KongReserve(reading), 136, k).reserved_full_stacks for k in range(3)] == [7, 7, 8]


def test_seven_and_a_half_stacks():
    """大包 §25: 留最后7个半 — 15 tiles, the last of them a half stack."""
    count = exhaust(FixedTiles(15), 136, 0)
    assert count.remaining == 15 and count.reserved_full_stacks == 7


def test_fixed_tiles_hangzhou_and_nanchang():
    assert exhaust(FixedTiles(20), 136, 2).remaining == 20
    assert exhaust(FixedTiles(34), 136, 0).remaining == 34


def test_fixed_stacks_keep_a_lone_tail_tile_too():
    count = exhaust(FixedStacks(9), 136, 1)
    assert count.remaining == 19 and count.reserved_full_stacks == 9


def test_no_reserve_draws_to_the_last_tile():
    count = exhaust(NoReserve(), 108, 3)
    assert count.remaining == 0


def test_six_plus_kongs():
    assert [exhaust(StacksPlusKongs(6), 136, k).reserved_full_stacks for k in range(4)] == [6, 7, 8, 9]


def test_flower_draws_are_not_kongs():
    """Tail draws for flowers move the tail but do not grow a kong reserve."""
    assert KongReserve("R-B").reserved_tiles(kongs=0, tail_taken=2) == 14
    assert KongReserve("R-B").reserved_tiles(kongs=2, tail_taken=2) == 16


def test_unknown_reading_is_refused():
    with pytest.raises(ValueError, match="R-A, R-B, R-C"):
        KongReserve("R-D")
