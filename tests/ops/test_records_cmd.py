"""`mahjong-table records`: the recorders on the card, and moving old ones off it — never a file the
table still needs (its last run's, or one holding lines of the hand in play), and never before the
copy has been read back the same."""

from __future__ import annotations

import json
import os
import stat
from datetime import datetime

import pytest

from firmware.cli import main
from firmware.records.ledger import Ledger


def _at(day: str) -> float:
    return datetime.fromisoformat(f"{day}T12:00:00").timestamp()


@pytest.fixture
def card(tmp_path):
    """Three recorders written on three days; the journal names the newest as the last run's file and
    the middle one as holding lines of the hand in play."""
    events = tmp_path / "events"
    events.mkdir()
    files = {}
    for name, day, hands in (("20260101-090000-11.jsonl", "2026-01-01", (1, 7)),
                             ("20260301-090000-12.jsonl", "2026-03-01", (8, 9)),
                             ("20260501-090000-13.jsonl", "2026-05-01", (9, 12))):
        path = events / name
        path.write_text("".join(json.dumps({"event": "take", "hand": n}) + "\n" for n in range(hands[0], hands[1] + 1)),
                        encoding="utf-8")
        os.chmod(path, 0o600)
        os.utime(path, (_at(day), _at(day)))
        files[day] = path
    ledger = Ledger(tmp_path / "table.db")
    ledger.journal_put("recorder", {"path": str(files["2026-05-01"])})
    ledger.journal_put("hand", {"number": 9, "recorders": [str(files["2026-03-01"]), str(files["2026-05-01"])]})
    ledger.close()
    return tmp_path, files


def _records(tmp_path, *args):
    return main(["records", *args, "--folder", str(tmp_path / "events"), "--db", str(tmp_path / "table.db")])


def test_the_list_says_what_each_file_holds_and_which_the_table_still_needs(card, capsys):
    tmp_path, files = card
    assert _records(tmp_path) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("20260101-090000-11.jsonl") and "hands 1–7" in out[0] and "kept" not in out[0]
    assert "(kept: it holds lines of the hand in play)" in out[1]
    assert "(kept: the table's last run writes it)" in out[2]
    assert out[3].startswith("3 recorder(s) in ") and "could be moved off the card" in out[3]
    assert _records(tmp_path, "--json") == 0
    listed = json.loads(capsys.readouterr().out)["files"]
    assert [(f["name"], f["hands"], f["needed"] is None) for f in listed] == [
        ("20260101-090000-11.jsonl", [1, 7], True), ("20260301-090000-12.jsonl", [8, 9], False),
        ("20260501-090000-13.jsonl", [9, 12], False)]


def test_move_takes_only_old_files_the_table_no_longer_needs_and_checks_each_copy(card, tmp_path, capsys):
    tmp_path, files = card
    stick = tmp_path / "stick"
    stick.mkdir()
    old = files["2026-01-01"].read_bytes()
    assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(stick), "--dry-run") == 0
    assert "would move 20260101-090000-11.jsonl" in capsys.readouterr().out and files["2026-01-01"].exists()
    assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(stick)) == 0
    out = capsys.readouterr().out
    assert "moved 20260101-090000-11.jsonl" in out
    assert "kept 20260301-090000-12.jsonl: it holds lines of the hand in play" in out
    assert "kept 20260501-090000-13.jsonl: the table's last run writes it" in out
    copy = stick / "20260101-090000-11.jsonl"
    assert not files["2026-01-01"].exists() and copy.read_bytes() == old
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert files["2026-03-01"].exists() and files["2026-05-01"].exists()


