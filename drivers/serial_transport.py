"""The one transport adapter: the only module of the project that imports pyserial-asyncio.

`open_serial(url)` accepts a device path (`/dev/ttyAMA0`), a stable path
(`/dev/serial/by-id/usb-…`), a pty path (`/dev/pts/7`, as printed by `mahjong-table sim`) or a
`socket://host:port` URL, and returns a `ByteStream`.

Why the extra care: pyserial-asyncio 0.6 opens and closes the port inside the event loop, and
its close both drains the port (tcdrain) and, for socket:// URLs, sleeps 0.3 s.  Here the port
is opened in a worker thread, and the transport is handed a wrapper whose flush/close do
nothing, so the real close also runs in a worker thread.  A port that fails under a write (an
unplugged adapter: EIO) reaches the stream's receiver as a lost link only; pyserial-asyncio would
first hand it to the loop as a crash, with a traceback.  Swapping pyserial-asyncio for another
library later touches this file only.
"""

from __future__ import annotations

import asyncio
import os
from urllib.parse import urlsplit

import serial
import serial_asyncio

from .errors import PortError
from .stream import DataCallback, LostCallback, _ignore_data, _ignore_lost

DEFAULT_BAUDRATE = 115200


class _LoopSafeSerial:
    """Forwards everything to a pyserial port, except the two calls that would block the loop."""

    def __init__(self, port: serial.SerialBase) -> None:
        object.__setattr__(self, "_port", port)

    def __getattr__(self, name: str) -> object:
        return getattr(self._port, name)

    def __setattr__(self, name: str, value: object) -> None:
        setattr(self._port, name, value)

    def flush(self) -> None:
        """tcdrain() would block the event loop: skipped (closing loses unsent bytes, as a UART does)."""

    def close(self) -> None:
        """Closed by SerialStream.close() in a worker thread instead."""


class _SerialTransport(serial_asyncio.SerialTransport):
    """pyserial-asyncio's transport, except that a port failing under it (unplugged, EIO) is not
    reported to the loop as a crash with a traceback: the loss reaches the stream's receiver
    (`connection_lost`), and the link reports it in one line and reconnects."""

    def _fatal_error(self, exc: BaseException, message: str = "Fatal error on serial transport") -> None:
        if isinstance(exc, (serial.SerialException, OSError)):
            self._abort(exc)
        else:
            super()._fatal_error(exc, message)


class _Receiver(asyncio.Protocol):
    def __init__(self, stream: "SerialStream") -> None:
        self._stream = stream
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self._stream._on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)
        if not self._stream._closing:
            self._stream._on_lost(exc)


class SerialStream:
    """A ByteStream over a pyserial port (or socket:// URL) driven by pyserial-asyncio."""

    def __init__(self, url: str, port: serial.SerialBase) -> None:
        self.description = url
        self._port = port
        self._on_data: DataCallback = _ignore_data
        self._on_lost: LostCallback = _ignore_lost
        self._closing = False
        self._receiver = _Receiver(self)
        self._transport: asyncio.Transport | None = None

    async def _start(self) -> None:
        self._transport = _SerialTransport(asyncio.get_running_loop(), self._receiver, _LoopSafeSerial(self._port))

    def set_receiver(self, on_data: DataCallback, on_lost: LostCallback) -> None:
        self._on_data = on_data
        self._on_lost = on_lost

    def write(self, data: bytes) -> None:
        if self._transport is not None and not self._closing:
            self._transport.write(data)

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        if self._transport is not None:
            # Let queued bytes go out (a display's last page change), but never wait long on a
            # peer that stopped reading.
            self._transport.close()
            try:
                await asyncio.wait_for(asyncio.shield(self._receiver.closed), 0.2)
            except TimeoutError:
                self._transport.abort()
                await self._receiver.closed
        await asyncio.to_thread(self._port.close)


def check_url(url: str) -> None:
    """Raise PortError (one line, what to do) for a URL this adapter cannot serve."""
    if "://" in url:
        scheme = urlsplit(url).scheme
        if scheme == "socket":
            parts = urlsplit(url)
            if not parts.hostname or parts.port is None:
                raise PortError(f"{url}: write socket URLs as socket://HOST:PORT")
            return
        if scheme == "loop":
            raise PortError(f"{url}: loop:// ports have no file descriptor and cannot work with "
                            "asyncio; use a pty path from `mahjong-table sim` or socket://HOST:PORT")
        raise PortError(f"{url}: unsupported URL scheme {scheme!r}; use a device path "
                        "(/dev/serial/by-id/...), a pty path or socket://HOST:PORT")
    if not os.path.exists(url):
        raise PortError(f"no serial port {url}: check the cable and the path "
                        "(ls /dev/serial/by-id/), or start `mahjong-table sim` and use the path it prints")


async def open_serial(url: str, *, baudrate: int = DEFAULT_BAUDRATE) -> SerialStream:
    """Open a port (8N1, no flow control) without blocking the event loop."""
    check_url(url)

    def _open() -> serial.SerialBase:
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=0, write_timeout=0,
                                     do_not_open=True)
        port.open()
        return port

    try:
        port = await asyncio.to_thread(_open)
    except (serial.SerialException, OSError, ValueError) as error:
        hint = ("add the user to the dialout group" if "ermission" in str(error)
                else "check that the device is connected and not used by another program")
        raise PortError(f"cannot open {url}: {error}; {hint}") from None
    stream = SerialStream(url, port)
    await stream._start()
    return stream
