"""Play tracking from the wall sensors."""

import pytest

from firmware.hand.tracker import TrackingError, WallTracker
from rulesets.regions import get_region
from rulesets.reserve import KongReserve, NoReserve
from rulesets.tiles import Tile
from rulesets.walls import Break, End, Layer, Slot, WallLayout

LAYOUT = WallLayout((17, 17, 17, 17))
RING = LAYOUT.ring(Break(2, 7))


def tracker(reserve=KongReserve("R-B"), wall_map=None, flowers=(), deal=53):
    return WallTracker(RING, reserve, wall_map or {}, flowers, deal)


def take_head(t):
    slot = t.next_head()
    pos = RING[slot.ring]
    return t.on_stack_change(pos, t.stack_tiles(pos) - 1)[0]


def take_tail(t):
    slot = t.next_tail()
    pos = RING[slot.ring]
    return t.on_stack_change(pos, t.stack_tiles(pos) - 1)[0]


def test_deal_then_draws_are_head_takes_in_order():
    t = tracker()
    takes = [take_head(t) for _ in range(54)]
    assert all(k.end is End.HEAD and k.in_order for k in takes)
    assert [k.reason for k in takes[52:]] == ["deal", "draw"]
    assert takes[0].slot == Slot(0, Layer.TOP) and takes[1].slot == Slot(0, Layer.BOTTOM)
    assert takes[-1].live == 136 - 54 - 14


@pytest.mark.parametrize("kongs, undrawn", [(0, 14), (1, 15), (2, 16), (3, 19), (4, 20)])
def test_exhaustion_at_exactly_the_r_b_tile(kongs, undrawn):
    """长春 §1.4 under R-B: 荒庄 with 14, 15, 16, 19, 20 tiles undrawn after 0-4 kongs."""
    t = tracker()
    for _ in range(53):
        take_head(t)
    for _ in range(kongs):
        take = take_tail(t)
        assert take.reason == "kong" and take.end is End.TAIL
    while not t.exhausted:
        take_head(t)
    assert 136 - len(t.taken) == undrawn and t.kongs == kongs


def test_a_flower_replacement_is_not_a_kong():
    """A tail draw replacing a flower (known from the drawn tile) does not count as a kong."""
    flower_slot = RING.head_slot(60)
    t = tracker(NoReserve(), {flower_slot: Tile.PLUM}, flowers=(Tile.PLUM,))
    for _ in range(61):
        take_head(t)
    assert t.flowers_owed == 1
    first = take_tail(t)
    second = take_tail(t)
    assert (first.reason, second.reason) == ("flower", "kong") and t.kongs == 1


def test_out_of_order_take_is_flagged_and_counted():
    t = tracker()
    for _ in range(53):
        take_head(t)
    (take,) = t.on_stack_change(RING[40], 1)
    assert not take.in_order and take.end is End.HEAD
    assert take_head(t).slot == Slot(26, Layer.BOTTOM)


def test_a_tile_put_back_is_an_error():
    t = tracker()
    take_head(t)
    with pytest.raises(TrackingError, match="put back"):
        t.on_stack_change(RING[0], 2)


def test_set_aside_indicator_is_skipped_by_tail_draws():
    """温州 (RESEARCH §3.3): the flipped 财神 stays at the tail and is never drawn."""
    t = tracker(NoReserve())
    t.set_aside(RING.tail_slot(0))
    assert take_tail(t).slot == Slot(67, Layer.BOTTOM)


def test_shown_tail_tiles_are_passed_over_by_ordinary_replacements():
    """云南 §29.3: 「不能杠上开花的从最后面未翻开的取牌」 — the last stack with nothing turned up.  The tile
    under a shown one is not slid out from under it: the wall sensors could not tell that take from a
    take of the shown tile (both leave one tile on the stack)."""
    t = tracker(NoReserve())
    t.show(Slot(67, Layer.TOP))
    t.show(Slot(66, Layer.TOP))
    assert t.next_tail() == Slot(65, Layer.TOP)
    assert t.next_tail(include_shown=True) == Slot(67, Layer.TOP)


def test_a_shown_tile_taken_is_a_shown_take_and_uncovers_the_tile_under_it():
    """A 杠上开花 takes a shown tile (in order, at its own stack); the tile that lay under it is then
    the last tile not turned up, and the next ordinary replacement."""
    t = tracker(NoReserve())
    t.show(Slot(67, Layer.TOP))
    t.show(Slot(66, Layer.TOP))
    t.kong_pending = True                       # (a 杠 pressed before each: else a tail take is out of order)
    (take,) = t.on_stack_change(t.ring[66], 1)
    assert (take.slot, take.in_order, take.reason) == (Slot(66, Layer.TOP), True, "kong")
    assert t.next_tail() == Slot(66, Layer.BOTTOM)
    (ordinary,) = t.on_stack_change(t.ring[66], 0)
    assert ordinary.slot == Slot(66, Layer.BOTTOM) and ordinary.in_order


def test_live_count_uses_the_region_reserve():
    ruleset = get_region("hangzhou").resolve()
    t = WallTracker(RING, ruleset.reserve, {}, (), 53)
    while not t.exhausted:
        take_head(t)
    assert 136 - len(t.taken) == 20