@pytest.mark.parametrize("args, words", [
    (["move", "--to", "STICK"], "needs --before YYYY-MM-DD and --to DIR"),
    (["move", "--before", "June", "--to", "STICK"], "--before: day 'June': give a date as YYYY-MM-DD"),
    (["move", "--before", "2026-06-01", "--to", "NOWHERE"], "not a folder you can write in"),
    (["move", "--before", "2026-06-01", "--to", "EVENTS"], "is the recorders' folder itself"),
    (["move", "--before", "0001-01-01", "--to", "STICK"], "--before: day '0001-01-01': out of the clock's range"),
    (["move", "--before", "9999-12-31", "--to", "STICK"], "--before: day '9999-12-31': out of the clock's range"),
])
def test_a_wrong_move_is_one_line_and_moves_nothing(card, capsys, args, words):
    tmp_path, files = card
    (tmp_path / "stick").mkdir()
    places = {"STICK": str(tmp_path / "stick"), "NOWHERE": str(tmp_path / "nowhere"), "EVENTS": str(tmp_path / "events")}
    assert _records(tmp_path, *[places.get(a, a) for a in args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1
    assert all(path.exists() for path in files.values())


def test_a_ledger_that_cannot_be_read_moves_nothing(card, capsys):
    tmp_path, files = card
    (tmp_path / "table.db").write_bytes(b"not a database" * 100)
    for extra in ("table.db-wal", "table.db-shm"):
        (tmp_path / extra).unlink(missing_ok=True)
    (tmp_path / "stick").mkdir()
    assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(tmp_path / "stick")) == 2
    err = capsys.readouterr().err
    assert "cannot read the table's journal" in err
    assert "name another ledger" in err and "with --db" not in err      # (it was named with --db)
    assert all(path.exists() for path in files.values())


def test_a_move_stopped_part_way_leaves_no_copy_and_the_next_move_goes(card, monkeypatch, capsys):
    """Ctrl-C during the copy: the half-written copy is removed (it blocked the next move as "moved
    there before"), the original stays whole."""
    import shutil
    from firmware.records import recorder_files

    tmp_path, files = card
    stick = tmp_path / "stick"
    stick.mkdir()
    old = files["2026-01-01"].read_bytes()
    real_copy = shutil.copyfile

    def stopped_part_way(source, target):
        with open(source, "rb") as src, open(target, "wb") as dst:
            dst.write(src.read(10))
        raise KeyboardInterrupt

    monkeypatch.setattr(recorder_files.shutil, "copyfile", stopped_part_way)
    assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(stick)) == 130
    assert list(stick.iterdir()) == [] and files["2026-01-01"].read_bytes() == old
    monkeypatch.setattr(recorder_files.shutil, "copyfile", real_copy)
    capsys.readouterr()
    assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(stick)) == 0
    assert "moved 20260101-090000-11.jsonl" in capsys.readouterr().out
    assert (stick / "20260101-090000-11.jsonl").read_bytes() == old and not files["2026-01-01"].exists()


def test_a_hand_whose_recorder_was_moved_off_says_so_on_its_page(tmp_path):
    from firmware.records.history import History, HistoryError, hand_events
    from firmware.records.ledger import HandRecord

    ledger = Ledger(tmp_path / "table.db", events=str(tmp_path / "events" / "gone.jsonl"))
    session = ledger.start_session("changchun", {})
    ledger.record_hand(session, HandRecord(1, 0, "draw", (), (0, 0, 0, 0), "ab" * 32,
                                           recorders=(str(tmp_path / "events" / "gone.jsonl"),)))
    ledger.close()
    hand = History(tmp_path / "table.db").hands()[0]
    with pytest.raises(HistoryError, match=r"its recorder gone.jsonl is no longer in its folder \(moved off the card"):
        hand_events(hand)


def test_without_its_ledger_nothing_moves(card, capsys):
    """Which files the table still needs is in its ledger's journal: with none found, a move is refused
    (the file a table is writing would go, and the rest of its run's evidence with it)."""
    tmp_path, files = card
    (tmp_path / "stick").mkdir()
    args = ["records", "move", "--folder", str(tmp_path / "events"), "--db", str(tmp_path / "nowhere.db"),
            "--before", "2026-06-01", "--to", str(tmp_path / "stick")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "no ledger at" in err and "--db FILE" in err and err.count("\n") == 1
    assert main([*args, "--dry-run"]) == 0
    assert "without it a move is refused" in capsys.readouterr().out
    assert all(path.exists() for path in files.values())


def test_a_file_a_running_program_is_writing_is_kept_whatever_the_ledger_says(card, capsys):
    """A simulated run, or a table started with another state folder, writes a recorder its ledger
    does not name: the file held open is kept."""
    tmp_path, files = card
    stick = tmp_path / "stick"
    stick.mkdir()
    with open(files["2026-01-01"], "a", encoding="utf-8") as writing:
        assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(stick)) == 0
        out = capsys.readouterr().out
        assert f"kept 20260101-090000-11.jsonl: a running program (pid {os.getpid()}," in out
        writing.write("\n")
    assert files["2026-01-01"].exists() and not (stick / "20260101-090000-11.jsonl").exists()


