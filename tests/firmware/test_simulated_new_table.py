"""A run on the built-in simulator stopped mid-hand, then run again on the same ledger (a probe): the
new run is a new table, so the hand is not resumed, and nothing said so — the hand seemed lost."""

from __future__ import annotations

import logging

from firmware.records.ledger import HAND_KEY, SESSION_KEY, Ledger
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def test_a_hand_left_in_play_by_the_run_before_is_said_not_resumed(tmp_path, caplog):
    path = str(tmp_path / "table.db")
    ledger = Ledger(path)
    ledger.journal_put(SESSION_KEY, {"session": 1})
    ledger.journal_put(HAND_KEY, {"number": 3})
    ledger.close()
    with caplog.at_level(logging.WARNING, logger="firmware.simulated"):
        result = run(run_simulated(get_region("sichuan").resolve(), hands=1, seed=1, speed=0.0, ledger_path=path),
                     timeout=60)
    assert result.hands == 1
    said = [r.getMessage() for r in caplog.records if r.name == "firmware.simulated"]
    assert len(said) == 1 and "hand 3" in said[0] and "not resumed" in said[0] and "session 1" in said[0]


def test_a_ledger_with_no_hand_in_play_says_nothing(tmp_path, caplog):
    path = str(tmp_path / "table.db")
    with caplog.at_level(logging.WARNING, logger="firmware.simulated"):
        run(run_simulated(get_region("sichuan").resolve(), hands=1, seed=1, speed=0.0, ledger_path=path), timeout=60)
    assert not [r for r in caplog.records if r.name == "firmware.simulated"]
