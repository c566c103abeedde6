"""The flight recorder is a file.  `--events` naming a pipe made the next start on that ledger wait for
ever, deaf to SIGTERM (it reads the last run's recorder for the chain's head: a pipe opens only once a
writer does); a device (/dev/full) or a symlink loop stopped the table at its first line with E24's
"free space" (a probe).  Refused in one line now, and a start whose journal names such a file (written
before) reads nothing from it and plays."""

from __future__ import annotations

import os

import pytest

from tests.ops.support import cli, needs_no_default_config, one_line_error

RUN = ["run", "--ruleset", "sichuan", "--hands", "1", "--speed", "0", "--seed", "1"]


def bad_targets(tmp_path):
    fifo = tmp_path / "rec.fifo"
    os.mkfifo(fifo)
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    return {"pipe": str(fifo), "device": "/dev/full", "loop": str(tmp_path / "loop1")}


@pytest.mark.parametrize("kind", ["pipe", "device", "loop"])
def test_events_that_are_not_a_file_are_refused_in_one_line(tmp_path, kind):
    needs_no_default_config()
    target = bad_targets(tmp_path)[kind]
    proc = cli(RUN + ["--db", str(tmp_path / "t.db"), "--events", target], tmp_path, timeout=60)
    one_line_error(proc, target, "loop of symbolic links" if kind == "loop" else "name a file")


def test_a_start_whose_last_recorder_is_now_a_pipe_plays_on(tmp_path):
    needs_no_default_config()
    db, first = str(tmp_path / "t.db"), tmp_path / "first.jsonl"
    assert cli(RUN + ["--db", db, "--events", str(first)], tmp_path).returncode == 0
    first.unlink()
    os.mkfifo(first)                             # the journal names it: a pipe now, as an older version allowed
    proc = cli(RUN + ["--db", db, "--events", str(tmp_path / "next.jsonl")], tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "1 hand(s) played" in proc.stdout + proc.stderr
