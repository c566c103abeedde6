"""Requirements over the hand and its context alone (`winrules.of_hand`: 开门, 自摸, 报听, 红中留在手上,
漏胡 …): the same answer under every reading, and the players' question (`settle=False`) answered
without looking for any reading when the hand fails one of them."""

from __future__ import annotations

import random

import pytest

from rulesets.hand import Hand, Meld, MeldKind, WinContext
from dataclasses import replace

from rulesets.judging import evaluate_hand, is_legal, stand_ins_for
from rulesets.winning import Evaluator
from rulesets.regions import REGION_IDS, get_region
from rulesets.tiles import parse_tiles
from rulesets.winrules import Judged

from tests.rulesets.reading_cases import make_case, wild_kind_count

HAND_LEVEL = [region for region in REGION_IDS
              if any(r.hand_check is not None for r in get_region(region).resolve({}).win.requirements)]


def test_the_regions_with_such_requirements_are_found() -> None:
    # the regions whose texts make 开门, 自摸, 报听 … a condition of every win
    assert {"wuhan", "neimenggu", "shenyang", "hebei", "hangzhou", "lisi", "dabao"} <= set(HAND_LEVEL)


@pytest.mark.parametrize("region", HAND_LEVEL)
def test_a_hand_level_requirement_answers_alike_under_every_reading(region: str) -> None:
    ruleset = get_region(region).resolve({})
    rng = random.Random(f"hand-level-{region}")
    kinds = wild_kind_count(ruleset)
    checked = 0
    while checked < 40:
        case = make_case(rng, ruleset, rng.choice((0, 1, 2, 3)), kinds == 2)
        if case is None:
            continue
        every = evaluate_hand(ruleset, case.hand, case.context, exhaustive=True).verdict
        if not every.complete:
            continue
        shapes = every.legal_readings or (every.shape,)
        for requirement in ruleset.win.requirements:
            if requirement.hand_check is None:
                continue
            by_hand = requirement.hand_check(case.hand, case.context)
            for shape in shapes:
                judged = Judged(case.hand, shape, case.context, frozenset(case.context.wilds))
                assert requirement.check(judged) == by_hand, (str(case), requirement.key)
        legal_only = evaluate_hand(ruleset, case.hand, case.context, settle=False).verdict
        assert legal_only.legal == every.legal, case
        checked += 1


def _wuhan_context(**changes) -> WinContext:
    fields = {"win_tile": parse_tiles("7m")[0], "wilds": tuple(parse_tiles("4m"))} | changes
    return WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3), **fields)


def test_an_unopened_wuhan_hand_is_refused_without_a_reading_and_the_table_still_says_why() -> None:
    ruleset = get_region("wuhan").resolve({})
    unopened = Hand(tuple(parse_tiles("3m4m4m4m4m7m8m8m9m6p6p5s5s5s")), ())
    players = evaluate_hand(ruleset, unopened, _wuhan_context(), settle=False).verdict
    assert players.complete and not players.legal
    assert players.shape is None and players.readings == 0      # no reading was looked for
    assert any("kaikou" in failure for failure in players.failures)
    table = evaluate_hand(ruleset, unopened, _wuhan_context()).verdict
    assert table.complete and not table.legal and table.shape is not None
    assert any("kaikou" in failure for failure in table.failures)


def test_an_opened_wuhan_hand_is_still_judged_by_its_readings() -> None:
    ruleset = get_region("wuhan").resolve({})
    opened = Hand(tuple(parse_tiles("2m2m3m4m5m6m7m8m6p7p8p")), (Meld(MeldKind.PUNG, tuple(parse_tiles("5s5s5s"))),))
    verdict = evaluate_hand(ruleset, opened, _wuhan_context(win_tile=parse_tiles("8p")[0], wilds=()), settle=False).verdict
    assert verdict.legal and verdict.shape is not None
    no_258_pair = Hand(tuple(parse_tiles("3m3m3m4m5m6m7m8m6p7p8p")), (Meld(MeldKind.PUNG, tuple(parse_tiles("5s5s5s"))),))
    verdict = evaluate_hand(ruleset, no_258_pair, _wuhan_context(win_tile=parse_tiles("8p")[0], wilds=()), settle=False).verdict
    assert verdict.complete and not verdict.legal and verdict.shape is not None      # 屁胡 needs 2/5/8 将: read


@pytest.mark.parametrize("region", REGION_IDS)
def test_is_legal_answers_as_the_judge_does(region: str) -> None:
    # `is_legal` skips the reading where every requirement reads the hand alone: the same answer as
    # the judge's, for complete hands and for hands one tile off, with the caller's evaluator or none
    ruleset = get_region(region).resolve({})
    rng = random.Random(f"is-legal-{region}")
    kinds = wild_kind_count(ruleset)
    others = [k for k in ruleset.tiles.kinds if not k.is_flower]
    checked = 0
    while checked < 30:
        case = make_case(rng, ruleset, rng.choice((0, 1, 2, 3)), kinds == 2)
        if case is None:
            continue
        hand, context = case.hand, case.context
        if rng.random() < 0.4:     # one tile changed: mostly not complete
            concealed = list(hand.concealed)
            concealed[rng.randrange(len(concealed))] = rng.choice(others)
            hand = replace(hand, concealed=tuple(sorted(concealed)))
            if context.win_tile not in hand.concealed:
                context = replace(context, win_tile=hand.concealed[0])
        try:
            expected = evaluate_hand(ruleset, hand, context, settle=False).verdict.legal
        except ValueError:       # (HandError too: a fifth copy)
            continue
        wilds = tuple(context.wilds)
        evaluator = Evaluator(frozenset(wilds), ruleset.win.shapes, stand_ins_for(ruleset, wilds))
        assert is_legal(ruleset, hand, context) == expected, case
        assert is_legal(ruleset, hand, context, evaluator) == expected, case
        checked += 1
