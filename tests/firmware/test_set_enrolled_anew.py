"""A set whose tags the tile registry no longer knows is never dealt: it was enrolled anew (`enroll
--replace`) while the controller was stopped, after it had been built and checked.  A hand was then
dealt on tiles the table could not read: 长春 stopped at every start after it (the hand's journal held
no tiles), 海南 paid a win on them (a probe)."""

from __future__ import annotations

import io
import json

from typing import Callable

from firmware.build.registry import TileRegistry
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def played_with_a_checked_set_enrolled_anew(enrol_anew: Callable[[TileRegistry, int], None]) -> tuple[int, dict]:
    """Two hands of 海南, the set built below during hand 1 enrolled anew (`enrol_anew(registry, its
    set)`) once it was checked: the set enrolled anew and the warning said of it, after checking that
    it was never dealt (the hand after it was dealt on a set built again)."""
    events = io.StringIO()
    sessions = []
    anew: list[int] = []

    def on_event(event: dict) -> None:
        if event["event"] == "set_check" and event["ok"] and event["hand"] == 1 and not anew:
            anew.append(event["tile_set"])
            enrol_anew(sessions[0].hub.registry, event["tile_set"])

    result = run(run_simulated(get_region("hainan").resolve(), hands=2, seed=1, events=events, on_event=on_event,
                               on_session=sessions.append), timeout=180)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert result.hands == 2 and anew
    (unread,) = [e for e in log if e["event"] == "warning" and "the tile registry no longer knows" in e["message"]]
    dealt = [e["tile_set"] for e in log if e["event"] == "hand_start"]
    assert len(dealt) == 2 and anew[0] not in dealt
    return anew[0], unread


def test_a_set_enrolled_anew_since_its_check_is_pushed_in_and_built_again_not_dealt():
    def forgotten(registry: TileRegistry, tile_set: int) -> None:
        registry.enroll([], replacing=(tile_set,))      # (its tags enrolled anew: the old ones forgotten)

    _, unread = played_with_a_checked_set_enrolled_anew(forgotten)
    assert "no hand is dealt on tiles the table cannot read" in unread["message"]