def test_bao_passes_over_old_bao_slots_and_goes_to_the_lower_layer():
    """长春 §1.3: 换宝 puts the old 宝 back; after six dead 宝 「则可利用下层的牌作宝，上下互换」."""
    from firmware.hand.state import HandState
    ruleset = get_region("changchun").resolve()
    rule = ruleset.indicators[0]
    tiles = {Slot(i, layer): Tile.M1 for i in range(len(RING)) for layer in (Layer.TOP, Layer.BOTTOM)}
    hand = HandState(ruleset, 1, 0, [(1, 1), (1, 1)], Break(2, 7), tiles, 53)
    assert hand.ring == RING
    first = hand.choose_bao(rule, (3,))
    assert first.slots == (Slot(len(RING) - 3, Layer.TOP),)
    again = hand.choose_bao(rule, (3,))                       # the same die: the next stack on
    assert again.slots == (Slot(len(RING) - 4, Layer.TOP),)
    for die in (1, 2, 4, 5):
        hand.choose_bao(rule, (die,))
    sixth_dead = hand.choose_bao(rule, (2,))
    assert sixth_dead.slots[0].layer is Layer.BOTTOM


def test_a_kong_replacement_from_the_last_stack_standing_counts_as_a_kong():
    """At the end of a wall without a reserve (宜昌 「一直打到桌面无牌」) the head and the tail meet on the
    last stack: a tile taken there after a 杠 is the kong's replacement, not a draw."""
    t = tracker(NoReserve())
    while t.next_head().ring != t.next_tail().ring:
        take_head(t)
    t.kong_pending = True
    take = take_tail(t)
    assert (take.end, take.reason, t.kongs) == (End.TAIL, "kong", 1)
    t.kong_pending = False
    assert take_head(t).reason == "draw"


def _flower() -> Tile:
    return sorted(get_region("shanghai").resolve().flowers.kinds_for(()))[0]


def test_a_kong_pressed_takes_the_tail_before_a_flower_left_unreplaced():
    """A probe at the table (上海): a flower drawn and never replaced took the next 杠's replacement
    as its own, and that kong lapsed.  The 杠 pressed is owed first; the flower still after it."""
    flower = _flower()
    t = tracker(wall_map={Slot(27, Layer.TOP): flower}, flowers=(flower,))
    takes = [take_head(t) for _ in range(55)]
    assert takes[-1].tile == flower and t.flowers_owed == 1
    assert take_head(t).in_order is False       # play went on past it: the flower is left unreplaced
    t.kong_pending = True
    assert (take_tail(t).reason, t.kongs, t.flowers_owed) == ("kong", 1, 1)
    t.kong_pending = False
    assert (take_tail(t).reason, t.flowers_owed) == ("flower", 0)


def test_a_kong_pressed_on_a_flower_just_drawn_takes_the_tail_after_it():
    """A probe at the table (上海): the seat that drew a flower pressed 杠 to 补花 (people do) and took
    one tail tile; it counted as the kong's, the flower stayed owed, and every later head draw of
    the hand was out of order.  The flower just drawn is replaced first; a second tail take, if one
    comes, is the kong's."""
    flower = _flower()
    t = tracker(wall_map={Slot(27, Layer.TOP): flower}, flowers=(flower,))
    takes = [take_head(t) for _ in range(55)]
    assert takes[-1].tile == flower and t.flowers_owed == 1
    t.kong_pending = True
    assert (take_tail(t).reason, t.kongs, t.flowers_owed) == ("flower", 0, 0)
    assert take_tail(t).reason == "kong" and t.kongs == 1       # a genuine kong takes one more
    t.kong_pending = False
    assert take_head(t).in_order


def test_a_flower_left_unreplaced_is_remembered_across_a_restart_and_an_undo():
    flower = _flower()
    t = tracker(wall_map={Slot(27, Layer.TOP): flower}, flowers=(flower,))
    for _ in range(56):
        take_head(t)
    assert t.flowers_left == 1
    restored = tracker(wall_map={Slot(27, Layer.TOP): flower}, flowers=(flower,))
    restored.restore(t.to_json())
    assert restored == t and restored.flowers_left == 1
    restored.take_back()                        # the draw past it put back: the flower was just drawn
    restored.kong_pending = True
    assert restored.flowers_left == 0 and take_tail(restored).reason == "flower"


def test_a_head_draw_while_a_flower_is_owed_is_out_of_order_and_the_deal_s_are_not():
    flower = _flower()
    t = tracker(wall_map={Slot(3, Layer.TOP): flower, Slot(27, Layer.TOP): flower}, flowers=(flower,))
    deal = [take_head(t) for _ in range(53)]
    assert all(k.in_order for k in deal) and t.flowers_owed == 1      # (dealt: replaced once play opens)
    take_tail(t)
    assert [take_head(t).in_order for _ in range(2)] == [True, True]      # 55th: the flower
    assert t.flowers_owed == 1 and take_head(t).in_order is False          # the next draw: replace it first


def test_a_head_draw_into_the_reserve_is_out_of_order():
    t = tracker()
    while not t.exhausted:
        assert take_head(t).in_order
    into_reserve = take_head(t)
    assert into_reserve.in_order is False and into_reserve.live == 0
