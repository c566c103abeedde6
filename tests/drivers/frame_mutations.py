"""Every single-byte mutation of a frame on the wire, and whether the stream decoder accepts a
frame that was never sent.

A frame F is followed on the wire by another frame G.  A mutation inserts, deletes or changes one
byte of F's wire bytes, delimiter included (so a lost delimiter merges F with G, and an inserted
0x00 splits F in two), or inserts a byte between F's delimiter and G.  The mutated bytes go
through a fresh `FrameDecoder`; the mutation is *accepted* if any frame comes out whose bytes are
not exactly those of F or G as sent.

Values.  With `every_value` each insertion tries all 256 byte values and each change all 255
others.  Without it, values are tried where they can make a difference, and one value stands for
a class where it provably cannot (COBS: only 0x00 and the code bytes decide how a frame is cut;
a byte's position in the decoded body is its wire position − 1):

- a change of a data byte to any non-zero value leaves the COBS parse as it was and changes one
  body byte: the header's length byte (checked exactly) or one byte under the CRC-32, which
  detects every error within 32 consecutive bits — so 0x00 (a split) and one value stand for all;
- a code byte, or a byte inserted where a code byte is read, decides where the block ends: every
  value that ends it inside the frame is tried, and one that runs past the end stands for the
  rest (the COBS check refuses those whatever they are);
- a non-zero byte inserted inside a block is one data byte of a parse that does not depend on
  it: 0x00, one value, and — where it lands on the header's length byte (wire byte 4) — the one
  value the length check lets by are tried; if the one value got as far as the CRC, all are.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from drivers.errors import CrcError, FrameError, LengthError
from drivers.frame import Frame, FrameDecoder

Encode = Callable[..., bytes]
Decode = Callable[[bytes], Frame]
LENGTH_AT = 4          # wire index of the header's length byte (body index 3), inside a block


def code_positions(stuffed: bytes) -> set[int]:
    """Where the COBS code bytes of a stuffed frame (no delimiter) are."""
    positions, i = set(), 0
    while i < len(stuffed):
        positions.add(i)
        i += stuffed[i]
    return positions


@dataclass
class Tally:
    tried: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        self.tried.update(other.tried)
        self.accepted.update(other.accepted)
        self.examples.extend(other.examples[:5 - len(self.examples)])


class Sweep:
    """Mutates one frame F (followed by G) in every single-byte way and tallies acceptances."""

    def __init__(self, f: bytes, g: bytes, decode: Decode, *, every_value: bool, rng: random.Random) -> None:
        self.f, self.g = f, g
        self.body_end = len(f) - 1                     # index of F's delimiter
        self.codes = code_positions(f[:-1])
        self.sent = {f[:-1], g[:-1]}
        self.decode = decode
        self.every_value = every_value
        self.rng = rng
        self.tally = Tally()
        self._accepted: list[bytes] = []
        self._refused: list[type[FrameError]] = []
        self._decoder = FrameDecoder(self._spy)

    # -- trying one mutated stream ---------------------------------------------------------------

    def _try(self, what: str, at: int, value: int | None, stream: bytes) -> type[FrameError] | None:
        """Feed `stream`; count it; return the error class that refused F's remains (None if none)."""
        self._accepted.clear()
        self._refused.clear()
        self._decoder.reset()
        self._decoder.feed(stream)
        self.tally.tried[what] += 1
        wrong = [chunk for chunk in self._accepted if chunk not in self.sent]
        if wrong:
            self.tally.accepted[what] += 1
            if len(self.tally.examples) < 5:
                self.tally.examples.append(f"{what} {value} at {at} of {self.f.hex()}: {wrong[0].hex()}")
        return self._refused[0] if self._refused else None

    def _spy(self, chunk: bytes) -> Frame:
        """The decoder under test, watched: which chunks it accepts, and why it refuses."""
        try:
            frame = self.decode(chunk)
        except FrameError as error:
            self._refused.append(type(error))
            raise
        self._accepted.append(chunk)
        return frame

    def _stream(self, mutated: bytes, touches_delimiter: bool) -> bytes:
        # G matters only where F's delimiter moved; otherwise it decodes on its own.
        return mutated + self.g if touches_delimiter else mutated

    # -- the mutations -----------------------------------------------------------------------------

    def run(self) -> Tally:
        f, n = self.f, self.body_end
        for at in range(len(f)):
            self._try("delete", at, None, self._stream(f[:at] + f[at + 1:], at == n))
        for at in range(len(f)):
            self._change_at(at)
        for at in range(len(f)):       # (after the delimiter is the next frame's insertion at 0)
            self._insert_at(at)
        return self.tally

    def _change(self, at: int, value: int) -> type[FrameError] | None:
        f = self.f
        return self._try("change", at, value,
                         self._stream(f[:at] + bytes((value,)) + f[at + 1:], at == self.body_end))

    def _insert(self, at: int, value: int) -> type[FrameError] | None:
        f = self.f
        return self._try("insert", at, value,
                         self._stream(f[:at] + bytes((value,)) + f[at:], at == self.body_end))

    def _change_at(self, at: int) -> None:
        original, n = self.f[at], self.body_end
        if self.every_value:
            values = range(256)
        elif at in self.codes:                      # a code byte: chunk of n bytes
            values = self._code_values(n - at)
        elif at == n:                               # the delimiter: F and G merge
            values = self._code_values(len(self.g))
        else:                                       # a data byte: one body byte changes
            stage = LengthError if at == LENGTH_AT else CrcError
            value = self._some_value(avoid=original)
            self._change(at, 0)
            if self._change(at, value) is stage:
                return
            values = range(1, 256)                  # the argument does not hold here: try all
        for value in values:
            if value != original:
                self._change(at, value)

    def _insert_at(self, at: int) -> None:
        n = self.body_end
        if self.every_value:
            values: list[int] | range = range(256)
        elif at in self.codes:                      # read as a code in a chunk of n + 1 bytes
            values = self._code_values(n + 1 - at)
        elif at == n:                               # read as a code after F's last block
            values = self._code_values(1)
        else:                                       # one data byte of a parse that ignores it
            value = self._some_value()
            self._insert(at, 0)
            for length in self._length_value(at, avoid=value):
                self._insert(at, length)            # the one value the length check lets by
            if self._insert(at, value) not in (CrcError, None):
                return                              # refused by a check blind to the value
            values = range(1, 256)                  # the argument does not hold here: try all
        for value in values:
            self._insert(at, value)

    @staticmethod
    def _code_values(room: int) -> list[int]:
        """0x00, every code that ends its block within the `room` bytes from it to the chunk's
        end, and the first one that runs past (standing for all that do)."""
        return [0, *range(1, min(room + 1, 255) + 1)]

    def _length_value(self, at: int, avoid: int) -> list[int]:
        """The value that, inserted as the length byte, would match the frame's new length."""
        length = len(self.f) - 9
        return [length] if at == LENGTH_AT and 0 < length < 256 and length != avoid else []

    def _some_value(self, avoid: int = 0) -> int:
        while True:
            value = self.rng.randrange(1, 256)
            if value != avoid:
                return value


