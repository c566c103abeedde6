"""Statistics over seeds: in every one of the 31 regions the simulated players win, play into 荒庄
and make kongs, with no rule broken (the in-process referee of test_players_referee.py plays the
controller's part; no serial link).

The default suite plays a few hands per region in two temperaments (lively: no careful hands,
pungs kept for kongs; careful: every hand played safe into 荒庄).  The soak plays the default
style, 20 hands a seed over three seeds, and wants all three outcomes in each region.
"""

from __future__ import annotations

import pytest

from rulesets.regions import REGION_IDS
from simulator.players import PlayStyle
from tests.asyncio_support import run
from tests.simulator.test_players_referee import referee_hands

LIVELY = PlayStyle(defensive=0.0, keep_pairs=1.0, kong=1.0, pong=1.0)
CAREFUL = PlayStyle(defensive=1.0, keep_pairs=1.0, kong=1.0)


def play(region: str, seed: int, hands: int, style: PlayStyle | None = None) -> dict[str, int]:
    referee, players = run(referee_hands(region, seed=seed, hands=hands, style=style), timeout=240)
    assert referee.violations == [], referee.violations[:3]
    assert players.errors == [], players.errors[:3]
    assert all(w.legal for h in referee.hands for w in h.wins)
    results = [h.result for h in referee.hands]
    return {"wins": results.count("win"), "draws": results.count("draw"),
            "kongs": sum(1 for h in referee.hands if h.kongs)}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("region", REGION_IDS)
def test_every_region_sees_wins_draws_and_kongs(region):
    """A few hands at a time (a new table and seed each time) until each outcome has been seen."""
    seen = {"wins": 0, "draws": 0, "kongs": 0}
    seed = 1
    while not (seen["wins"] and seen["kongs"]) and seed <= 6:
        for key, value in play(region, seed=seed, hands=3, style=LIVELY).items():
            seen[key] += value
        seed += 1
    while not seen["draws"] and seed <= 10:
        seen["draws"] += play(region, seed=seed, hands=2, style=CAREFUL)["draws"]
        seed += 1
    assert seen["wins"] and seen["draws"] and seen["kongs"], seen


@pytest.mark.soak
@pytest.mark.timeout(900)
@pytest.mark.parametrize("region", REGION_IDS)
def test_soak_twenty_hands_a_seed_with_the_default_style(region):
    seen = []
    for seed in (2, 3, 4):
        seen.append(play(region, seed=seed, hands=20))
    print(region, seen)
    assert all(s["wins"] and s["draws"] and s["kongs"] for s in seen), seen
