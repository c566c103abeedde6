"""A real table that cannot start for a reason a person must fix says so in one line (the log, the
exit status 2) and on its own display, E25 无法启动, so the people at the table see why it does not
play (before, the display kept whatever it last showed)."""

import subprocess
import sys

import pytest

from tests.asyncio_support import run
from tests.ops.simulated_table import simulated_table
from tests.reliability.campaign import _child_env, card_of


async def start_once(folder, broken: str):
    region = "wuhan"
    async with simulated_table(folder, region, 5, enrolled=broken == "damaged-ledger") as (sim, config):
        if broken == "damaged-ledger":
            (card_of(folder) / "table.db").write_bytes(b"this is not an SQLite file, a power cut's leftovers" * 100)
        if broken == "state-folder-under-a-file":       # the lock's folder cannot be made: E25 before the lock
            (folder / "a-file").write_text("not a folder", encoding="utf-8")
            config.write_text(config.read_text(encoding="utf-8").replace(str(card_of(folder)), str(folder / "a-file")),
                              encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "firmware", "run", "--config", str(config), "--ruleset", region],
                              capture_output=True, text=True, env={**_child_env(), "MAHJONG_TABLE_CONFIG": ""},
                              timeout=120)
        view = await sim.control.table()
    return done, view


@pytest.mark.parametrize("broken, said", [
    ("nothing-enrolled", "no tiles are enrolled"),
    ("damaged-ledger", "the ledger and settings database is damaged"),
    ("state-folder-under-a-file", "a-file is a file, not a folder, so the tile registry cannot go there"),
])
def test_a_table_that_cannot_start_shows_e25_on_its_display_and_says_why_in_one_line(tmp_path, broken, said):
    done, view = run(start_once(tmp_path, broken), timeout=180)
    assert done.returncode == 2
    # (a busy machine may also log a link's passing trouble, "…: trouble began …": a line of its own)
    lines = [line for line in done.stderr.strip().splitlines() if "trouble began" not in line]
    assert len(lines) == 1 and said in lines[0] and "Traceback" not in done.stderr, done.stderr
    assert view.page == "fault"
    assert view.components["fault.t_code"].text == "E25"
    assert view.components["fault.t_text"].text == "无法启动"
    assert view.components["fault.t_hint"].text == "请技术人员查看运行日志"
