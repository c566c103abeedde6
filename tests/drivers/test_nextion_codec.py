"""The Nextion codec: instructions and returns round-trip; the return decoder never raises and
resynchronises; a number return full of 0xFF bytes is cut by length."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.nextion import (ENCODING, Instruction, InstructionDecoder, NextionError,
                             NumberReturned, PageShown, Ready, Result, ReturnDecoder, SleepChanged,
                             Started, StringReturned, Touch, TouchXY, encode_instruction,
                             encode_return, parse_instruction, set_number, set_text, set_visible,
                             show_page)

pytestmark = pytest.mark.timeout(60)


def gb2312_text(max_size=40):
    def encodable(ch):
        try:
            ch.encode(ENCODING)
            return True
        except UnicodeEncodeError:
            return False
    alphabet = st.characters(codec=None).filter(encodable) | st.sampled_from("东南西北中发白万筒条听胡杠\"\\\n")
    return st.text(alphabet=alphabet, max_size=max_size).map(lambda s: s.replace("\r", ""))


names = st.from_regex(r"[a-z][a-z0-9_]{0,10}\.[a-z][a-z0-9_]{0,10}", fullmatch=True)


@given(names, gb2312_text())
def test_text_instruction_round_trip(obj, text):
    wire = encode_instruction(set_text(obj, text))
    decoded = InstructionDecoder().feed(wire)
    assert decoded == [set_text(obj, text)]
    assert parse_instruction(decoded[0]) == Instruction("txt", obj, text)


@given(names, st.integers(-2**31, 2**31 - 1), st.booleans())
def test_number_visibility_and_page_instructions(obj, value, visible):
    assert parse_instruction(set_number(obj, value)) == Instruction("val", obj, value)
    assert parse_instruction(set_visible(obj, visible)) == Instruction("vis", obj, visible)
    assert parse_instruction(show_page("menu")) == Instruction("page", "menu", True)
    assert parse_instruction("bkcmd=2") == Instruction("set", "bkcmd", 2)


def test_unknown_instruction_is_a_typed_error():
    with pytest.raises(NextionError):
        parse_instruction("fly me to the moon")


returns = st.one_of(
    st.builds(Touch, st.integers(0, 255), st.integers(0, 255), st.booleans()),
    st.builds(PageShown, st.integers(0, 255)),
    st.builds(TouchXY, st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.booleans(), st.booleans()),
    st.builds(StringReturned, gb2312_text().map(lambda s: s.replace("\n", " "))),
    st.builds(NumberReturned, st.integers(-2**31, 2**31 - 1)),
    st.just(Started()), st.just(Ready()), st.builds(SleepChanged, st.booleans()),
    st.builds(Result, st.sampled_from([0x00, 0x01, 0x02, 0x03, 0x1A, 0x1B, 0x1C, 0x1E, 0x23, 0x24])))


@given(st.lists(returns, max_size=10), st.data())
def test_returns_round_trip_in_any_chunking(items, data):
    stream = b"".join(encode_return(i) for i in items)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=6)))
    decoder = ReturnDecoder()
    got = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)]):
        got += decoder.feed(stream[start:end])
    assert got == items


def test_number_return_made_of_ff_bytes():
    decoder = ReturnDecoder()
    assert decoder.feed(encode_return(NumberReturned(-1)) + encode_return(PageShown(2))) == [
        NumberReturned(-1), PageShown(2)]


@given(st.binary(max_size=600))
@settings(max_examples=300)
def test_return_decoder_on_random_bytes_never_raises(junk):
    for item in ReturnDecoder().feed(junk):
        assert not isinstance(item, Exception) or isinstance(item, NextionError)


@given(st.binary(max_size=300), returns)
def test_return_decoder_resynchronises(junk, item):
    decoder = ReturnDecoder()
    decoder.feed(junk + b"\xff\xff\xff")
    decoder.feed(b"\xff\xff\xff")   # whatever was half-read is flushed by a few terminators
    for _ in range(3):
        decoder.feed(encode_return(PageShown(0)))
    got = decoder.feed(encode_return(item))
    assert got[-1] == item
