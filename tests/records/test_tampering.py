"""Issue 9, item 6: the audit catches each way of tampering with a real recorder.

Each tampering is tried twice: as a plain edit, and resealed — the chain fields written again by a
tamperer who knows the (public) scheme, so only the rules, the clock and the ledger can catch it.
A resealed deletion of the last hand, and a resealed change of a self-drawn hand's winner, leave a
recorder that is consistent in itself: only the ledger (`--ledger`) catches them.
"""

from __future__ import annotations

import pytest

from firmware.records.audit import audit_recorders
from firmware.records.audit_ledger import LedgerView
from firmware.records.stream import recorder_from_events
from tests.records.conftest import REGIONS
from tests.records.tampering import TAMPERINGS, reseal

ONLY_THE_LEDGER_CATCHES_RESEALED = {"the last hand deleted", "the winner changed"}


def audit(events, ledger=None):
    return audit_recorders([recorder_from_events("tampered.jsonl", events)], ledger)


@pytest.mark.parametrize("region", REGIONS)
def test_an_untouched_recorder_is_sound_alone_and_against_its_ledger(recorders, region):
    events, ledger = recorders[region]
    assert audit(events).problems == ()
    report = audit(events, LedgerView.open(ledger))
    assert report.sound and report.hands == 4 and report.notes == ()


@pytest.mark.parametrize("region", REGIONS)
@pytest.mark.parametrize("tampering", list(TAMPERINGS))
def test_each_tampering_is_caught(recorders, region, tampering):
    events, ledger_path = recorders[region]
    ledger = LedgerView.open(ledger_path)
    edited = TAMPERINGS[tampering](events)
    assert edited != events
    assert not audit(edited).sound, "a plain edit breaks the chain or the rules"
    assert not audit(edited, ledger).sound
    resealed = reseal(edited)
    assert not audit(resealed, ledger).sound, "the ledger catches what a resealed chain hides"
    if tampering not in ONLY_THE_LEDGER_CATCHES_RESEALED:
        assert not audit(resealed).sound, "the rules, the clock or the numbering catch it without the chain"


def test_a_resealed_payment_swap_is_caught_by_the_scorer(recorders):
    events, _ = recorders["changchun"]
    problems = [p.text for p in audit(reseal(TAMPERINGS["payments swapped between seats (totals consistent)"](events))).problems]
    assert any("the scorer gives" in p for p in problems), problems


def test_a_resealed_deletion_of_the_last_hand_is_named_by_the_ledger(recorders):
    events, ledger = recorders["guangshui"]
    report = audit(reseal(TAMPERINGS["the last hand deleted"](events)), LedgerView.open(ledger))
    texts = [p.text for p in report.problems]
    assert len(texts) == 1 and "session 1 hand 4 " in texts[0] and "in the ledger but not in the recorder" in texts[0]


def test_a_payment_row_no_seat_has_written_into_the_ledger_is_caught_and_the_history_leaves_it_out(recorders, tmp_path):
    """Rows added to the ledger by hand for sides -1 and 9 (a transfer that sums to nothing): the audit
    names them against the recorder; the history's totals and pages are the seats' alone."""
    import shutil
    import sqlite3

    from firmware.records.history import History

    events, ledger_path = recorders["sichuan"]
    copy = tmp_path / "ledger.db"
    shutil.copy(ledger_path, copy)
    sound_totals = [h.totals for h in History(copy).hands()]
    db = sqlite3.connect(copy)
    with db:
        db.execute("INSERT INTO payments (hand, side, amount) VALUES (2, -1, 50), (2, 9, -50)")
    db.close()
    texts = [p.text for p in audit(events, LedgerView.open(str(copy))).problems]
    assert len(texts) == 1 and "hand 2: the ledger holds payments" in texts[0], texts
    assert "side -1 paid 50" in texts[0] and "side 9 paid -50" in texts[0]
    history = History(copy)
    assert [h.totals for h in history.hands()] == sound_totals
    assert [s.totals for s in history.sessions()] and history.hand(2).payments == History(ledger_path).hand(2).payments


