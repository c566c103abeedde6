"""The fast evaluator agrees with the slow reference (tests/winning/reference.py) on random
near-complete hands of every shape family, with 0–8 wilds and 2- to 17-tile hands.

Each Hypothesis example is a seed; it checks a batch of hands drawn from `Random(seed)` (the
failure message shows the hand), so the default
run covers a few thousand hands per family in seconds; the `soak` tests cover hundreds of
thousands (``pytest -m soak tests/winning``).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.winning import Evaluator

from . import reference
from .hands import FAMILIES, PLAYABLE, Case, make_case

BATCH = 20
QUICK = settings(max_examples=100, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])
SOAK = settings(max_examples=2_500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(min_value=0, max_value=2**63)
GROUP_FAMILIES = ("standard", "honour_chows", "pairs_258", "random")


def _melds_for(rng: random.Random, family: str) -> int:
    if family in GROUP_FAMILIES:
        return rng.choice((4, 4, 5, 5, 0, 1, 2, 3))
    return 5 if family == "eight_pairs" else 4


def _cases(rng: random.Random, family: str, count: int) -> list[Case]:
    out = []
    for _ in range(count):
        case = make_case(rng, family, _melds_for(rng, family))
        if family in GROUP_FAMILIES and rng.random() < 0.15:  # a listed pair kind set
            case = replace(case, shapes=replace(case.shapes, pair_kinds=frozenset(rng.sample(PLAYABLE, rng.randint(0, 6)))))
        out.append(case)
    return out


def _check_complete(case: Case) -> None:
    expected = reference.complete(case.hand, case.wild_kinds, case.melds_needed, case.shapes, case.stand_ins)
    got = Evaluator(case.wild_kinds, case.shapes, case.stand_ins).is_complete(case.hand, case.melds_needed)
    assert got == expected, case


def _check_min_and_evaluate(case: Case) -> None:
    evaluator = Evaluator(case.wild_kinds, case.shapes, case.stand_ins)
    expected = reference.min_wilds_as_wild(case.hand, case.wild_kinds, case.melds_needed, case.shapes, case.stand_ins)
    assert evaluator.min_wilds_as_wild(case.hand, case.melds_needed) == expected, case
    shape = evaluator.evaluate(case.hand, case.melds_needed)
    assert (shape is None) == (expected is None), case
    if shape is not None:
        assert shape.wilds_as_wild == expected, (case, shape)


def _check_waits(case: Case, rng: random.Random) -> None:
    short = list(case.hand)
    short.pop(rng.randrange(len(short)))
    expected = reference.waits(short, case.wild_kinds, case.melds_needed, case.shapes, PLAYABLE, case.stand_ins)
    got = Evaluator(case.wild_kinds, case.shapes, case.stand_ins).waits(short, case.melds_needed, PLAYABLE)
    assert got == expected, (case, short)


@pytest.mark.parametrize("family", FAMILIES)
@QUICK
@given(seed=SEEDS)
def test_is_complete_matches_reference(family: str, seed: int) -> None:
    for case in _cases(random.Random(seed), family, BATCH):
        _check_complete(case)


@pytest.mark.parametrize("family", FAMILIES)
@settings(QUICK, max_examples=25)
@given(seed=SEEDS)
def test_min_wilds_and_evaluate_match_reference(family: str, seed: int) -> None:
    for case in _cases(random.Random(seed), family, 10):
        _check_min_and_evaluate(case)


@pytest.mark.parametrize("family", FAMILIES)
@settings(QUICK, max_examples=20)
@given(seed=SEEDS)
def test_waits_match_reference(family: str, seed: int) -> None:
    rng = random.Random(seed)
    for case in _cases(rng, family, 5):
        _check_waits(case, rng)


@pytest.mark.soak
@pytest.mark.parametrize("family", FAMILIES)
@SOAK
@given(seed=SEEDS)
def test_soak_is_complete(family: str, seed: int) -> None:
    """8 families × 2,500 examples × 20 hands = 400,000 hands."""
    for case in _cases(random.Random(seed), family, BATCH):
        _check_complete(case)


@pytest.mark.soak
@pytest.mark.parametrize("family", FAMILIES)
@settings(SOAK, max_examples=500)
@given(seed=SEEDS)
def test_soak_min_evaluate_and_waits(family: str, seed: int) -> None:
    """8 families × 500 examples × 5 hands = 20,000 hands, each also one tile short."""
    rng = random.Random(seed)
    for case in _cases(rng, family, 5):
        _check_min_and_evaluate(case)
        _check_waits(case, rng)
