"""A set with a missing, extra, duplicated or foreign tile never reaches play; the fault names it."""

import io
import json

import pytest

from firmware.faults import SetRejected
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.scripted_players import WallWalker


def rejected(fault: str, region: str = "sichuan") -> tuple[str, list[dict]]:
    events = io.StringIO()
    with pytest.raises(SetRejected) as caught:
        run(run_simulated(get_region(region).resolve(), hands=1, seed=2, events=events, players=WallWalker,
                          faults=(fault,)), timeout=60)
    return str(caught.value), [json.loads(line) for line in events.getvalue().splitlines()]


@pytest.mark.parametrize("fault, code, words", [
    ("missing_tile", "E07", "missing 1 ×"),
    ("extra_tile", "E09", "unknown tag"),       # a stray tile: its tag is in no registry
    ("duplicate_tag", "E08", "duplicated tag"),
])
def test_a_bad_set_is_named_and_never_played(fault, code, words):
    message, events = rejected(fault)
    faults = [e for e in events if e["event"] == "fault"]
    assert any(f["code"] == code and words in f["message"] for f in faults), faults
    assert all(f["latched"] for f in faults)
    assert not any(e["event"] == "hand_start" for e in events)
    check = next(e for e in events if e["event"] == "set_check")
    assert not check["ok"] and check["problems"]


def test_missed_reads_are_flagged_slot_by_slot_never_guessed():
    message, events = rejected("missed_read=0.02", "changchun")
    faults = [e["message"] for e in events if e["event"] == "fault"]
    assert any("was not read" in f and "slot side" in f for f in faults)
    assert not any("missing" in f for f in faults)        # an unread slot is not guessed into a missing tile
    assert not any(e["event"] == "hand_start" for e in events)
