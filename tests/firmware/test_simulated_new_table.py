"""A run on the built-in simulator stopped mid-hand, then run again on the same ledger: the new run is a
new table (its tiles made anew), so the hand is not resumed.  Nothing said so at first (the hand seemed
lost, a probe); then the audit of the ledger's recorders called the pair unsound — the new run began a
new chain and a new session inside the hand left open (a probe).  The new run voids that hand, as a
restart voids a hand whose walls no longer match, and its recorder goes on from the last."""

from __future__ import annotations

import asyncio
import logging

from firmware.records.audit import audit_recorders
from firmware.records.audit_ledger import LedgerView
from firmware.records.history import History
from firmware.records.stream import read_recorder
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


async def stopped_mid_hand(path: str, events_path) -> None:
    """A run stopped (Ctrl-C) in its first hand, forty takes in."""
    takes = 0
    task: asyncio.Task | None = None

    def on_event(event: dict) -> None:
        nonlocal takes
        takes += event["event"] == "take"
        if takes == 40 and task is not None:
            task.cancel()
    with open(events_path, "w", encoding="utf-8") as events:
        task = asyncio.ensure_future(run_simulated(get_region("sichuan").resolve(), hands=None, seed=1, speed=0.0,
                                                   ledger_path=path, events=events, on_event=on_event))
        await asyncio.gather(task, return_exceptions=True)


def test_a_hand_left_in_play_by_the_run_before_is_voided_and_the_recorders_audit_sound(tmp_path, caplog):
    path = str(tmp_path / "table.db")
    first, second = tmp_path / "e1.jsonl", tmp_path / "e2.jsonl"
    run(stopped_mid_hand(path, first), timeout=60)
    with caplog.at_level(logging.WARNING, logger="firmware.simulated"):
        with open(second, "w", encoding="utf-8") as events:
            result = run(run_simulated(get_region("sichuan").resolve(), hands=2, seed=1, speed=0.0,
                                       ledger_path=path, events=events), timeout=60)
    assert result.hands == 2
    said = [r.getMessage() for r in caplog.records if r.name == "firmware.simulated"]
    assert len(said) == 1 and "hand 1 of session 1" in said[0] and "voided" in said[0]
    report = audit_recorders([read_recorder(first.name, first.read_bytes()), read_recorder(second.name, second.read_bytes())], LedgerView.open(path))
    assert report.sound, [p.text for p in report.problems]
    hands = History(path).hands()
    assert [(h.session, h.number, h.result) for h in hands][:1] == [(1, 1, "void")]
    assert [h.number for h in hands[1:]] == [2, 3]          # numbered on: no recorder repeats a hand


def test_a_ledger_with_no_hand_in_play_says_nothing(tmp_path, caplog):
    path = str(tmp_path / "table.db")
    with caplog.at_level(logging.WARNING, logger="firmware.simulated"):
        run(run_simulated(get_region("sichuan").resolve(), hands=1, seed=1, speed=0.0, ledger_path=path), timeout=60)
    assert not [r for r in caplog.records if r.name == "firmware.simulated"]


def test_two_runs_one_after_the_other_make_one_chain(tmp_path):
    """Two whole runs on one ledger: the second's recorder began a new chain, which the audit of the
    ledger's files read as a recorder missing between them."""
    path = str(tmp_path / "table.db")
    files = [tmp_path / "e1.jsonl", tmp_path / "e2.jsonl"]
    for file in files:
        with open(file, "w", encoding="utf-8") as events:
            run(run_simulated(get_region("sichuan").resolve(), hands=1, seed=1, speed=0.0, ledger_path=path,
                              events=events), timeout=60)
    report = audit_recorders([read_recorder(f.name, f.read_bytes()) for f in files], LedgerView.open(path))
    assert report.sound, [p.text for p in report.problems]
