"""A real Mosquitto for the tests: Debian's `mosquitto`, on 127.0.0.1 and a free port, started and
stopped by the test (and restarted, paused with SIGSTOP, resumed with SIGCONT when a test says so).

Without it the broker tests skip with one line; under CI=true they fail instead (.ci/run installs
it, so a missing broker there is a broken CI, not a skip).  The broker keeps its sessions and
retained messages in the test's folder (`persistence true`), so a restart loses nothing a real
parlour's broker would keep.
"""

from __future__ import annotations

import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from firmware.fleet.settings import BrokerSettings


def mosquitto() -> str:
    """The broker's executable, or skip (fail under CI) saying how to install it."""
    exe = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto", "/usr/bin/mosquitto")
                                             if os.access(p, os.X_OK)), None)
    if exe is None:
        message = "mosquitto is not installed (apt-get install -y mosquitto)"
        if os.environ.get("CI"):
            pytest.fail(f"broker tests cannot run in CI: {message}")
        pytest.skip(f"broker tests skipped: {message}")
    return exe


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


class Broker:
    def __init__(self, folder: Path) -> None:
        self.exe = mosquitto()
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.paused = False
        self.starts = 0

    @property
    def settings(self) -> BrokerSettings:
        return BrokerSettings("127.0.0.1", self.port)

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.folder / "broker.log"

    def start(self) -> None:
        """Start (or start again, on the same port) and return once it accepts connections."""
        conf = self.folder / "broker.conf"
        conf.write_text(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                        f"persistence_location {self.folder}/\nautosave_interval 0\nlog_dest stderr\n"
                        f"user {getpass.getuser()}\n", encoding="utf-8")
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([self.exe, "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT)
        self.starts += 1
        deadline = time.monotonic() + 10
        while not port_open(self.port):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"mosquitto did not start: {self.log.read_text(errors='replace')[-2000:]}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop as a service manager would (SIGTERM: it saves its sessions and retained messages)."""
        if self.proc is None:
            return
        if self.paused:
            self.resume()
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def pause(self) -> None:
        """A stuck broker: its sockets stay open, nothing is answered."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)
        self.paused = False

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.stop()
        self.proc = None