def test_a_deleted_take_is_one_problem_and_a_count_of_those_that_follow_from_it(recorders):
    """A take removed (resealed) puts every later take out of order and miscounted: the audit names
    the first of each and how many more, not a hundred lines; places are written as people read them."""
    events, _ = recorders["sichuan"]
    takes = [i for i, e in enumerate(events) if e["event"] == "take" and e["hand"] == 1]
    edited = events[:takes[10]] + events[takes[10] + 1:]
    texts = [p.text for p in audit(reseal(edited)).problems]
    astray = [t for t in texts if "out of draw order" in t]
    assert len(astray) == 2 and "(expected " in astray[0] and "Slot(" not in astray[0], texts
    assert astray[1].startswith("hand 1: … and ") and astray[1].endswith("more takes after it out of draw order")
    assert len(texts) <= 6, texts


def test_a_blood_battle_hand_that_ends_before_it_may_is_caught(recorders):
    """血战到底: a resealed recorder with one of three wins taken out (payments and totals made
    consistent) ends with two winners and the wall not spent, which the rules never allow."""
    from tests.records.tampering import HAND_SEAL, retotal

    events, _ = recorders["sichuan"]
    number = next(e["hand"] for e in events if e["event"] == HAND_SEAL and len(e["winners"]) == 3)
    last_win = max(i for i, e in enumerate(events) if e["event"] == "win" and e["hand"] == number)
    win = events[last_win]
    edited = [dict(e) for i, e in enumerate(events) if i != last_win]
    end = next(e for e in edited if e["event"] == HAND_SEAL and e["hand"] == number)
    end["winners"] = [s for s in end["winners"] if s != win["seat"]]
    end["payments"] = [p - q for p, q in zip(end["payments"], win["payments"])]
    texts = [p.text for p in audit(reseal(retotal(edited))).problems]
    assert any("血战到底 plays on until one player is left" in t for t in texts), texts


def _swap_in_wall(events, number: int, ring: int, layer: str, differs=lambda tile: True):
    """The wall of hand `number` with the tile at (ring, layer) swapped with one never taken (and
    `differs`), its hash written again: a wall the controller could have recorded."""
    import copy

    from firmware.hand.state import wall_hash

    edited = copy.deepcopy(events)
    start = next(e for e in edited if e["hand"] == number and e["event"] == "hand_start")
    end = next(e for e in edited if e["hand"] == number and e["event"] == "hand_end")
    taken = {(e["ring"], e["layer"]) for e in edited if e["hand"] == number and e["event"] == "take"}
    here = 0 if layer == "top" else 1
    held = end["ring"][ring][here]
    other, there = next((k, j) for k, pair in enumerate(end["ring"]) for j, tile in enumerate(pair)
                        if (k, ("top", "bottom")[j]) not in taken and (k, j) != (ring, here) and tile != held
                        and differs(tile))
    end["ring"][ring][here], end["ring"][other][there] = end["ring"][other][there], held
    start["wall_hash"] = wall_hash(end["salt"], end["ring"])
    return edited


def test_a_private_bao_the_wall_did_not_hold_is_caught(recorders):
    """The 宝 a ready seat saw privately is revealed only at hand_end: the audit scored the win with
    whatever hand_end said and never looked at the wall there (a probe: a 摸宝 win paid +32 on a 宝
    the wall did not hold was sound)."""
    events, _ = recorders["changchun"]
    end = next(e for e in events if e["event"] == "hand_end" and any(i["kind"] == "bao" for i in e["indicators"]))
    bao = next(i for i in end["indicators"] if i["kind"] == "bao")
    edited = reseal(_swap_in_wall(events, end["hand"], bao["ring"][0], bao["layer"][0]))
    texts = [p.text for p in audit(edited).problems]
    assert any("indicator bao (revealed at hand_end) shows" in t and "but the wall holds" in t for t in texts), texts


@pytest.mark.parametrize("region", [r for r in REGIONS if r != "guizhou"])     # (guizhou's four hands: none)
def test_a_self_drawn_win_on_a_tile_the_last_take_did_not_give_is_caught(recorders, region):
    """A self-drawn win's tile was never compared with the tile its last take gave (a probe)."""
    events, _ = recorders[region]
    win = next(e for e in events if e["event"] == "win" and e["from"] is None and e["win_tile"])
    last = [e for e in events[:events.index(win)] if e["event"] == "take" and e["hand"] == win["hand"]][-1]
    edited = reseal(_swap_in_wall(events, win["hand"], last["ring"], last["layer"],
                                  differs=lambda tile: tile not in win["tiles"]))
    texts = [p.text for p in audit(edited).problems]
    assert any(f"is self-drawn on {win['win_tile']}; the last take" in t for t in texts), texts
