"""A set whose tags the tile registry no longer knows is never dealt: it was enrolled anew (`enroll
--replace`) while the controller was stopped, after it had been built and checked.  A hand was then
dealt on tiles the table could not read: 长春 stopped at every start after it (the hand's journal held
no tiles), 海南 paid a win on them (a probe)."""

from __future__ import annotations

import io
import json

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def test_a_set_enrolled_anew_since_its_check_is_pushed_in_and_built_again_not_dealt():
    events = io.StringIO()
    sessions = []
    forgotten: list[int] = []

    def on_event(event: dict) -> None:
        # the second set checked (built below during hand 1): its tags are enrolled anew meanwhile
        if event["event"] == "set_check" and event["ok"] and event["hand"] == 1 and not forgotten:
            forgotten.append(event["tile_set"])
            sessions[0].hub.registry.enroll([], replacing=(event["tile_set"],))

    result = run(run_simulated(get_region("hainan").resolve(), hands=2, seed=1, events=events, on_event=on_event,
                               on_session=sessions.append), timeout=180)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert result.hands == 2 and forgotten
    (unread,) = [e for e in log if e["event"] == "warning" and "the tile registry no longer knows" in e["message"]]
    assert "no hand is dealt on tiles the table cannot read" in unread["message"]
    dealt = [e["tile_set"] for e in log if e["event"] == "hand_start"]
    assert len(dealt) == 2 and forgotten[0] not in dealt
