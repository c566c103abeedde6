"""Wall geometry, the ring and the draw sequence (DESIGN.md §4)."""

import pytest
from hypothesis import given, strategies as st

from rulesets.walls import Break, Layer, StackPos, WallError, WallLayout

LAYOUTS = [(17, 17, 17, 17), (18, 18, 18, 18), (14, 13, 14, 13), (14, 14, 14, 14), (14, 14, 14, 0), (0, 14, 14, 14)]


def test_layouts_for_tile_counts():
    assert WallLayout.for_tiles(136).stacks_per_side == (17, 17, 17, 17)
    assert WallLayout.for_tiles(144).stacks_per_side == (18, 18, 18, 18)
    assert WallLayout.for_tiles(108).stacks_per_side == (14, 13, 14, 13)
    assert WallLayout.for_tiles(112).stacks_per_side == (14, 14, 14, 14)
    assert WallLayout.for_tiles(84, (0, 1, 2)).stacks_per_side == (14, 14, 14, 0)


@given(st.sampled_from(LAYOUTS), st.integers(0, 3), st.integers(0, 40))
def test_ring_covers_every_stack_once(stacks, wall, skip):
    layout = WallLayout(stacks)
    if not stacks[wall]:
        with pytest.raises(WallError):
            layout.ring(Break(wall, skip))
        return
    ring = layout.ring(Break(wall, skip))
    expected = {StackPos(w, k) for w in range(4) for k in range(stacks[w])}
    assert len(ring.stacks) == len(expected) == layout.total_stacks
    assert set(ring.stacks) == expected


def test_ring_goes_clockwise_after_the_break():
    """ring[0] is stack k of the broken wall; after stack S−1 of wall i comes stack 0 of wall i+3."""
    ring = WallLayout((17, 17, 17, 17)).ring(Break(2, 7))
    assert ring[0] == StackPos(2, 7)
    assert ring[9] == StackPos(2, 16)
    assert ring[10] == StackPos(1, 0)       # wall 2 → wall 1 (= 2 + 3 mod 4)
    assert ring[-1] == StackPos(2, 6)       # the tail is the stack before the break


def test_break_at_zero_puts_the_tail_on_the_previous_wall():
    ring = WallLayout((17, 17, 17, 17)).ring(Break(0, 0))
    assert ring.tail == StackPos(1, 16)


def test_three_player_ring_skips_the_empty_side():
    ring = WallLayout((14, 14, 14, 0)).ring(Break(0, 13))
    assert ring[0] == StackPos(0, 13)
    assert ring[1] == StackPos(2, 0)        # wall 3 is empty: 0 → 3 → 2
    assert all(pos.wall != 3 for pos in ring.stacks)


def test_head_and_tail_draw_sequences():
    ring = WallLayout((17, 17, 17, 17)).ring(Break(0, 5))
    assert [(s.ring, s.layer) for s in map(ring.head_slot, range(4))] == \
        [(0, Layer.TOP), (0, Layer.BOTTOM), (1, Layer.TOP), (1, Layer.BOTTOM)]
    assert [(s.ring, s.layer) for s in map(ring.tail_slot, range(3))] == \
        [(67, Layer.TOP), (67, Layer.BOTTOM), (66, Layer.TOP)]


@given(st.sampled_from(LAYOUTS[:4]), st.integers(0, 3), st.integers(0, 16))
def test_sequence_positions_are_unique_and_complete(stacks, wall, skip):
    ring = WallLayout(stacks).ring(Break(wall, skip))
    slots = [ring.head_slot(p) for p in range(ring.tile_count)]
    assert len(set(slots)) == ring.tile_count
    assert [ring.slot_sequence(s) for s in slots] == list(range(ring.tile_count))
    assert set(slots) == {ring.tail_slot(t) for t in range(ring.tile_count)}


def test_bad_layouts_are_refused():
    with pytest.raises(WallError):
        WallLayout((17, 17, 17))
    with pytest.raises(WallError):
        WallLayout.for_tiles(135)
