"""COBS, frames and the stream decoder: round trips, CRC, and resynchronisation on junk."""

from zlib import crc32

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.cobs import cobs_decode, cobs_encode
from drivers.errors import CobsError, CrcError, FrameError, LengthError
from drivers.frame import MAX_PAYLOAD, Frame, FrameDecoder, decode_frame, encode_frame

pytestmark = pytest.mark.timeout(60)

frames = st.builds(Frame, st.integers(0, 255), st.integers(0, 255), st.integers(0, 255),
                   st.binary(max_size=MAX_PAYLOAD))


def wire(frame: Frame) -> bytes:
    return encode_frame(frame.kind, frame.seq, frame.msg, frame.payload)


def test_crc_is_crc32_with_its_check_value_and_the_header_carries_the_length():
    assert crc32(b"123456789") == 0xCBF43926
    body = bytes((0x20, 9, 0x81, 4)) + b"\x01\x02\x03\x04"
    assert encode_frame(0x20, 9, 0x81, b"\x01\x02\x03\x04") == cobs_encode(
        body + crc32(body).to_bytes(4, "big")) + b"\x00"


def test_a_stray_byte_before_the_delimiter_is_refused_by_the_length():
    """The measured flaw of format 1: 0x01 before the delimiter made COBS append a zero byte,
    and the CRC-16 (no final XOR) still matched.  Now the header's length does not."""
    wire = encode_frame(0x20, 9, 0x81, bytes(4))[:-1]
    with pytest.raises(LengthError):
        decode_frame(wire + b"\x01")


@given(st.binary(max_size=1200))
def test_cobs_round_trip_and_no_zero(data):
    stuffed = cobs_encode(data)
    assert 0 not in stuffed
    assert cobs_decode(stuffed) == data
    assert len(stuffed) <= len(data) + len(data) // 254 + 2


@given(st.binary(max_size=300))
def test_cobs_decode_raises_only_cobs_error(data):
    try:
        cobs_decode(data)
    except CobsError:
        pass


@given(frames)
def test_frame_round_trip(frame):
    encoded = wire(frame)
    assert encoded.endswith(b"\x00") and 0 not in encoded[:-1]
    assert decode_frame(encoded[:-1]) == frame


@given(st.binary(max_size=400))
def test_decode_frame_raises_only_frame_errors(data):
    try:
        decode_frame(data)
    except FrameError:
        pass


@given(frames, st.data())
def test_every_single_bit_error_is_caught_by_the_crc(frame, data):
    body = bytes((frame.kind, frame.seq, frame.msg, len(frame.payload))) + frame.payload
    whole = bytearray(body + crc32(body).to_bytes(4, "big"))
    bit = data.draw(st.integers(0, len(whole) * 8 - 1))
    whole[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(LengthError if bit // 8 == 3 else CrcError):
        decode_frame(cobs_encode(bytes(whole)))


@given(st.binary(max_size=2000))
@settings(max_examples=300)
def test_decoder_on_random_bytes_yields_only_frames_or_typed_errors(junk):
    decoder = FrameDecoder()
    for item in decoder.feed(junk):
        assert isinstance(item, (Frame, FrameError))


@given(st.binary(max_size=600), st.lists(frames, min_size=1, max_size=5), st.data())
@settings(max_examples=200)
def test_decoder_resynchronises_after_junk(junk, sent, data):
    """Whatever garbage came before, the frames after the next delimiter all come through,
    however the bytes are chunked."""
    stream = junk + b"\x00" + b"".join(wire(f) for f in sent)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    decoder = FrameDecoder()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)]):
        got += decoder.feed(stream[start:end])
    decoded = [item for item in got if isinstance(item, Frame)]
    assert decoded[-len(sent):] == sent


def test_decoder_discards_overlong_noise_and_counts_a_resync():
    decoder = FrameDecoder()
    items = decoder.feed(b"\x55" * 1000)
    assert items and all(isinstance(i, FrameError) for i in items)
    assert decoder.resyncs >= 1
    good = Frame(0x20, 7, 0x80, b"\x01\x02")
    assert decoder.feed(b"\x00" + wire(good)) == [good]


def test_decoder_counts_crc_errors():
    decoder = FrameDecoder()
    damaged = bytearray(wire(Frame(0x10, 1, 2, b"abc")))
    damaged[3] ^= 0x40
    items = decoder.feed(bytes(damaged))
    assert len(items) == 1 and isinstance(items[0], FrameError)
    assert decoder.crc_errors + decoder.framing_errors == 1


def test_payload_limit_is_enforced():
    with pytest.raises(ValueError):
        encode_frame(0x20, 0, 0, bytes(MAX_PAYLOAD + 1))
