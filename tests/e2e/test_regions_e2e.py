"""Whole hands of every region: the controller over real ptys against the simulator and its players.

Each run's flight recorder is audited against the rules (firmware/records/audit.py: the wall hash, tile
conservation, ring order, live and reserve arithmetic, 荒庄 at the right tile, indicator slots and
wilds, payments) and checked for the events and fields the issue names.
"""

import io
from collections import Counter

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import REGION_IDS, get_region
from tests.asyncio_support import run

REQUIRED = {
    "hand_start": {"ruleset", "options", "dealer", "sides", "stacks_per_side", "dice", "break", "ring_stacks", "wall_hash"},
    "dealt": {"next_head", "hand_sizes"},
    "take": {"end", "ring", "layer", "live", "reserve", "kongs"},
    "indicator": {"kind", "ring", "layer", "tile", "wilds", "public", "seat"},
    "exhausted": {"live", "reserve", "kongs", "remaining"},
    "win": {"seat", "from", "tiles", "win_tile", "wilds_as", "items"},
    "hand_end": {"result", "winners", "payments", "totals", "next_dealer", "ring", "salt", "indicators"},
    "fault": {"code", "message", "latched"},
}


def play(region_id: str, seed: int, hands: int, options=None) -> list[dict]:
    events = io.StringIO()
    ruleset = get_region(region_id).resolve(options or {})
    result = run(run_simulated(ruleset, hands=hands, seed=seed, events=events), timeout=240)
    assert result.hands == hands
    return read_events(events.getvalue().splitlines())


def check_fields(log: list[dict]) -> None:
    for event in log:
        assert {"event", "t", "hand"} <= set(event), event
        missing = REQUIRED.get(event["event"], set()) - set(event)
        assert not missing, f"{event['event']} lacks {missing}"
        if event["event"] == "take":
            assert "tile" not in event and "uid" not in event
        if event["event"] == "indicator" and not event["public"]:
            assert event["tile"] is None and event["wilds"] is None


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_every_region_plays_and_its_recorder_passes_the_audit(region_id):
    tally = Counter()
    for seed in (1, 2, 3):
        log = play(region_id, seed, hands=6)
        check_fields(log)
        assert audit_events(log) == []
        ends = [e for e in log if e["event"] == "hand_end"]
        assert len(ends) == 6 and [e["hand"] for e in ends] == list(range(1, 7))
        tally["win"] += sum(e["result"] == "win" for e in ends)
        tally["draw"] += sum(e["result"] == "draw" for e in ends)
        tally["kong"] += sum(1 for e in log if e["event"] == "take" and e["reason"] == "kong")
        for end in ends:
            assert sum(end["payments"]) == 0 or end["result"] == "draw"
    assert tally["win"] and tally["draw"] and tally["kong"], f"{region_id}: {dict(tally)}"
