"""A board whose event queue overflowed (its host away a long while, or holding its acknowledgements
through a long E24, while people played on) tells EventsDropped(count) behind the events it held, and
the host must read its state again (protocol.md §3.4).  The controller ignored it: the takes those
events reported were never counted, and the hand went on from a wall it no longer knew."""

import io
import json
import re

from drivers.board_link import BoardLink
from drivers.motor_protocol import WallChanged
from firmware.records.audit import audit_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def test_takes_lost_with_an_overflowed_queue_are_read_back_from_the_sensors(monkeypatch):
    real_emit = BoardLink.emit
    refused: list[WallChanged] = []

    def emit(link, message):
        # a few takes refused, as by a full queue: the board tells the count once there is room
        if isinstance(message, WallChanged) and message.tiles < 2 and len(refused) < 3 and emit.armed:
            refused.append(message)
            link._refused += 1
            return False
        return real_emit(link, message)
    emit.armed = False
    monkeypatch.setattr(BoardLink, "emit", emit)

    def heard(event):
        if event["event"] == "take" and event["hand"] == 1 and event["reason"] == "draw" and event["live"] < 70:
            emit.armed = True

    events = io.StringIO()
    result = run(run_simulated(get_region("hainan").resolve(), hands=2, seed=1, events=events, on_event=heard),
                 timeout=120)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert len(refused) == 3
    said = [e["message"] for e in log if e["event"] == "warning" and "overflowed" in e.get("message", "")]
    assert sum(int(re.search(r"(\d+) event\(s\) lost", m).group(1)) for m in said) == 3, said
    assert not [e for e in log if e["event"] == "take" and not e["in_order"]]
    assert not [e for e in log if e["event"] == "hand_end" and e["result"] == "void"]
    assert result.hands == 2 and audit_events(log) == []
