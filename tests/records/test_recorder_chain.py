"""The flight recorder's hash chain: what it writes, and how a restarted controller continues it."""

from __future__ import annotations

import io
import json

import pytest

from firmware.records.chain import FORMAT, GENESIS, canonical, line_hash
from firmware.records.recorder import FlightRecorder, SecretLeak


def written(sink: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in sink.getvalue().splitlines()]


def one_hand(recorder: FlightRecorder, number: int) -> None:
    recorder.open_hand(number)
    recorder.emit("hand_start", ruleset="x", wall_hash="0" * 64)
    recorder.emit("take", end="head", ring=0, layer="top")
    recorder.emit("hand_end", result="draw")
    recorder.close_hand()


def test_each_hand_start_carries_the_hash_of_the_hand_end_before_it():
    sink = io.StringIO()
    recorder = FlightRecorder(sink, clock=lambda: 1.0)
    one_hand(recorder, 1)
    one_hand(recorder, 2)
    lines = sink.getvalue().splitlines()
    events = [json.loads(line) for line in lines]
    assert events[0] == {"event": "recorder_start", "t": 1.0, "hand": 0, "chain": GENESIS, "format": FORMAT}
    starts = [e for e in events if e["event"] == "hand_start"]
    ends = [i for i, e in enumerate(events) if e["event"] == "hand_end"]
    assert starts[0]["prev"] == GENESIS
    assert starts[1]["prev"] == line_hash(lines[ends[0]]) != GENESIS
    assert recorder.chain_head() == line_hash(lines[ends[1]])


def test_a_hand_end_digests_every_line_since_the_last_hand_end():
    import hashlib
    sink = io.StringIO()
    recorder = FlightRecorder(sink, clock=lambda: 2.5)
    recorder.emit("session_start", hand=0, ruleset="x")
    one_hand(recorder, 1)
    lines = sink.getvalue().splitlines()
    block = hashlib.sha256("".join(line + "\n" for line in lines[:-1]).encode()).hexdigest()
    assert json.loads(lines[-1])["digest"] == block


def test_the_chain_head_restores_a_recorder_after_a_restart():
    first, second = io.StringIO(), io.StringIO()
    before = FlightRecorder(first, clock=lambda: 0.0)
    one_hand(before, 1)
    head = before.chain_head()
    after = FlightRecorder(second, clock=lambda: 0.0, chain=head)
    after.open_hand(2)
    after.emit("resumed", ruleset="x", prev="forged" * 4)            # the recorder links it, whatever it is given
    events = written(second)
    assert events[0]["chain"] == head and events[1]["prev"] == head


def test_close_cleanly_writes_recorder_end_with_the_head_and_the_hand_count_once():
    sink = io.StringIO()
    recorder = FlightRecorder(sink, clock=lambda: 3.0)
    one_hand(recorder, 1)
    recorder.open_hand(2)
    recorder.emit("hand_start", ruleset="x")
    end = recorder.close_cleanly()
    assert end is not None and end["chain"] == recorder.chain_head() and end["hands"] == 1 and end["open_hand"] == 2
    assert recorder.close_cleanly() is None                             # nothing new to close
    assert [e["event"] for e in written(sink)].count("recorder_end") == 1


def test_a_recorder_closed_before_any_event_still_writes_a_start_and_an_end():
    sink = io.StringIO()
    FlightRecorder(sink, clock=lambda: 0.0).close_cleanly()
    assert [e["event"] for e in written(sink)] == ["recorder_start", "recorder_end"]


def test_a_chain_head_that_is_not_a_digest_is_refused():
    with pytest.raises(ValueError, match="64 hex digits"):
        FlightRecorder(io.StringIO(), clock=lambda: 0.0, chain="not a hash")


def test_listeners_hear_every_line_the_file_gets():
    sink = io.StringIO()
    heard: list[dict] = []
    recorder = FlightRecorder(sink, clock=lambda: 0.0)
    recorder.listen(heard.append)
    one_hand(recorder, 1)
    recorder.close_cleanly()
    assert [canonical(e) for e in heard] == sink.getvalue().splitlines()


def test_the_wall_still_never_leaks_before_hand_end():
    recorder = FlightRecorder(io.StringIO(), clock=lambda: 0.0)
    with pytest.raises(SecretLeak):
        recorder.emit("take", end="head", tile="5m")
