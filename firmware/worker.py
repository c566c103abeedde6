"""CPU-heavy pure work in a process of its own: the controller's scoring worker.

A hand judged and scored (`firmware.hand.win_check.judge_laid`) takes 5–30 ms here and 1–3 s on
a Pi Zero 2 W.  On a thread it holds the GIL in 5 ms turns, and the event loop waits a turn each
time it gives the GIL up (every read and write of a serial port); in a process it holds nothing
of the controller's.  The price: one more Python process, ≈20–30 MB on a Pi.

One `ProcessWorker` per controller (no globals).  `start` spawns `python -m firmware.worker_side`,
which maps or builds the win tables and then answers calls one at a time: each call goes down its
standard input as one frame (4-byte length, then a pickle of the function, by name, and its
plain-data arguments: frozen dataclasses, tuples, strings; a region's ruleset goes as its region
id and house options, resolved again in the worker once), each answer comes back up its
standard output the same way (firmware/worker_side.py, which never imports asyncio).  Nothing here
starts a thread: the answers are read through the event loop.

- The worker runs this controller's own code: `-P` keeps the folder the controller was started in
  off its path (one holding another `firmware`, an older checkout, would be found first).
- The worker dies with the controller: its standard input is a pipe only the controller holds,
  and it stops at its end (a `kill -9` of the controller included); it is in its own session, so
  a Ctrl-C meant for the controller does not reach it.
- A worker that dies (or stops answering for `call_timeout`) during a call is a fault shown and
  recovered from: `on_fault` hears why, a new worker is started and the call is made again
  there; a call that kills `attempts` workers in a row raises `WorkerFailed`, never hangs (the
  hand it scored is then voided, to be settled by hand: `firmware.hand.ports.scored`).
"""

from __future__ import annotations

import asyncio
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

from .worker_side import LENGTH, dumps

T = TypeVar("T")
_REAP_POLL_S = 0.01
_ROOT = str(Path(__file__).resolve().parents[1])       # where `firmware` and `rulesets` are found


class WorkerFailed(RuntimeError):
    """A call the scoring worker could not answer, after restarts."""


class _Died(Exception):
    """The worker process ended (or was ended) during a call."""

    def __init__(self, why: str, exited: bool = True) -> None:
        super().__init__(why)
        self.exited = exited            # False: it was alive, and is killed now


class ProcessWorker:
    def __init__(self, *, call_timeout: float = 30.0, attempts: int = 2,
                 on_fault: Callable[[str], None] | None = None) -> None:
        self.call_timeout = call_timeout        # a Pi Zero scores a hard hand in ~3 s: ten times that is a hang
        self.attempts = attempts
        self.on_fault = on_fault
        self.restarts = 0
        self._popen: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._answer: asyncio.Future[Any] | None = None
        self._lock = asyncio.Lock()             # one call at a time: the worker has one thread

    @property
    def pid(self) -> int | None:
        """The worker process's id (None: not running)."""
        return self._popen.pid if self._popen is not None else None

    def start(self) -> None:
        """Spawn the worker; it maps or builds the win tables while the controller goes on (the first
        call waits for them)."""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [_ROOT, os.environ.get("PYTHONPATH")])))
        self._popen = subprocess.Popen([sys.executable, "-P", "-m", "firmware.worker_side"], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, start_new_session=True, env=env)
        self._buffer = b""
        assert self._popen.stdout is not None
        os.set_blocking(self._popen.stdout.fileno(), False)
        asyncio.get_running_loop().add_reader(self._popen.stdout.fileno(), self._readable, self._popen)

    async def stop(self) -> None:
        """End the worker (its input closed: it finishes a call in hand and exits) and reap it."""
        if self._popen is not None:
            await self._end(kill=False)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the worker; its error is raised here.  Restarts a dead worker."""
        request = dumps((fn, args))
        async with self._lock:
            for attempt in range(1, self.attempts + 1):
                if self._popen is None:
                    self.start()
                try:
                    return await self._call(request)
                except _Died as died:
                    code = await self._end(kill=True)
                    how = f" ({_exit_text(code)})" if died.exited else ""
                    if self.on_fault is not None:
                        self.on_fault(f"the scoring worker {died}{how} (attempt {attempt} of {self.attempts}): "
                                      "started again")
                    self.restarts += 1
            raise WorkerFailed(f"the scoring worker died {self.attempts} times on one call ({fn.__name__}): "
                               "the hand cannot be scored here; enter it by hand (mahjong-table hand)")

    async def _call(self, request: bytes) -> Any:
        assert self._popen is not None and self._popen.stdin is not None
        self._answer = asyncio.get_running_loop().create_future()
        try:
            self._popen.stdin.write(LENGTH.pack(len(request)) + request)
            self._popen.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise _Died(f"was gone ({error.__class__.__name__})") from error
        try:
            async with asyncio.timeout(self.call_timeout):
                ok, value = await self._answer
        except TimeoutError:
            raise _Died(f"did not answer in {self.call_timeout:g} s", exited=False) from None
        finally:
            self._answer = None
        if not ok:
            raise value
        return value

    def _readable(self, popen: subprocess.Popen[bytes]) -> None:
        assert popen.stdout is not None
        try:
            data = os.read(popen.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._ended(popen)
            return
        if popen is not self._popen:
            return                                  # a worker already given up: its late answer is not wanted
        self._buffer += data
        while len(self._buffer) >= LENGTH.size:
            (size,) = LENGTH.unpack_from(self._buffer)
            if len(self._buffer) < LENGTH.size + size:
                break
            frame, self._buffer = self._buffer[LENGTH.size:LENGTH.size + size], self._buffer[LENGTH.size + size:]
            if self._answer is not None and not self._answer.done():
                self._answer.set_result(pickle.loads(frame))

    def _ended(self, popen: subprocess.Popen[bytes]) -> None:
        """Its output ended: the worker exited (or was killed)."""
        assert popen.stdout is not None
        asyncio.get_running_loop().remove_reader(popen.stdout.fileno())
        if popen is self._popen and self._answer is not None and not self._answer.done():
            self._answer.set_exception(_Died("exited"))

    async def _end(self, *, kill: bool) -> int:
        """Close its input (killed first if `kill`), reap it; its exit status."""
        popen, self._popen = self._popen, None
        assert popen is not None and popen.stdout is not None and popen.stdin is not None
        if kill and popen.poll() is None:
            popen.kill()
        try:
            popen.stdin.close()
        except OSError:
            pass                                    # a dead worker's pipe: nothing left to flush
        deadline = time.monotonic() + 5.0
        while popen.poll() is None:                 # reaped through the loop, no waiting thread
            if time.monotonic() > deadline:
                popen.kill()
            await asyncio.sleep(_REAP_POLL_S)
        if not popen.stdout.closed:
            try:
                asyncio.get_running_loop().remove_reader(popen.stdout.fileno())
            except ValueError:
                pass
            popen.stdout.close()
        return popen.returncode


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"
