"""A hangup stops the table in order: the terminal a technician started `run` from closes (an SSH
session drops, a terminal window is shut).  Before, the hangup killed the controller as a power cut
does (its recorder cut without its clean end, the motors left to stop by themselves); and with a
handler, each line the stop says failed on the dead terminal (EIO), so the stop never happened."""

import fcntl
import os
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

from tests.ops.support import clean_env, needs_no_default_config
from tests.reliability.campaign import recorder_lines


def _on_a_terminal(args: list[str], tmp: Path) -> tuple[subprocess.Popen, int]:
    """`mahjong-table ARGS` with a new pseudo-terminal as its controlling terminal and its standard
    streams, as a shell in a terminal runs it; the terminal's other end (to read, or to close)."""
    master, slave = os.openpty()

    def controlling_terminal() -> None:       # (after the setsid of start_new_session)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([sys.executable, "-m", "firmware", *args], stdin=slave, stdout=slave, stderr=slave,
                            env=clean_env(tmp), cwd=tmp, start_new_session=True,
                            preexec_fn=controlling_terminal)
    os.close(slave)
    return proc, master


def _drained(master: int) -> None:
    """What the run wrote to its terminal so far, read and dropped (a full terminal would block it)."""
    while select.select([master], [], [], 0)[0]:
        try:
            if not os.read(master, 65536):
                return
        except OSError:
            return


def test_a_hangup_of_the_terminal_stops_the_table_in_order(tmp_path):
    needs_no_default_config()
    events = tmp_path / "events.jsonl"
    proc, master = _on_a_terminal(["run", "--simulate", "--ruleset", "hainan", "--speed", "0",
                                   "--db", str(tmp_path / "table.db"), "--events", str(events)], tmp_path)
    try:
        deadline = time.monotonic() + 120
        while not (events.exists() and '"event":"take"' in events.read_text(encoding="utf-8")):
            assert proc.poll() is None and time.monotonic() < deadline, "no tile was taken"
            _drained(master)
            time.sleep(0.05)
        os.close(master)                        # the terminal hangs up
        master = -1
        status = proc.wait(60)
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert status == 0                          # (before: -1, killed by the hangup)
    recorded = recorder_lines(events)
    assert recorded[-1]["event"] == "recorder_end"       # closed in order, not cut
