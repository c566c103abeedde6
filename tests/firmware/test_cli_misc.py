"""The diagram, enroll and audit commands, and the state machines' tables."""

import subprocess
import sys

import pytest

from firmware.cli import main
from firmware.machines import MACHINES, build_machine, dot_text


def test_diagram_prints_dot_for_every_machine(capsys):
    assert main(["diagram"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("digraph") and all(f"cluster_{name}" in out for name in MACHINES)
    assert '"table:playing" -> "table:win_check" [label="hu"]' in out


def test_diagram_writes_dot_text_to_a_file(tmp_path, capsys):
    path = tmp_path / "m.dot"
    assert main(["diagram", "--out", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == dot_text()


def test_machines_refuse_a_trigger_their_state_does_not_allow():
    table = build_machine("table")
    table.connected()
    with pytest.raises(Exception):
        table.hu()
    assert table.state == "self_test"


def test_enroll_against_the_simulator_shows_progress():
    proc = subprocess.run([sys.executable, "-m", "firmware", "enroll", "--tiles", "84"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "[1/21] lay 4 × 一筒" in proc.stdout and "enrolled 84 tags as set 1" in proc.stdout


def test_audit_refuses_a_file_that_is_not_a_recorder(tmp_path, capsys):
    bad = tmp_path / "x.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    assert main(["audit", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err


def test_a_board_that_does_not_answer_stops_the_run_with_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "firmware", "run", "--hands", "1", "--speed", "0", "--fault", "motor:silent",
                           "--db", str(tmp_path / "t.db")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "no answer from motor board" in proc.stderr and "Traceback" not in proc.stderr
