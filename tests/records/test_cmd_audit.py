"""`mahjong-table audit`: one line per problem and a summary; exit 0 sound, 1 problems, 2 bad input."""

from __future__ import annotations

import json
from pathlib import Path

from firmware.cli import main
from tests.records.tampering import TAMPERINGS, as_text, restarted


def write(path, events):
    path.write_bytes(as_text(events))
    return str(path)


def test_a_sound_recorder_exits_0_with_its_summary(recorders, tmp_path, capsys):
    events, ledger = recorders["sichuan"]
    assert main(["audit", write(tmp_path / "r.jsonl", events), "--ledger", ledger]) == 0
    assert capsys.readouterr().out == "4 hand(s) audited: sound\n"


def test_problems_are_one_line_each_naming_file_and_line_and_exit_1(recorders, tmp_path, capsys):
    events, _ = recorders["sichuan"]
    path = write(tmp_path / "r.jsonl", TAMPERINGS["the last hand_end cut off"](events))
    assert main(["audit", path]) == 1
    *problems, summary = capsys.readouterr().out.splitlines()
    assert summary == f"3 hand(s) audited: {len(problems)} problem(s)" and problems
    assert all(line.startswith(f"{path}:") for line in problems)


def test_json_for_scripts(recorders, tmp_path, capsys):
    events, _ = recorders["hangzhou"]
    path = write(tmp_path / "r.jsonl", TAMPERINGS["timestamps zeroed"](events))
    assert main(["audit", path, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["sound"] is False and report["hands"] == 4 and report["files"] == [path]
    assert {"where", "text"} == set(report["problems"][0]) and report["problems"][0]["where"].startswith(path + ":")


def test_two_files_of_a_restarted_controller_with_the_ledger_give_a_note(recorders, tmp_path, capsys):
    events, ledger = recorders["guangshui"]
    cut = next(i for i, e in enumerate(events) if e["event"] == "dealt" and e["hand"] == 3) + 1
    first, second = restarted(events, cut)
    paths = [write(tmp_path / "a.jsonl", first), write(tmp_path / "b.jsonl", second)]
    assert main(["audit", *paths]) == 1                                  # the first file is cut off
    assert main(["audit", *paths, "--ledger", ledger]) == 0              # … and the ledger shows nothing was lost
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "4 hand(s) audited: sound (1 note(s))"
    assert out[-2].startswith(f"note: {paths[0]}:") and "the ledger holds exactly this file's hands" in out[-2]


def test_unreadable_input_exits_2_with_one_line(recorders, tmp_path, capsys):
    events, _ = recorders["guangshui"]
    good = write(tmp_path / "r.jsonl", events)
    not_a_recorder = tmp_path / "notes.txt"
    not_a_recorder.write_text("hello\n", encoding="utf-8")
    not_a_ledger = tmp_path / "x.db"
    not_a_ledger.write_bytes(b"not sqlite at all, just text" * 10)
    for argv in (["audit", str(tmp_path / "missing.jsonl")], ["audit", str(not_a_recorder)],
                 ["audit", good, "--ledger", str(tmp_path / "missing.db")], ["audit", good, "--ledger", str(not_a_ledger)],
                 ["audit", good, str(tmp_path / "." / "r.jsonl")]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mahjong-table: error: "), err


def test_a_recorder_copied_with_windows_line_ends_says_so_first(recorders, tmp_path, capsys):
    events, _ = recorders["guangshui"]
    good = Path(write(tmp_path / "r.jsonl", events))
    crlf = tmp_path / "crlf.jsonl"
    crlf.write_bytes(good.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["audit", str(crlf)]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{crlf}: its lines end in CR LF") and "copy recorders as binary files" in first
