"""A 杠 pressed when no live tile would remain after its replacement (a probe at the table: 长春, 河北,
武汉 and 广东鸡胡).  The controller accepted it: the replacement came out of the reserve (or the 马),
最后一张 showed at once, and the kong was paid — in 广东鸡胡 a 杠上开花 on a 马 tile was paid 3番 and
the audit called the hand sound.  No kong is made unless a live tile would remain after its
replacement (docs/table-flow.md §5): the 杠 is refused, said on the display and recorded; a tail
tile taken anyway is out of order; and the audit finds a kong's replacement that left no live tile."""

from __future__ import annotations

import pytest

from drivers.table_ui import Key, NO_KONG, OUT_OF_ORDER
from firmware.hand.ports import Press
from tests.firmware.test_tile_put_back import dealt, put_back

SEAT = 2


def draw_until(recorded, live_after_kong: int) -> None:
    """Head draws until a kong's replacement would leave `live_after_kong` live tiles."""
    while recorded.hand.tracker.live_after_kong() > live_after_kong:
        recorded.draw()
    assert recorded.hand.tracker.live_after_kong() == live_after_kong


def press_kong(recorded, seat: int = SEAT, long: bool = False) -> bool:
    return recorded.flow.on_key(Press(seat, Key.KONG, long=long))


def dropped(recorded, why: str) -> list[dict]:
    return [e for e in recorded.recorded("keys_dropped") if e["why"] == why]


@pytest.mark.parametrize("region_id", ["hebei", "wuhan", "hangzhou", "lisi", "sichuan"])
def test_a_kong_that_would_leave_no_live_tile_is_refused_and_said(region_id):
    recorded = dealt(region_id)
    draw_until(recorded, 0)
    assert press_kong(recorded)
    assert not recorded.hand.pending_kong and not recorded.recorded("kong_declared")
    assert len(dropped(recorded, "no_kong_at_wall_end")) == 1
    assert recorded.ports.screens.phases[-1].endswith(NO_KONG)
    tail = recorded.hand.tracker.next_tail()
    if tail == recorded.hand.tracker.next_head():   # (no reserve: the last live tile is the tail's too)
        return
    (take,) = recorded.take(tail)                   # taken anyway: nothing is owed, out of order
    assert take["in_order"] is False
    assert recorded.ports.screens.phases[-1].endswith(OUT_OF_ORDER)
    put_back(recorded, tail)
    assert tail not in recorded.hand.tracker.taken and recorded.hand.kongs == {}
    assert recorded.audit() == []


def test_a_kong_at_the_last_tile_is_refused():
    recorded = dealt("hebei")
    while not recorded.hand.tracker.exhausted:
        recorded.draw()
    assert press_kong(recorded, long=True)          # a concealed kong on the last tile drawn
    assert not recorded.hand.pending_kong and dropped(recorded, "no_kong_at_wall_end")


def test_a_kong_that_leaves_one_live_tile_is_made():
    recorded = dealt("hebei")
    draw_until(recorded, 1)
    assert press_kong(recorded)
    assert recorded.hand.pending_kong == {SEAT: False}
    (take,) = recorded.take(recorded.hand.tracker.next_tail())
    assert take["in_order"] is True and take["live"] == 1 and recorded.hand.kongs == {SEAT: [False]}
    assert recorded.audit() == []


def test_the_same_kong_pressed_twice_is_declared_once():
    recorded = dealt("hebei")
    press_kong(recorded)
    press_kong(recorded)
    assert len(recorded.recorded("kong_declared")) == 1 and dropped(recorded, "kong_pending")
    press_kong(recorded, long=True)                 # pressed long after all: a concealed kong
    assert recorded.hand.pending_kong == {SEAT: True} and len(recorded.recorded("kong_declared")) == 2


def test_the_audit_finds_a_kong_whose_replacement_left_no_live_tile():
    recorded = dealt("hebei")
    draw_until(recorded, 1)
    press_kong(recorded)
    recorded.take(recorded.hand.tracker.next_tail())
    assert recorded.audit() == []
    recorded = dealt("hebei")                       # a 杠 pressed with no live tile left after it, as an
    draw_until(recorded, 0)                         # older controller accepted it
    recorded.hand.pending_kong[SEAT] = False        # (accepted, as before the mend)
    recorded.take(recorded.hand.tracker.next_tail())
    assert any("left no live tile" in p for p in recorded.audit())


@pytest.mark.parametrize("left, credited", [(1, True), (0, False)])
def test_a_replacement_taken_before_the_press_counts_as_taken_when_the_kong_is_judged(left, credited):
    recorded = dealt("hebei")
    draw_until(recorded, left)
    (take,) = recorded.take(recorded.hand.tracker.next_tail())      # taken first, 杠 pressed after
    assert take["in_order"] is False
    press_kong(recorded)
    assert bool(recorded.recorded("kong_credited")) is credited
    assert bool(dropped(recorded, "no_kong_at_wall_end")) is not credited
    assert recorded.hand.kongs == ({SEAT: [False]} if credited else {})
