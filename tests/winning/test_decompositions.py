"""Decompositions and assignments: every reading is a real split of the physical tiles, the
list is complete (against brute force, without wilds), and the winning tile is found."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.tiles import Tile, parse_tiles
from rulesets.winning import Evaluator, GroupKind, HandError, Shapes, ShapeKind, WinShape

from . import reference
from .hands import FAMILIES, Case, make_case

SEEDS = st.integers(min_value=0, max_value=2**63)
QUICK = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _is_meld(tiles: tuple[Tile, ...], honour_chows: bool) -> bool:
    if len(set(tiles)) == 1:
        return True
    if tiles in reference.SUITED_CHOWS:
        return True
    return honour_chows and tuple(sorted(tiles)) in reference.HONOUR_CHOWS


def check_reading(reading: WinShape, case: Case) -> None:
    """The groups use exactly the hand's physical tiles, each as itself, its stand-in face or
    (wilds) anything; the shape is what it says; the assignment and counts add up."""
    sources = Counter(s for g in reading.groups for s in g.sources)
    assert sources == Counter(case.hand)
    for group in reading.groups:
        assert len(group.sources) == len(group.tiles)
        for i, (source, tile) in enumerate(zip(group.sources, group.tiles)):
            if i in group.wild_positions:
                assert source in case.wild_kinds
            else:
                assert source not in case.wild_kinds and case.stand_ins.get(source, source) == tile
        if group.kind is GroupKind.PAIR:
            assert len(group.tiles) == 2 and group.tiles[0] == group.tiles[1]
        elif group.kind is GroupKind.PUNG:
            assert len(group.tiles) == 3 and len(set(group.tiles)) == 1
        elif group.kind is GroupKind.CHOW:
            assert _is_meld(group.tiles, case.shapes.honour_chows) and len(set(group.tiles)) == 3
    assignment = sorted(a for g in reading.groups for a in g.assignment)
    assert list(reading.assignment) == assignment
    assert len(assignment) == sum(t in case.wild_kinds for t in case.hand)
    assert reading.wilds_natural == sum(1 for w, t in assignment if w == t)
    assert reading.wilds_as_wild + reading.wilds_natural == len(assignment)
    if reading.shape is ShapeKind.STANDARD:
        assert len(reading.pairs) == 1 and len(reading.melds) == case.melds_needed
        if case.shapes.pair_kinds is not None:
            assert reading.pairs[0].tiles[0] in case.shapes.pair_kinds
    elif reading.shape in (ShapeKind.SEVEN_PAIRS, ShapeKind.EIGHT_PAIRS_PLUS_SINGLE):
        assert len(reading.pairs) == (7 if reading.shape is ShapeKind.SEVEN_PAIRS else 8)
        if not case.shapes.four_as_two_pairs:
            assert len({g.tiles[0] for g in reading.pairs}) == len(reading.pairs)


def _check_readings(family: str, rng: random.Random) -> None:
    for _ in range(5):
        melds = 5 if family == "eight_pairs" else rng.choice((4, 4, 5, 2)) if family in ("standard", "pairs_258", "honour_chows", "random") else 4
        case = make_case(rng, family, melds, max_wilds=rng.choice((0, 1, 2, 4, 6)))
        evaluator = Evaluator(case.wild_kinds, case.shapes, case.stand_ins)
        win_tile = rng.choice(case.hand)
        readings = evaluator.decompositions(case.hand, case.melds_needed, win_tile=win_tile)
        complete = reference.complete(case.hand, case.wild_kinds, case.melds_needed, case.shapes, case.stand_ins)
        assert bool(readings) == complete, case
        for reading in readings:
            check_reading(reading, case)
            assert reading.win_group is not None and win_tile in reading.groups[reading.win_group].sources
        best = evaluator.evaluate(case.hand, case.melds_needed)
        if complete:
            check_reading(best, case)
            assert best.wilds_as_wild == min(r.wilds_as_wild for r in readings), (case, best)


@pytest.mark.parametrize("family", FAMILIES)
@QUICK
@given(seed=SEEDS)
def test_every_reading_is_a_real_split(family: str, seed: int) -> None:
    _check_readings(family, random.Random(seed))


@pytest.mark.soak
@pytest.mark.parametrize("family", FAMILIES)
@settings(QUICK, max_examples=1_000, derandomize=False)
@given(seed=SEEDS)
def test_soak_every_reading_is_a_real_split(family: str, seed: int) -> None:
    """8 families × 1,000 examples × 5 hands = 40,000 hands."""
    _check_readings(family, random.Random(seed))


def _brute_force_splits(faces: Counter, melds: int) -> set[tuple]:
    """Every multiset of one pair and `melds` melds whose tiles are exactly `faces` (no wilds)."""
    kinds = sorted(faces)
    groups = [(k, k) for k in kinds if faces[k] >= 2]
    candidates = [(k, k, k) for k in kinds if faces[k] >= 3]
    candidates += [c for c in reference.SUITED_CHOWS if all(faces[t] for t in c)]
    out = set()
    for pair in groups:
        for chosen in combinations_with_replacement(candidates, melds):
            if Counter(t for g in chosen + (pair,) for t in g) == faces:
                out.add(tuple(sorted(chosen + (pair,))))
    return out


@pytest.mark.parametrize("text", ["111222333m456p99s", "11122233344455m", "123456789m12355s",
                                  "22334455667788p", "1112345678999m9m", "111222333444m55p"])
def test_decompositions_equal_brute_force_without_wilds(text: str) -> None:
    tiles = parse_tiles(text)
    readings = Evaluator().decompositions(tiles, 4)
    got = {tuple(sorted(tuple(int(t) for t in g.tiles) for g in r.groups)) for r in readings}
    assert got == _brute_force_splits(Counter(int(t) for t in tiles), 4)
    assert len(got) == len(readings)


def test_bad_input_is_one_line_handerror() -> None:
    ev = Evaluator({Tile.RED}, Shapes())
    cases = [
        (parse_tiles("11111m456p789s11z5m"), 4, "only four"),
        (parse_tiles("1111m456p789s11z5m1f"), 4, "flower"),
        (parse_tiles("1111m456p789s11z"), 5, "concealed tiles"),
        (parse_tiles("1111m456p789s11z7z"), 7, "melds_needed"),
        ([Tile.M1, 99] + parse_tiles("123456789m11z5m"), 4, "not a tile"),
        (parse_tiles("7777z456p789s11z55m"), 4, None),  # four wilds: fine
    ]
    for tiles, melds, words in cases:
        if words is None:
            assert ev.is_complete(tiles, melds) in (True, False)
            continue
        for call in (ev.is_complete, ev.min_wilds_as_wild, ev.decompositions):
            with pytest.raises(HandError) as info:
                call(tiles, melds)
            message = str(info.value)
            assert "\n" not in message and words in message, message
    with pytest.raises(HandError):
        ev.waits(parse_tiles("11111m456p789s1z"), 4, [Tile.M1])
    with pytest.raises(HandError):
        Evaluator({Tile.M9}, Shapes(), {Tile.WHITE: Tile.M8})  # stand-in face not wild
    with pytest.raises(HandError):
        Evaluator({Tile.M9}, Shapes(), {Tile.M9: Tile.M9})  # a wild cannot stand in
    with pytest.raises(HandError):
        ev.evaluate(parse_tiles("123m456p789s111z55m"), 4, win_tile=Tile.RED)
    assert isinstance(HandError("x"), ValueError)


def test_flower_wilds_are_allowed() -> None:
    """宁波: a flower indicator can make all flowers wild; flowers then sit in the hand."""
    flowers = frozenset(Tile(k) for k in range(34, 42))
    tiles = parse_tiles("123m456p789s111z5m1f")
    ev = Evaluator(flowers, Shapes())
    assert ev.is_complete(tiles, 4)
    shape = ev.evaluate(tiles, 4)
    assert shape is not None and shape.assignment == ((Tile.SPRING, Tile.M5),)
    assert Tile.SPRING in ev.waits(parse_tiles("123m456p789s111z5m"), 4, list(Tile))
