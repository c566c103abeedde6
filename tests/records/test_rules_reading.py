"""A hand says which reading of its region's rules settled it (`rules` in `hand_start` and `resumed`;
rulesets/revisions.py), so the audit of a later version, which scores by its own reading, can tell a
hand an earlier reading paid otherwise (a note naming both) from a changed file (a problem).  Before,
a hand settled before a rule was read anew (长春's 夹胡, 6 December 2026) was called unsound."""

from __future__ import annotations

import copy

import pytest

import rulesets.revisions as revisions
from firmware.records.audit import audit_events
from firmware.records.audit import audit_recorders
from firmware.records.stream import recorder_from_events
from rulesets.revisions import revision
from tests.records.tampering import first_win_hand, play, reseal, swap_payments

REGION = "changchun"


@pytest.fixture(scope="module")
def played():
    return play(REGION, hands=4, seed=2)


def with_rules(events, number):
    """Every hand's openers saying reading `number` (None: no number, as recorders before it)."""
    edited = copy.deepcopy(events)
    for event in edited:
        if event["event"] in ("hand_start", "resumed"):
            if number is None:
                event.pop("rules", None)
            else:
                event["rules"] = number
    return reseal(edited)


def read_anew(monkeypatch, number: int) -> None:
    """This version reads REGION's rules as reading `number`."""
    monkeypatch.setattr(revisions, "READINGS", {**revisions.READINGS, REGION: (number, "夹胡 read anew (a test)")})


def test_every_hand_says_the_reading_it_was_played_by_and_is_sound(played):
    starts = [e for e in played if e["event"] == "hand_start"]
    assert starts and all(e["rules"] == revision(REGION) == 1 for e in starts)
    assert audit_events(played) == []


def test_a_hand_an_earlier_reading_paid_otherwise_is_a_note_naming_both_readings(played, monkeypatch):
    changed = reseal(swap_payments(played))             # as if reading 1 had paid this hand so
    read_anew(monkeypatch, 2)
    report = audit_recorders([recorder_from_events("events", changed)])
    assert report.sound, report.problems
    number = first_win_hand(changed)
    (note,) = [n for n in report.notes if f"hand {number}:" in n.text]
    assert "settled by reading 1 of 长春麻将's rules; this audit scores by reading 2 (夹胡 read anew (a test))" in note.text
    assert "the scorer gives" in note.text


def test_a_changed_hand_of_todays_reading_is_still_a_problem(played):
    problems = audit_events(reseal(swap_payments(played)))
    assert any("the scorer gives" in p for p in problems)


def test_a_changed_hand_with_no_reading_number_is_judged_as_before(played, monkeypatch):
    read_anew(monkeypatch, 2)
    problems = audit_events(with_rules(swap_payments(played), None))
    assert any("the scorer gives" in p for p in problems)


def test_a_hand_of_a_newer_reading_than_this_versions_is_a_problem_saying_which_version_can_judge_it(played):
    problems = audit_events(with_rules(played, 2))
    version = played[0]["version"]                      # the version that wrote the recorder
    assert problems and all("newer than this version's reading 1: audit it with the version that played it "
                            f"(mahjong-table {version}, its recorder says), or a newer one" in p for p in problems)


def test_a_recorder_that_does_not_name_its_version_is_told_to_find_it(played):
    unnamed = copy.deepcopy(played)
    del unnamed[0]["version"]                           # as every recorder before 7 December 2026
    problems = audit_events(with_rules(reseal(unnamed), 2))
    assert problems and all("newer than this version's reading 1: audit it with the version that played it, or a "
                            "newer one" in p for p in problems)


@pytest.mark.parametrize("number", [0, -1, "1", 1.5, True, [1]])
def test_a_reading_number_that_is_none_is_a_problem(played, number):
    problems = audit_events(with_rules(played, number))
    assert problems and all("not the number of a reading of the rules" in p for p in problems)


def test_the_numbers_are_whole_numbers_from_one_for_every_region():
    from rulesets.regions import REGION_IDS
    assert all(isinstance(revision(r), int) and revision(r) >= 1 for r in REGION_IDS)
    assert set(revisions.READINGS) <= set(REGION_IDS)
