"""南昌 精分 of every side (jing_settlement=all_sides, the default): after a win every other seat lays
its hand in the settlement round and collects its own 精分 from each other side.  Before, the option
changed nothing at the table: only the winner's 精 were ever paid (the others' counts were a fact
the table never had)."""

import io

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.hand import Hand
from rulesets.regions import get_region
from rulesets.rounds import RoundContext, SeatShown, judge_round
from rulesets.tiles import Tile
from tests.asyncio_support import run


def played(options: dict) -> list[dict]:
    events = io.StringIO()
    run(run_simulated(get_region("nanchang").resolve(options), hands=6, seed=2, events=events), timeout=180)
    return read_events(events.getvalue().splitlines())


def test_every_side_collects_its_jing_in_a_settlement_round_and_the_option_takes_it_away():
    every = played({})
    rounds = [e for e in every if e["event"] == "settlement"]
    wins = [e for e in every if e["event"] == "hand_end" and e["result"] == "win"]
    assert wins and len(rounds) == len(wins) and any(any(r["payments"]) for r in rounds)
    assert audit_events(every) == []
    winner_only = played({"jing_settlement": "winner_only"})
    assert not any(e["event"] == "settlement" for e in winner_only) and audit_events(winner_only) == []


def test_the_round_pays_each_laid_hand_s_jing_from_each_other_side():
    """正精 2, 副精 1 a copy (RESEARCH.md §3.7): side 2 holds two 正精 (4) and side 3 one 副精 (1)."""
    ruleset = get_region("nanchang").resolve()
    zheng, fu = Tile.parse("5m"), Tile.parse("6m")
    shown = (SeatShown(1, Hand.parse("123p456p789s11s22z", [])), SeatShown(2, Hand.parse("5m5m1p2p3p4s5s6s7s8s9s1z1z", [])),
             SeatShown(3, Hand.parse("6m2p3p4p4s5s6s7s8s9s1z1z1z", [])))
    result = judge_round(ruleset, RoundContext(0, (0, 1, 2, 3), (0,), shown, (), (zheng, fu)))
    assert result.settlement.payments == (-4 - 1, -4 - 1, 3 * 4 - 1, 3 * 1 - 4)


def test_the_flipped_jing_is_set_aside_and_nobody_draws_it():
    """RESEARCH.md §3.7: 正精 is the flipped kind's *remaining 3 copies* (7 精 in all).  The flipped tile
    stayed in play at the next head position, and the first seat to draw took a publicly known 精."""
    log = played({})
    for hand in {e["hand"] for e in log if e["event"] == "hand_start"}:
        flipped = {(r, layer) for e in log if e["hand"] == hand and e["event"] == "indicator"
                   for r, layer in zip(e["ring"], e["layer"])}
        drawn = {(e["ring"], e["layer"]) for e in log if e["hand"] == hand and e["event"] == "take"
                 and e["reason"] in ("draw", "kong")}
        assert flipped and not flipped & drawn, hand
