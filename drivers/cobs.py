"""Consistent Overhead Byte Stuffing (COBS).

Why COBS (protocol.md §2.1): after stuffing, a frame contains no 0x00 byte, so 0x00 is an
unambiguous delimiter.  A receiver that starts mid-stream, or loses bytes, resynchronises at the
very next 0x00, whatever the corrupted bytes were; the overhead is one byte per 254.
"""

from __future__ import annotations

from .errors import CobsError

_RUN = 254      # the longest run of non-zero bytes one code byte can announce (code 0xFF)


def cobs_encode(data: bytes) -> bytes:
    """Stuff `data` so that it contains no zero byte (the delimiter is not appended)."""
    if len(data) < _RUN and 0 not in data:
        return bytes((len(data) + 1,)) + data       # one block, no run to split (most frames)
    out = bytearray()
    for block in data.split(b"\x00"):
        # A run of 254 non-zero bytes is written with code 0xFF, which carries no implied zero.
        while len(block) >= _RUN:
            out.append(0xFF)
            out += block[:_RUN]
            block = block[_RUN:]
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo `cobs_encode`; raise CobsError on a zero byte or a code pointing past the end."""
    if 0 in data:
        raise CobsError("zero byte inside a COBS frame")
    n = len(data)
    if n and data[0] == n:
        return bytes(data[1:])      # one block (most frames hold no zero byte): the rest is the data
    # Fast path: with no 0xFF code, every code byte after the first stands for one zero, so the
    # data is the frame with its code bytes zeroed, less the first (one step per zero, no slices).
    out = bytearray(data)
    i = 0
    while i < n:
        code = data[i]
        if code == 0xFF:
            return _cobs_decode_runs(data)
        out[i] = 0
        i += code
    if i > n:
        return _cobs_decode_runs(data)      # it raises, saying where
    del out[:1]
    return bytes(out)


def _cobs_decode_runs(data: bytes) -> bytes:
    """`cobs_decode` of any frame, runs of 254 non-zero bytes (code 0xFF) included."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if end > n:
            raise CobsError(f"COBS code {code} at byte {i} runs past the end of a {n}-byte frame")
        out += data[i + 1:end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)
