"""A tile put back just before a kill: the journal holds the take undone, but the `put_back` line never
reached the file (a line reaches it only behind the journal; the kill came between).  The restarted
controller's `resumed` lists the takes its journal holds; the audit takes the takes the lines show
and the journal does not as undone — only the last ones can be — and reads the hand as played.  It
had counted them still taken: "slot 28/top taken twice", "live/reserve/kongs 82/0/0 should be 79/0/0".

`data/hebei_put_back_lines_cut.jsonl` is that hand's page as the fault campaign left it (seed 48105,
河北 with dead_wall=none and wrong_stack=0.05: a block of the deal lifted off stacks 28–29 and put
back, then the controller killed)."""

import json
from pathlib import Path

from firmware.records.audit import audit_one_hand
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart

PAGE = Path(__file__).parent / "data" / "hebei_put_back_lines_cut.jsonl"


def test_takes_undone_by_tiles_put_back_whose_lines_a_kill_cut_are_read_as_undone():
    page = [json.loads(line) for line in PAGE.read_text(encoding="utf-8").splitlines()]
    at = next(i for i, e in enumerate(page) if e["event"] == "resumed")
    lifted = [(e["ring"], e["layer"]) for e in page[:at] if e["event"] == "take" and not e["in_order"]]
    assert lifted == [(28, "top"), (28, "bottom"), (29, "top")]
    assert not any(e["event"] == "put_back" for e in page[:at])          # their lines were cut
    journaled = [tuple(t[:2]) for t in page[at]["taken"]]
    assert not set(lifted) & set(journaled)                               # the journal had them undone
    assert audit_one_hand(page) == []


def test_a_take_the_journal_lacks_that_no_tile_put_back_could_undo_is_a_problem(tmp_path):
    """Only a hand's last takes are undone by a tile put back: a resumed journal lacking an early one
    contradicts its lines."""
    _, before, after = run(crash_and_restart("hebei", 5, str(tmp_path / "table.db"),
                                             lambda e: e["event"] == "take" and e["hand"] >= 2 and e["reason"] == "draw"),
                           timeout=180)
    number = next(e["hand"] for e in after if e["event"] == "resumed")
    page = [e for e in before + after if e["hand"] == number]
    assert audit_one_hand(page) == []
    resumed = next(e for e in page if e["event"] == "resumed")
    resumed["taken"] = resumed["taken"][1:]                        # the hand's first take, gone from the journal
    found = audit_one_hand(page)
    assert any("the journal lacks the take at 0/top" in p for p in found), found
