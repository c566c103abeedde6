"""On demand (`-m soak`): the issue's acceptance run for every region — 20 hands, seed 1, speed 0,
through the command line — and its flight recorder audited."""

import json
import subprocess
import sys

import pytest

from firmware.records.audit import audit_events
from rulesets.regions import REGION_IDS


@pytest.mark.soak
@pytest.mark.timeout(600)
@pytest.mark.parametrize("region_id", REGION_IDS)
def test_twenty_hands_from_the_command_line(region_id, tmp_path):
    events = tmp_path / "e.jsonl"
    proc = subprocess.run([sys.executable, "-m", "firmware", "run", "--ruleset", region_id, "--hands", "20", "--seed", "1",
                           "--speed", "0", "--events", str(events), "--db", str(tmp_path / "t.db")],
                          capture_output=True, text=True, timeout=540)
    assert proc.returncode == 0, proc.stderr
    log = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert sum(e["event"] == "hand_end" for e in log) == 20
    assert audit_events(log) == []
