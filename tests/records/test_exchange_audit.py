"""宜昌 换三张: the recorder keeps the dice that chose the direction, and the audit checks the direction
against them (before, only the direction was recorded: nothing could say it was the dice's)."""

import copy

from firmware.records.audit import audit_events
from tests.records.tampering import play, reseal


def test_the_exchange_records_its_dice_and_the_audit_checks_the_direction_by_them():
    events = play("yichang", 1, 11)
    exchange = next(e for e in events if e["event"] == "exchange")
    assert len(exchange["dice"]) == 2 and audit_events(events) == []
    other = {"next": "opposite", "opposite": "previous", "previous": "next"}[exchange["direction"]]
    edited = copy.deepcopy(events)
    next(e for e in edited if e["event"] == "exchange")["direction"] = other
    problems = audit_events(reseal(edited))
    assert any(f"换三张 went {other!r}" in p for p in problems), problems