def sweep(frames: list[Frame], encode: Encode, decode: Decode, *, every_value: bool, seed: int) -> Tally:
    """Mutate each frame (followed by the next one in the list) in every single-byte way."""
    rng = random.Random(seed)
    total = Tally()
    wires = [encode(f.kind, f.seq, f.msg, f.payload) for f in frames]
    for index, wire in enumerate(wires):
        follower = wires[(index + 1) % len(wires)]
        total.add(Sweep(wire, follower, decode, every_value=every_value, rng=rng).run())
    return total


def seeded_frames(count: int, seed: int, kinds: list[int], max_payload: int) -> list[Frame]:
    """`count` frames cycling through the kinds and every payload size 0..max_payload, with
    payloads of random bytes, of mostly zero bytes (many COBS blocks) and of 0xFF bytes."""
    rng = random.Random(seed)
    frames = []
    for i in range(count):
        size = i % (max_payload + 1)
        style = (i // (max_payload + 1)) % 3
        if style == 0:
            payload = rng.randbytes(size)
        elif style == 1:
            payload = bytes(rng.choice((0, 0, 0, rng.randrange(256))) for _ in range(size))
        else:
            payload = bytes(rng.choice((0xFF, 0xFF, 1, 0)) for _ in range(size))
        frames.append(Frame(kinds[i % len(kinds)], rng.randrange(256), rng.randrange(256), payload))
    return frames

