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
import contextlib
import errno
import os
import stat
from urllib.parse import urlsplit

import serial
import serial_asyncio

from .errors import NotASerialPort, PortBusy, PortError
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
    """pyserial-asyncio's transport, except:

    - a port failing under it (unplugged, EIO) is not reported to the loop as a crash with a
      traceback: the loss reaches the stream's receiver (`connection_lost`), and the link reports
      it in one line and reconnects;
    - the bytes written during one turn of the loop go out in one `os.write` at its end, and a
      readable port is read with one `os.read`.  pyserial-asyncio registers the port with the
      selector for every write and removes it again once written (two epoll_ctl calls and a turn
      of the loop each time), and pyserial's read and write each poll the port first: at ≈500
      frames a hand that was a tenth of the controller's CPU.  A write the port does not take
      whole still waits for the port to be writable, as before (pyserial-asyncio's `_write_ready`).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, protocol: asyncio.Protocol, port: "_LoopSafeSerial") -> None:
        super().__init__(loop, protocol, port)
        self._fd = port.fileno()
        self._flush_handle: asyncio.Handle | None = None

    def write(self, data: bytes) -> None:
        if self._closing:
            return
        buffer = self._write_buffer
        buffer.append(data)
        if self._flush_handle is None and not self._has_writer:
            self._flush_handle = self._loop.call_soon(self._flush)
        if len(buffer) > 1 or len(data) > self._high_water:     # (else the buffer is `data`: below the mark)
            self._maybe_pause_protocol()

    def _flush(self) -> None:
        self._flush_handle = None
        if self._has_writer or not self._write_buffer or self._serial is None:
            return
        data = b"".join(self._write_buffer)
        self._write_buffer.clear()
        try:
            written = os.write(self._fd, data)
        except (BlockingIOError, InterruptedError):
            written = 0
        except OSError as error:
            self._fatal_error(serial.SerialException(f"write failed: {error}"))
            return
        if written < len(data):
            self._write_buffer.append(data[written:])
            self._ensure_writer()
            return
        self._maybe_resume_protocol()
        if self._closing:
            self._close()

    def _read_ready(self) -> None:
        try:
            data = os.read(self._fd, self._max_read_size)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as error:
            self._close(exc=serial.SerialException(f"read failed: {error}"))
            return
        if not data:        # readable with nothing to read: the device hung up (pyserial says the same)
            self._close(exc=serial.SerialException("device reports readiness to read but returned no data "
                                                   "(device disconnected?)"))
            return
        self._protocol.data_received(data)

    def _abort(self, exc: BaseException | None) -> None:
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        super()._abort(exc)

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


SCHEMES = ("socket",)        # the URLs pyserial can hand to asyncio: a port with a file descriptor
SOCKET_FORM = "write socket URLs as socket://HOST:PORT, PORT from 1 to 65535"


def check_url(url: str) -> None:
    """Raise PortError (one line, what to do) for a URL this adapter cannot serve."""
    if "://" in url:
        problem = url_problem(url)
        if problem is not None:
            raise PortError(f"{url}: {problem}")
        return
    if not os.path.exists(url):
        raise PortError(f"no serial port {url}: check the cable and the path "
                        "(ls /dev/serial/by-id/), or start `mahjong-table sim` and use the path it prints")


def url_problem(url: str) -> str | None:
    """Why this adapter cannot serve the URL `url` (what to write instead), or None if it can.
    Needs no port to exist, so a configuration is checked with it when it is read."""
    scheme = url.partition("://")[0].lower()
    if scheme == "loop":
        return ("loop:// ports have no file descriptor and cannot work with asyncio; "
                "use a pty path from `mahjong-table sim` or socket://HOST:PORT")
    if scheme not in SCHEMES:
        return (f"unsupported URL scheme {scheme!r}; use a device path "
                "(/dev/serial/by-id/...), a pty path or socket://HOST:PORT")
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:          # urlsplit's own: a port not a number or past 65535, an unclosed [IPv6
        return SOCKET_FORM
    return SOCKET_FORM if not host or not port else None     # (port 0 cannot be connected to)


async def open_serial(url: str, *, baudrate: int = DEFAULT_BAUDRATE) -> SerialStream:
    """Open a port (8N1, no flow control) without blocking the event loop."""
    check_url(url)

    def _open() -> serial.SerialBase:
        # a device is opened exclusively (flock): a second controller, whatever its state folder,
        # cannot open the same board's port (pyserial's `exclusive`; a socket has no such lock)
        exclusive = {} if "://" in url else {"exclusive": True}
        port = serial.serial_for_url(url, baudrate=baudrate, timeout=0, write_timeout=0,
                                     do_not_open=True, **exclusive)
        port.open()
        return port

    try:
        port = await asyncio.to_thread(_open)
    except serial.SerialException as error:
        if "exclusively lock" in str(error):
            raise PortBusy(f"{url} is held open by another program (another mahjong-table?): stop it first "
                           "(sudo systemctl stop mahjong-table, or Ctrl-C where it runs)") from None
        raise _cannot_open(url, error) from None
    except (OSError, ValueError) as error:
        raise _cannot_open(url, error) from None
    stream = SerialStream(url, port)
    await stream._start()
    return stream


def _cannot_open(url: str, error: Exception) -> PortError:
    not_a_port = _not_a_port(url, error)
    if not_a_port is not None:
        return NotASerialPort(f"{url} is {not_a_port}, not a serial port: name the board's port in the "
                              "configuration (/dev/serial/by-id/…, or socket://HOST:PORT)")
    hint = ("add the user to the dialout group" if "ermission" in str(error)
            else "check that the device is connected and not used by another program")
    return PortError(f"cannot open {url}: {error}; {hint}")


def _not_a_port(url: str, error: Exception) -> str | None:
    """What `url` names if it is there and no serial port (a terminal's settings cannot be made on it:
    ENOTTY, 'Inappropriate ioctl for device'); None when it may be a port (not there yet, busy …)."""
    if "://" in url:
        return None
    try:
        mode = os.stat(url).st_mode
    except OSError:
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a plain file"
    if "Inappropriate ioctl" in str(error) or getattr(error, "errno", None) == errno.ENOTTY:
        return "a device of another kind"
    return None


async def reopen_serial(url: str, *, baudrate: int = DEFAULT_BAUDRATE) -> SerialStream:
    """`open_serial` for a port being opened again while the table runs: the open runs in a worker
    thread, so if the caller is cancelled meanwhile, the port it opened is closed once it is open
    (nothing is left holding the device)."""
    opening = asyncio.ensure_future(open_serial(url, baudrate=baudrate))
    try:
        return await asyncio.shield(opening)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await (await opening).close()
        raise
