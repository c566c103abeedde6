"""The controller against the simulator over real ptys, with a scripted crew."""

import io
import json

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.scripted_players import WallWalker


def test_two_drawn_hands_of_changchun():
    events = io.StringIO()
    ruleset = get_region("changchun").resolve()
    result = run(run_simulated(ruleset, hands=2, seed=3, events=events, players=WallWalker), timeout=60)
    assert result.hands == 2
    lines = [json.loads(line) for line in events.getvalue().splitlines()]
    names = [e["event"] for e in lines]
    assert names.count("hand_start") == 2 and names.count("hand_end") == 2
    exhausted = [e for e in lines if e["event"] == "exhausted"]
    assert [e["remaining"] for e in exhausted] == [14, 14]


def test_the_flight_recorder_passes_its_audit():
    from firmware.records.audit import audit_events, read_events
    events = io.StringIO()
    ruleset = get_region("guangshui").resolve()
    run(run_simulated(ruleset, hands=2, seed=5, events=events, players=WallWalker), timeout=60)
    log = read_events(events.getvalue().splitlines())
    assert audit_events(log) == []
    # and the audit does notice a tampered wall
    end = next(e for e in log if e["event"] == "hand_end")
    end["ring"][0] = end["ring"][0][::-1]
    assert any("wall hash" in p for p in audit_events(log))
