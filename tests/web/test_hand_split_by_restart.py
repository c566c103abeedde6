"""A hand a restart split between two recorder files is shown whole on its page: its lines from
the first run's `hand_start` to the second run's `hand_end`, and the audit's verdict on all of them
(before: the ledger pointed every hand of a session at the file of the run that began the session,
so every hand settled after a restart read "no longer holds this hand")."""

import asyncio
import json
from pathlib import Path

import pytest

from firmware.records.hand_lines import RecorderUnreadable, hand_lines
from firmware.records.history import History, hand_audit, hand_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.walls import Break
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def stopped_in_hand_2_then_resumed(folder, put_back: bool = False, second_name: str = "20261203-100500-2.jsonl",
                                         between=None):
    """Hand 2 stopped at its 60th take (in play) (the controller cancelled, its file left as a kill leaves
    it), then a new run with a file of its own (`second_name`) resumes it and plays one more hand; with
    `put_back`, a tile is put back on the wall meanwhile, so the new run voids hand 2 as it resumes it."""
    ruleset = get_region("guangshui").resolve()
    table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    people = asyncio.create_task(SimulatedPlayers(table, ruleset, seed=3).run())
    db = str(folder / "table.db")
    first, second = folder / "20261203-100000-1.jsonl", folder / second_name
    takes = []
    try:
        with open(first, "w", encoding="utf-8") as events:
            def on_event(event: dict) -> None:
                if event["hand"] == 2 and event["event"] == "take":
                    takes.append(event)
                    if len(takes) == 60:
                        controller.cancel()
            controller = asyncio.create_task(run_simulated(
                ruleset, hands=None, table=table, players=None, events=events, events_path=str(first),
                ledger_path=db, resume=True, on_event=on_event))
            await asyncio.gather(controller, return_exceptions=True)
        if put_back:
            _put_one_back(table, ruleset, first)
        if between is not None:
            between(db)
        with open(second, "w", encoding="utf-8") as events:
            await run_simulated(ruleset, hands=2, table=table, players=None, events=events, events_path=str(second),
                                ledger_path=db, resume=True)
    finally:
        people.cancel()
        await asyncio.gather(people, return_exceptions=True)
        await table.stop()
    return db


def _put_one_back(table, ruleset, first) -> None:
    """On hand 2's head stack, dealt long before the stop: the journal knew it empty."""
    start = next(e for e in map(json.loads, first.read_text(encoding="utf-8").splitlines())
                 if e["event"] == "hand_start" and e["hand"] == 2)
    head = ruleset.layout.ring(Break(start["break"]["wall"], start["break"]["skip"]))[0]
    table.put_back(head.wall, head.stack, next(iter(table.world.out.values())).uid)


def test_a_hand_voided_as_it_was_resumed_shows_its_lines_to_its_void_end(tmp_path):
    db = run(stopped_in_hand_2_then_resumed(tmp_path, put_back=True), timeout=180)
    hand = next(h for h in History(db).hands() if h.number == 2)
    assert hand.result == "void" and hand.started is not None and hand.started <= hand.finished
    names = [e["event"] for e in hand_events(hand)]
    assert names[0] == "hand_start" and names[-2:] == ["hand_void", "hand_end"] and "resumed" not in names


def test_a_hand_split_by_a_restart_is_read_from_both_files_and_audited_whole(tmp_path):
    db = run(stopped_in_hand_2_then_resumed(tmp_path), timeout=180)
    hands = {hand.number: hand for hand in History(db).hands()}
    assert sorted(hands) == [1, 2, 3] and len({h.session for h in hands.values()}) == 1
    for number, hand in hands.items():
        events = hand_events(hand)
        names = [e["event"] for e in events]
        assert names[0] == "hand_start" and names[-1] == "hand_end", (number, names[:3], names[-3:])
        assert all(e["hand"] == number for e in events)
        assert hand_audit(hand, events) == [], number
    assert all(h.started is not None and h.started <= h.finished for h in hands.values())   # hand 2's from the journal
    split = [e["event"] for e in hand_events(hands[2])]
    assert split.count("resumed") == 1 and split.count("hand_start") == 1       # both files, in order
    assert split.index("hand_start") < split.index("resumed")


def test_a_power_cut_that_set_the_clock_back_still_finds_the_first_run_s_lines(tmp_path):
    """A Pi keeps no time through a power cut: the run after it may start at a time before the run it
    follows, and its file's name sorts first.  The hand's journal lists its files, so its page is
    still read from `hand_start` (by the names alone the first file would never be read)."""
    db = run(stopped_in_hand_2_then_resumed(tmp_path, second_name="20261203-095500-2.jsonl"), timeout=180)
    hands = {hand.number: hand for hand in History(db).hands()}
    split = hands[2]
    assert [Path(p).name for p in split.recorders] == ["20261203-100000-1.jsonl", "20261203-095500-2.jsonl"]
    assert hand_lines(Path(split.events), 2, split.wall_hash)[0]["event"] == "resumed"    # by the names alone
    names = [e["event"] for e in hand_events(split)]
    assert names[0] == "hand_start" and names.count("resumed") == 1 and names[-1] == "hand_end"
    assert hand_audit(split, hand_events(split)) == []
    assert hands[3].recorders == (str(tmp_path / "20261203-095500-2.jsonl"),)


def _as_an_older_controller_journaled_it(db) -> None:
    """The hand in play as a controller before the list of recorder files journaled it."""
    import sqlite3
    with sqlite3.connect(db) as con:
        state = json.loads(con.execute("SELECT value FROM journal WHERE key = 'hand'").fetchone()[0])
        del state["recorders"]
        con.execute("UPDATE journal SET value = ? WHERE key = 'hand'", (json.dumps(state),))
    con.close()


def test_a_hand_an_older_controller_began_is_still_found_by_its_files_names(tmp_path):
    db = run(stopped_in_hand_2_then_resumed(tmp_path, between=_as_an_older_controller_journaled_it), timeout=180)
    split = next(h for h in History(db).hands() if h.number == 2)
    assert split.recorders == ()                    # no list: the page reads the files by their names
    names = [e["event"] for e in hand_events(split)]
    assert names[0] == "hand_start" and names.count("resumed") == 1 and names[-1] == "hand_end"


def test_a_last_line_a_kill_cut_short_is_left_out_and_a_damaged_line_is_named(tmp_path):
    path = tmp_path / "20261203-100000-1.jsonl"
    start = '{"event":"hand_start","hand":1,"wall_hash":"ab"}\n'
    path.write_text(start + '{"event":"take","hand":1,"ring":3}\n{"event":"take","hand":1,"ri', encoding="utf-8")
    assert [e["event"] for e in hand_lines(path, 1, "ab")] == ["hand_start", "take"]
    path.write_text(start + '{"event":"take","hand":1,"ri\n{"event":"take","hand":1,"ring":4}\n', encoding="utf-8")
    with pytest.raises(RecorderUnreadable, match="damaged"):
        hand_lines(path, 1, "ab")
