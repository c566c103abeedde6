"""A 杠 pressed, the kong's maker draws at the head by mistake (the draw lapses the 杠), and the
controller is killed before the tile is put back.  The restarted controller reads the put-back from
the sensors and restores the 杠 from its journal; the audit must read the hand the same way: the
lapse goes with the undone draw, and the kong the tail take then makes is the seat's."""

from __future__ import annotations

import json

import pytest

from firmware.hand.flow import HandFlow
from firmware.hand.state import HandState
from firmware.records.audit import audit_one_hand
from tests.asyncio_support import run
from tests.firmware.test_kong_replacement_put_back import press_kong
from tests.firmware.test_tile_put_back import dealt, sensors_with
from tests.firmware.test_unseen_takes import NOBODY_ACTS


def test_a_draw_that_lapsed_a_kong_put_back_while_the_controller_was_stopped_leaves_the_kong_standing():
    recorded = dealt("hebei")
    press_kong(recorded, 2)
    slot = recorded.draw()
    assert recorded.recorded("kong_lapsed")
    stack = recorded.hand.ring[slot.ring]
    sensors = sensors_with(recorded, {stack: recorded.hand.tracker.stack_tiles(stack) + 1})
    journaled = HandState.from_json(json.loads(recorded.hand.journal_text()))      # the controller killed
    unseen, problem = journaled.blind_changes(sensors)
    assert problem is None and unseen.put_back == 1
    with pytest.raises(TimeoutError, match=NOBODY_ACTS):
        run(HandFlow(recorded.ports).resume(journaled, totals=(0, 0, 0, 0), cause="restart", blind=unseen), timeout=5)
    assert journaled.pending_kong == {2: False} and slot not in journaled.tracker.taken
    recorded.flow.hand = recorded.hand = journaled
    (take,) = recorded.take(journaled.tracker.next_tail())
    assert take["in_order"] is True and journaled.kongs == {2: [False]}
    assert kongs_read_by_the_audit(recorded.events()) == journaled.kongs
    recorded.end_as_a_draw()
    assert audit_one_hand(recorded.events()) == []


def kongs_read_by_the_audit(events: list[dict]) -> dict[int, list[bool]]:
    from firmware.records.audit_wins import LogFacts
    from firmware.records.stream import recorder_from_events, split_hands
    facts = LogFacts()
    for hand in split_hands([recorder_from_events("events.jsonl", events)]).hands:
        for event in hand.events:
            facts.see(event)
    return facts.kongs
