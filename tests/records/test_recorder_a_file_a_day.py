"""A table left on begins a flight recorder file a day: the first hand begun on a later day than its
file goes into a new one.  Before, a table never restarted wrote one file for ever (96 MB a month),
which `records move` could never take while the table wrote it (docs/operations.md)."""

from __future__ import annotations

import json
from datetime import date

from firmware.cli.events_file import EventsFolder
from firmware.cli.files import new_events_path
from firmware.records.audit import audit_recorders
from firmware.records.audit_ledger import LedgerView
from firmware.records.history import History, hand_events
from firmware.records.recorder_files import needed_files
from firmware.records.stream import read_recorder
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run

MONDAY, TUESDAY = date(2026, 12, 7), date(2026, 12, 8)


def _play_over_midnight(tmp_path, hands: int = 4, midnight_after: int = 2):
    """`hands` hands on one run begun on Monday; the day changes once `midnight_after` hands have
    ended (0: as soon as the run has begun)."""
    folder = tmp_path / "events"
    folder.mkdir()
    ended: list[int] = []
    asked: list[date] = []

    def today() -> date:
        asked.append(MONDAY if not asked or len(ended) < midnight_after else TUESDAY)
        return asked[-1]

    events = EventsFolder(lambda: new_events_path(folder), today=today)

    def count(event: dict) -> None:
        if event["event"] == "hand_end":
            ended.append(event["hand"])

    db = tmp_path / "table.db"
    result = run(run_simulated(get_region("sichuan").resolve(), hands=hands, seed=2, events=events,
                               ledger_path=str(db), events_path=str(events.path), on_event=count), timeout=180)
    events.close()
    return result, sorted(folder.iterdir(), key=lambda path: path.stat().st_mtime_ns), db     # (names can tie to the second)


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_the_first_hand_of_a_new_day_begins_a_new_file_that_goes_on_from_the_last(tmp_path):
    result, files, db = _play_over_midnight(tmp_path)
    assert result.hands == 4
    assert len(files) == 2
    monday, tuesday = (_lines(path) for path in files)
    assert [e["hand"] for e in monday if e["event"] == "hand_end"] == [1, 2]
    assert [e["hand"] for e in tuesday if e["event"] == "hand_end"] == [3, 4]
    end = monday[-1]
    assert end["event"] == "recorder_end" and end["continued"] is True and end["hands"] == 2
    assert tuesday[0]["event"] == "recorder_start" and tuesday[0]["chain"] == end["chain"]
    assert tuesday[-1]["event"] == "recorder_end" and "continued" not in tuesday[-1]
    # one chain over both files, the ledger agreeing; and Tuesday's file alone is sound too
    ledger = LedgerView.open(str(db))
    both = audit_recorders([read_recorder(path.name, path.read_bytes()) for path in files], ledger)
    assert both.sound, both.problems
    assert both.hands == 4
    alone = audit_recorders([read_recorder(files[1].name, files[1].read_bytes())])
    assert alone.sound, alone.problems


def test_each_hand_names_its_day_s_file_and_monday_s_may_be_moved_off_the_card(tmp_path):
    _, files, db = _play_over_midnight(tmp_path)
    history = History(db)
    rows = history.hands(limit=None)
    assert [(row.number, row.events) for row in rows] == [(1, str(files[0])), (2, str(files[0])),
                                                          (3, str(files[1])), (4, str(files[1]))]
    for row in rows:                                     # every hand's page finds its lines
        events = hand_events(row)
        assert events[-1]["event"] == "hand_end" and events[-1]["hand"] == row.number
    needed = needed_files(db)
    assert files[0] not in needed                        # the day before: the table needs it no more
    assert needed[files[1]] == "the table's last run writes it"


def test_a_day_without_a_hand_in_its_file_begins_no_new_file(tmp_path):
    """The day changes before any hand ended in the file: the file goes on (a new file beginning from
    the same head as an empty one would leave two files the chain cannot order)."""
    result, files, _ = _play_over_midnight(tmp_path, hands=2, midnight_after=0)
    assert result.hands == 2
    assert len(files) == 2                               # the first hand stays in the file begun at the start
    first, second = (_lines(path) for path in files)
    assert [e["hand"] for e in first if e["event"] == "hand_end"] == [1]
    assert [e["hand"] for e in second if e["event"] == "hand_end"] == [2]
