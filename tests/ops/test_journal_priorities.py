"""Under systemd every line `run` writes carries its syslog priority, so `journalctl -u mahjong-table
-p warning` shows why a table will not start and the link trouble (docs/operations.md, "Logs").
Before, the lines a command printed itself (`mahjong-table: error: …`, `the table stopped: …`, the
kernel-numbered port warning, `trying again …`) had none, and journald filed them at info."""

import asyncio
import io
import logging
import signal
import subprocess
import sys
from pathlib import Path

from firmware.build.registry import Registered, TileRegistry
from firmware.logs import at_level, journal_stderr
from rulesets.tiles import Tile
from tests.asyncio_support import run
from tests.ops.simulated_table import simulated_table
from tests.ops.support import clean_env, cli
from tests.reliability.campaign import _child_env

JOURNAL = {"INVOCATION_ID": "0123456789abcdef"}


def enrolled_config(folder: Path, motor: str, rfid: str, extra: str = "") -> Path:
    """A configuration naming `motor` and `rfid`, its state folder holding one enrolled tag."""
    state = folder / "state"
    state.mkdir()
    registry = TileRegistry(state / "tiles.db")
    registry.enroll([Registered(b"\x01\x02\x03\x04", Tile.parse("1m"), 0, 0)])
    registry.close()
    config = folder / "table.toml"
    config.write_text(f'[devices]\nmotor = "{motor}"\nrfid = "{rfid}"\n[storage]\nstate_dir = "{state}"\n{extra}',
                      encoding="utf-8")
    return config


def test_a_ruleset_typo_under_systemd_is_an_error_line(tmp_path):
    config = enrolled_config(tmp_path, "/dev/ttyUSB9", "/dev/ttyUSB8", '[table]\nruleset = "changchn"\n')
    proc = cli(["run", "--config", str(config)], tmp_path, env=clean_env(tmp_path, **JOURNAL))
    assert proc.returncode == 2
    assert proc.stderr.startswith("<3>mahjong-table: error: ") and "'changchn' is not a ruleset" in proc.stderr
    usage = cli(["run", "--hands", "0"], tmp_path, env=clean_env(tmp_path, **JOURNAL))
    assert usage.returncode == 2 and usage.stderr.startswith("<3>mahjong-table: error: --hands 0")


def test_a_missing_kernel_numbered_port_under_systemd_is_a_warning_then_an_error(tmp_path):
    config = enrolled_config(tmp_path, "/dev/ttyUSB9", "/dev/ttyUSB8")
    proc = cli(["run", "--config", str(config)], tmp_path, env=clean_env(tmp_path, **JOURNAL))
    assert proc.returncode == 1, proc.stderr
    assert "<4>devices.motor = '/dev/ttyUSB9' is numbered by the kernel" in proc.stdout
    assert proc.stderr.startswith("<3>mahjong-table: the table stopped: no serial port /dev/ttyUSB9")
    terminal = cli(["run", "--config", str(config)], tmp_path)     # a person's terminal: no priorities
    assert "<" not in terminal.stderr and " warning: devices.motor = '/dev/ttyUSB9'" in terminal.stdout


async def swapped_then_cut(folder: Path) -> tuple[subprocess.CompletedProcess, str]:
    """A start with the boards' ports swapped, then one with the motor link cut (stopped once waiting)."""
    async with simulated_table(folder, "hainan", 5) as (sim, config):
        text = config.read_text(encoding="utf-8")
        motor, rfid = sim.endpoints.motor, sim.endpoints.rfid
        swapped = folder / "swapped.toml"
        swapped.write_text(text.replace(f'"{motor}"', '"@M@"').replace(f'"{rfid}"', f'"{motor}"').replace("@M@", rfid),
                           encoding="utf-8")
        env = {**_child_env(), "MAHJONG_TABLE_CONFIG": "", **JOURNAL}
        command = [sys.executable, "-m", "firmware", "run", "--config"]
        done = await asyncio.to_thread(subprocess.run, [*command, str(swapped)], capture_output=True, text=True,
                                       env=env, timeout=120)
        await sim.control.cut("motor", 600.0)
        log = folder / "cut.log"
        with log.open("wb") as out:
            waiting = subprocess.Popen([*command, str(config)], stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            for _ in range(1200):
                if "trying again" in log.read_text(encoding="utf-8"):
                    break
                await asyncio.sleep(0.1)
        finally:
            waiting.send_signal(signal.SIGTERM)
            await asyncio.to_thread(waiting.wait, 60)
    return done, log.read_text(encoding="utf-8")


def test_swapped_ports_and_a_board_waited_for_under_systemd_carry_their_priority(tmp_path):
    done, cut = run(swapped_then_cut(tmp_path), timeout=300)
    assert done.returncode == 1
    assert done.stderr.startswith("<3>mahjong-table: the table stopped: motor board at "), done.stderr
    waits = [line for line in cut.splitlines() if "trying again" in line]
    assert waits and all(line.startswith("<4>no answer from motor board") for line in waits), cut


def test_lines_printed_on_stderr_under_systemd_are_errors_unless_they_say_otherwise(monkeypatch):
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    with journal_stderr(JOURNAL):
        print("mahjong-table: error: x\nTraceback (most recent call last):", file=sys.stderr)
        print("<4>already a warning", file=sys.stderr)
        print("the card has room again", file=at_level(sys.stderr, logging.INFO))
        sys.stderr.write("half ")
        sys.stderr.write("a line\n")
    assert sys.stderr is stream
    assert stream.getvalue().splitlines() == ["<3>mahjong-table: error: x", "<3>Traceback (most recent call last):",
                                              "<4>already a warning", "<6>the card has room again", "<3>half a line"]
    with journal_stderr({}):
        print("in a terminal", file=sys.stderr)
    assert stream.getvalue().endswith("\nin a terminal\n")
