"""The journal's rows encoded a batch at a time (EncodedRows) or the few kept together (LastRows):
whatever the order of takes, writes and takes taken back, the text is the rows encoded whole."""

import random

from firmware.hand.tracker import EncodedRows, LastRows, compact_json


def _row(n: int) -> dict:
    return {"n": n, "slot": [n % 7, "top" if n % 2 else "bottom"], "tile": None if n % 5 == 0 else f"{n % 9 + 1}m"}


def test_takes_text_is_the_rows_encoded_whole_through_writes_and_takes_taken_back():
    rng = random.Random(7)
    rows: EncodedRows[dict] = EncodedRows(dict)
    made = 0
    for _ in range(2000):
        step = rng.random()
        if step < 0.6:
            rows.append(_row(made))
            made += 1
        elif step < 0.75 and len(rows):
            rows.pop()                  # a tile put back: its take undone, perhaps one already written
        else:
            assert rows.text() == compact_json(rows.json())
    assert rows.text() == compact_json(rows.json())


def test_a_journal_read_back_encodes_as_written():
    written = [_row(n) for n in range(12)]
    assert EncodedRows(dict, written).text() == compact_json(written)


def test_the_last_rows_kept_encode_as_the_window():
    rows: LastRows[list] = LastRows(list, 3)
    for n in range(5):
        rows.append([n, n + 1])
    rows.replace_last([9, 9])
    assert rows.text() == compact_json([[2, 3], [3, 4], [9, 9]]) and rows.pop() == [9, 9]
    assert rows.text() == "[[2,3],[3,4]]"
