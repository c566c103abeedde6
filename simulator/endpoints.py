"""Where a simulated device is served: a real pty, or a socket:// listener.

A pty is what makes the controller's real pyserial path run: the controller opens the slave
path (`/dev/pts/N`) exactly as it opens `/dev/ttyAMA0`.  The slave is put in raw mode and kept
open here, so the master never sees EIO between two controller sessions (a host closing the port
and opening it again finds the device still there).  Bytes written while nobody reads are lost
once the pty buffer is full, as on a UART with nobody listening.

Either endpoint can be unplugged and plugged in again, as a USB serial adapter that vanishes
and re-enumerates: the host's open port dies (a socket is closed and no longer accepted; a pty
is closed, so the host reads a hang-up) and, once plugged in, the device is found again at the
same address — for a pty only when it is served behind a stable link (`link=`: a symlink, as
/dev/serial/by-id/… is), since a new pty gets a new /dev/pts number.
"""

from __future__ import annotations

import asyncio
import os
import tty
from urllib.parse import urlsplit

from drivers.stream import DataCallback, LostCallback, _ignore_data, _ignore_lost


MAX_PORT = 65535


def socket_address(url: str, ports: int = 1) -> tuple[str, int]:
    """(host, first port) of `socket://HOST:PORT` for `ports` listeners on PORT, PORT+1, …
    (no port, or 0: any free ones); ValueError (one line saying what to give) otherwise."""
    last = MAX_PORT - ports + 1
    uses = f" (PORT to PORT+{ports - 1} are used)" if ports > 1 else ""
    form = f"give socket://HOST:PORT with PORT from 1 to {last}{uses}, or 0 for any free port"
    try:
        parts = urlsplit(url)
        port = parts.port or 0
    except ValueError:          # urlsplit's own: a port not a number or past 65535, an unclosed [IPv6
        raise ValueError(form) from None
    if parts.scheme != "socket" or port > last or parts.path or parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(form)          # (a path or a user would be left out without a word)
    return parts.hostname or "127.0.0.1", port


