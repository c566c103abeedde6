"""A requirement's `hopeless` bound (rulesets/reading_bounds.py) refuses a hand only when no reading
of it meets the requirement: `is_legal` then answers False without the judge (the simulated players
ask it at every wait they weigh).  Checked here against every reading of seeded hands, in each
region and house option that has such a bound, and `is_legal` against the judge reading every way.
A bound that refused a hand some reading makes legal, or let one pass that none does, fails here."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.judging import evaluate_hand, is_legal, stand_ins_for
from rulesets.regions import REGION_IDS, get_region
from rulesets.scoring.wuhan import DAHU
from rulesets.reading_bounds import pair_evaluator
from rulesets.tiles import Tile, parse_tiles
from rulesets.winning import PAIRS_258, Evaluator
from rulesets.winrules import Judged, make_evaluator, melds_needed

from tests.rulesets.reading_cases import make_case, wild_kind_count

VARIANTS = [
    ("wuhan", {}), ("wuhan", {"pihu_laizi": "as_wild"}),
    ("changsha", {}), ("changsha", {"qingyise_jiang": "any"}), ("changsha", {"quanqiuren": "discard"}),
    ("zuanpai", {}), ("zuanpai", {"da_que": "on"}), ("bazhi", {}), ("bazhi", {"claims": "pong"}),
    ("yunnan", {}), ("guangshui", {}), ("nanjing", {}), ("shanghai", {}), ("shanghai", {"min_hand": "qinghunpeng"}),
    ("luoshan", {}), ("luoshan", {"rounding": "before"}), ("luoshan", {"zimo_ke_value": "add"}),
    ("luoshan", {"chong_qiyu": "any"}), ("luoshan", {"zimo_anke": "every", "chong_ke": "anke"}),
    ("neimenggu", {}), ("shenyang", {}), ("hainan", {}), ("hainan", {"pung_fan": "declared"}),
    ("sichuan", {}), ("guizhou", {}), ("yichang", {}),
]


BOUNDS = ("hopeless", "assured", "witnessed")


def _variant_id(region: str, options: dict[str, str]) -> str:
    return region + "".join(f"-{v}" for v in options.values())


def _cases(ruleset, rng: random.Random, count: int):
    """Seeded winning hands with 0–4 wilds (`make_case`), some all pungs or chows, some with a pung shown of a dragon, some
    with one tile changed (mostly not complete), some won on a discard and some self-drawn with every context flag off (a 大胡 that a
    flag alone makes would hide the others)."""
    kinds = wild_kind_count(ruleset)
    others = [k for k in ruleset.tiles.kinds if not k.is_flower]
    made = 0
    while made < count:
        case = make_case(rng, ruleset, rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4)), kinds == 2 or rng.random() < 0.1)
        if case is None:
            continue
        hand, context = case.hand, case.context
        if rng.random() < 0.15:
            hand, context = _all_pungs(rng, ruleset, others, context)
        elif rng.random() < 0.15:
            hand, context = _all_chows(rng, ruleset, others, context)
        if rng.random() < 0.5:
            context = replace(context, kong_replacement=False, last_tile=False, robbed_kong=False)
        if hand.melds and rng.random() < 0.6:      # a pung shown of a dragon (钻牌's 杠牌, 南京's 箭牌)
            kind = rng.choice([k for k in others if k.is_dragon] or others)
            hand = replace(hand, melds=(Meld(MeldKind.PUNG, (kind,) * 3),) + hand.melds[1:])
        if rng.random() < 0.2:
            concealed = list(hand.concealed)
            concealed[rng.randrange(len(concealed))] = rng.choice(others)
            hand = replace(hand, concealed=tuple(sorted(concealed)))
            if context.win_tile not in hand.concealed:
                context = replace(context, win_tile=hand.concealed[0])
        made += 1
        yield hand, context


def _all_pungs(rng: random.Random, ruleset, kinds: list, context: WinContext) -> tuple[Hand, WinContext]:
    """Four pungs and a pair of distinct kinds, one pung sometimes shown, no wilds (few seeded hands
    are all pungs)."""
    chosen = rng.sample([k for k in kinds if ruleset.tiles.copies(k) >= 3], ruleset.hand_size // 3 + 1)
    concealed = [chosen[0]] * 2 + [k for k in chosen[1:] for _ in range(3)]
    melds: tuple[Meld, ...] = ()
    if rng.random() < 0.4:
        melds = (Meld(MeldKind.PUNG, (chosen[1],) * 3),)
        concealed = concealed[:2] + concealed[5:]
    return Hand(tuple(sorted(concealed)), melds), replace(context, wilds=(), win_tile=rng.choice(concealed))


def _all_chows(rng: random.Random, ruleset, kinds: list, context: WinContext) -> tuple[Hand, WinContext]:
    """Chows and a pair, no wilds (few seeded hands hold no three of a kind)."""
    lows = [k for k in kinds if k.is_suited and k.rank <= 7 and Tile(k + 2) in kinds]
    concealed = [rng.choice(kinds)] * 2
    for _ in range(ruleset.hand_size // 3):
        low = rng.choice(lows)
        concealed += [low, Tile(low + 1), Tile(low + 2)]
    return Hand(tuple(sorted(concealed))), replace(context, wilds=(), win_tile=rng.choice(concealed))


@pytest.mark.parametrize("region, options", VARIANTS, ids=[_variant_id(r, o) for r, o in VARIANTS])
def test_a_bound_says_what_every_reading_says(region: str, options: dict[str, str]) -> None:
    # hopeless: no reading meets the requirement; assured: every reading does; witnessed: one does
    ruleset = get_region(region).resolve(options)
    bounded = [r for r in ruleset.win.requirements if r.hopeless or r.assured or r.witnessed]
    assert bounded
    rng = random.Random(f"bounds-{_variant_id(region, options)}")
    said = {(r.key, bound): [0, 0] for r in bounded for bound in BOUNDS if getattr(r, bound)}
    for hand, context in _cases(ruleset, rng, 400):
        evaluator = make_evaluator(ruleset.win, context.wilds, stand_ins_for(ruleset, context.wilds))
        try:
            shapes = evaluator.decompositions(hand.concealed, melds_needed(ruleset.hand_size, hand), context.win_tile)
        except ValueError:      # (a fifth copy)
            continue
        if not shapes:
            continue
        wilds = frozenset(context.wilds)
        for rule in bounded:
            meeting = [rule.check(Judged(hand, s, context, wilds)) for s in shapes]
            if rule.hopeless is not None:
                hopeless = rule.hopeless(hand, context, evaluator)
                assert not (hopeless and any(meeting)), (rule.key, str(hand), context)
                said[rule.key, "hopeless"][hopeless] += 1
            if rule.assured is not None:
                assured = rule.assured(hand, context, evaluator)
                assert not (assured and not all(meeting)), (rule.key, str(hand), context)
                said[rule.key, "assured"][assured] += 1
            if rule.witnessed is not None:
                witnessed = rule.witnessed(hand, context, evaluator)
                assert not (witnessed and not any(meeting)), (rule.key, str(hand), context)
                said[rule.key, "witnessed"][witnessed] += 1
    for bound, (silent, spoke) in said.items():      # each bound both spoke and kept silent often
        assert silent > 20 and spoke > 20, (bound, said)


@pytest.mark.parametrize("region, options", VARIANTS, ids=[_variant_id(r, o) for r, o in VARIANTS])
def test_is_legal_answers_as_the_judge_reading_every_way(region: str, options: dict[str, str]) -> None:
    ruleset = get_region(region).resolve(options)
    rng = random.Random(f"bounds-legal-{_variant_id(region, options)}")
    answers = set()
    for hand, context in _cases(ruleset, rng, 150):
        try:
            expected = evaluate_hand(ruleset, hand, context, exhaustive=True, settle=False).verdict.legal
        except ValueError:
            with pytest.raises(ValueError):
                is_legal(ruleset, hand, context)
            continue
        wilds = tuple(context.wilds)
        evaluator = Evaluator(frozenset(wilds), ruleset.win.shapes, stand_ins_for(ruleset, wilds))
        assert is_legal(ruleset, hand, context) == expected, (hand, context)
        assert is_legal(ruleset, hand, context, evaluator) == expected, (hand, context)
        answers.add(expected)
    assert answers == {True, False}


def test_every_region_with_a_bound_is_checked_here() -> None:
    checked = {region for region, _ in VARIANTS}
    for region_id in REGION_IDS:
        region = get_region(region_id)
        values = [{}] + [{option.key: value} for option in region.options for value in option.values]
        if any(getattr(r, bound) for options in values for r in region.resolve(options).win.requirements
               for bound in BOUNDS):
            assert region_id in checked, region_id


def test_wuhans_bound_knows_every_dahu() -> None:
    # `no_dahu` bounds each of these; a 大胡 added to the list needs its bound there too
    assert [key for key, *_ in DAHU] == ["pengpenghu", "jiangyise", "qingyise", "fengyise", "quanqiuren",
                                         "gangkai", "haidilao", "qianggang"]


def test_a_pair_of_wilds_witnesses_no_2_5_8_pair() -> None:
    # the pair-restricted evaluator lets two 赖子 be a pair of 5s; the judge lists them as a pair
    # of their own face (a free pair), so no reading of this hand has a 2/5/8 pair
    ruleset = get_region("wuhan").resolve({})
    (rule,) = [r for r in ruleset.win.requirements if r.key == "pihu_258"]
    hand = Hand(tuple(sorted(parse_tiles("1z1z1z3z3z3z4z4z4z9s9s"))), (Meld(MeldKind.CHOW, (Tile.M1, Tile.M2, Tile.M3)),))
    context = WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3), win_tile=Tile.EAST, wilds=(Tile.S9,))
    evaluator = make_evaluator(ruleset.win, context.wilds, {})
    assert pair_evaluator(evaluator, PAIRS_258).is_complete(hand.concealed, 3)
    shapes = evaluator.decompositions(hand.concealed, 3, context.win_tile)
    assert shapes and not any(rule.check(Judged(hand, s, context, frozenset(context.wilds))) for s in shapes)
    assert not rule.witnessed(hand, context, evaluator)


def test_two_alike_chows_witness_no_all_pungs() -> None:
    # 223344m (three kinds held twice) is three tiles short of pungs: no reading is all pungs
    ruleset = get_region("shanghai").resolve({})
    (rule,) = [r for r in ruleset.win.requirements if r.key == "at_least_pengpeng"]
    hand = Hand(tuple(sorted(parse_tiles("2m2m3m3m4m4m5p5p5p7s7s7s9s9s"))))
    context = WinContext(winner=0, dealer=0, sides=(0, 1, 2, 3), win_tile=Tile.S9)
    evaluator = make_evaluator(ruleset.win, (), {})
    assert not rule.witnessed(hand, context, evaluator) and rule.hopeless(hand, context, evaluator)
    assert evaluate_hand(ruleset, hand, context).verdict.complete and not is_legal(ruleset, hand, context)
    all_pungs = Hand(tuple(sorted(parse_tiles("2m2m2m3m3m3m5p5p5p7s7s7s9s9s"))))
    assert rule.witnessed(all_pungs, context, evaluator) and is_legal(ruleset, all_pungs, context)


@pytest.mark.parametrize("region", ["sichuan", "guizhou", "yichang"])
def test_the_void_suit_bounds_say_what_every_reading_says_with_a_void_declared(region: str) -> None:
    # 定缺: the suit declared void (as the table's context says it) instead of any one suit
    ruleset = get_region(region).resolve({})
    (rule,) = [r for r in ruleset.win.requirements if r.hopeless is not None]
    rng = random.Random(f"void-suit-{region}")
    said = {"hopeless": [0, 0], "assured": [0, 0]}
    for hand, context in _cases(ruleset, rng, 300):
        context = replace(context, extra=context.extra + (("void_suit", rng.choice("mps")),))
        evaluator = make_evaluator(ruleset.win, context.wilds, stand_ins_for(ruleset, context.wilds))
        try:
            shapes = evaluator.decompositions(hand.concealed, melds_needed(ruleset.hand_size, hand), context.win_tile)
        except ValueError:
            continue
        meeting = [rule.check(Judged(hand, s, context, frozenset(context.wilds))) for s in shapes]
        if not shapes:
            continue
        hopeless, assured = rule.hopeless(hand, context, evaluator), rule.assured(hand, context, evaluator)
        assert not (hopeless and any(meeting)) and not (assured and not all(meeting)), (str(hand), context)
        said["hopeless"][hopeless] += 1
        said["assured"][assured] += 1
    assert all(silent > 20 and spoke > 20 for silent, spoke in said.values()), said
