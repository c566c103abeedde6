"""A hangup stops the table (and the parlour) in order: the terminal a technician started `run` from
closes (an SSH session drops, a terminal window is shut).  Before, the hangup killed the controller as
a power cut does (its recorder cut without its clean end, the motors left to stop by themselves); and
with a handler, each line the stop says failed on the dead terminal (EIO), so the stop never happened.
Under `nohup` (hangups ignored, as asked) the table plays on."""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Callable, Iterator

from tests.ops.support import clean_env, needs_no_default_config
from tests.reliability.campaign import recorder_lines

LIMIT_S = 120       # for a busy machine to start the run and play a hand


class Terminal:
    """`mahjong-table ARGS` run from a pseudo-terminal, its controlling terminal and (without nohup)
    its standard streams, as a shell in a terminal runs it."""

    def __init__(self, proc: subprocess.Popen, master: int) -> None:
        self.proc = proc
        self._master = master
        self._shown = b""

    def hang_up_once(self, until: Callable[[bytes], bool]) -> None:
        """Once `until(what the terminal showed so far)`, the terminal is closed (hangs up)."""
        deadline = time.monotonic() + LIMIT_S
        while not until(self._shown):
            assert self.proc.poll() is None and time.monotonic() < deadline, self._shown[-1500:]
            self._shown += self._drained()
            time.sleep(0.05)
        self.close()

    def close(self) -> None:
        if self._master >= 0:
            os.close(self._master)
            self._master = -1

    def _drained(self) -> bytes:
        """What the run wrote to its terminal since the last look (read: a full terminal would block it)."""
        read = b""
        while select.select([self._master], [], [], 0)[0]:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:
                break
            if not chunk:
                break
            read += chunk
        return read


@contextlib.contextmanager
def on_a_terminal(args: list[str], tmp: Path, nohup: bool = False) -> Iterator[Terminal]:
    """The run on a new terminal, killed at the end if it is still there.  `nohup`: started as `nohup`
    starts it, hangups ignored and its output to a file (nohup.out)."""
    master, slave = os.openpty()

    def controlling_terminal() -> None:       # (after the setsid of start_new_session)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        # as a shell starts it: hangups ignored under nohup, else as by default (whatever this test
        # process inherited: the suite itself may run under nohup)
        signal.signal(signal.SIGHUP, signal.SIG_IGN if nohup else signal.SIG_DFL)

    output = (tmp / "nohup.out").open("wb") if nohup else slave
    proc = subprocess.Popen([sys.executable, "-m", "firmware", *args], stdin=slave, stdout=output, stderr=output,
                            env=clean_env(tmp), cwd=tmp, start_new_session=True, preexec_fn=controlling_terminal)
    os.close(slave)
    if nohup:
        output.close()
    terminal = Terminal(proc, master)
    try:
        yield terminal
    finally:
        terminal.close()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _simulated_run(tmp: Path, events: Path) -> list[str]:
    needs_no_default_config()
    return ["run", "--simulate", "--ruleset", "hainan", "--speed", "0", "--db", str(tmp / "table.db"),
            "--events", str(events)]


def _hands_ended(events: Path) -> int:
    return events.read_text(encoding="utf-8").count('"event":"hand_end"') if events.exists() else 0


def test_a_hangup_of_the_terminal_stops_the_table_in_order(tmp_path):
    events = tmp_path / "events.jsonl"
    with on_a_terminal(_simulated_run(tmp_path, events), tmp_path) as terminal:
        terminal.hang_up_once(lambda shown: events.exists() and '"event":"take"' in events.read_text(encoding="utf-8"))
        assert terminal.proc.wait(60) == 0                      # (before: -1, killed by the hangup)
    assert recorder_lines(events)[-1]["event"] == "recorder_end"      # closed in order, not cut


def test_a_hangup_of_the_terminal_stops_the_parlour_in_order(tmp_path):
    with on_a_terminal(["parlour", "--mqtt", "mqtt://127.0.0.1:1", "--http", "127.0.0.1:0",
                        "--db", str(tmp_path / "parlour.db")], tmp_path) as terminal:
        terminal.hang_up_once(lambda shown: b"parlour page at" in shown)
        assert terminal.proc.wait(60) == 0                      # (before: -1)


def test_under_nohup_a_hangup_is_ignored_as_asked_and_the_table_plays_on(tmp_path):
    """`nohup mahjong-table run …` asks that a hangup be ignored: no handler of ours overrides that."""
    events = tmp_path / "events.jsonl"
    with on_a_terminal(_simulated_run(tmp_path, events), tmp_path, nohup=True) as terminal:
        terminal.hang_up_once(lambda shown: _hands_ended(events) >= 1)
        ended = _hands_ended(events)
        deadline = time.monotonic() + LIMIT_S
        while _hands_ended(events) <= ended:                    # it plays on: another hand ends after the hangup
            assert terminal.proc.poll() is None and time.monotonic() < deadline, "stopped by the hangup"
            time.sleep(0.05)
        terminal.proc.send_signal(signal.SIGTERM)
        assert terminal.proc.wait(60) == 0
    assert recorder_lines(events)[-1]["event"] == "recorder_end"
