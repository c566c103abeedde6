"""A fuzz-like sweep over mutated recorders: every line deleted, duplicated and truncated, fields
removed and their types changed.  Each mutated recorder gives a report (or, when nothing in it is an
event, a one-line BadInput) — never an exception — and every real change is a problem.  The only
change that may stay sound is the clock reading of the very last line (nothing after it hashes it).
The default suite sweeps a one-hand recorder (every field of the first event of each kind); the
soak suite every field of every line of one-hand recorders of four regions, and every line of their
four-hand recorders."""

from __future__ import annotations

import json
from typing import Iterator

import pytest

from firmware.records.audit import audit_recorders
from firmware.records.chain import canonical
from firmware.records.stream import BadInput, read_recorder, recorder_from_events
from tests.records.conftest import REGIONS
from tests.records.tampering import play

WRONG = [None, "x", -1, [], {}]
MORE_WRONG = WRONG + [True, 0, 10 ** 6, 1.5, "", [[]], ["x"], [1], {"a": 1}, "0" * 64]


def mutations(lines: list[str], field_lines: list[int], values: list) -> Iterator[tuple[str, list[str], int]]:
    """(what was done, the mutated lines, the index of the line changed)."""
    for i, line in enumerate(lines):
        yield f"line {i + 1} deleted", lines[:i] + lines[i + 1:], i
        yield f"line {i + 1} duplicated", lines[:i + 1] + lines[i:], i
        yield f"line {i + 1} truncated", lines[:i] + [line[:len(line) // 2]] + lines[i + 1:], i
    for i in field_lines:
        event = json.loads(lines[i])
        for key in event:
            removed = {k: v for k, v in event.items() if k != key}
            yield f"line {i + 1} without {key}", lines[:i] + [canonical(removed)] + lines[i + 1:], i
            for value in values:
                if value != event[key] or type(value) is not type(event[key]):
                    changed = {**event, key: value}
                    yield f"line {i + 1} {key}={value!r}", lines[:i] + [canonical(changed)] + lines[i + 1:], i


def sweep(lines: list[str], field_lines: list[int], values: list) -> int:
    tried = 0
    for what, mutated, index in mutations(lines, field_lines, values):
        tried += 1
        data = "".join(line + "\n" for line in mutated).encode()
        try:
            recorder = read_recorder("m.jsonl", data)
        except BadInput as error:
            assert "m.jsonl:" in str(error) and "\n" not in str(error), what
            continue
        report = audit_recorders([recorder])
        harmless = index == len(lines) - 1 and what.startswith(f"line {index + 1} t=")
        assert not report.sound or harmless, f"{what} went unnoticed"
        for finding in recorder.malformed:                          # a malformed line is named, with its line
            assert finding.where.startswith("m.jsonl:") and finding in report.problems
    return tried


def first_of_each_kind(lines: list[str]) -> list[int]:
    seen: dict[str, int] = {}
    for i, line in enumerate(lines):
        seen.setdefault(json.loads(line)["event"], i)
    return sorted(seen.values())


def test_mutated_one_hand_recorders_give_problems_never_exceptions():
    lines = [canonical(e) for e in play("guangshui", hands=1, seed=2)]
    assert sweep(lines, first_of_each_kind(lines), WRONG) > 500


def test_a_malformed_line_is_one_problem_naming_its_file_and_line():
    lines = [canonical(e) for e in play("guangshui", hands=1, seed=2)]
    start = next(i for i, line in enumerate(lines) if '"hand_start"' in line)
    broken = {**json.loads(lines[start]), "dice": "six"}
    lines[start] = canonical(broken)
    lines.insert(3, "{not json")
    report = audit_recorders([read_recorder("r.jsonl", "".join(line + "\n" for line in lines).encode())])
    texts = [str(p) for p in report.problems]
    assert "r.jsonl:4: not JSON (Expecting property name enclosed in double quotes at column 2)" in texts
    assert f"r.jsonl:{start + 2}: hand_start: `dice` should be a list of a list of an integer, not 'six'" in texts


@pytest.mark.parametrize("field, value, says", [
    ("ruleset", "atlantis", "hand 1: unknown ruleset 'atlantis'; choose one of:"),
    ("options", {"no_such_option": "x"}, "hand 1: "),
])
def test_an_unknown_ruleset_or_option_is_one_problem_at_its_hand(field, value, says):
    events = play("guangshui", hands=1, seed=2)
    start = next(e for e in events if e["event"] == "hand_start")
    start[field] = value
    report = audit_recorders([recorder_from_events("o.jsonl", events)])
    found = [str(p) for p in report.problems if p.where == f"o.jsonl:{events.index(start) + 1}"]
    assert len(found) == 1 and found[0].startswith(f"o.jsonl:{events.index(start) + 1}: {says}"), report.problems


@pytest.mark.parametrize("kind, field, value", [
    ("hand_start", "repeats", None),       # the 连庄 count, added to once the hand's end is read
    ("hand_end", "ring", []),              # the wall 长春's special kongs are checked against
])
def test_a_tampered_count_or_wall_is_a_problem_not_an_exception(kind, field, value):
    """Found by the soak sweep (every field of every line): both stopped the audit with a TypeError and
    an IndexError."""
    events = play("changchun", hands=1, seed=2)
    line = next(e for e in events if e["event"] == kind)
    line[field] = value
    report = audit_recorders([recorder_from_events("c.jsonl", events)])
    assert not report.sound


def test_a_file_with_no_event_at_all_is_bad_input_naming_its_first_line():
    with pytest.raises(BadInput, match=r"^x.jsonl:2: not JSON .*; is x.jsonl a flight recorder\?$"):
        read_recorder("x.jsonl", b"\nnot json\n[1, 2]\n")


def test_a_line_that_is_not_utf8_is_a_problem_at_its_line():
    lines = [canonical(e).encode() for e in play("guangshui", hands=1, seed=2)]
    lines[5] = b"\xff\xfe" + lines[5]
    report = audit_recorders([read_recorder("u.jsonl", b"\n".join(lines) + b"\n")])
    assert "u.jsonl:6: not UTF-8 text" in [str(p) for p in report.problems]


@pytest.mark.soak
@pytest.mark.parametrize("region", REGIONS)
def test_every_field_of_every_line_mutated(region):
    lines = [canonical(e) for e in play(region, hands=1, seed=2)]
    assert sweep(lines, list(range(len(lines))), MORE_WRONG) > 5_000


@pytest.mark.soak
@pytest.mark.parametrize("region", REGIONS)
def test_every_line_of_a_four_hand_recorder_deleted_duplicated_truncated(recorders, region):
    events, _ = recorders[region]
    lines = [canonical(e) for e in events]
    assert sweep(lines, [], []) == 3 * len(lines)


def test_a_last_line_a_kill_cut_short_is_a_note_not_a_problem():
    """Campaign 55570 (南京, a power cut): the kernel writes a page at a time, and a SIGKILL between two
    pages left the recorder's last line half written (the file 102,400 bytes long).  The chain that
    follows leaves such a line out (`chain_tail`); the audit called it a malformed line, and the run
    unsound.  It is a note now; the same file without the torn tail has the same problems."""
    lines = [canonical(e) for e in play("guangshui", hands=1, seed=2)]
    whole = "".join(line + "\n" for line in lines[:-3]).encode()
    torn = whole + lines[-3].encode()[:40]
    cut = audit_recorders([read_recorder("k.jsonl", torn)])
    clean = audit_recorders([read_recorder("k.jsonl", whole)])
    assert [str(p) for p in cut.problems] == [str(p) for p in clean.problems]
    assert [str(n) for n in cut.notes] == [f"k.jsonl:{len(lines) - 2}: its last line (40 bytes) has no end: a write "
                                           "cut short by a kill or a power cut, left out"]
    middle = whole.replace(b"\n", b"", 1)            # a line without its end inside the file stays a problem
    assert any("not JSON" in str(p) for p in audit_recorders([read_recorder("k.jsonl", middle)]).problems)