class PtyEndpoint:
    """The device end of a pseudo-terminal; `path` is what the controller opens: the pty's
    slave, or `link`, a symlink to it that follows the device across unplug() and replug()."""

    def __init__(self, link: str | None = None) -> None:
        self.link = link
        self.bytes_lost = 0
        self._on_data: DataCallback = _ignore_data
        self._on_lost: LostCallback = _ignore_lost
        self._loop = asyncio.get_running_loop()
        self._closed = False
        self._plugged = False
        self._pending: list[bytes] = []     # written in this turn of the loop, not yet on the pty
        self._plug()
        self.path = link or self.pty_path
        self.description = self.path

    def _plug(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        self.pty_path = os.ttyname(self._slave)
        if self.link is not None:
            staged = f"{self.link}.new"
            if os.path.lexists(staged):
                os.unlink(staged)
            os.symlink(self.pty_path, staged)
            os.replace(staged, self.link)     # the link never dangles mid-way
        self._loop.add_reader(self._master, self._readable)
        self._plugged = True

    def _unplug(self) -> None:
        if not self._plugged:
            return
        self.flush()                        # what was written before the device vanished reached the wire
        self._plugged = False
        self._loop.remove_reader(self._master)
        os.close(self._master)
        os.close(self._slave)
        if self.link is not None and os.path.lexists(self.link):
            os.unlink(self.link)

    @property
    def plugged(self) -> bool:
        return self._plugged

    def unplug(self) -> None:
        """The device vanishes: the pty closes (the host's port hangs up) and its link goes."""
        self._unplug()

    def replug(self) -> None:
        """The device is back: a new pty, behind the same link."""
        if self.link is None:
            raise ValueError(f"{self.path}: a pty without a stable link comes back under another "
                             "name: serve ptys behind links (listen 'pty:DIR') to unplug them")
        if not self._closed and not self._plugged:
            self._plug()

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self._on_data = on_data
        self._on_lost = on_lost

    def _readable(self) -> None:
        try:
            data = os.read(self._master, 4096)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            return  # EIO while no slave is open elsewhere: nothing to read
        if data:
            self._on_data(data)

    def write(self, data: bytes) -> None:
        """Queued, and written with everything else written in this turn of the loop in one
        `os.write` (a board's ack, its events and its beat often share a turn: one system call on
        each side instead of one per frame)."""
        if self._closed or not self._plugged:
            return
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(data)

    def flush(self) -> None:
        """Write what is queued now (a device powering up puts its first bytes on the wire at once)."""
        if not self._pending:
            return
        view = memoryview(b"".join(self._pending))
        self._pending.clear()
        if not self._plugged:
            self.bytes_lost += len(view)
            return
        while view:
            try:
                written = os.write(self._master, view)
            except (BlockingIOError, InterruptedError, OSError):
                self.bytes_lost += len(view)
                return
            view = view[written:]

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._unplug()


class _Connection(asyncio.Protocol):
    def __init__(self, endpoint: "SocketEndpoint") -> None:
        self._endpoint = endpoint
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self._endpoint._attach(self)

    def data_received(self, data: bytes) -> None:
        if self._endpoint._current is self:
            self._endpoint._on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._endpoint._detach(self)


class SocketEndpoint:
    """A TCP listener for `socket://host:port`; one controller at a time (a new one replaces
    the old, like re-plugging a cable)."""

    def __init__(self, server: asyncio.base_events.Server, host: str) -> None:
        self._server: asyncio.base_events.Server | None = server
        self._host = host
        self._port = server.sockets[0].getsockname()[1]
        self.path = f"socket://{host}:{self._port}"
        self.description = self.path
        self._current: _Connection | None = None
        self._connections: set[_Connection] = set()
        self._on_data: DataCallback = _ignore_data
        self._on_lost: LostCallback = _ignore_lost

    @property
    def plugged(self) -> bool:
        return self._server is not None

    async def unplug(self) -> None:
        """The device vanishes: its connection is cut and no one can connect until replug()."""
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        self._abort_connections()
        await server.wait_closed()
        await asyncio.sleep(0)  # let the aborted connections' connection_lost run

    async def replug(self) -> None:
        """The device is back, at the same address."""
        if self._server is None:
            loop = asyncio.get_running_loop()
            self._server = await loop.create_server(lambda: _Connection(self), self._host, self._port)

    def _abort_connections(self) -> None:
        for connection in list(self._connections):
            if connection.transport is not None:
                connection.transport.abort()

    @classmethod
    async def listen(cls, host: str, port: int) -> "SocketEndpoint":
        if not 0 <= port <= MAX_PORT:         # bind() would raise OverflowError, no OSError
            raise ValueError(f"port {port} is not from 0 to {MAX_PORT}")
        holder: list[SocketEndpoint] = []
        loop = asyncio.get_running_loop()
        server = await loop.create_server(lambda: _Connection(holder[0]), host, port)
        endpoint = cls(server, host)
        holder.append(endpoint)
        return endpoint

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self._on_data = on_data
        self._on_lost = on_lost

    def _attach(self, connection: _Connection) -> None:
        old = self._current
        self._current = connection
        self._connections.add(connection)
        if old is not None and old.transport is not None:
            old.transport.close()

    def _detach(self, connection: _Connection) -> None:
        self._connections.discard(connection)
        if self._current is connection:
            self._current = None

    def flush(self) -> None:
        """Nothing waits here: a connection's transport writes at once."""

    def write(self, data: bytes) -> None:
        current = self._current
        if current is not None and current.transport is not None and not current.transport.is_closing():
            current.transport.write(data)

    async def close(self) -> None:
        await self.unplug()
        self._abort_connections()   # any that connected while plugged in before
