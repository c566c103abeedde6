"""Frame format 2's claim, proven by trying: no single inserted, deleted or changed byte of a
frame on the wire — delimiter included, and across the boundary with the next frame — makes the
stream decoder accept a frame that was not sent (protocol.md §2.2).  How the byte values are
chosen, and why a value may stand for a class, is in tests/drivers/frame_mutations.py."""

from __future__ import annotations

import random

import pytest

from drivers.errors import FrameError
from drivers.frame import MAX_PAYLOAD, Frame, FrameDecoder, Kind, decode_frame, encode_frame
from drivers.frame_v1 import decode_frame_v1, encode_frame_v1
from tests.drivers.frame_mutations import seeded_frames, sweep

KINDS = list(Kind)


def every_size_and_short_traffic() -> list[Frame]:
    """Every payload size 0..240 once (random payloads), and 2,000 short frames like the link's
    everyday traffic (payloads of 0–24 bytes: random, mostly zero bytes — many COBS blocks — or
    mostly 0xFF), every kind."""
    return (seeded_frames(MAX_PAYLOAD + 1, seed=21, kinds=KINDS, max_payload=MAX_PAYLOAD)
            + seeded_frames(2000, seed=22, kinds=KINDS, max_payload=24))


def test_no_single_byte_mutation_of_2241_frames_is_accepted():
    frames = every_size_and_short_traffic()
    assert len(frames) == 2241 and {len(f.payload) for f in frames} == set(range(MAX_PAYLOAD + 1))
    tally = sweep(frames, encode_frame, decode_frame, every_value=False, seed=1)
    assert sum(tally.tried.values()) > 700_000 and set(tally.tried) == {"insert", "delete", "change"}
    assert not tally.accepted, tally.examples


def test_no_single_byte_mutation_with_any_value_of_frames_of_every_kind_is_accepted():
    """No class argument: all 256 values at every insertion point, all 255 at every change."""
    rng = random.Random(5)
    frames = [Frame(kind, rng.randrange(256), rng.randrange(256), rng.randbytes(size))
              for kind, size in zip(KINDS, (0, 1, 2, 4, 7, 11, 16, 3, 0, 5, 9))]
    frames += [Frame(Kind.EVENT, 0, 0, bytes(12)), Frame(Kind.EVENT, 255, 0x84, bytes(30) + b"\xff" * 10)]
    tally = sweep(frames, encode_frame, decode_frame, every_value=True, seed=2)
    assert sum(tally.tried.values()) > 100_000
    assert not tally.accepted, tally.examples


def test_the_sweep_finds_format_1s_flaw():
    """The same sweep over format 1 finds the measured flaw (a 0x01 before the delimiter), so it
    is a test that can fail."""
    frames = seeded_frames(40, seed=23, kinds=KINDS, max_payload=24)
    tally = sweep(frames, encode_frame_v1, decode_frame_v1, every_value=False, seed=3)
    assert tally.accepted["insert"] >= 40


@pytest.mark.soak
@pytest.mark.timeout(3600)
def test_no_single_byte_mutation_with_any_value_of_723_frames_is_accepted():
    """Every payload size 0..240 in each of the three payload styles, every value everywhere."""
    frames = seeded_frames(3 * (MAX_PAYLOAD + 1), seed=24, kinds=KINDS, max_payload=MAX_PAYLOAD)
    tally = sweep(frames, encode_frame, decode_frame, every_value=True, seed=4)
    assert not tally.accepted, tally.examples


@pytest.mark.soak
@pytest.mark.timeout(1200)
def test_a_million_random_inputs_through_the_decoder():
    """Random bytes, frames with several bytes mutated, and runs of frames, in random pieces: no
    exception escapes, and every frame accepted re-encodes to exactly the bytes it came from."""
    rng = random.Random(25)
    accepted: list[tuple[Frame, bytes]] = []

    def watched(chunk: bytes) -> Frame:
        frame = decode_frame(chunk)
        accepted.append((frame, chunk))
        return frame

    inputs = 0
    while inputs < 1_000_000:
        decoder = FrameDecoder(watched)
        for piece in _pieces(_fuzz_input(rng), rng):
            for item in decoder.feed(piece):
                assert isinstance(item, (Frame, FrameError))
        inputs += 1
    for frame, chunk in accepted:
        assert encode_frame(frame.kind, frame.seq, frame.msg, frame.payload) == chunk + b"\x00"
    assert len(accepted) > 100_000


def _fuzz_input(rng: random.Random) -> bytes:
    choice = rng.random()
    if choice < 0.3:
        return rng.randbytes(rng.randrange(1, 600))
    frames = [encode_frame(rng.choice(KINDS), rng.randrange(256), rng.randrange(256),
                           rng.randbytes(rng.choice((0, 1, 3, 8, rng.randrange(MAX_PAYLOAD + 1)))))
              for _ in range(rng.randrange(1, 4))]
    stream = bytearray(b"".join(frames))
    if choice < 0.8:
        for _ in range(rng.randrange(1, 4)):
            _mutate(stream, rng)
    return bytes(stream)


def _mutate(stream: bytearray, rng: random.Random) -> None:
    at = rng.randrange(len(stream) + 1)
    what = rng.randrange(3)
    if what == 0:
        stream.insert(at, rng.choice((0, 1, rng.randrange(256))))
    elif at < len(stream):
        if what == 1:
            del stream[at]
        else:
            stream[at] = rng.randrange(256)


def _pieces(data: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, rng.randrange(3)))) if len(data) > 1 else []
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]

