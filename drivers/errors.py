"""Typed errors of the drivers package.

Everything a link or a client raises is a `DriverError`.  Frame-level errors (`FrameError`)
are what the decoder reports for bad bytes on the wire; they never escape a running link, which
counts them and recovers.  Link-level errors (`LinkError`) end a session and carry one line a
person can act on.
"""

from __future__ import annotations


class DriverError(Exception):
    """Base of every error raised by drivers/."""


# -- bytes on the wire -------------------------------------------------------------------------

class FrameError(DriverError):
    """A received frame that cannot be used (the decoder drops it and resynchronises).

    `chunk` holds the rejected bytes between two delimiters when the stream decoder made it."""

    chunk: bytes = b""


class CobsError(FrameError):
    """The COBS encoding of a frame is broken (a code byte points past the frame's end)."""


class CrcError(FrameError):
    """The frame's CRC does not match its contents."""


class LengthError(FrameError):
    """The payload length in the frame's header does not match the bytes the frame holds."""


class FrameTooShort(FrameError):
    """Fewer bytes than a frame header plus CRC."""


class FrameTooLong(FrameError):
    """More bytes than the largest frame before a delimiter: noise, or a lost delimiter."""


class MessageError(FrameError):
    """A frame whose payload does not decode as the message its id names."""


class UnknownMessage(MessageError):
    """A message id this side does not know."""


# -- ports -------------------------------------------------------------------------------------

class PortError(DriverError):
    """A serial port or socket URL that cannot be opened (the message says what to check)."""


class PortBusy(PortError):
    """A serial port another program holds open (ports are opened exclusively: two controllers on one
    table's boards would each read half of every board's bytes)."""


class NotASerialPort(PortError):
    """The name opens something that is no serial port (a plain file, a folder, /dev/null): a
    mistake in the configuration that no waiting mends, unlike a port not there yet."""


# -- sessions ----------------------------------------------------------------------------------

class LinkError(DriverError):
    """The link to a board is unusable; the message names the device and what to do."""


class NoResponse(LinkError):
    """The handshake got no answer."""


class BoardIncompatible(LinkError):
    """The board on this port is not one this controller can work with: another kind of board, another
    protocol version, a firmware whose events do not decode or never come.  No reconnection mends
    it: a technician must (the table shows E26 and stops).  `device` names the port's board as the
    link does ("motor board at /dev/ttyUSB0")."""

    def __init__(self, device: str, message: str) -> None:
        self.device = device
        super().__init__(message)


class ProtocolVersionMismatch(BoardIncompatible):
    """The board speaks another protocol version; the host refuses to run with it."""

    def __init__(self, device: str, board_version: int, host_version: int) -> None:
        self.board_version = board_version
        self.host_version = host_version
        newer = "board" if board_version > host_version else "controller"
        super().__init__(
            device, f"{device} speaks protocol version {board_version}, this controller speaks version "
            f"{host_version}: update the {'controller software' if newer == 'board' else 'board firmware'} "
            f"so both speak the same version")


class WrongBoard(BoardIncompatible):
    """The port answers as another kind of board (e.g. the RFID board on the motor port)."""

    def __init__(self, device: str, found: str, expected: str) -> None:
        super().__init__(device, f"{device} answers as the {found} board, not the {expected} board: "
                                 "check which port is which")


class LinkLost(LinkError):
    """No valid frame from the board for longer than the link timeout, or retransmits exhausted."""


class BoardReset(LinkError):
    """The board rebooted during the session (its boot counter changed): its state is gone."""

    def __init__(self, device: str, old_boot: int, new_boot: int) -> None:
        self.old_boot = old_boot
        self.new_boot = new_boot
        counter = (f"boot counter {old_boot} -> {new_boot}" if new_boot != old_boot else
                   f"it said BOOT, its boot counter still {old_boot}: its firmware does not keep the counter")
        super().__init__(
            f"{device} rebooted during the session ({counter}): its state was lost (a motor board's "
            "motors stop with it); reconnect and read its state again")


class SessionLost(LinkError):
    """The board no longer knows this session (it answered NO_SESSION without rebooting)."""


class EventUndecodable(BoardIncompatible):
    """An event kept arriving intact (its CRC right) but its payload does not decode as the message
    its id names: the board's firmware and this controller disagree about that message."""

    def __init__(self, device: str, msg: int, attempts: int, reason: str) -> None:
        self.msg = msg
        self.attempts = attempts
        super().__init__(
            device, f"{device}: event {msg:#04x} did not decode {attempts} times ({reason}): board firmware "
            f"and host disagree on message {msg:#04x}: update one of them")


class EventsUnrecoverable(BoardIncompatible):
    """Events the board numbered were asked for again and again and never came: it numbers events
    past ones it does not hold (its firmware and this controller disagree on the event numbering)."""

    def __init__(self, device: str, first: int, asked: int) -> None:
        self.first = first
        self.asked = asked
        super().__init__(
            device, f"{device}: event {first} never came though asked for {asked} times while later events did: the "
            "board numbers its events past ones it does not hold; update its firmware or this controller")


class LinkClosed(LinkError):
    """The link was closed by this side."""


class CommandRejected(DriverError):
    """The board received a command and refused it; `status` says why (see protocol.md §3.3)."""

    def __init__(self, device: str, command: object, status: int, status_name: str) -> None:
        self.command = command
        self.status = status
        self.status_name = status_name
        super().__init__(f"{device} refused {command}: {status_name} (status {status})")
