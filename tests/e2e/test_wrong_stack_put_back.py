"""Players who lift a tile off the wrong stack, or a block of the deal off the wrong two stacks, read
请按顺序取牌 and put them back (simulator fault `wrong_stack`), over the real serial stack: every such
take is undone as it is put back, the hands settle as without the mistakes, and the audit finds the
record sound.  Before, each take stood with
a warning, the wall's count a tile short until the head reached that stack."""

from __future__ import annotations

import io

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def test_tiles_lifted_off_the_wrong_stack_and_put_back_are_taken_back():
    events = io.StringIO()
    result = run(run_simulated(get_region("hebei").resolve(), hands=2, seed=3, events=events,
                               faults=("wrong_stack=0.2",)), timeout=180)
    assert result.hands == 2 and sum(result.totals) == 0
    log = read_events(events.getvalue().splitlines())
    takes: list[dict] = []
    put_backs = {"deal": 0, "play": 0}
    for event in log:
        if event["event"] == "take":
            takes.append(event)
        elif event["event"] == "put_back":      # undoes the last take still standing: one taken out of order
            take = takes.pop()
            assert take["in_order"] is False and (take["ring"], take["layer"]) == (event["ring"], event["layer"])
            put_backs["deal" if take["reason"] == "deal" else "play"] += 1
    assert put_backs["deal"] >= 4 and put_backs["play"] >= 3, put_backs
    assert not [e for e in log if e["event"] == "warning" and "stands" in e["message"]]
    assert audit_events(log) == []
