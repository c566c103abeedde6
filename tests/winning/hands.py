"""Random hands for the cross-checks: near-complete hands of each shape family, with wilds.

Every generator takes a `random.Random`, so Hypothesis (`st.randoms()`) controls and replays it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from rulesets.tiles import Tile
from rulesets.winning import ORPHANS, PAIRS_258, Shapes

PLAYABLE = tuple(Tile(k) for k in range(34))
SUITED = PLAYABLE[:27]
HONOURS = PLAYABLE[27:]
SUIT_SETS = [c for size in (2, 3) for c in combinations(range(9), size)
             if all(b - a >= 3 for a, b in zip(c, c[1:]))]
FAMILIES = ("standard", "seven_pairs", "orphans", "shisanlan", "eight_pairs", "honour_chows",
            "pairs_258", "random")


@dataclass
class Case:
    """A hand and the rules to judge it by."""

    hand: list[Tile]
    wild_kinds: frozenset[Tile]
    melds_needed: int
    shapes: Shapes
    stand_ins: dict[Tile, Tile] = field(default_factory=dict)

    def __repr__(self) -> str:  # readable Hypothesis failures
        hand = "".join(str(t) for t in sorted(self.hand))
        wilds = ",".join(map(str, sorted(self.wild_kinds)))
        return (f"Case({hand!r}, wilds={{{wilds}}}, melds_needed={self.melds_needed}, {self.shapes}, "
                f"stand_ins={ {str(k): str(v) for k, v in self.stand_ins.items()} })")


def _meld(rng: random.Random, honour_chows: bool) -> list[Tile]:
    roll = rng.random()
    if honour_chows and roll < 0.2:
        if rng.random() < 0.5:
            return [Tile(k) for k in rng.sample(range(27, 31), 3)]
        return [Tile.WHITE, Tile.GREEN, Tile.RED]
    if roll < 0.55:
        base, start = rng.choice((0, 9, 18)), rng.randrange(7)
        return [Tile(base + start + i) for i in range(3)]
    return [rng.choice(PLAYABLE)] * 3


def _base(rng: random.Random, family: str, melds: int) -> tuple[list[Tile], Shapes]:
    if family in ("standard", "honour_chows", "pairs_258", "random"):
        chows = family == "honour_chows"
        pair_kinds = PAIRS_258 if family == "pairs_258" else None
        shapes = Shapes(honour_chows=chows, pair_kinds=pair_kinds,
                        seven_pairs=melds == 4 and rng.random() < 0.3,
                        eight_pairs_plus_single=melds == 5 and rng.random() < 0.3)
        if family == "random":
            return [rng.choice(PLAYABLE) for _ in range(3 * melds + 2)], shapes
        pair = rng.choice(sorted(pair_kinds) if pair_kinds else PLAYABLE)
        tiles = [pair, pair]
        for _ in range(melds):
            tiles += _meld(rng, chows)
        return tiles, shapes
    four = rng.random() < 0.5
    if family == "seven_pairs":
        kinds = rng.sample(PLAYABLE, 7) if not four else [rng.choice(PLAYABLE) for _ in range(7)]
        return [k for k in kinds for _ in range(2)], Shapes(seven_pairs=True, four_as_two_pairs=four,
                                                           standard=rng.random() < 0.5)
    if family == "eight_pairs":
        kinds = rng.sample(PLAYABLE, 8) if not four else [rng.choice(PLAYABLE) for _ in range(8)]
        tiles = [k for k in kinds for _ in range(2)] + [rng.choice(PLAYABLE)]
        return tiles, Shapes(eight_pairs_plus_single=True, four_as_two_pairs=four, standard=rng.random() < 0.5)
    if family == "orphans":
        return list(ORPHANS) + [rng.choice(ORPHANS)], Shapes(thirteen_orphans=True, standard=rng.random() < 0.5)
    if family == "shisanlan":
        while True:
            tiles = [Tile(base + r) for base in (0, 9, 18) for r in rng.choice(SUIT_SETS)]
            tiles += rng.sample(HONOURS, 14 - len(tiles)) if len(tiles) >= 7 else []
            if len(tiles) == 14:
                return tiles, Shapes(shisanlan=True, standard=rng.random() < 0.5)
    raise ValueError(family)


def make_case(rng: random.Random, family: str, melds: int = 4, max_wilds: int = 8) -> Case:
    """A hand of `family` with up to `max_wilds` wilds, sometimes spoiled by one or two tiles."""
    while True:
        tiles, shapes = _base(rng, family, melds)
        wild_kinds = frozenset(rng.sample(PLAYABLE, rng.choice((1, 1, 1, 2))))
        stand_ins: dict[Tile, Tile] = {}
        if rng.random() < 0.2:  # 白板 plays the wild's face (百搭 / 温州)
            target = min(wild_kinds)
            if Tile.WHITE not in wild_kinds and target != Tile.WHITE:
                stand_ins = {Tile.WHITE: target}
        wilds = rng.randint(0, min(max_wilds, len(tiles)))
        for i in rng.sample(range(len(tiles)), wilds):
            tiles[i] = rng.choice(sorted(wild_kinds))
        for _ in range(rng.choice((0, 0, 1, 2))):
            tiles[rng.randrange(len(tiles))] = rng.choice(PLAYABLE)
        physical = Counter(tiles)
        faces = Counter(stand_ins.get(t, t) for t in tiles if t not in wild_kinds)
        if max(physical.values()) <= 4 and max(faces.values(), default=0) <= 4:
            rng.shuffle(tiles)
            return Case(tiles, wild_kinds, melds, shapes, stand_ins)
