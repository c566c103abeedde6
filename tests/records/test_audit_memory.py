"""The audit's memory is bounded by a hand, not by the recorders' size, and it finds what it found
when it held every line of every file.

The audit read each recorder whole and kept every line parsed until the end: about 14 times the
files' size (a 100 MB recorder, a month of an unrestarted table, took 1.5 GB and killed the audit,
or the controller beside it, on a Pi).  It now reads a line at a time and lets each hand go once
it is checked.  The long recorders here are one recorded four-hand 长春 session
(`data/changchun_four_hands.jsonl`, as the simulated table wrote it) played again and again in one
run, with the chain written again as the recorder writes it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import threading
import tracemalloc
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.hand.state import wall_hash
from firmware.records.chain import CLEAN_END, HAND_OPENERS, HAND_SEAL, START, ChainState, canonical
from firmware.records.audit import audit_recorders
from firmware.records.ledger import HandRecord, Ledger
from firmware.records.stream import BadInput, RecorderOnDisk

SESSION = Path(__file__).parent / "data" / "changchun_four_hands.jsonl"


def session_lines() -> list[dict]:
    """The recorded session's lines between its recorder_start and recorder_end."""
    events = [json.loads(line) for line in SESSION.read_text(encoding="utf-8").splitlines()]
    assert events[0]["event"] == START and events[-1]["event"] == CLEAN_END
    return events[1:-1]


