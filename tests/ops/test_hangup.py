"""A hangup stops the table (and the parlour) in order: the terminal a technician started `run` from
closes (an SSH session drops, a terminal window is shut).  Before, the hangup killed the controller as a power cut
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


def _on_a_terminal(args: list[str], tmp: Path, nohup: bool = False) -> tuple[subprocess.Popen, int]:
    """`mahjong-table ARGS` with a new pseudo-terminal as its controlling terminal and its standard
    streams, as a shell in a terminal runs it; the terminal's other end (to read, or to close).
    `nohup`: as `nohup` starts it, hangups ignored and its output to a file (nohup.out)."""
    master, slave = os.openpty()

    def controlling_terminal() -> None:       # (after the setsid of start_new_session)
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        if nohup:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)

    output = (tmp / "nohup.out").open("wb") if nohup else slave
    proc = subprocess.Popen([sys.executable, "-m", "firmware", *args], stdin=slave, stdout=output, stderr=output,
                            env=clean_env(tmp), cwd=tmp, start_new_session=True,
                            preexec_fn=controlling_terminal)
    os.close(slave)
    if nohup:
        output.close()
    return proc, master


def _drained(master: int) -> bytes:
    """What the run wrote to its terminal since the last look (read: a full terminal would block it)."""
    read = b""
    while select.select([master], [], [], 0)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        read += chunk
    return read


def _hung_up(proc: subprocess.Popen, master: int, until) -> int:
    """Once `until(what the terminal showed)`, the terminal closed; the exit status that follows."""
    shown = b""
    try:
        deadline = time.monotonic() + 120
        while not until(shown):
            assert proc.poll() is None and time.monotonic() < deadline, shown[-1500:]
            shown += _drained(master)
            time.sleep(0.05)
        os.close(master)                        # the terminal hangs up
        master = -1
        return proc.wait(60)
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_a_hangup_of_the_terminal_stops_the_table_in_order(tmp_path):
    needs_no_default_config()
    events = tmp_path / "events.jsonl"
    proc, master = _on_a_terminal(["run", "--simulate", "--ruleset", "hainan", "--speed", "0",
                                   "--db", str(tmp_path / "table.db"), "--events", str(events)], tmp_path)
    status = _hung_up(proc, master, lambda shown: events.exists() and '"event":"take"' in events.read_text(encoding="utf-8"))
    assert status == 0                          # (before: -1, killed by the hangup)
    recorded = recorder_lines(events)
    assert recorded[-1]["event"] == "recorder_end"       # closed in order, not cut


def test_a_hangup_of_the_terminal_stops_the_parlour_in_order(tmp_path):
    proc, master = _on_a_terminal(["parlour", "--mqtt", "mqtt://127.0.0.1:1", "--http", "127.0.0.1:0",
                                   "--db", str(tmp_path / "parlour.db")], tmp_path)
    assert _hung_up(proc, master, lambda shown: b"parlour page at" in shown) == 0     # (before: -1)


def test_under_nohup_a_hangup_is_ignored_as_asked_and_the_table_plays_on(tmp_path):
    """`nohup mahjong-table run …` asks that a hangup be ignored: no handler of ours overrides that."""
    needs_no_default_config()
    events = tmp_path / "events.jsonl"
    proc, master = _on_a_terminal(["run", "--simulate", "--ruleset", "hainan", "--speed", "0",
                                   "--db", str(tmp_path / "table.db"), "--events", str(events)], tmp_path, nohup=True)

    def hands_ended() -> int:
        return events.read_text(encoding="utf-8").count('"event":"hand_end"') if events.exists() else 0
    try:
        deadline = time.monotonic() + 120
        while hands_ended() < 1:
            assert proc.poll() is None and time.monotonic() < deadline, "no hand ended"
            time.sleep(0.05)
        os.close(master)                        # the terminal hangs up
        master = -1
        ended = hands_ended()
        while hands_ended() <= ended:           # it plays on: another hand ends after the hangup
            assert proc.poll() is None and time.monotonic() < deadline + 120, "stopped by the hangup"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0
    finally:
        if master >= 0:
            os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert recorder_lines(events)[-1]["event"] == "recorder_end"
