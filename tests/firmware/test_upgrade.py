"""A new version of the controller installed on a table in use (a probe): a version that adds a house
option (with the default the rules played before) opened a new session at its first start — the
scores back to zero, the first dealer rolled again — and its files audited unsound; a downgrade
dropped every option the owner had saved, and in mid-hand left a table that could not start (a
traceback at every start).  Another version's journal is here written by editing the ledger."""

from __future__ import annotations

import pytest

from firmware.panel import Settings
from firmware.records.audit import audit_recorders
from firmware.records.ledger import HAND_KEY, SESSION_KEY, Ledger
from firmware.records.stream import recorder_from_events
from firmware.session import JournalUnreadable
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart, nth_take_of_hand_2

REGION = "changchun"
ADDED = "dadan"            # an option of 长春's card; "a version before it" journaled no such key


def journal_as_written_by(db: str, edit) -> None:
    ledger = Ledger(db)
    try:
        saved = ledger.journal()
        for key in (SESSION_KEY, HAND_KEY):
            if key in saved:
                ledger.journal_put(key, edit(key, saved[key]))
    finally:
        ledger.close()


def older(key: str, value: dict) -> dict:
    """As a version before the option was added wrote it: the option's key absent."""
    value["options"].pop(ADDED)
    return value


def newer(key: str, value: dict) -> dict:
    """As a later version wrote it: an option this one has never heard of."""
    value["options"]["a_future_option"] = "x"
    return value


def between_hands(event: dict) -> bool:
    return event["event"] == "hand_end" and event["hand"] == 2


def test_an_upgrade_between_hands_goes_on_with_the_session(tmp_path):
    db = str(tmp_path / "table.db")
    _, before, after = run(crash_and_restart(REGION, 5, db, between_hands,
                                             meanwhile=lambda *_: journal_as_written_by(db, older)), timeout=120)
    assert not [e for e in after if e["event"] == "session_start"]
    (resumed,) = [e for e in after if e["event"] == "session_resumed"]
    last_totals = [e for e in before if e["event"] == "hand_end"][-1]["totals"]
    assert resumed["totals"] == last_totals and resumed["session"] == 1
    report = audit_recorders([recorder_from_events("before.jsonl", before), recorder_from_events("after.jsonl", after)])
    assert report.sound, [p.text for p in report.problems]


def test_a_downgrade_in_mid_hand_finishes_the_hand_without_the_options_it_does_not_know(tmp_path):
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart(REGION, 5, db, nth_take_of_hand_2(40),
                                                  meanwhile=lambda *_: journal_as_written_by(db, newer)), timeout=120)
    assert result.hands == 2
    warnings = [e["message"] for e in after if e["event"] == "warning"]
    assert any("a_future_option=x" in w and "finished without them" in w for w in warnings), warnings
    assert any("a_future_option=x" in w and "goes on without them" in w for w in warnings), warnings
    assert not [e for e in after if e["event"] == "session_start"]
    assert [e["hand"] for e in after if e["event"] == "hand_end"][0] == 2       # the hand in play, finished


def test_a_hand_this_version_cannot_read_stops_the_start_with_one_line(tmp_path):
    db = str(tmp_path / "table.db")

    def newer_state(key: str, value: dict) -> dict:
        if key == HAND_KEY:
            value["version"] = 99
        return value
    with pytest.raises(JournalUnreadable) as stopped:
        run(crash_and_restart(REGION, 5, db, nth_take_of_hand_2(40),
                              meanwhile=lambda *_: journal_as_written_by(db, newer_state)), timeout=120)
    said = str(stopped.value)
    assert "hand 2" in said and "another version" in said and "start the version that wrote it" in said
    assert "\n" not in said


def test_a_saved_choice_keeps_the_options_this_version_knows(tmp_path, caplog):
    settings = Settings(str(tmp_path / "table.db"))
    try:
        settings.put("ruleset", REGION)
        settings.put(f"options:{REGION}", '{"kong_value": "5", "a_future_option": "x"}')
        assert settings.ruleset_choice() == (REGION, {"kong_value": "5"})
    finally:
        settings.close()
    assert any("a_future_option=x" in r.getMessage() for r in caplog.records)
