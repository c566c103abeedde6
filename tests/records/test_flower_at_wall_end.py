"""A flower drawn as the last live tile: its replacement is owed, and comes out of the reserve.

Found by a sweep of every house option (钻牌 `dead_wall=7_stacks`, seed 567): the last live tile was a
发 (钻牌's flower), its drawer took the replacement from the tail as he must, and the hand was 荒庄
with 14 tiles left where the reserve — seven full stacks and the lone tile the replacement left —
holds 15.  The table was right (nobody can draw on, and the drawer must have his 14th tile); the
audit called the hand unsound.  A kong gets no such allowance: none is made unless a live tile
would remain after its replacement (docs/table-flow.md §5).

The hand is built on purpose: 上海 with `dead_wall=7_stacks` on `FakePorts` with a real flight
recorder, its wall in order with one flower at the last live slot (the other flowers inside the
reserve, not at its tail end, so the replacement is a plain tile).
"""

from __future__ import annotations

from firmware.hand.state import HandState
from firmware.records.audit import audit_events
from rulesets.regions import get_region
from tests.firmware.hand_in_order import RecordedHand, hand_in_order

LAST_LIVE = 144 - 14 - 1          # the head's last live draw: 144 tiles, seven stacks kept


def drawn_to_the_flower_and_replaced() -> tuple[HandState, list[dict]]:
    """The wall drawn to its last live tile (the flower), the replacement taken, the hand 荒庄."""
    ruleset = get_region("shanghai").resolve({"dead_wall": "7_stacks"})
    tiles = sorted(ruleset.tiles.tiles())
    plain, flowers = tiles[:136], tiles[136:]
    table = RecordedHand(hand_in_order(ruleset, plain[:LAST_LIVE] + flowers[:1] + plain[LAST_LIVE:LAST_LIVE + 1]
                                       + flowers[1:] + plain[LAST_LIVE + 1:]))
    hand = table.hand
    for _ in range(hand.deal_size):
        table.draw()
    hand.phase = "playing"
    while hand.tracker.live > 0:
        table.draw()
    assert hand.tracker.flowers_owed == 1
    table.take(hand.tracker.next_tail())
    count = hand.tracker.count()
    table.ports.recorder.emit("exhausted", live=count.live, reserve=count.reserved_full_stacks, kongs=0,
                              remaining=count.remaining, reserved_tiles=count.reserved)
    table.end_as_a_draw()
    return hand, table.events()


def test_the_flower_drawn_last_is_replaced_from_the_reserve_and_the_hand_audits_sound():
    hand, events = drawn_to_the_flower_and_replaced()
    last = [e for e in events if e["event"] == "take"][-1]
    assert (last["end"], last["reason"], last["live"]) == ("tail", "flower", 0)
    count = hand.tracker.count()
    assert hand.tracker.exhausted and (count.remaining, count.reserved) == (13, 15)    # two short
    assert audit_events(events) == []


def test_a_kong_that_ate_into_the_reserve_is_still_found():
    """The same takes with the replacement recorded as a kong's: a kong is never owed out of the reserve."""
    _, events = drawn_to_the_flower_and_replaced()
    last = [e for e in events if e["event"] == "take"][-1]
    as_kong = [dict(e, reason="kong", kongs=1) if e is last else e for e in events]
    problems = audit_events(as_kong)
    assert any("荒庄 with 13 tiles left; the reserve holds 15" in p for p in problems), problems
