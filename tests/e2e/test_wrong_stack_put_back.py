"""Players who lift a tile off the wrong stack, read 请按顺序取牌 and put it back (simulator fault
`wrong_stack`), over the real serial stack: every such take is undone as it is put back, the hands
settle as without the mistakes, and the audit finds the record sound.  Before, each take stood with
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
    put_backs = [i for i, e in enumerate(log) if e["event"] == "put_back"]
    assert len(put_backs) >= 3
    for at in put_backs:
        take = next(e for e in reversed(log[:at]) if e["event"] == "take")
        assert take["in_order"] is False
        assert (take["ring"], take["layer"]) == (log[at]["ring"], log[at]["layer"])
    assert not [e for e in log if e["event"] == "warning" and "put back" in e["message"]]
    assert audit_events(log) == []
