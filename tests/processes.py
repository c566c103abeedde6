"""Child processes a test started (the standalone simulator, a `run`): stopped as Ctrl-C would."""

from __future__ import annotations

import signal
import subprocess


def interrupt(*procs: subprocess.Popen | None) -> None:
    """SIGINT each process still running, wait for it (kill it after 20 s), close its pipes."""
    for proc in procs:
        if proc is None:
            continue
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
