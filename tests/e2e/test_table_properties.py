"""For each of the 31 regions, the table-level properties its flight recorder must satisfy, across seeds
(issue 11, "Beyond the list"):

- the break from the dice, every indicator at a slot still in the wall at its moment, the 荒庄 tile,
  the reserve after kongs — `firmware.audit` checks each hand;
- the rotation: each `next_dealer` is what the region's rule makes of the hand's winners;
- the simulated players never do what the region forbids: a 吃 where there is none (四川 「不可以吃」),
  a 碰 where there is none (八枝 「不许碰牌」), a 宝 win without 听 (「听牌时可看宝，未听牌者不许看」).

The default suite plays one seed per region; `-m soak` plays many.
"""

import io

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.records.stream import recorder_from_events, split_hands
from firmware.simulated import run_simulated
from rulesets.hand import MeldKind, parse_meld
from rulesets.regions import REGION_IDS, get_region
from rulesets.rotation import HandOutcome
from simulator.players import SimulatedPlayers
from tests.asyncio_support import run

SOAK_SEEDS = range(100, 116)


def play(region_id: str, seed: int, hands: int):
    ruleset = get_region(region_id).resolve()
    events = io.StringIO()
    crews = []

    def players(table, ruleset, seed):
        crews.append(SimulatedPlayers(table, ruleset, seed=seed))
        return crews[-1]

    result = run(run_simulated(ruleset, hands=hands, seed=seed, events=events, players=players), timeout=300)
    assert result.hands == hands
    return ruleset, read_events(events.getvalue().splitlines()), crews[0]


def first_winners(events) -> tuple[int, ...] | None:
    """The seats of the hand's first win: one seat, or the winners of its discard (no take between)."""
    seats: list[int] = []
    discarder = None
    for event in events:
        if seats and event["event"] == "take":
            break
        if event["event"] == "win":
            if seats and (discarder is None or event["from"] != discarder):
                break
            seats.append(event["seat"])
            discarder = event["from"]
    return tuple(seats) or None


def problems_of(ruleset, log, players) -> list[str]:
    problems = list(audit_events(log))
    for hand in split_hands([recorder_from_events("recorder", log)]).hands:
        start, end = hand.first("hand_start"), hand.first("hand_end")
        wins = hand.all("win")
        outcome = HandOutcome(tuple(end["winners"]), wins[0]["from"] if wins else None, first_winners(hand.events))
        rule = ruleset.rotation.next_dealer(start["dealer"], ruleset.players, outcome)
        if end["next_dealer"] != rule:
            problems.append(f"hand {hand.number}: next dealer {end['next_dealer']}, the rotation rule says {rule}")
        ready = set()
        for event in hand.events:
            if event["event"] == "ready":
                ready.add(event["seat"])
            if event["event"] != "win":
                continue
            if any(item["name"] == "宝" for item in event["items"]) and event["seat"] not in ready:
                problems.append(f"hand {hand.number}: seat {event['seat']} won with the 宝 without 听")
            kinds = {parse_meld(m).kind for m in event["melds"]}
            if MeldKind.CHOW in kinds and not ruleset.play.chi:
                problems.append(f"hand {hand.number}: a winning hand shows a 吃, which {ruleset.id} forbids")
            if kinds & {MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG} and not ruleset.play.pong:
                problems.append(f"hand {hand.number}: a winning hand shows a 碰 or claimed kong, which {ruleset.id} forbids")
    if not ruleset.play.chi and players.stats.chows:
        problems.append(f"the players made {players.stats.chows} 吃 in {ruleset.id}")
    if not ruleset.play.pong and players.stats.pungs:
        problems.append(f"the players made {players.stats.pungs} 碰 in {ruleset.id}")
    return problems + [f"players: {e}" for e in players.errors]


@pytest.mark.parametrize("region_id", REGION_IDS)
def test_the_recorder_holds_the_table_properties(region_id):
    ruleset, log, players = play(region_id, seed=7, hands=4)
    assert problems_of(ruleset, log, players) == []


@pytest.mark.soak
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("region_id", REGION_IDS)
def test_the_recorder_holds_the_table_properties_across_many_seeds(region_id):
    problems = []
    for seed in SOAK_SEEDS:
        ruleset, log, players = play(region_id, seed=seed, hands=6)
        problems += [f"seed {seed}: {p}" for p in problems_of(ruleset, log, players)]
    assert problems == []
