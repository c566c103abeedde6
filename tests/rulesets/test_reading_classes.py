"""Readings collapsed by what a region looks at give the verdict and the settlement that judging
every reading gives (rulesets/winning/readings.py, rulesets/scoring/views.py).

For every region (and the house options that change its requirements) seeded winning hands with
0–4 wilds of one kind, sometimes two kinds, are judged both ways: completeness, legality, the
number of failed requirements and the whole settlement must be equal, and so must the legality
that a caller asking only that (`settle=False`, the simulated players) gets.  The default run checks a
modest sample per region; `pytest -m soak tests/rulesets/test_reading_classes.py` checks
thousands per region.
"""

from __future__ import annotations

import random

import pytest

from rulesets.judging import evaluate_hand
from rulesets.regions import REGION_IDS, get_region

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
