"""Helpers for the operations tests: the CLI in a clean environment, a served simulated table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.config import CONFIG_ENV, DEFAULT_CONFIG_PATH

ROOT = Path(__file__).resolve().parents[2]


def clean_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a user with no configuration and a state folder under `tmp`."""
    env = {k: v for k, v in os.environ.items()
           if k not in (CONFIG_ENV, "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM", "INVOCATION_ID")}
    env["XDG_STATE_HOME"] = str(tmp / "xdg")
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def cli(args: list[str], tmp: Path, *, env: dict[str, str] | None = None, cwd: Path | None = None,
        timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """`mahjong-table ARGS` as a user would run it (a new process), with text output captured."""
    return subprocess.run([sys.executable, "-m", "firmware", *args], capture_output=True, text=True,
                          env=env or clean_env(tmp), cwd=cwd or tmp, timeout=timeout, **kwargs)


def needs_no_default_config() -> None:
    """Tests of 'no configuration' cannot run on a machine that has the real table's one."""
    if DEFAULT_CONFIG_PATH.exists():
        pytest.skip(f"{DEFAULT_CONFIG_PATH} exists on this machine: the commands would drive that table")


def one_line_error(proc: subprocess.CompletedProcess, *words: str) -> None:
    """Exit status 2, one line on stderr naming `words`, no traceback."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in proc.stderr, (word, proc.stderr)
