"""One program at a time drives a table: a second `run`, or an `enroll`, beside a running controller
is refused in one line naming the holder, and the running table plays on with its display its own
(before, the second controller opened the same boards and the two read each other's bytes).  A
controller that was killed holds nothing: the next start runs."""

import shutil
import subprocess
import sys

from tests.asyncio_support import run
from tests.ops.test_stop import ledger_hands, until
from tests.ops.simulated_table import simulated_table
from tests.reliability.campaign import Controller, _child_env, card_of


def second(config, *command: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "firmware", *command, "--config", str(config)],
                          capture_output=True, text=True, env={**_child_env(), "MAHJONG_TABLE_CONFIG": ""}, timeout=120)


async def beside_a_running_table(folder):
    region = "wuhan"
    async with simulated_table(folder, region, 6) as (sim, config):
        controller = Controller(config, region, folder / "controller.log")
        db = card_of(folder) / "table.db"
        try:
            controller.start()
            await controller.started()
            refused_run = second(config, "run", "--ruleset", region)
            refused_enroll = second(config, "enroll", "--import", str(folder / "no-such-export.json"))
            refused_elsewhere = second(_another_state_folder(folder, config), "run", "--ruleset", region)
            settled = len(ledger_hands(db))
            await until(lambda: len(ledger_hands(db)) > settled, "a hand settled after the refusals")
            view = await sim.control.table()
            controller.kill()                                   # the lock dies with its holder
            controller.start()
            await controller.started()
            settled = len(ledger_hands(db))
            await until(lambda: len(ledger_hands(db)) > settled, "a hand settled after the kill")
        finally:
            controller.stop()
    return refused_run, refused_enroll, refused_elsewhere, view, controller.exits


def _another_state_folder(folder, config):
    """The same boards' ports, another state folder (its own lock, its own copy of the registry): as a
    technician's `run` by hand under another user's default state folder, the service still running."""
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(card_of(folder) / "tiles.db", elsewhere / "tiles.db")
    other = folder / "elsewhere.toml"
    other.write_text(config.read_text(encoding="utf-8").replace(str(card_of(folder)), str(elsewhere)), encoding="utf-8")
    return other


def test_a_second_program_is_refused_and_the_running_table_plays_on(tmp_path):
    refused_run, refused_enroll, refused_elsewhere, view, exits = run(beside_a_running_table(tmp_path), timeout=300)
    lines = refused_elsewhere.stderr.strip().splitlines()
    assert refused_elsewhere.returncode == 2 and len(lines) == 1, refused_elsewhere.stderr
    assert "is held open by another program" in lines[0] and lines[0].endswith("then run again"), lines[0]
    for refused, doing in ((refused_run, "run"), (refused_enroll, "enroll")):
        lines = refused.stderr.strip().splitlines()
        assert refused.returncode == 2 and len(lines) == 1, refused.stderr
        assert "mahjong-table run (pid " in lines[0] and "is driving this table" in lines[0]
        assert f"sudo systemctl stop mahjong-table, or Ctrl-C where it runs), then {doing} again" in lines[0]
    assert view.components["fault.t_code"].text != "E25"          # the running table's display was left alone
    assert exits[-1] == 0
