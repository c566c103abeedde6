"""Collapsed readings with wilds of several kinds (rulesets/winning/ordered.py): under the exact
view (no two different groups alike), the classes the collapsed walk lists are exactly those of
every decomposition — the same groups, the same wild places standing for their own face or for
another kind, and the winning tile only where `assemble` puts a tile of its kind.

Hands: four melds and a pair (sometimes with honour chows or 2/5/8 pairs), some tiles replaced
by wilds of two kinds (sometimes three, one a flower), the winning tile natural, wild or none.
"""

from __future__ import annotations

import random

import pytest

from rulesets.tiles import Tile
from rulesets.winning import Evaluator, PAIRS_258, Shapes, WinShape
from rulesets.winning.readings import NATURAL, WILD_OTHER, WILD_OWN, exact_view

PLAYABLE = tuple(Tile(k) for k in range(34))
FLOWER = Tile(34)


def exact_class(shape: WinShape) -> tuple:
    """A reading as the exact view sees it — each group's kind, faces and places — and the
    winning tile's group and role.  The group as `decompositions` tells readings apart: by its
    tiles (of two groups with the same tiles and the same role for the winning tile, it lists
    the first), so here too."""
    views = []
    for group in shape.groups:
        places = tuple(NATURAL if i not in group.wild_positions else WILD_OWN if source == tile else WILD_OTHER
                       for i, (source, tile) in enumerate(zip(group.sources, group.tiles)))
        views.append(exact_view(group.kind, tuple(int(t) for t in group.tiles), places, None))
    win = None
    if shape.win_group is not None:
        group = shape.groups[shape.win_group]
        win = (group.kind.value, tuple(int(t) for t in group.tiles), shape.win_role.value)
    return tuple(sorted(views, key=repr)), win


def _meld(rng: random.Random, honour_chows: bool) -> list[Tile]:
    if honour_chows and rng.random() < 0.2:
        return [Tile(k) for k in rng.sample(range(27, 31), 3)]
    if rng.random() < 0.6:
        base, start = rng.choice((0, 9, 18)), rng.randrange(7)
        return [Tile(base + start + i) for i in range(3)]
    return [rng.choice(PLAYABLE[:27])] * 3


def make_hand(rng: random.Random) -> tuple[list[Tile], frozenset[Tile], Shapes, Tile | None] | None:
    """A complete hand with wilds of several kinds and its winning tile, or None (too many of a kind)."""
    honour_chows = rng.random() < 0.15
    pairs = PAIRS_258 if rng.random() < 0.15 else None
    shapes = Shapes(honour_chows=honour_chows, pair_kinds=pairs)
    suit = rng.choice((0, 9, 18))  # lean on one suit: the most splits
    pair = rng.choice(sorted(pairs)) if pairs else Tile(suit + rng.randrange(9))
    tiles = [pair, pair] + [t for _ in range(4) for t in _meld(rng, honour_chows)]
    if rng.random() < 0.6:
        tiles = [Tile(suit + t % 9) if t < 27 and rng.random() < 0.7 else t for t in tiles]
    kinds = rng.sample([k for k in PLAYABLE if k not in tiles], 2)
    if rng.random() < 0.15:
        kinds.append(FLOWER if rng.random() < 0.5 else rng.choice([k for k in PLAYABLE if k not in tiles + kinds]))
    if any(tiles.count(t) > 4 for t in tiles):
        return None
    wilds = rng.randint(2, min(8, 4 * len(kinds)))
    for n, index in enumerate(rng.sample(range(len(tiles)), wilds)):
        tiles[index] = kinds[n % len(kinds)]
    roll = rng.random()
    win = None if roll < 0.1 else rng.choice([t for t in tiles if t in kinds]) if roll < 0.75 else rng.choice(tiles)
    return sorted(tiles), frozenset(kinds), shapes, win


def _check(seed: int, hands: int) -> None:
    rng = random.Random(seed)
    checked = 0
    while checked < hands:
        made = make_hand(rng)
        if made is None:
            continue
        tiles, kinds, shapes, win = made
        evaluator = Evaluator(kinds, shapes)
        if not evaluator.is_complete_by_counts(tiles, 4):
            continue
        collapsed = {exact_class(s) for s in evaluator.decompositions(tiles, 4, win, view=exact_view)}
        every = {exact_class(s) for s in evaluator.decompositions(tiles, 4, win)}
        assert collapsed == every, (tiles, sorted(kinds), win, shapes, collapsed ^ every)
        checked += 1


def test_collapsed_classes_are_every_readings_classes_with_several_wild_kinds() -> None:
    _check(seed=0, hands=40)


@pytest.mark.soak
@pytest.mark.timeout(900)
def test_soak_collapsed_classes_with_several_wild_kinds() -> None:
    _check(seed=1, hands=1000)
