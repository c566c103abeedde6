"""A set with a missing, extra, duplicated or foreign tile never reaches play; the fault names it."""

import io
import json

import pytest

from firmware.faults import SetRejected
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from simulator.table import SimulatedTable
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


def test_missed_reads_are_read_again_and_the_set_plays():
    """Issue 9: 5 % missed reads always rejected a 136-tile build; a missed read is re-read first."""
    events = io.StringIO()
    result = run(run_simulated(get_region("changchun").resolve(), hands=1, seed=2, events=events, players=WallWalker,
                               faults=("missed_read=0.05",)), timeout=90)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert result.hands == 1
    assert any(e["event"] == "reread" and e["slots"] > 0 for e in log)
    assert all(e["ok"] for e in log if e["event"] == "set_check")


def test_a_slot_that_stays_unread_is_flagged_never_guessed():
    """A dead stacking-head antenna reads nothing, again and again: its slots are named, not guessed."""
    async def go():
        ruleset = get_region("changchun").resolve()
        table = SimulatedTable(seed=2, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        table.kill_antenna(2)
        events = io.StringIO()
        try:
            with pytest.raises(SetRejected):
                await run_simulated(ruleset, hands=1, seed=2, events=events, players=WallWalker, table=table)
        finally:
            await table.stop()
        return [json.loads(line) for line in events.getvalue().splitlines()]

    events = run(go(), timeout=90)
    faults = [e["message"] for e in events if e["event"] == "fault"]
    assert any("was not read" in f and "slot side 2" in f for f in faults)
    assert not any("missing" in f for f in faults)        # an unread slot is not guessed into a missing tile
    assert [e["slots"] for e in events if e["event"] == "reread"][:1] == [34]      # side 2's 17 stacks, re-read
    assert not any(e["event"] == "hand_start" for e in events)
