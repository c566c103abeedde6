"""The players' shortcuts count what the plain way counts: a part's options shared between parts
that differ only by empty ranks (or, for honours, by order), seven pairs counted from one tally
per hand, and the distance after a claim's discard worked out in one pass."""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from rulesets.regions import get_region
from rulesets.tiles import Tile
from rulesets.winning import Shapes
from simulator.players import PlayStyle
from simulator.players.brain import Brain
from simulator.players.rules import RegionPlay
from simulator.players.shanten import FAR, Parts, Shanten
from tests.simulator.test_players_parts import player_with


@lru_cache(maxsize=None)
def _options(counts: tuple[int, ...], runs: bool, may_pair: bool) -> set[tuple[int, int, int]]:
    """Every (melds, partial melds, pair) reading of one part, not pruned: by brute force."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return {(0, 0, 0)}
    found: set[tuple[int, int, int]] = set()
    n = len(counts)
    groups = [((i,), (0, 0, 0), may_pair)]
    if counts[i] >= 3:
        groups.append(((i, i, i), (1, 0, 0), may_pair))
    if counts[i] >= 2:
        groups.append(((i, i), (0, 1, 0), may_pair))
        if may_pair:
            groups.append(((i, i), (0, 0, 1), False))
    if runs:
        groups += [(take, gain, may_pair) for take, gain in
                   (((i, i + 1, i + 2), (1, 0, 0)), ((i, i + 1), (0, 1, 0)), ((i, i + 2), (0, 1, 0)))
                   if all(k < n and counts[k] >= take.count(k) for k in take)]
    for take, gain, pair_left in groups:
        rest = list(counts)
        for k in take:
            rest[k] -= 1
        for m, t, p in _options(tuple(rest), runs, pair_left):
            found.add((m + gain[0], t + gain[1], p + gain[2]))
    return found


def _pareto(options: set[tuple[int, int, int]]) -> tuple[tuple[int, int, int], ...]:
    return tuple(sorted(o for o in options
                        if not any(x != o and all(a >= b for a, b in zip(x, o)) for x in options)))


def test_a_part_has_the_options_of_its_every_reading():
    parts = Parts()
    rng = random.Random(3)
    for runs, size in ((True, 9), (False, 7)):
        for _ in range(300):
            counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
            if sum(counts) > 14:         # more than a hand holds
                continue
            assert parts._sets[parts.part(counts, runs)] == _pareto(_options(counts, runs, True)), counts
    for counts in itertools.product(range(3), repeat=4):       # empty ranks at either end, and between
        padded = (0,) * 2 + counts + (0,) * 3
        assert parts._sets[parts.part(padded, True)] == _pareto(_options(padded, True, True)), padded


def test_the_distance_after_each_discard_with_fours_as_two_pairs_and_few_melds_needed():
    rng = random.Random(14)
    shapes = Shapes(seven_pairs=True, four_as_two_pairs=True)
    counters = [Shanten(shapes=shapes), Shanten([Tile.M5], shapes=shapes), Shanten(shapes=Shapes(seven_pairs=True))]
    wall = [Tile(k) for k in range(34) for _ in range(4)]
    for _ in range(300):
        shanten = rng.choice(counters)
        needed = rng.choice((0, 1, 2, 4, 4))
        kinds = rng.sample(wall, 3 * needed + 2)
        if rng.random() < 0.3:       # a four (two pairs where a four counts as two)
            kind = rng.choice(kinds[:4])
            kinds = [kind] * 4 + [k for k in kinds if k != kind][:3 * needed - 2]
        together = shanten.after_each_discard(kinds, needed, set(kinds), seven_pairs_ok=True)
        for kind in set(kinds):
            rest = list(kinds)
            rest.remove(kind)
            assert together[kind] == shanten.best(rest, needed, seven_pairs_ok=True), (sorted(kinds), kind)


def test_the_distance_after_a_claim_is_the_best_of_each_discard():
    for region, hand in (("sichuan", "1123456m55p789s"), ("wuhan", "2223m456p7788s5z"), ("hainan", "11223344m556p7z")):
        brain = Brain(RegionPlay(get_region(region).resolve()), PlayStyle())
        player = player_with(hand)
        kinds = player.kinds()
        needed = brain.needed(player) - 1
        for wilds in ((), (Tile.M2,), (Tile.P5, Tile.RED)):
            plain = min([FAR] + [brain.distance(player, [k for i, k in enumerate(kinds) if i != kinds.index(d)],
                                                wilds, needed) for d in set(kinds) if d not in wilds])
            assert brain._best_after_claim(player, kinds, wilds, needed) == plain, (region, wilds)
