"""A seat that draws a flower presses 杠 before taking its replacement (a probe at the table: people
press the kong key to 补花, and 上海 seed 13 did).  The one tail tile taken was counted as the kong's
replacement, the flower stayed owed for the rest of the hand, and every later head draw was out of
order (`请出牌 ！请按顺序取牌`, 16 takes flagged; put back and drawn again, flagged again).  Now the
flower just drawn is replaced first: one tail take and a head draw, and the 杠 lapses; a genuine
kong takes a second tail tile and stays the seat's."""

from __future__ import annotations

import json

from drivers.table_ui import Key, OUT_OF_ORDER
from firmware.hand.ports import Press
from firmware.hand.state import HandState
from rulesets.regions import get_region
from rulesets.walls import Layer, Slot
from tests.firmware.hand_in_order import RecordedHand, hand_in_order
from tests.firmware.test_tile_put_back import put_back

SEAT = 1                # the first seat to draw after the deal (dealer 0)


def flower_drawn() -> RecordedHand:
    """上海, dealt, play open; the first head draw after the deal is a flower, the tail holds none."""
    ruleset = get_region("shanghai").resolve()
    plain = hand_in_order(ruleset)
    head, tail = plain.tracker._head_order, plain.tracker._tail_order
    flowers = sorted(ruleset.flowers.kinds)
    others = [t for t in sorted(ruleset.tiles.tiles()) if t not in ruleset.flowers.kinds]
    far = plain.deal_size + 30                  # the other flowers: past the draws these tests make
    middle = head[far:far + len(flowers) - 1]
    placed = {head[plain.deal_size]: flowers[0], **dict(zip(middle, flowers[1:]))}
    rest = iter(others)
    tiles = [placed.get(Slot(i, layer)) or next(rest)
             for i in range(len(plain.ring)) for layer in (Layer.TOP, Layer.BOTTOM)]
    recorded = RecordedHand(hand_in_order(ruleset, tiles))
    recorded.hand.phase = "dealing"
    while not recorded.hand.deal_complete:
        recorded.draw()
    recorded.hand.phase = "playing"
    recorded.draw()
    assert recorded.hand.tracker.flowers_owed == 1 and tail[0] not in placed
    return recorded


def press_kong(recorded: RecordedHand, seat: int = SEAT) -> None:
    assert recorded.flow.on_key(Press(seat, Key.KONG))


def test_a_kong_pressed_to_replace_a_flower_lapses_and_play_goes_on_in_order():
    recorded = flower_drawn()
    press_kong(recorded)
    (replacement,) = recorded.take(recorded.hand.tracker.next_tail())
    assert replacement["reason"] == "flower" and replacement["in_order"]
    assert recorded.hand.kongs == {} and recorded.hand.tracker.flowers_owed == 0
    draws = [recorded.draw() for _ in range(12)]                # the next seats draw from the head
    assert all(take["in_order"] for take in recorded.recorded("take")[-12:]) and len(draws) == 12
    assert [e["seat"] for e in recorded.recorded("kong_lapsed")] == [SEAT]
    assert not any(OUT_OF_ORDER in phase for phase in recorded.ports.screens.phases)
    assert recorded.hand.kongs == {} and recorded.hand.tracker.kongs == 0
    assert recorded.audit() == []


def test_the_draw_that_lapsed_it_put_back_and_drawn_again_is_in_order():
    recorded = flower_drawn()
    press_kong(recorded)
    recorded.take(recorded.hand.tracker.next_tail())
    slot = recorded.draw()
    put_back(recorded, slot)                    # the 杠 stands again: the seat may still take its tile
    assert recorded.hand.pending_kong == {SEAT: False}
    recorded.draw()
    assert recorded.recorded("take")[-1]["in_order"] and recorded.hand.pending_kong == {}
    assert recorded.audit() == []


def test_a_genuine_kong_made_while_a_flower_is_owed_takes_two_tail_tiles_and_stays_a_kong():
    recorded = flower_drawn()
    press_kong(recorded)
    first = recorded.take(recorded.hand.tracker.next_tail())
    second = recorded.take(recorded.hand.tracker.next_tail())
    assert [t["reason"] for t in first + second] == ["flower", "kong"]
    assert recorded.hand.kongs == {SEAT: [False]} and recorded.hand.replaced_for == SEAT
    recorded.draw()
    assert recorded.recorded("take")[-1]["in_order"] and not recorded.recorded("kong_lapsed")
    assert recorded.audit() == []


def test_a_kong_made_past_a_flower_left_unreplaced_takes_the_tail_first():
    """The earlier probe (上海): a flower never replaced (play went on past it, told 请按顺序取牌) took
    the next 杠's one replacement, and the kong lapsed.  That kong is still the seat's."""
    recorded = flower_drawn()
    recorded.draw()                             # the next seat draws anyway: out of order
    assert recorded.recorded("take")[-1]["in_order"] is False
    journaled = HandState.from_json(json.loads(recorded.hand.journal_text()))
    assert journaled.tracker.flowers_left == 1     # a restart now knows it too
    recorded.hand = recorded.flow.hand = journaled
    press_kong(recorded, 2)
    (replacement,) = recorded.take(recorded.hand.tracker.next_tail())
    assert replacement["reason"] == "kong" and recorded.hand.kongs == {2: [False]}
    assert recorded.hand.tracker.flowers_owed == 1
