"""The fast win check and waits (rulesets/winning/fast.py) give the same answers as the plain
methods they replace (`is_complete_by_counts`, `waits_by_candidate`), on hands of every shape
family with 0–8 wilds and stand-ins, for candidates in the region's order and in any other.

The plain methods are themselves checked against the slow reference (test_cross_check.py); here
many more hands are cheap because neither side searches.
"""

from __future__ import annotations

import random

import pytest

from rulesets.tiles import Tile
from rulesets.winning import Evaluator, HandError, Shapes

from .hands import FAMILIES, PLAYABLE, make_case

FLOWERS = tuple(Tile(k) for k in range(34, 42))


def _melds(rng: random.Random, family: str) -> int:
    if family == "eight_pairs":
        return 5
    if family in ("seven_pairs", "orphans", "shisanlan"):
        return 4
    return rng.choice((4, 4, 5, 1, 2, 3, 0))


def _candidates(rng: random.Random, wilds: frozenset[Tile]) -> tuple[Tile, ...]:
    """The region's kinds (wild flowers included), sometimes shuffled or with a kind twice."""
    kinds = list(PLAYABLE) + [k for k in FLOWERS if k in wilds]
    roll = rng.random()
    if roll < 0.2:
        rng.shuffle(kinds)
    elif roll < 0.3:
        kinds.append(rng.choice(kinds))
    elif roll < 0.4:
        kinds = rng.sample(kinds, rng.randint(1, len(kinds)))
    return tuple(kinds)


@pytest.mark.parametrize("family", FAMILIES)
def test_fast_paths_match_the_plain_methods(family: str) -> None:
    rng = random.Random(f"fast-{family}")
    for _ in range(600):
        case = make_case(rng, family, _melds(rng, family))
        evaluator = Evaluator(case.wild_kinds, case.shapes, case.stand_ins)
        hand = list(case.hand)
        rng.shuffle(hand)
        assert evaluator.is_complete(hand, case.melds_needed) == \
            evaluator.is_complete_by_counts(hand, case.melds_needed), case
        short = list(hand)
        short.pop(rng.randrange(len(short)))
        candidates = _candidates(rng, case.wild_kinds)
        assert evaluator.waits(short, case.melds_needed, candidates) == \
            evaluator.waits_by_candidate(short, case.melds_needed, candidates), (case, short, candidates)


def test_wild_flowers_and_many_wilds_take_the_slow_path_with_the_same_answer() -> None:
    wilds = {Tile.RED, Tile.GREEN, Tile(34)}  # 中, 发 and the flower 春 are wild
    evaluator = Evaluator(wilds, Shapes(seven_pairs=True))
    hand = [Tile.M1, Tile.M2, Tile.RED, Tile.RED, Tile.GREEN, Tile.GREEN, Tile(34), Tile.P5, Tile.P5,
            Tile.S7, Tile.S8, Tile.RED, Tile.GREEN, Tile.M3]
    assert evaluator.is_complete(hand, 4) == evaluator.is_complete_by_counts(hand, 4) is True
    kinds = PLAYABLE + (Tile(34),)
    assert evaluator.waits(hand[:13], 4, kinds) == evaluator.waits_by_candidate(hand[:13], 4, kinds)


@pytest.mark.parametrize("hand, message", [
    ([Tile.M9] * 5 + [Tile.M1, Tile.M2, Tile.M3, Tile.P1, Tile.P2, Tile.P3, Tile.S1, Tile.S2, Tile.S3], "5 × 9m"),
    ([Tile.M1] * 5 + [Tile.M4, Tile.M2, Tile.M3, Tile.P1, Tile.P2, Tile.P3, Tile.S1, Tile.S2, Tile.S3], "5 × 1m"),
    ([Tile.RED] * 5 + [Tile.M4, Tile.M2, Tile.M3, Tile.P1, Tile.P2, Tile.P3, Tile.S1, Tile.S2, Tile.S3], "5 × 7z"),
    ([Tile.S5] * 5 + [Tile.M4, Tile.M2, Tile.M3, Tile.P1, Tile.P2, Tile.P3, Tile.S1, Tile.S2, Tile.S3], "5 × 5s"),
    ([Tile(35)] + [Tile.P1] * 3 + [Tile.M2] * 3 + [Tile.S2] * 3 + [Tile.EAST] * 3 + [Tile.WEST], "flower"),
    (["1m"] + [Tile.P1] * 3 + [Tile.M2] * 3 + [Tile.S2] * 3 + [Tile.EAST] * 3 + [Tile.WEST], "not a tile"),
])
def test_bad_hands_raise_a_clear_error_on_both_paths(hand: list, message: str) -> None:
    evaluator = Evaluator({Tile.S5}, Shapes(seven_pairs=True, thirteen_orphans=True))
    with pytest.raises(HandError, match=message):
        evaluator.is_complete(hand, 4)
    with pytest.raises(HandError, match=message):
        evaluator.waits(hand[:13], 4, PLAYABLE)
