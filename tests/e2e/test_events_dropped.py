"""A board whose event queue overflowed (its host away a long while, or holding its acknowledgements
through a long E24, while people played on) tells EventsDropped(count) behind the events it held, and
the host must read its state again (protocol.md §3.4).  The controller ignored it: the takes those
events reported were never counted, and the hand went on from a wall it no longer knew."""

import io
import json
import re

import pytest

from drivers.board_link import BoardLink
from drivers.motor_protocol import BuildDone, ShuffleDone, WallChanged
from drivers.rfid_protocol import SlotRead
from firmware.records.audit import audit_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def _refusing(monkeypatch, refuse) -> list:
    """The boards' links refuse the events `refuse(message, refused so far)` picks, as a full queue
    would; the board tells their count once there is room (EventsDropped)."""
    real_emit = BoardLink.emit
    refused: list = []

    def emit(link, message):
        if refuse(message, refused):
            refused.append(message)
            link._refused += 1
            return False
        return real_emit(link, message)
    monkeypatch.setattr(BoardLink, "emit", emit)
    return refused


def test_takes_lost_with_an_overflowed_queue_are_read_back_from_the_sensors(monkeypatch):
    armed: list[bool] = []
    # a few takes refused, as by a full queue, from the middle of hand 1 on
    refused = _refusing(monkeypatch, lambda message, refused: bool(armed) and isinstance(message, WallChanged)
                        and message.tiles < 2 and len(refused) < 3)

    def heard(event):
        if event["event"] == "take" and event["hand"] == 1 and event["reason"] == "draw" and event["live"] < 70:
            armed.append(True)

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


@pytest.mark.parametrize("lost", [BuildDone, ShuffleDone, SlotRead])
def test_a_set_whose_report_was_lost_in_an_overflow_is_built_and_checked(monkeypatch, lost):
    """The set under the table waited for ever for a BuildDone (or a ShuffleDone, or a re-read's
    answer) lost with an overflowed queue: the snapshot read again says nothing of a build. Now the
    shuffle or the build is asked for again (the board answers for one done already), and a round of
    re-reads some answers of which were lost is read again."""
    def refuse(message, refused):
        if isinstance(message, SlotRead) and lost is not SlotRead:
            return False
        return isinstance(message, lost) and not refused
    refused = _refusing(monkeypatch, refuse)
    events = io.StringIO()
    faults = ("missed_read=0.03",) if lost is SlotRead else ()     # re-reads to answer
    result = run(run_simulated(get_region("hainan").resolve(), hands=2, seed=1, events=events, faults=faults),
                 timeout=120)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert len(refused) == 1                                        # in the first build
    assert any(e["event"] == "warning" and "overflowed" in e.get("message", "") for e in log)
    first = next(e for e in log if e["event"] == "set_check")
    assert (first["build"], first["ok"]) == (1, True)
    assert result.hands == 2 and audit_events(log) == []