def played_again(sessions: int, files: int = 1) -> list[list[dict]]:
    """`sessions` sessions, the recorded one each time (its hands numbered on, its own session number,
    each line's time a step after the last), in `files` runs stopped cleanly between sessions."""
    body = session_lines()
    hands = max(event["hand"] for event in body)
    runs: list[list[dict]] = [[] for _ in range(files)]
    step = 0
    for copy_number in range(sessions):
        run = runs[copy_number * files // sessions]
        for event in copy.deepcopy(body):
            step += 1
            event["t"] = step / 4
            if event["hand"]:
                event["hand"] += copy_number * hands
            if event["event"] == "session_start":
                event["session"] = copy_number + 1
            run.append(event)
        walls(run[-len(body):], copy_number)
    return sealed([[{"event": START, "t": 0.0, "hand": 0}, *run,
                    {"event": CLEAN_END, "t": run[-1]["t"], "hand": 0, "open_hand": 0}] for run in runs])


def walls(events: list[dict], copy_number: int) -> None:
    """Each copy of a hand its own salt, so its own wall hash (the ledger finds a hand by it)."""
    salts = {e["hand"]: hashlib.sha256(f"{e['salt']}{copy_number}".encode()).hexdigest()[:len(e["salt"])]
             for e in events if e["event"] == HAND_SEAL}
    rings = {e["hand"]: e["ring"] for e in events if e["event"] == HAND_SEAL}
    for event in events:
        if event["event"] == HAND_SEAL:
            event["salt"] = salts[event["hand"]]
        elif event["event"] in HAND_OPENERS:
            event["wall_hash"] = wall_hash(salts[event["hand"]], rings[event["hand"]])


def sealed(runs: list[list[dict]]) -> list[list[dict]]:
    """Every chain field written as the recorder writes it, file after file."""
    state = ChainState()
    for run in runs:
        hands = 0
        for event in run:
            name = event["event"]
            if name in (START, HAND_SEAL, CLEAN_END, *HAND_OPENERS):
                event.update(state.fields_for(name))
            if name == CLEAN_END:
                event["hands"] = hands
            hands += int(name == HAND_SEAL)
            state.add(canonical(event), name)
    return runs


def write(folder: Path, runs: list[list[dict]]) -> list[str]:
    names = []
    for number, run in enumerate(runs, start=1):
        (folder / f"run{number}.jsonl").write_text("".join(canonical(e) + "\n" for e in run), encoding="utf-8")
        names.append(f"run{number}.jsonl")
    return names


def ledger_of(path: Path, runs: list[list[dict]]) -> str:
    """The ledger the table kept for these runs: its sessions and its settled hands."""
    ledger = Ledger(path)
    session = 0
    starts = {}
    for event in (e for run in runs for e in run):
        if event["event"] == "session_start":
            session = ledger.start_session(event["ruleset"], event["options"])
        elif event["event"] == "hand_start":
            starts[event["hand"]] = event
        elif event["event"] == HAND_SEAL:
            start = starts[event["hand"]]
            ledger.record_hand(session, HandRecord(event["hand"], start["dealer"], event["result"],
                                                   tuple(event["winners"]), tuple(event["payments"]),
                                                   start["wall_hash"]))
    ledger.close()
    return str(path)


def audit(capsys, *args: str) -> tuple[int, list[str]]:
    status = main(["audit", *args])
    return status, capsys.readouterr().out.splitlines()


# -- the same findings ----------------------------------------------------------------------------------


def test_forty_hands_in_three_files_named_out_of_order_are_sound(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    runs = played_again(10, files=3)
    names = write(tmp_path, runs)
    ledger_of(tmp_path / "table.db", runs)
    status, lines = audit(capsys, names[2], names[0], names[1], "--ledger", "table.db")
    assert status == 0 and lines == [
        "note: run1.jsonl: the files were named out of the order they were written (a file's name holds the clock's "
        "time, which a restart can set back): audited in the order their chain (where it breaks, their hands) gives: "
        "run1.jsonl, run2.jsonl, run3.jsonl",
        "40 hand(s) audited: sound (1 note(s))"]


def tampered(runs: list[list[dict]]) -> list[list[dict]]:
    """A take deleted from hand 14, hand 21's payments changed and its totals with them (the chain not
    written again), a line of hand 38 made malformed, the clock set back in hand 33, and run 2 cut off
    in the middle of hand 26 (the rest of the run lost)."""
    runs = copy.deepcopy(runs)
    first, second, third = runs
    take = next(i for i, e in enumerate(first) if e["hand"] == 14 and e["event"] == "take" and e["reason"] == "draw")
    del first[take]
    for event in second:
        if event["hand"] == 21 and event["event"] == HAND_SEAL:
            event["payments"] = [p + d for p, d in zip(event["payments"], (5, -5, 0, 0))]
            event["totals"] = [p + d for p, d in zip(event["totals"], (5, -5, 0, 0))]
    cut = next(i for i, e in enumerate(second) if e["hand"] == 26 and e["event"] == "take")
    del second[cut:]
    clock = next(e for e in third if e["hand"] == 33 and e["event"] == "take")
    clock["t"] = 1.5
    broken = next(e for e in third if e["hand"] == 38 and e["event"] == "take")
    del broken["live"]
    return runs


# What the audit found in these inputs when it read every file whole (before it read a line at a time):
# the same lines, in the same order.
PROBLEMS = [
    "run3.jsonl:1063: take has no field `live`",
    "run3.jsonl:474: the table clock goes back from 935.25 to 1.5",
    "run1.jsonl:1651: hand 14: `digest` does not match the lines before it: a line was changed, removed, added or "
    "moved",
    "run2.jsonl:595: hand 22: `prev` is not the hash of the hand_end before it: a hand before it was removed, added, "
    "reordered or changed",
    "run3.jsonl:1: the chain does not go on from run2.jsonl: a recorder between them is missing, or its last hands "
    "were changed or removed",
    "run3.jsonl:594: hand 33: `digest` does not match the lines before it: a line was changed, removed, added or moved",
    "run3.jsonl:1185: hand 38: `digest` does not match the lines before it: a line was changed, removed, added or "
    "moved",
    "run3.jsonl:2: a session starts inside hand 26",
    "run1.jsonl:1529: hand 14: a head take at 27/top is out of draw order (expected 26/bottom)",
    "run1.jsonl:1529: hand 14: … and 61 more takes after it out of draw order",
    "run1.jsonl:1529: hand 14: take 56: live/reserve/kongs 61/9/3 should be 62/9/3",
    "run1.jsonl:1529: hand 14: … and 61 more takes miscounted after it",
    "run1.jsonl:1529: hand 14: 荒庄 at the wrong tile: 1 live tiles were left (19 remaining)",
    "run2.jsonl:472: hand 21: hand_end pays [10, -7, -1, -2]; its wins (or the draw) pay [5, -2, -1, -2]",
    "run3.jsonl:1062: hand 38: a head take at 0/bottom is out of draw order (expected 0/top)",
    "run3.jsonl:1062: hand 38: … and 114 more takes after it out of draw order",
    "run3.jsonl:1062: hand 38: take 1: live/reserve/kongs 120/7/0 should be 121/7/0",
    "run3.jsonl:1062: hand 38: … and 116 more takes miscounted after it",
    "run3.jsonl:1062: hand 38: 荒庄 at the wrong tile: 1 live tiles were left (19 remaining)",
    "run2.jsonl:718: hand 22: totals [2, 7, -4, -5] are not the totals before it plus its payments [7, 2, -4, -5]",
]
ENDS = [
    "run2.jsonl:1062: no recorder_end after this line: the file was cut off or the controller died",
    "run2.jsonl:1062: hand 26 never ended: its hand_end is missing (cut off, or the controller stopped mid-hand)",
]
TAMPERED_FINDINGS = PROBLEMS + ENDS + [
    "note: run1.jsonl: the files were named out of the order they were written (a file's name holds the clock's "
    "time, which a restart can set back): audited in the order their chain (where it breaks, their hands) gives: "
    "run1.jsonl, run2.jsonl, run3.jsonl",
    "37 hand(s) audited: 22 problem(s) (1 note(s))",
]
TAMPERED_FINDINGS_WITH_LEDGER = PROBLEMS + [
    "run2.jsonl:594: hand 21: the ledger holds payments [5, -2, -1, -2], the recorder [10, -7, -1, -2]",
    "run2.jsonl:1062: hand 26: the ledger settled it (draw, winners [], payments [-3, 9, -3, -3]) but the recorder "
    "has no hand_end for it",
    "table.db: session 7 hand 27 (win, winners [1], payments [-4, 3, 4, -3]) is in the ledger but not in the recorder",
    "table.db: session 7 hand 28 (draw, winners [], payments [-2, -2, 6, -2]) is in the ledger but not in the recorder",
] + ENDS + [
    "37 hand(s) audited: 26 problem(s)",
]


def test_a_tampered_long_recorder_gives_the_findings_it_gave_when_read_whole(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    runs = played_again(10, files=3)
    ledger_of(tmp_path / "table.db", runs)
    names = write(tmp_path, tampered(runs))
    status, lines = audit(capsys, names[1], names[0], names[2])
    assert status == 1 and lines == TAMPERED_FINDINGS
    status, lines = audit(capsys, *names, "--ledger", "table.db")
    assert status == 1 and lines == TAMPERED_FINDINGS_WITH_LEDGER


# -- bounded memory -------------------------------------------------------------------------------------


def peak_of_audit(capsys, path: str) -> int:
    """The most memory (bytes, Python's allocations) the audit of `path` held at once."""
    tracemalloc.start()
    try:
        status = main(["audit", path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 0, capsys.readouterr()
    return peak


def test_the_audit_of_a_recorder_four_times_as_long_takes_not_much_more_memory(tmp_path, capsys):
    """A hand at a time: 64 hands take hardly more than 16 (the hands' summaries, and the garbage Python
    has not collected yet).  When every line was held, 4 times as much: 4 MB, then 16 MB."""
    short, long = tmp_path / "short", tmp_path / "long"
    short.mkdir(), long.mkdir()
    (short_file,), (long_file,) = write(short, played_again(4)), write(long, played_again(16))
    peak_of_audit(capsys, str(short / short_file))          # (the rules' tables, built once, are not the files')
    small = peak_of_audit(capsys, str(short / short_file))
    large = peak_of_audit(capsys, str(long / long_file))
    assert large < 2 * small, f"{small} bytes for 16 hands, {large} for 64"


# -- files read twice -----------------------------------------------------------------------------------


def two_files(folder: Path) -> list[RecorderOnDisk]:
    """Two runs' files, their facts read (the audit of several files reads them first for the order)."""
    files = [RecorderOnDisk(str(folder / name)) for name in write(folder, played_again(2, files=2))]
    for recorder in files:
        assert recorder.facts.ends_cleanly
    return files


def test_a_file_written_on_after_its_first_read_is_audited_as_far_as_it_was_then(tmp_path):
    """The table writes on at the end of its file while the owner audits it."""
    files = two_files(tmp_path)
    with open(files[1].name, "a", encoding="utf-8") as handle:
        handle.write(canonical({"event": "take", "t": 999.0, "hand": 9, "end": "head", "ring": 0, "layer": "top",
                                "live": 0, "reserve": 0, "kongs": 0, "reason": "draw", "in_order": True}) + "\n")
    report = audit_recorders(files)
    assert report.sound and report.hands == 8, report.problems


@pytest.mark.parametrize("change, says", [
    (lambda path: path.write_bytes(path.read_bytes()[:-10]), "run1.jsonl changed while it was audited"),
    (lambda path: path.write_bytes(path.read_bytes().replace(b'"t":', b'"t" :', 1)),
     "run1.jsonl changed while it was audited"),
    (lambda path: path.unlink(), "run1.jsonl (No such file or directory) while it was audited"),
])
def test_a_file_changed_or_removed_between_its_two_reads_stops_the_audit_in_one_line(tmp_path, change, says):
    files = two_files(tmp_path)
    change(Path(files[0].name))
    with pytest.raises(BadInput) as error:
        audit_recorders(files)
    assert says in str(error.value) and str(error.value).endswith("; audit it again") and "\n" not in str(error.value)


def test_a_pipe_among_several_files_is_read_once_and_its_lines_held(tmp_path):
    """`audit <(zcat old.jsonl.gz) new.jsonl`: a pipe cannot be read twice, as several files are."""
    first, second = two_files(tmp_path)
    reading, writing = os.pipe()
    data = Path(first.name).read_bytes()
    writer = threading.Thread(target=lambda: (os.write(writing, data), os.close(writing)))
    writer.start()
    try:
        report = audit_recorders([RecorderOnDisk(f"/dev/fd/{reading}"), second])
    finally:
        writer.join()
        os.close(reading)
    assert report.sound and report.hands == 8, report.problems
