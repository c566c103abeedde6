"""A hand's lines reach the card itself at its end: the flight recorder was never synced, so a
power cut or an ext4 error (the card remounted read-only) kept the ledger's hand and lost every
line of it (a probe: the file 0 bytes).  The recorder asks its file for a sync at each `hand_end`
and `recorder_end`, on the store's thread, behind the lines it covers — held lines too."""

from __future__ import annotations

from firmware.cli.files import EventsFile
from firmware.records.recorder import FlightRecorder
from firmware.records.store import Store, ThreadedSink


class Watched(EventsFile):
    """An events file that notes, at each sync, how many lines it had written."""

    def __init__(self, path) -> None:
        super().__init__(path, exclusive=True)
        self.synced_at: list[int] = []

    def sync(self) -> None:
        super().sync()
        self.synced_at.append(self.path.read_text(encoding="utf-8").count("\n"))


def test_each_hand_end_and_the_recorder_end_are_synced_behind_their_lines(tmp_path):
    store = Store()
    target = Watched(tmp_path / "events.jsonl")
    sink = ThreadedSink(target, store, close_target=False)
    recorder = FlightRecorder(sink, clock=lambda: 0.0)
    recorder.hold_lines()                       # as the session holds them behind the journal
    recorder.emit("warning", message="before")
    recorder.open_hand(1)
    recorder.emit("hand_end", result="draw")
    store.drain()
    assert target.synced_at == []              # held: neither written nor synced yet
    recorder.release_lines()
    store.drain()
    assert target.synced_at == [3]             # recorder_start, warning, hand_end: then the sync
    recorder.close_hand()
    recorder.emit("warning", message="between hands")   # no sync for lines that end nothing
    recorder.release_lines(keep_holding=False)
    recorder.close_cleanly()
    store.close()
    assert target.synced_at == [3, 5]
