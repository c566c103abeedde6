"""The facts of a win: recorded whole in the `win` event, checked against the log, scored again.

Every edit here is resealed (the chain written again), so what catches it is the audit's own
reading of the log and the ruleset's scorer, not the hashes."""

from __future__ import annotations

import copy

import pytest

from firmware.hand.win_facts import win_context_from_json, win_context_json
from firmware.records.audit import audit_recorders
from firmware.records.audit_wins import LogFacts
from firmware.records.stream import recorder_from_events
from rulesets.hand import WinContext, parse_meld
from rulesets.tiles import Tile
from tests.records.tampering import reseal


def problems(events) -> list[str]:
    return [p.text for p in audit_recorders([recorder_from_events("w.jsonl", events)]).problems]


def edit_win(events, chosen, edit) -> list[dict]:
    """The first win `chosen` picks, edited, and the chain written again."""
    edited = copy.deepcopy(events)
    win = next((e for e in edited if e["event"] == "win" and chosen(e)), None)
    assert win is not None, "the recorder has no win of the kind this test edits"
    edit(win)
    return reseal(edited)


def test_a_win_context_round_trips_through_json():
    """Every fact comes back — but a private 宝 (the win is written before the hand ends) and the
    prevailing wind (the table does not track it: the default 东 is read back)."""
    context = WinContext(winner=2, dealer=1, discarder=None, win_tile=Tile.parse("5p"), sides=(0, 1, 2, 3),
                         ready_declared=True, kong_replacement=True, last_tile=True,
                         bao_hit=True, consecutive_dealer=2, kongs_by_side=((1, 1, 0), (2, 0, 1)),
                         wilds=(Tile.parse("9m"),), flipped=(Tile.parse("1s"), Tile.parse("3z")),
                         exposed_by_side=((1, (parse_meld("555p"), parse_meld("concealed:1111s"))),),
                         ready_sides=(2, 0), extra=(("finished", (0,)), ("claims", ((1, 2, 3),)), ("fa_shown", 1)))
    data = win_context_json(context)
    assert win_context_from_json(data, winner=2, dealer=1, discarder=None, win_tile=Tile.parse("5p"),
                                 sides=(0, 1, 2, 3)) == context
    hidden = win_context_json(context, private=(Tile.parse("9m"),))
    assert hidden["wilds"] == [] and "prevailing_wind" not in hidden


def test_a_fact_that_would_not_come_back_from_json_is_refused_when_written():
    with pytest.raises(TypeError, match="cannot be recorded"):
        win_context_json(WinContext(extra=(("tile", Tile.parse("1m")),)))


def context(win) -> dict:
    return win["context"]


FACTS = {  # fact → (region, which win, the edit of its context the log contradicts)
    "ready_declared": ("changchun", lambda w: context(w)["ready_declared"], lambda c: c.update(ready_declared=False)),
    # (a 长春 宝 is private, so its wilds are never in the live `wilds`: 杭州's fixed 白板 财神 is public)
    "wilds": ("hangzhou", lambda w: context(w)["wilds"], lambda c: c.update(wilds=[])),
    "ready_sides": ("changchun", lambda w: context(w)["ready_sides"], lambda c: c.update(ready_sides=[])),
    "kongs_by_side": ("guangshui", lambda w: context(w)["kongs_by_side"], lambda c: c.update(kongs_by_side=[])),
    "kong_replacement": ("guangshui", lambda w: w["from"] is None and not context(w)["kong_replacement"],
                         lambda c: c.update(kong_replacement=True)),
    "last_tile": ("guangshui", lambda w: not context(w)["last_tile"], lambda c: c.update(last_tile=True)),
    "extra.finished": ("sichuan", lambda w: context(w)["extra"]["finished"], lambda c: c["extra"].update(finished=[])),
    "extra.fa_shown": ("sichuan", lambda w: True, lambda c: c["extra"].update(fa_shown=c["extra"]["fa_shown"] + 2)),
    "flipped": ("guizhou", lambda w: context(w)["flipped"], lambda c: c.update(flipped=c["flipped"] + ["1m"])),
}


@pytest.mark.parametrize("fact", list(FACTS))
def test_a_recorded_fact_the_log_contradicts_is_caught(recorders, fact):
    region, chosen, edit = FACTS[fact]
    events, _ = recorders[region]
    found = problems(edit_win(events, chosen, lambda win: edit(win["context"])))
    assert any(f"says {fact} =" in p for p in found), found


def test_deleting_the_winners_ready_event_is_caught(recorders):
    events, _ = recorders["changchun"]
    win = next(e for e in events if e["event"] == "win" and context(e)["ready_declared"])
    edited = [e for e in events if not (e["event"] == "ready" and e["hand"] == win["hand"] and e["seat"] == win["seat"])]
    found = problems(reseal(edited))
    assert any("says ready_declared = True, the log shows False" in p for p in found), found


def test_a_hand_changed_in_the_win_event_is_scored_again(recorders):
    events, _ = recorders["hangzhou"]
    def swap_a_tile(win):
        win["tiles"][0] = "1z" if win["tiles"][0] != "1z" else "2z"
    found = problems(edit_win(events, lambda w: True, swap_a_tile))
    assert any("is not a winning hand by the rules" in p or "the scorer gives" in p for p in found), found


