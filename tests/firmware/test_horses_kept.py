"""广东鸡胡 买马: the horse tiles stay at the tail (RESEARCH.md §3.14), so a win on the last live tile
still buys every horse.

Before, with no dead wall (the default: the text states none), the wall was drawn to its last tile and
a win near the end flipped fewer horses than the house bought — none at all on the last tile.  Now,
with horses and no dead wall, the hand is 荒庄 when N tiles remain, and those N are the horses.
"""

from __future__ import annotations

import pytest

from firmware.hand.state import HandState
from rulesets.indicators import Timing
from rulesets.regions import get_region
from rulesets.reserve import FixedStacks, FixedTiles, NoReserve
from tests.firmware.hand_in_order import hand_in_order


def drawn_to_the_end(options: dict[str, str]) -> HandState:
    """A 广东鸡胡 hand whose wall is the set in order, drawn from the head until no live tile is left."""
    hand = hand_in_order(get_region("guangdong_jihu").resolve({"flowers": "without", **options}))
    while hand.tracker.live > 0:
        stack = hand.ring[hand.tracker.next_head().ring]
        hand.on_wall_change(stack, hand.tracker.stack_tiles(stack) - 1)
    return hand


@pytest.mark.parametrize("horses", ["2", "4", "6", "8"])
def test_a_win_on_the_last_live_tile_buys_every_horse(horses):
    hand = drawn_to_the_end({"horses": horses})
    assert hand.tracker.count().remaining == int(horses)
    (rule,) = (r for r in hand.ruleset.indicators if r.timing is Timing.AFTER_WIN)
    reveal = hand.reveal(rule)
    assert len(reveal.slots) == int(horses)
    assert not set(reveal.slots) & set(hand.tracker.taken)          # the horses were never drawn


@pytest.mark.parametrize("options, reserve", [
    ({}, FixedTiles(4)),                                         # horses 4, no dead wall: the horses kept
    ({"horses": "0"}, NoReserve()),                              # no 买马: drawn to the last tile
    ({"dead_wall": "7_stacks", "horses": "8"}, FixedStacks(7)),  # seven stacks hold the horses already
])
def test_the_reserve_follows_the_dead_wall_and_the_horses(options, reserve):
    assert get_region("guangdong_jihu").resolve(options).reserve == reserve
