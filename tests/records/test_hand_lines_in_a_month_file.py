"""A table left on for a month writes one flight recorder of thousands of hands (a new file only at a
restart).  A hand's page finds the hand's lines without reading the whole file: the bytes read stay
bounded however many hands the file holds, and the lines are those a reading of the whole file finds."""

import io
import json

import pytest

import firmware.records.hand_lines as hand_lines_module
from firmware.records.hand_lines import hand_lines, listed_hand_lines

HANDS = 3000


def month_file(path):
    """A recorder as the table writes it (the envelope first), of HANDS hands with table-level lines
    (hand 0) between them; each hand's wall hash is its number in hex."""
    with open(path, "w", encoding="utf-8") as out:
        out.write('{"event":"recorder_start","t":0.0,"hand":0,"chain":"00","format":3}\n')
        for n in range(1, HANDS + 1):
            out.write(f'{{"event":"hand_start","t":{n}.0,"hand":{n},"wall_hash":"{n:x}","prev":"00"}}\n')
            for ring in range(20):
                out.write(f'{{"event":"take","t":{n}.1,"hand":{n},"ring":{ring},"reason":"draw"}}\n')
            out.write(f'{{"event":"hand_end","t":{n}.9,"hand":{n},"result":"draw","digest":"00"}}\n')
            out.write(f'{{"event":"set_check","t":{n}.95,"hand":0,"build":{n}}}\n')
    return path


class Counted(io.FileIO):
    """A file that counts the bytes read from it (the buffers above it read through it)."""

    read_bytes = 0

    def readinto(self, buffer):
        count = super().readinto(buffer)
        Counted.read_bytes += count or 0
        return count


@pytest.fixture
def counted(monkeypatch):
    def opened(path, mode="r", encoding=None, errors=None):
        raw = io.BufferedReader(Counted(path, "r"))
        return raw if "b" in mode else io.TextIOWrapper(raw, encoding=encoding, errors=errors)
    monkeypatch.setattr(hand_lines_module, "open", opened, raising=False)
    Counted.read_bytes = 0
    return Counted


@pytest.mark.parametrize("number", [1, 3, 30, 1500, HANDS])
def test_a_hands_lines_are_found_reading_a_bounded_part_of_a_month_file(tmp_path, counted, number):
    path = month_file(tmp_path / "20261201-090000-1.jsonl")
    size = path.stat().st_size
    events = listed_hand_lines([path], number, f"{number:x}")
    assert [e["event"] for e in events] == ["hand_start"] + ["take"] * 20 + ["hand_end"]
    assert {e["hand"] for e in events} == {number}
    assert counted.read_bytes < 300_000, f"read {counted.read_bytes} bytes of a {size}-byte file for one hand"
    assert size > 4_000_000


def test_a_file_written_otherwise_is_read_whole_and_finds_the_same(tmp_path):
    """Lines that do not begin as the recorder writes them (no `t`): the file is read whole, as before."""
    path = tmp_path / "20261201-090000-1.jsonl"
    lines = [{"event": "hand_start", "hand": n, "wall_hash": f"{n:x}"} for n in (1, 2, 12)]
    path.write_text("".join(json.dumps(line) .replace(" ", "") + "\n" for line in lines), encoding="utf-8")
    assert [e["hand"] for e in hand_lines(path, 1, "1")] == [1]
    assert [e["hand"] for e in hand_lines(path, 12, "c")] == [12]


def test_records_lists_a_month_file_reading_its_beginning_and_its_end(tmp_path, monkeypatch, capsys):
    """`records list` says which hands each file holds: for a month-long file, from its first lines
    and its last ones (it parsed every line of it: 4 s on a PC for a 96 MB file)."""
    import firmware.records.recorder_files as recorder_files
    from firmware.cli import main

    folder = tmp_path / "events"
    folder.mkdir()
    month_file(folder / "20261201-090000-1.jsonl")
    parsed = []
    loads = json.loads
    monkeypatch.setattr(recorder_files.json, "loads", lambda text, *a, **k: parsed.append(1) or loads(text, *a, **k))
    assert main(["records", "list", "--folder", str(folder)]) == 0
    assert f"hands 1–{HANDS}" in capsys.readouterr().out
    assert len(parsed) < 100, f"{len(parsed)} lines parsed to list one file"
