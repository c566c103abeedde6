"""四川's 缺一门 (and 贵州's, which takes it) is read from the hand's tiles, not from a reading: the
answer is the one every reading gives, because neither region has wilds, and a hand that fails it is
refused without a reading being looked for (the simulated players ask it of every wait they weigh)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand, wild_sets
from rulesets.regions import get_region
from rulesets.tiles import parse_tiles
from rulesets.winrules import Judged

from tests.rulesets.reading_cases import make_case

REGIONS = ("sichuan", "guizhou")


def _each_option_value(region_id: str):
    """The region with each value of each of its house options (the others at their defaults)."""
    region = get_region(region_id)
    yield region.resolve({})
    for option in region.options:
        for value in option.values:
            yield region.resolve({option.key: value})


def _as_read(j: Judged) -> bool:
    """The rule as the texts put it, over one reading's tiles (the way it was checked before)."""
    void = j.context.get("void_suit")
    if void:
        return all(t.suit != void for t in j.standing)
    return len(j.suits) < 3


@pytest.mark.parametrize("region", REGIONS)
def test_no_option_of_the_region_makes_a_wild(region: str) -> None:
    # what makes the hand's own tiles the reading's tiles
    for ruleset in _each_option_value(region):
        assert wild_sets(ruleset) == frozenset({frozenset()}), ruleset.options


@pytest.mark.parametrize("region", REGIONS)
def test_the_hand_check_answers_as_every_reading_does(region: str) -> None:
    ruleset = get_region(region).resolve({})
    (rule,) = [r for r in ruleset.win.requirements if r.key == "que_yi_men"]
    assert rule.hand_check is not None
    rng = random.Random(f"void-suit-{region}")
    checked = failed = 0
    while checked < 300:
        case = make_case(rng, ruleset, 0)
        if case is None:
            continue
        void = rng.choice((None, "m", "p", "s"))
        context = replace(case.context, extra=(("void_suit", void),)) if void else case.context
        every = evaluate_hand(ruleset, case.hand, context, exhaustive=True).verdict
        if not every.complete:
            continue
        by_hand = rule.hand_check(case.hand, context)
        for shape in every.legal_readings or (every.shape,):
            assert _as_read(Judged(case.hand, shape, context, frozenset())) == by_hand, (str(case), void)
        assert evaluate_hand(ruleset, case.hand, context, settle=False).verdict.legal == every.legal
        checked += 1
        failed += not by_hand
    assert 30 < failed < 270          # both answers were met often


def test_a_hand_of_three_suits_is_refused_without_a_reading_and_says_why() -> None:
    ruleset = get_region("sichuan").resolve({})
    three_suits = Hand(tuple(parse_tiles("1m2m3m4p5p6p7s8s9s2m2m5p5p5p")), ())
    context = WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3), win_tile=parse_tiles("9s")[0])
    players = evaluate_hand(ruleset, three_suits, context, settle=False).verdict
    assert players.complete and not players.legal and players.readings == 0
    assert any("que_yi_men" in failure for failure in players.failures)
    two_suits = Hand(tuple(parse_tiles("1m2m3m4p5p6p7p8p9p2m2m5p5p5p")), ())
    context = replace(context, win_tile=parse_tiles("9p")[0])
    assert evaluate_hand(ruleset, two_suits, context, settle=False).verdict.legal
    declared_void = replace(context, extra=(("void_suit", "p"),))
    assert not evaluate_hand(ruleset, two_suits, declared_void, settle=False).verdict.legal