def test_a_folder_named_like_a_recorder_is_listed_as_none_and_not_moved(card, capsys):
    """A folder `old.jsonl` was listed as a recorder of 4 KB holding no hand, and counted as movable;
    then left out without a word. It is listed as what it is, counted as nothing, and never moved."""
    tmp_path, _ = card
    (tmp_path / "events" / "old.jsonl").mkdir()
    os.utime(tmp_path / "events" / "old.jsonl", (_at("2026-01-02"), _at("2026-01-02")))
    assert _records(tmp_path, "--json") == 2
    listed = {f["name"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert listed["old.jsonl"]["unreadable"] == "not a recorder: a folder" and listed["old.jsonl"]["bytes"] == 0
    (tmp_path / "stick").mkdir()
    assert _records(tmp_path, "move", "--before", "2026-06-01", "--to", str(tmp_path / "stick")) == 1
    assert "not moved old.jsonl: not a recorder: a folder; it stays on the card" in capsys.readouterr().out
    assert (tmp_path / "events" / "old.jsonl").is_dir() and not (tmp_path / "stick" / "old.jsonl").exists()


def _unreadable(monkeypatch, path) -> None:
    """`path` as a user who may not read it finds it: mode 000 (and, as root, whom no mode stops, the
    refusal made by Path.open, as the kernel makes it for anyone else)."""
    os.chmod(path, 0)
    if os.geteuid() == 0:
        real_open = type(path).open

        def refuse(self, *args, **kwargs):
            if self == path:
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        monkeypatch.setattr(type(path), "open", refuse)


def test_a_recorder_the_user_cannot_read_is_listed_with_the_reason_and_the_status_says_so(card, monkeypatch, capsys):
    """A recorder of mode 000 was listed as holding no hand, exit 0: its owner could not tell a file was
    there that could not be read. It is listed with the reason, and the exit status is 2 with one line,
    as `audit` does for a file it cannot read."""
    tmp_path, files = card
    _unreadable(monkeypatch, files["2026-01-01"])
    assert _records(tmp_path) == 2
    out, err = capsys.readouterr()
    line = next(row for row in out.splitlines() if row.startswith("20260101-090000-11.jsonl"))
    assert "no hand" not in line and "(unreadable: permission denied — run records as the table's user" in line
    assert out.splitlines()[-1].startswith("2 recorder(s) in ") and "1 file(s) could not be read" in out
    assert err.count("\n") == 1 and "1 file(s) in " in err and "could not be read as recorders" in err
    assert _records(tmp_path, "--json") == 2
    listed = json.loads(capsys.readouterr().out)["files"]
    assert listed[0]["unreadable"].startswith("unreadable: permission denied") and listed[0]["hands"] is None
    assert all(f["unreadable"] is None for f in listed[1:])


def test_a_file_of_no_recorder_lines_is_listed_as_not_a_recorder(card, capsys):
    """Garbage named like a recorder (random bytes, a text) was listed as a recorder holding no hand. An
    empty file is a recorder just begun, holding no hand."""
    tmp_path, _ = card
    (tmp_path / "events" / "notes.jsonl").write_text("bought a new card\nlast hand was mine\n")
    (tmp_path / "events" / "new.jsonl").write_text("")
    assert _records(tmp_path) == 2
    out = capsys.readouterr().out.splitlines()
    assert "(not a recorder: not one of its 2 line(s) is a recorder's event)" in next(
        row for row in out if row.startswith("notes.jsonl"))
    assert "no hand" in next(row for row in out if row.startswith("new.jsonl"))


@pytest.mark.parametrize("args, words", [
    (("--before", "2020-01-01"), "--before is for records move"),
    (("--dry-run",), "--dry-run is for records move"),
    (("move", "--before", "2020-01-01", "--to", "x", "--json"), "--json is for records list"),
])
def test_a_flag_of_the_other_action_is_refused_not_left_out(card, capsys, args, words):
    tmp_path, _ = card
    assert _records(tmp_path, *args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


def test_a_list_without_its_ledger_says_which_files_are_needed_is_not_known(card, capsys):
    """Without the ledger the list said "… could be moved off the card", and its JSON `needed: null` for
    every file, as if none were needed; a move is refused then."""
    tmp_path, _ = card
    assert main(["records", "--folder", str(tmp_path / "events"), "--db", str(tmp_path / "none.db")]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "which of them the table still needs is not known" in last and "none can be moved" in last
    assert main(["records", "--folder", str(tmp_path / "events"), "--db", str(tmp_path / "none.db"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ledger"] is None
    assert main(["records", "--folder", str(tmp_path / "events"), "--db", str(tmp_path / "table.db"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ledger"] == str(tmp_path / "table.db")


def test_a_file_nested_too_deep_is_listed_without_a_traceback(card, capsys):
    """A damaged recorder line of 100,000 nested brackets stopped `records` with a RecursionError and
    twenty lines of traceback (a probe); the audit already said it in one line. It is a damaged line."""
    tmp_path, _ = card
    deep = tmp_path / "events" / "20260601-090000-14.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n" + json.dumps({"event": "take", "hand": 13}) + "\n")
    assert _records(tmp_path) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith(deep.name))
    assert "hands 13" in line
