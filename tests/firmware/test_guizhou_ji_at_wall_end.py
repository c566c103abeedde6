"""贵州 翻鸡 on a win with the wall run out (house option ji_when_out): the text flips 「下一张未摸得牌」,
and with no dead wall none is left after the last tile.  By default nothing is flipped (1条 alone is
a 鸡); with ji_when_out=last the last tile taken is the flip, as 长沙's bird is then.  Before, the
card did not say, and no house could choose the second reading."""

from __future__ import annotations

import pytest

from rulesets.indicators import Timing
from rulesets.regions import get_region
from rulesets.tiles import Tile
from tests.firmware.hand_in_order import RecordedHand, hand_in_order


def played_out(options: dict[str, str]) -> tuple[RecordedHand, object]:
    table = RecordedHand(hand_in_order(get_region("guizhou").resolve(options)))
    last = None
    while table.hand.tracker.count().remaining > 0:
        last = table.draw()
    return table, last


def flip(table: RecordedHand):
    rule = next(r for r in table.hand.ruleset.indicators if r.timing is Timing.AFTER_WIN)
    reveal = table.hand.reveal(rule)
    table.ports.recorder.emit("indicator", **reveal.event_fields())
    return reveal


def test_by_default_a_win_on_the_last_tile_flips_nothing_and_1条_alone_is_a_鸡():
    table, _ = played_out({})
    reveal = flip(table)
    assert reveal.slots == () and reveal.tiles == ()
    assert Tile.S1 in reveal.special
    assert table.audit() == []


def test_with_ji_when_out_last_the_last_tile_taken_is_the_flip():
    table, last = played_out({"ji_when_out": "last"})
    reveal = flip(table)
    assert reveal.slots == (last,) and reveal.tiles == (table.hand.wall[last],)
    assert table.audit() == []


@pytest.mark.parametrize("value", ["none", "last"])
def test_while_tiles_stand_the_next_one_is_flipped_either_way(value):
    table = RecordedHand(hand_in_order(get_region("guizhou").resolve({"ji_when_out": value})))
    for _ in range(60):
        table.draw()
    (slot,) = flip(table).slots
    assert slot == table.hand.tracker.next_head()
