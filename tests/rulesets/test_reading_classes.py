"""Readings collapsed by what a region looks at give the verdict and the settlement that judging
every reading gives (rulesets/winning/readings.py, rulesets/scoring/views.py).

For every region (and the house options that change its requirements) seeded winning hands with
0–4 wilds of one kind, sometimes two kinds, are judged both ways: completeness, legality, the
number of failed requirements and the whole settlement must be equal, and so must the legality
that a caller asking only that (`settle=False`, the simulated players) gets.  The default run checks a
modest sample per region; `pytest -m soak tests/rulesets/test_reading_classes.py` checks
thousands per region.  河北 is also checked on hands whose winning tile is a 混儿 of one of two
kinds (up to 8 混儿): there the whole set of prices over the legal readings must be equal too.
"""

from __future__ import annotations

import random

import pytest

from rulesets.judging import evaluate_hand
from rulesets.regions import REGION_IDS, get_region
from rulesets.scoring.base import readings
from rulesets.scoring.hebei import fan_items
from rulesets.winrules import Judged

from tests.rulesets.reading_cases import make_case, wild_kind_count

VARIANTS = [(region, {}) for region in REGION_IDS] + [
    ("changchun", {"win_version": "B"}), ("changsha", {"qingyise_jiang": "258"}),
    ("shanghai", {"min_hand": "qinghunpeng"}), ("guangdong", {"ghost": "white"}),
]


def _check(region: str, options: dict[str, str], seed: int, hands: int) -> int:
    ruleset = get_region(region).resolve(options)
    rng = random.Random(f"{region}-{sorted(options.items())}-{seed}")
    kinds = wild_kind_count(ruleset)
    checked = 0
    while checked < hands:
        two = kinds == 2 or rng.random() < 0.1
        case = make_case(rng, ruleset, rng.choice((0, 1, 2, 2, 3, 3, 4) if not two else (2, 4, 5, 6)), two)
        if case is None:
            continue
        collapsed = evaluate_hand(ruleset, case.hand, case.context)
        every = evaluate_hand(ruleset, case.hand, case.context, exhaustive=True)
        assert collapsed.verdict.complete == every.verdict.complete, case
        assert collapsed.verdict.legal == every.verdict.legal, case
        assert len(collapsed.verdict.failures) == len(every.verdict.failures), (case, collapsed.verdict, every.verdict)
        assert collapsed.settlement == every.settlement, (str(case), collapsed.settlement, every.settlement)
        # the players' question (legal or not: the first legal class ends the judging)
        legal_only = evaluate_hand(ruleset, case.hand, case.context, settle=False)
        assert legal_only.verdict.legal == every.verdict.legal, case
        checked += 1
    return checked


@pytest.mark.parametrize("region, options", VARIANTS, ids=[f"{r}{'-' + '-'.join(o.values()) if o else ''}" for r, o in VARIANTS])
def test_collapsed_readings_judge_and_score_like_every_reading(region: str, options: dict[str, str]) -> None:
    _check(region, options, seed=0, hands=40)


@pytest.mark.soak
@pytest.mark.parametrize("region, options", VARIANTS, ids=[f"{r}{'-' + '-'.join(o.values()) if o else ''}" for r, o in VARIANTS])
def test_soak_collapsed_readings_on_thousands_of_hands(region: str, options: dict[str, str]) -> None:
    _check(region, options, seed=1, hands=2000)


def _check_hebei_winning_hun(options: dict[str, str], seed: int, hands: int) -> None:
    """河北 with two 混儿 kinds and a 混儿 drawn as the winning tile (which kind sits where follows
    `assemble`'s order: rulesets/winning/ordered.py): the same settlement, and the same set of
    prices over the legal readings, as judging every reading."""
    ruleset = get_region("hebei").resolve(options)
    rng = random.Random(f"hebei-hun-{sorted(options.items())}-{seed}")
    checked = 0
    while checked < hands:
        case = make_case(rng, ruleset, rng.choice((2, 3, 4, 5, 6, 7, 8)), True)
        if case is None or case.context.win_tile not in case.context.wilds:
            continue
        collapsed = evaluate_hand(ruleset, case.hand, case.context)
        every = evaluate_hand(ruleset, case.hand, case.context, exhaustive=True)
        assert collapsed.verdict.legal == every.verdict.legal, case
        assert collapsed.settlement == every.settlement, (str(case), collapsed.settlement, every.settlement)
        if every.verdict.legal:
            wilds = frozenset(case.context.wilds)
            prices = [{fan_items(Judged(case.hand, shape, case.context, wilds)) for shape in readings(result.verdict)}
                      for result in (collapsed, every)]
            assert prices[0] == prices[1], str(case)
        checked += 1


def test_hebei_winning_hun_of_two_kinds_scores_like_every_reading() -> None:
    _check_hebei_winning_hun({}, seed=0, hands=100)


@pytest.mark.soak
@pytest.mark.timeout(900)
def test_soak_hebei_winning_hun_of_two_kinds() -> None:
    _check_hebei_winning_hun({}, seed=1, hands=2000)