def test_hand_end_must_name_the_wins_and_pay_their_sum(recorders):
    events, _ = recorders["sichuan"]
    edited = copy.deepcopy(events)
    end = next(e for e in edited if e["event"] == "hand_end" and len(e["winners"]) > 1)
    end["winners"] = end["winners"][:-1]
    found = problems(reseal(edited))
    assert any("hand_end names the winners" in p for p in found), found


def test_an_unreadable_context_is_one_problem_not_a_traceback(recorders):
    events, _ = recorders["guangshui"]
    found = problems(edit_win(events, lambda w: True, lambda win: context(win).update(kongs_by_side=[["x"]])))
    assert any("cannot be scored again: context.kongs_by_side is malformed" in p for p in found), found


def test_the_audits_bao_dies_with_its_tile_as_the_tables_does():
    """The 宝's tile taken from the wall (a kong's replacement from the tail) ends it until it is
    rolled again (`HandState.on_wall_change`); the audit had kept it, and judged a later self-drawn
    win on the 宝's kind a 宝 hit the table had rightly not paid (campaign 590001, 吉林)."""
    bao = {"event": "indicator", "kind": "bao", "timing": "on_ready", "ring": [67], "layer": ["top"],
           "tile": None, "wilds": None, "effect": "wild", "public": False, "seat": [0]}
    facts = LogFacts()
    facts.see(bao)
    facts.see({"event": "take", "end": "tail", "ring": 67, "layer": "bottom", "reason": "kong"})
    assert facts.bao is bao                          # the other tile of its stack
    facts.see({"event": "take", "end": "tail", "ring": 67, "layer": "top", "reason": "kong"})
    assert facts.bao is None
    again = {**bao, "ring": [66]}
    facts.see(again)                                 # rolled again
    assert facts.bao is again


def test_a_self_drawn_win_right_after_another_seats_kong_replacement_is_caught(recorders):
    """Only the kong's maker has drawn then (the win check no longer offers the others 自摸): a log
    that says otherwise paid a win on a discard as self-drawn."""
    events, _ = recorders["hangzhou"]
    edited = copy.deepcopy(events)
    at = next(i for i, e in enumerate(edited) if e["event"] == "win" and e["from"] is None)
    winner = edited[at]["seat"]
    take = max(i for i in range(at) if edited[i]["event"] == "take")
    maker = next(s for s in (0, 1, 2, 3) if s != winner)
    edited[take].update(reason="kong", end="tail")
    edited.insert(take, {"event": "kong_declared", "t": edited[take]["t"], "hand": edited[take]["hand"], "seat": maker,
                         "concealed": True})
    found = problems(reseal(edited))
    assert any(f"seat {winner}'s win is self-drawn right after seat {maker}'s kong replacement" in p
               for p in found), found
    assert not any("kong replacement: only" in p for p in problems(events))


def test_a_self_drawn_win_on_a_tile_drawn_past_the_live_wall_is_caught(recorders):
    """The win check offers no 自摸 on a head draw out of order that left no live tile (a draw into
    the reserve): a log that shows one paid a win nobody could make."""
    events, _ = recorders["hangzhou"]
    edited = copy.deepcopy(events)
    at = next(i for i, e in enumerate(edited) if e["event"] == "win" and e["from"] is None)
    take = max(i for i in range(at) if edited[i]["event"] == "take")
    edited[take].update(end="head", in_order=False, live=0)
    found = problems(reseal(edited))
    assert any("self-drawn on a tile taken out of draw order" in p for p in found), found
    assert not any("out of draw order" in p for p in problems(events))


def test_a_win_on_a_discard_of_a_seat_out_of_play_is_caught(recorders):
    """血战: a seat that won discards no more (the win check no longer offers it as the discarder)."""
    events, _ = recorders["sichuan"]
    wins = [e for e in events if e["event"] == "win"]
    first, later = next((a, b) for a in wins for b in wins if a["hand"] == b["hand"] and a["t"] < b["t"]
                        and b["from"] not in (None, a["seat"]) and b["seat"] != a["seat"])
    found = problems(edit_win(events, lambda w: w["hand"] == later["hand"] and w["t"] == later["t"],
                              lambda w: w.update({"from": first["seat"]})))
    assert any(f"on a discard of seat {first['seat']}, which had won and was out of play" in p for p in found), found
    assert not any("out of play" in p for p in problems(events))


def test_the_audits_kongs_lapse_as_the_tables_do():
    facts = LogFacts()
    for event in ({"event": "kong_declared", "seat": 1, "concealed": False},
                  {"event": "take", "end": "head", "ring": 5, "layer": "top", "reason": "draw"},
                  {"event": "kong_lapsed", "seat": 1},
                  {"event": "kong_declared", "seat": 3, "concealed": False},
                  {"event": "take", "end": "tail", "ring": 67, "layer": "top", "reason": "kong"}):
        facts.see(event)
    assert facts.kongs == {3: [False]} and facts.replaced_for == 3


def test_a_kong_replacement_read_back_from_the_sensors_names_nobody_as_the_last_to_draw():
    facts = LogFacts()
    facts.see({"event": "kong_declared", "seat": 0, "concealed": False})
    facts.see({"event": "take", "end": "tail", "ring": 67, "layer": "top", "reason": "kong", "unseen": True})
    assert facts.kongs == {0: [False]} and facts.replaced_for is None
