"""Link-layer frames (format 2): header with an explicit length, CRC-32, COBS stuffing, and a
resynchronising stream decoder.

On the wire (protocol.md §2.1–§2.2):

    COBS( kind | seq | msg | length | payload… | crc32 (4 bytes) ) 0x00

`length` is the payload's size; `crc32` is CRC-32 (the zlib/IEEE 802.3 one: initial value and
final XOR 0xFFFFFFFF) over kind..payload, computed by `zlib.crc32` (C speed), big-endian.

Why both (protocol.md §2.2): a byte inserted into or lost from the stuffed frame, or a lost or
damaged delimiter, changes the length COBS decodes to, which the header's length no longer
matches; a damaged byte inside the frame changes the body, which a 32-bit CRC with a non-zero
initial value and final XOR catches (appending zero bytes changes it too, which format 1's
CRC-16 with no final XOR did not).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Callable, NamedTuple
from zlib import crc32

from .cobs import cobs_decode, cobs_encode
from .errors import CrcError, FrameError, FrameTooLong, FrameTooShort, LengthError

FRAME_FORMAT = 2
DELIMITER = b"\x00"
HEADER_SIZE = 4
CRC_SIZE = 4
MAX_PAYLOAD = 240
MAX_BODY = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE          # 248 bytes before stuffing
MAX_ENCODED = MAX_BODY + 1                               # one COBS code byte per 254 bytes


class Kind(IntEnum):
    """What a frame is (header byte 0).  Direction: H = host→board, B = board→host."""

    HELLO = 0x01      # H  handshake request: payload = version, session, heartbeat
    IDENT = 0x02      # B  handshake answer: version, kind, boot counter, build, constants, session state
    BOOT = 0x03       # B  sent once after power-up: boot counter (unsolicited)
    RESUME = 0x04     # H  continue an open session: payload as HELLO's; IDENT answers
    COMMAND = 0x10    # H  seq = command sequence number, msg = command id
    ACK = 0x11        # B  seq = command acknowledged (cumulative), payload = last 4 statuses
    NAK = 0x12        # B  seq = next command the board expects, payload = reason [, boot]
    EVENT = 0x20      # B  seq = event sequence number, msg = event id
    EVENT_ACK = 0x21  # H  seq = next event the host expects (cumulative acknowledgement)
    RESEND = 0x22     # H  seq = first event to send again (acks all before it); payload = how many (0 = all)
    HOST_BEAT = 0x30  # H  heartbeat; seq = next event the host expects
    BOARD_BEAT = 0x31  # B  heartbeat; seq = next event seq to be sent; payload = boot, session, flags


HOST_KINDS = frozenset({Kind.HELLO, Kind.RESUME, Kind.COMMAND, Kind.EVENT_ACK, Kind.RESEND, Kind.HOST_BEAT})
"""The kinds only a host sends (H above): a board never does."""


class Frame(NamedTuple):
    """One frame off the wire (a named tuple: one is made for every frame read)."""

    kind: int
    seq: int
    msg: int
    payload: bytes = b""


def encode_frame(kind: int, seq: int = 0, msg: int = 0, payload: bytes = b"") -> bytes:
    """One frame ready for the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds the {MAX_PAYLOAD}-byte limit")
    body = bytes((kind, seq & 0xFF, msg, len(payload))) + payload
    return cobs_encode(body + crc32(body).to_bytes(4, "big")) + DELIMITER


def decode_frame(stuffed: bytes) -> Frame:
    """Decode the bytes between two delimiters; raise a FrameError subclass if they are bad."""
    if len(stuffed) > MAX_ENCODED:
        raise FrameTooLong(f"{len(stuffed)} bytes without a delimiter (limit {MAX_ENCODED})")
    body = cobs_decode(stuffed)
    size = len(body) - HEADER_SIZE - CRC_SIZE
    if size < 0:
        raise FrameTooShort(f"{len(body)}-byte frame is shorter than header + CRC")
    kind, seq, msg, length = body[:HEADER_SIZE]
    if length != size:
        raise LengthError(f"header says {length} payload bytes, the frame holds {size}")
    crc = crc32(body[:-CRC_SIZE])
    if crc.to_bytes(CRC_SIZE, "big") != body[-CRC_SIZE:]:
        sent = int.from_bytes(body[-CRC_SIZE:], "big")
        raise CrcError(f"CRC {sent:08x} does not match computed {crc:08x}")
    # (tuple.__new__: a named tuple's own constructor is one more Python call, for every frame)
    return tuple.__new__(Frame, (kind, seq, msg, body[HEADER_SIZE:-CRC_SIZE]))


class FrameDecoder:
    """Turns a byte stream into frames; bad frames become FrameError items, never exceptions.

    Resynchronisation: every 0x00 ends a frame, so after any corruption the next delimiter
    starts a clean frame.  Bytes piling up without a delimiter beyond the largest frame are
    thrown away (a `resync`) so noise cannot grow the buffer.  A rejected frame's bytes travel
    with its error (`chunk`), so a link can still recognise a peer of an older frame format at
    the handshake (drivers/frame_v1.py).
    """

    def __init__(self, decode: Callable[[bytes], Frame] = decode_frame, max_encoded: int = MAX_ENCODED) -> None:
        self._decode = decode
        self._max = max_encoded
        self._pending = bytearray()
        self.frames = 0
        self.crc_errors = 0
        self.framing_errors = 0
        self.resyncs = 0
        self.bytes = 0

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        self.bytes += len(data)
        self._pending += data
        if 0 not in data:
            return self._overflow([]) if len(self._pending) > self._max else []
        chunks = self._pending.split(DELIMITER)
        self._pending = chunks.pop()
        out: list[Frame | FrameError] = []
        for chunk in chunks:
            if not chunk:
                continue  # idle delimiters are allowed before a frame
            try:
                out.append(self._decode(bytes(chunk)))
                self.frames += 1
            except FrameError as error:
                if isinstance(error, CrcError):
                    self.crc_errors += 1
                else:
                    self.framing_errors += 1
                    if isinstance(error, FrameTooLong):
                        self.resyncs += 1
                error.chunk = bytes(chunk)
                out.append(error)
        return self._overflow(out) if len(self._pending) > self._max else out

    def _overflow(self, out: list[Frame | FrameError]) -> list[Frame | FrameError]:
        self._pending.clear()
        self.resyncs += 1
        out.append(FrameTooLong(f"more than {self._max} bytes without a delimiter"))
        return out

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        if self._pending:
            self.resyncs += 1
        self._pending.clear()
