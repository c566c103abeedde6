"""How `run`'s output ends: a reader that goes away (`run … | head -1`) silences the run but does not
stop the table or fill stderr with `--- Logging error ---` tracebacks; a real table played for
`--hands N` ends with the documented last line `N hand(s) played; totals …`, as the simulator does."""

import sqlite3
import subprocess
import sys

from tests.asyncio_support import run
from tests.ops.simulated_table import simulated_table
from tests.ops.support import clean_env, needs_no_default_config
from tests.reliability.campaign import _child_env


def test_a_closed_pipe_silences_the_run_and_the_table_plays_on(tmp_path):
    needs_no_default_config()
    db = tmp_path / "demo.db"
    proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--hands", "2", "--speed", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=clean_env(tmp_path),
                            cwd=tmp_path)
    first = proc.stdout.readline()
    proc.stdout.close()                                  # `| head -1`
    errors = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert first.startswith("no configuration: running")
    assert errors == "", errors[:2000]                  # was a traceback per log line
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM hands").fetchone()[0] == 2


async def play_one_hand_on_boards(folder):
    async with simulated_table(folder, "hainan", 5) as (sim, config):
        return subprocess.run([sys.executable, "-m", "firmware", "run", "--config", str(config), "--ruleset", "hainan",
                               "--hands", "1"], capture_output=True, text=True,
                              env={**_child_env(), "MAHJONG_TABLE_CONFIG": ""}, timeout=240)


def test_a_real_table_played_for_n_hands_ends_with_the_hands_and_totals(tmp_path):
    done = run(play_one_hand_on_boards(tmp_path), timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("running 海南麻将 (hainan) on the boards of")
    assert lines[-1].startswith("1 hand(s) played; totals "), lines[-3:]
