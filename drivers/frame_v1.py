"""Frame format 1 (protocol version 1), kept for one job: telling a version-1 peer apart.

A version-2 host cannot read a version-1 board's frames, so without this it could only report
"no answer".  At the handshake the host also sends a HELLO in this format and reads a rejected
frame as a format-1 IDENT, so it can refuse the board with one clear line naming its version
(protocol.md §3.1).  A version-2 board answers a format-1 HELLO with a format-1 IDENT carrying
its version, so an old host can say the same.  The simulator plays a version-1 board with it.

Format 1: COBS( kind | seq | msg | payload… | crc16 ) 0x00, with crc16 = CRC-16/CCITT-FALSE
(`binascii.crc_hqx(body, 0xFFFF)`, no final XOR) — the format whose flaw version 2 fixes
(protocol.md §2.2).  Never use it for anything but the handshake.
"""

from __future__ import annotations

from binascii import crc_hqx

from .cobs import cobs_decode, cobs_encode
from .errors import CrcError, FrameTooLong, FrameTooShort
from .frame import DELIMITER, Frame

FRAME_FORMAT = 1
CRC_INIT = 0xFFFF
MAX_PAYLOAD = 240
MAX_ENCODED = 3 + MAX_PAYLOAD + 2 + 1


def encode_frame_v1(kind: int, seq: int = 0, msg: int = 0, payload: bytes = b"") -> bytes:
    """One format-1 frame ready for the wire, delimiter included."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes exceeds the {MAX_PAYLOAD}-byte limit")
    body = bytes((kind, seq & 0xFF, msg)) + payload
    crc = crc_hqx(body, CRC_INIT)
    return cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + DELIMITER


def decode_frame_v1(stuffed: bytes) -> Frame:
    """Decode a format-1 frame (without its delimiter); raise a FrameError subclass if bad."""
    if len(stuffed) > MAX_ENCODED:
        raise FrameTooLong(f"{len(stuffed)} bytes without a delimiter (limit {MAX_ENCODED})")
    body = cobs_decode(stuffed)
    if len(body) < 5:
        raise FrameTooShort(f"{len(body)}-byte frame is shorter than header + CRC")
    crc = crc_hqx(body[:-2], CRC_INIT)
    if crc != (body[-2] << 8 | body[-1]):
        raise CrcError(f"CRC {body[-2] << 8 | body[-1]:04x} does not match computed {crc:04x}")
    return Frame(body[0], body[1], body[2], body[3:-2])
