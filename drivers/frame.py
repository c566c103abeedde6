"""Link-layer frames: header, CRC-16, COBS stuffing and a resynchronising stream decoder.

On the wire (protocol.md §2.1):

    COBS( kind | seq | msg | payload… | crc_hi | crc_lo ) 0x00

`crc` is CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection, no final
XOR) over kind..payload, computed by `binascii.crc_hqx(body, 0xFFFF)` (C speed), big-endian.
"""

from __future__ import annotations

from binascii import crc_hqx
from dataclasses import dataclass
from enum import IntEnum

from .cobs import cobs_decode, cobs_encode
from .errors import CrcError, FrameError, FrameTooLong, FrameTooShort

DELIMITER = b"\x00"
HEADER_SIZE = 3
CRC_SIZE = 2
MAX_PAYLOAD = 240
MAX_BODY = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE          # 245 bytes before stuffing
MAX_ENCODED = MAX_BODY + 1                               # one COBS code byte per 254 bytes
CRC_INIT = 0xFFFF


class Kind(IntEnum):
    """What a frame is (header byte 0).  Direction: H = host→board, B = board→host."""

    HELLO = 0x01      # H  handshake request: payload = version, session, heartbeat
    IDENT = 0x02      # B  handshake answer: version, kind, boot counter, build, constants
    BOOT = 0x03       # B  sent once after power-up: boot counter (unsolicited)
    COMMAND = 0x10    # H  seq = command sequence number, msg = command id
    ACK = 0x11        # B  seq = command acknowledged (cumulative), payload = last 4 statuses
    NAK = 0x12        # B  seq = next command the board expects, payload = reason [, boot]
    EVENT = 0x20      # B  seq = event sequence number, msg = event id
    EVENT_ACK = 0x21  # H  seq = next event the host expects (cumulative acknowledgement)
    RESEND = 0x22     # H  seq = first event to send again (acks all before it); payload = how many (0 = all)
    HOST_BEAT = 0x30  # H  heartbeat; seq = next event the host expects
    BOARD_BEAT = 0x31  # B  heartbeat; seq = next event seq to be sent; payload = boot, session, flags


@dataclass(frozen=True, slots=True)
class Frame:
    kind: int
    seq: int
    msg: int
    payload: bytes = b""


def encode_frame(kind: int, seq: int = 0, msg: int = 0, payload: bytes = b"") -> bytes:
    """One frame ready for the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds the {MAX_PAYLOAD}-byte limit")
    body = bytes((kind, seq & 0xFF, msg)) + payload
    crc = crc_hqx(body, CRC_INIT)
    return cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + DELIMITER


def decode_frame(stuffed: bytes) -> Frame:
    """Decode the bytes between two delimiters; raise a FrameError subclass if they are bad."""
    if len(stuffed) > MAX_ENCODED:
        raise FrameTooLong(f"{len(stuffed)} bytes without a delimiter (limit {MAX_ENCODED})")
    body = cobs_decode(stuffed)
    if len(body) < HEADER_SIZE + CRC_SIZE:
        raise FrameTooShort(f"{len(body)}-byte frame is shorter than header + CRC")
    crc = crc_hqx(body[:-2], CRC_INIT)
    if crc != (body[-2] << 8 | body[-1]):
        raise CrcError(f"CRC {body[-2] << 8 | body[-1]:04x} does not match computed {crc:04x}")
    return Frame(body[0], body[1], body[2], body[3:-2])


class FrameDecoder:
    """Turns a byte stream into frames; bad frames become FrameError items, never exceptions.

    Resynchronisation: every 0x00 ends a frame, so after any corruption the next delimiter
    starts a clean frame.  Bytes piling up without a delimiter beyond the largest frame are
    thrown away (a `resync`) so noise cannot grow the buffer.
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self.frames = 0
        self.crc_errors = 0
        self.framing_errors = 0
        self.resyncs = 0
        self.bytes = 0

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        self.bytes += len(data)
        if 0 not in data:
            self._pending += data
            if len(self._pending) > MAX_ENCODED:
                self._pending.clear()
                self.resyncs += 1
                return [FrameTooLong(f"more than {MAX_ENCODED} bytes without a delimiter")]
            return []
        self._pending += data
        chunks = self._pending.split(DELIMITER)
        self._pending = chunks.pop()
        out: list[Frame | FrameError] = []
        for chunk in chunks:
            if not chunk:
                continue  # idle delimiters are allowed before a frame
            try:
                out.append(decode_frame(chunk))
                self.frames += 1
            except CrcError as error:
                self.crc_errors += 1
                out.append(error)
            except FrameError as error:
                self.framing_errors += 1
                if isinstance(error, FrameTooLong):
                    self.resyncs += 1
                out.append(error)
        if len(self._pending) > MAX_ENCODED:
            self._pending.clear()
            self.resyncs += 1
            out.append(FrameTooLong(f"more than {MAX_ENCODED} bytes without a delimiter"))
        return out

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        if self._pending:
            self.resyncs += 1
        self._pending.clear()
