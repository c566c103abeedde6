"""The table's state is data: the session and the hand survive a JSON round trip at every event.

Whole simulated hands of every region are played; at each flight-recorder event the session's
`SessionState` and the hand's `HandState` (when a hand is open) go through `to_json`, real JSON
text and `from_json`, and must come back equal — and equal again when written a second time.  The
text the journal keeps (`journal_text`, encoded piecewise) reads back as `to_json`, and a restored
hand writes the same text.
"""

import json

import pytest

from firmware.hand.state import HandState
from firmware.simulated import run_simulated
from firmware.state import SessionState
from rulesets.regions import REGION_IDS, get_region
from tests.asyncio_support import run


def round_trip(state):
    return type(state).from_json(json.loads(json.dumps(state.to_json(), ensure_ascii=False)))


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_the_state_at_every_event_survives_a_round_trip(region_id):
    checked = {"hand": 0, "session": 0, "events": 0}
    holder = {}

    def check(event: dict) -> None:
        checked["events"] += 1
        session = holder["session"]
        if session.state is not None:
            again = round_trip(session.state)
            assert again == session.state and again.to_json() == session.state.to_json()
            checked["session"] += 1
        hand = session.flow.hand
        if hand is not None:
            again = round_trip(hand)
            assert again == hand, f"{region_id}: the hand state changed in a round trip at {event['event']}"
            assert again.to_json() == hand.to_json()
            journaled = hand.journal_text()             # as the journal writes it: encoded piecewise
            assert json.loads(journaled) == hand.to_json() and again.journal_text() == journaled
            checked["hand"] += 1

    ruleset = get_region(region_id).resolve()
    run(run_simulated(ruleset, hands=2, seed=4, on_event=check, on_session=lambda s: holder.setdefault("session", s)),
        timeout=240)
    assert checked["hand"] > 50 and checked["session"] > 50, checked


def test_a_changed_field_is_seen():
    """The equality the round trip relies on is real: one take more is a different state."""
    from rulesets.tiles import Tile
    from rulesets.walls import Break, Layer, Slot
    ruleset = get_region("changchun").resolve()
    ring = ruleset.layout.ring(Break(0, 3))
    wall = {Slot(i, layer): Tile.M1 for i in range(len(ring)) for layer in (Layer.TOP, Layer.BOTTOM)}
    hand = HandState(ruleset, 1, 0, [(1, 2)], Break(0, 3), wall, 53, salt="s")
    copy = round_trip(hand)
    assert copy == hand
    copy.on_wall_change(ring[0], 1)
    assert copy != hand and round_trip(copy) == copy
    state = SessionState.new(7, ruleset)
    assert round_trip(state) == state and state != SessionState.new(8, ruleset)
