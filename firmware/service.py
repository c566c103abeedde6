"""Telling systemd how the controller is doing: the service notification protocol (sd_notify).

Under a `Type=notify` unit systemd passes `$NOTIFY_SOCKET` (a unix datagram socket) and, with
`WatchdogSec=`, `$WATCHDOG_USEC`.  We send `READY=1` once the table is running, `WATCHDOG=1`
every half watchdog period from a task on the controller's event loop, `STATUS=…` lines a
person sees in `systemctl status`, and `STOPPING=1` on the way out.  Because the watchdog is
petted from the loop itself, a loop that hangs stops petting and systemd restarts the service.

Outside systemd (no `$NOTIFY_SOCKET`) every call is a no-op.  Standard library only.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import socket
import sys
from typing import AsyncIterator, Callable, Mapping

NETWORK_CLOSED = ("no internet socket may be opened here (the systemd unit closes the network): install "
                  "deploy/network.conf as its drop-in and restart it (docs/operations.md)")
NOTIFY_ENV = "NOTIFY_SOCKET"
WATCHDOG_ENV = "WATCHDOG_USEC"
WATCHDOG_PID_ENV = "WATCHDOG_PID"


class ServiceNotifier:
    """One process's link to systemd's notification socket (or nothing, outside systemd)."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.address = address or None
        self.watchdog_usec = watchdog_usec if watchdog_usec and watchdog_usec > 0 else None
        self._warn = warn or (lambda line: print(line, file=sys.stderr, flush=True))
        self._warned = False

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> "ServiceNotifier":
        env = os.environ if environ is None else environ
        return cls(env.get(NOTIFY_ENV), _watchdog_usec(env))

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def watchdog_interval(self) -> float | None:
        """Seconds between pets: half the watchdog period, as sd_watchdog_enabled(3) advises."""
        return None if self.watchdog_usec is None or not self.enabled else self.watchdog_usec / 2e6

    def notify(self, *fields: str) -> None:
        """Send `KEY=value` fields in one datagram; a failure is said once on stderr, never raised."""
        if self.address is None:
            return
        message = "\n".join(fields).encode("utf-8")
        target = "\0" + self.address[1:] if self.address.startswith("@") else self.address
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.sendto(message, target)
        except OSError as error:
            if not self._warned:
                self._warned = True
                self._warn(f"mahjong-table: cannot notify systemd at {self.address} ({error.strerror or error})")

    def ready(self, status: str | None = None) -> None:
        self.notify("READY=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def status(self, text: str) -> None:
        self.notify(f"STATUS={_one_line(text)}")

    def extend_start(self, seconds: float) -> None:
        """Still starting, on purpose (waiting for a person): systemd's start timeout is pushed this far
        ahead (systemd 236 and later; older ones ignore it and time the start out as before)."""
        self.notify(f"EXTEND_TIMEOUT_USEC={int(seconds * 1_000_000)}")

    def stopping(self) -> None:
        self.notify("STOPPING=1")

    async def keep_alive(self) -> None:
        """Pet the watchdog from the event loop until cancelled (a no-op without a watchdog)."""
        interval = self.watchdog_interval
        if interval is None:
            return
        while True:
            self.notify("WATCHDOG=1")
            await asyncio.sleep(interval)

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator["ServiceNotifier"]:
        """Pet the watchdog while the body runs; say STOPPING=1 when it ends, however it ends."""
        task = asyncio.create_task(self.keep_alive(), name="systemd-watchdog") if self.watchdog_interval else None
        try:
            yield self
        finally:
            self.stopping()
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """$WATCHDOG_USEC, if it is meant for this process ($WATCHDOG_PID, when set, must be ours)."""
    pid = env.get(WATCHDOG_PID_ENV)
    if pid and pid != str(os.getpid()):
        return None
    try:
        return int(env.get(WATCHDOG_ENV, ""))
    except ValueError:
        return None


def _one_line(text: str) -> str:
    return " ".join(text.split())


def network_closed(error: BaseException) -> bool:
    """Whether `error`, or an error that caused it, is a socket refused its address family: under the
    shipped unit (RestrictAddressFamilies=AF_UNIX) every internet socket is, so the web view cannot
    listen and the broker cannot be reached until the network drop-in is installed."""
    seen: BaseException | None = error
    for _ in range(8):                       # a cause's cause: a library wraps the socket's error
        if seen is None:
            return False
        if isinstance(seen, OSError) and seen.errno == errno.EAFNOSUPPORT:
            return True
        seen = seen.__cause__ or seen.__context__
    return False
