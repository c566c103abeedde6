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
