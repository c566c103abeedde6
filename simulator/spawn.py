"""Start the simulator in its own process, and stop it cleanly (`SimulatorProcess`).

    async with SimulatorProcess("--seed", "7", "--speed", "0", "--ruleset", "changchun") as sim:
        motor = await MotorBoard.open(sim.endpoints.motor)      # the boards, as real ones
        await sim.control.fault("motor:drop=0.05")              # the control channel
    # stopped and reaped: no process, thread, task or descriptor of it is left

The arguments are those of `python -m simulator serve` (simulator/process.py).  The child's
standard input is a pipe only this object holds: if this program dies, the child sees its end
and stops too.  Nothing here starts a thread: the child's output is read through the event loop
and its exit is awaited through a pidfd (Linux), else by polling.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections import deque
from typing import Callable, Mapping

from .control import ControlClient
from .table import Endpoints
from .world import SimulatorError

POLL_S = 0.05         # how often the exit is polled where there is no pidfd


class _LineReader:
    """Reads a pipe through the loop, line by line, until its end."""

    def __init__(self, pipe, on_line: Callable[[str], None]) -> None:
        self._fd = pipe.fileno()
        self._pipe = pipe
        self._on_line = on_line
        self._buffer = b""
        self._loop = asyncio.get_running_loop()
        self.ended: asyncio.Future[None] = self._loop.create_future()
        os.set_blocking(self._fd, False)
        self._loop.add_reader(self._fd, self._readable)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        *lines, self._buffer = (self._buffer + data).split(b"\n")
        for line in lines:
            self._on_line(line.decode("utf-8", "replace"))

    def close(self) -> None:
        if not self.ended.done():
            self.ended.set_result(None)
            self._loop.remove_reader(self._fd)
            self._pipe.close()


class SimulatorProcess:
    """One simulator process.  `async with` starts it and stops it; or `start()` / `stop()`."""

    def __init__(self, *args: str, start_timeout: float = 15.0, stop_timeout: float = 5.0,
                 env: Mapping[str, str] | None = None) -> None:
        self.args = args
        self.env = dict(env) if env is not None else None      # the child's environment (None: this one's)
        self.start_timeout = start_timeout
        self.stop_timeout = stop_timeout
        self.endpoints: Endpoints | None = None
        self.control_address = ""
        self.returncode: int | None = None
        self._control: ControlClient | None = None
        self._popen: subprocess.Popen[bytes] | None = None
        self._readers: list[_LineReader] = []
        self._stderr: deque[str] = deque(maxlen=20)
        self._announced: asyncio.Future[str] | None = None
        self._exited: asyncio.Future[int] | None = None
        self._exit_watch: Callable[[], None] = lambda: None

    @property
    def pid(self) -> int:
        if self._popen is None:
            raise SimulatorError("the simulator process is not started")
        return self._popen.pid

    @property
    def control(self) -> ControlClient:
        if self._control is None:
            raise SimulatorError("the simulator process is not serving")
        return self._control

    def stderr_lines(self) -> list[str]:
        """The last lines the simulator wrote on its standard error."""
        return list(self._stderr)

    async def __aenter__(self) -> "SimulatorProcess":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- starting ------------------------------------------------------------------------------

    async def start(self) -> Endpoints:
        """Start the process, wait for its endpoints, connect the control channel.
        SimulatorError (one line, the simulator's own if it said one) if it does not serve."""
        loop = asyncio.get_running_loop()
        self._announced = loop.create_future()
        self._exited = loop.create_future()
        # Its own session: a Ctrl-C or a service stop signals the parent's process group, and the
        # simulated boards would vanish under a controller still stopping (link-lost faults logged
        # at every stop).  The parent stops it (`stop`); a parent that dies closes its stdin.
        self._popen = subprocess.Popen(
            [sys.executable, "-m", "simulator", "serve", *self.args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
            start_new_session=True)
        try:
            self._readers = [_LineReader(self._popen.stdout, self._on_stdout),
                             _LineReader(self._popen.stderr, self._stderr.append)]
            self._watch_exit()
            line = await self._first_line()
            try:
                where = json.loads(line)
                self.endpoints = Endpoints(where["motor"], where["rfid"], where["display"])
                self.control_address = where["control"]
            except (ValueError, KeyError, TypeError):
                raise SimulatorError(f"the simulator process announced {line!r}, not its endpoints") from None
            self._control = await ControlClient.connect(self.control_address)
        except BaseException:
            await self.stop()
            raise
        return self.endpoints

    def _on_stdout(self, line: str) -> None:
        if self._announced is not None and not self._announced.done():
            self._announced.set_result(line)

    async def _first_line(self) -> str:
        assert self._announced is not None and self._exited is not None
        done, _ = await asyncio.wait({self._announced, self._exited}, timeout=self.start_timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        if self._announced in done:
            return self._announced.result()
        if self._exited in done:
            await asyncio.wait({self._readers[1].ended}, timeout=1.0)   # its last words on stderr
            said = self._stderr[-1] if self._stderr else "no message"
            raise SimulatorError(f"the simulator process exited with status {self._exited.result()}: {said}")
        raise SimulatorError(f"the simulator process did not serve within {self.start_timeout:g} s")

    def _watch_exit(self) -> None:
        """Resolve `_exited` with the exit status when the child ends (reaping it)."""
        assert self._popen is not None and self._exited is not None
        loop = asyncio.get_running_loop()
        popen, exited = self._popen, self._exited

        def reap() -> bool:
            status = popen.poll()
            if status is not None and not exited.done():
                exited.set_result(status)
            return status is not None

        try:
            pidfd = os.pidfd_open(popen.pid)
        except (AttributeError, OSError):
            def poll() -> None:
                if not reap():
                    handle[0] = loop.call_later(POLL_S, poll)
            handle = [loop.call_later(POLL_S, poll)]
            self._exit_watch = lambda: handle[0].cancel()
            return

        def readable() -> None:
            if reap():
                self._exit_watch()
        loop.add_reader(pidfd, readable)

        def forget() -> None:
            loop.remove_reader(pidfd)
            os.close(pidfd)
            self._exit_watch = lambda: None
        self._exit_watch = forget

    # -- stopping ------------------------------------------------------------------------------

    async def wait(self, timeout: float | None = None) -> int:
        """The exit status once the process has ended (TimeoutError after `timeout`)."""
        if self._exited is None:
            raise SimulatorError("the simulator process is not started")
        return await asyncio.wait_for(asyncio.shield(self._exited), timeout)

    async def stop(self) -> int | None:
        """Close the control channel and the child's stdin (it stops by itself); SIGTERM, then
        SIGKILL if it does not; reap it; release every descriptor.  Its exit status."""
        if self._control is not None:
            await self._control.close()
            self._control = None
        popen = self._popen
        if popen is None:
            return self.returncode
        if popen.stdin is not None and not popen.stdin.closed:
            popen.stdin.close()
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if self._exited is not None and self._exited.done():
                break
            if sig is not None and popen.poll() is None:
                popen.send_signal(sig)
            try:
                await self.wait(self.stop_timeout)
            except TimeoutError:
                continue
        self.returncode = popen.wait()
        self._exit_watch()
        for reader in self._readers:
            reader.close()
        self._readers = []
        self._popen = None
        return self.returncode
