"""A flight recorder deleted while the table runs is written again, whole: it went on into the
deleted file (the descriptor kept it alive), so every line of the run — the audit's evidence —
was gone at the close, and the next start found no chain head to go on from."""

from __future__ import annotations

import json
import logging
import os

from firmware.cli.events_file import EventsFile
from firmware.records.recorder import FlightRecorder
from firmware.records.store import Store, ThreadedSink
from firmware.records.audit import audit_recorders
from firmware.records.stream import read_recorder
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def recorder_on(path):
    store = Store()
    target = EventsFile(path, exclusive=True)
    return store, target, FlightRecorder(ThreadedSink(target, store), clock=lambda: 0.0)


def test_a_recorder_deleted_in_a_hand_is_written_again_whole_at_the_hand_end(tmp_path, caplog):
    path = tmp_path / "events.jsonl"
    store, target, recorder = recorder_on(path)
    recorder.open_hand(1)
    recorder.emit("warning", message="hand 1 in play")
    store.drain()
    os.unlink(path)                                     # deleted while the table runs
    recorder.emit("warning", message="after the deletion")
    with caplog.at_level(logging.WARNING):
        recorder.emit("hand_end", result="draw")         # the hand's end: synced, so looked at
        store.drain()
    assert path.exists()
    assert "was deleted while the table ran: written again" in caplog.text
    recorder.close_hand()
    recorder.emit("warning", message="between hands")   # goes on into the file written again
    recorder.close_cleanly()
    store.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["event"] for line in lines] == \
        ["recorder_start", "warning", "warning", "hand_end", "warning", "recorder_end"]


def test_a_recorder_deleted_after_its_last_hand_is_written_again_at_the_close(tmp_path):
    path = tmp_path / "events.jsonl"
    target = EventsFile(path, exclusive=True)
    target.write('{"a":1}\n')
    os.unlink(path)
    target.write('{"b":2}\n')
    target.close()
    assert path.read_text(encoding="utf-8") == '{"a":1}\n{"b":2}\n'


def test_a_recorder_whose_folder_is_gone_says_so_once_and_is_written_again_once_it_can_be(tmp_path, caplog):
    folder = tmp_path / "events"
    folder.mkdir()
    path = folder / "events.jsonl"
    target = EventsFile(path, exclusive=True)
    target.write('{"a":1}\n')
    os.unlink(path)
    folder.rmdir()                                      # the whole folder removed
    with caplog.at_level(logging.WARNING):
        target.sync()
        target.write('{"b":2}\n')
        target.sync()
    assert caplog.text.count("cannot be written again there") == 1
    folder.mkdir()
    target.sync()
    target.write('{"c":3}\n')
    target.close()
    assert path.read_text(encoding="utf-8") == '{"a":1}\n{"b":2}\n{"c":3}\n'


def test_a_recorder_moved_elsewhere_is_left_where_it_went(tmp_path):
    path = tmp_path / "events.jsonl"
    moved = tmp_path / "kept.jsonl"
    target = EventsFile(path, exclusive=True)
    target.write('{"a":1}\n')
    os.rename(path, moved)
    target.sync()
    target.write('{"b":2}\n')
    target.close()
    assert not path.exists()
    assert moved.read_text(encoding="utf-8") == '{"a":1}\n{"b":2}\n'


def test_a_table_whose_recorder_is_deleted_in_play_keeps_every_line_and_its_audit_is_sound(tmp_path, caplog):
    path = tmp_path / "events.jsonl"
    target = EventsFile(path, exclusive=True)

    def delete_at_hand_2(event):
        if event["event"] == "hand_start" and event["hand"] == 2:
            os.unlink(path)                         # its lines so far were written (hand 1 ended on the card)

    with caplog.at_level(logging.WARNING):
        result = run(run_simulated(get_region("sichuan").resolve(), hands=3, seed=1, events=target,
                                   on_event=delete_at_hand_2), timeout=120)
    target.close()
    assert result.hands == 3
    assert caplog.text.count("was deleted while the table ran: written again") == 1
    report = audit_recorders([read_recorder(path.name, path.read_bytes())])
    assert report.sound, report.problems
    assert report.hands == 3
