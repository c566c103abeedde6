"""A slow, obviously correct reference for win evaluation with wilds.

Plain recursion over counts, written straight from the definitions in
rulesets/winning/shapes.py; no tables, no arithmetic shortcuts.  Tests compare the fast
evaluator with it.

Conventions shared with the fast evaluator (and documented there): a wild may stand for any
tile, even a fifth copy of a kind; a stand-in plays its face; a kind already held four times
is not a wait.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, product

from rulesets.tiles import Tile
from rulesets.winning import ORPHANS, Shapes

SUITED_CHOWS = tuple((b + s, b + s + 1, b + s + 2) for b in (0, 9, 18) for s in range(7))
HONOUR_CHOWS = (*combinations(range(27, 31), 3), (31, 32, 33))


def melds(honour_chows: bool) -> tuple[tuple[int, ...], ...]:
    """Every meld, as a tuple of kinds: 34 pungs, 21 chows, and the honour chows if allowed."""
    pungs = tuple((k, k, k) for k in range(34))
    return pungs + SUITED_CHOWS + (HONOUR_CHOWS if honour_chows else ())


@lru_cache(maxsize=None)
def standard(faces: tuple[int, ...], wilds: int, pair_kinds: frozenset[int] | None, honour_chows: bool,
             pair_needed: bool = True) -> bool:
    """Can the natural tiles (`faces`, 34 counts) and `wilds` all be used in melds plus, when
    `pair_needed`, exactly one pair (of a kind in `pair_kinds`, if given)?"""
    k = next((i for i, n in enumerate(faces) if n), None)
    if k is None:  # only wilds left: they make a pair (any allowed kind) and pungs
        if pair_needed:
            return wilds >= 2 and (wilds - 2) % 3 == 0 and (pair_kinds is None or bool(pair_kinds))
        return wilds % 3 == 0
    # The lowest natural tile k is in some group; its other places hold naturals or wilds.
    groups = [m for m in melds(honour_chows) if k in m]
    if pair_needed and (pair_kinds is None or k in pair_kinds):
        groups.append((k, k))
    for group in groups:
        others = Counter(group)
        others[k] -= 1
        kinds = sorted(t for t in others if others[t])
        for naturals in product(*(range(min(faces[t], others[t]) + 1) for t in kinds)):
            need_wilds = sum(others[t] for t in kinds) - sum(naturals)
            if need_wilds > wilds:
                continue
            rest = list(faces)
            rest[k] -= 1
            for t, used in zip(kinds, naturals):
                rest[t] -= used
            still_pair = pair_needed and len(group) == 3
            if standard(tuple(rest), wilds - need_wilds, pair_kinds, honour_chows, still_pair):
                return True
    return False


@lru_cache(maxsize=None)
def pairs(faces: tuple[int, ...], wilds: int, distinct: bool, singles_allowed: int,
          used: frozenset[int] = frozenset()) -> bool:
    """Can all tiles be split into pairs plus `singles_allowed` single tiles (exactly)?
    `distinct`: no two pairs of one kind (pairs of wilds pick fresh kinds: there are enough)."""
    k = next((i for i, n in enumerate(faces) if n), None)
    if k is None:
        return wilds >= singles_allowed and (wilds - singles_allowed) % 2 == 0
    rest = list(faces)
    rest[k] -= 1
    options = []
    if not (distinct and k in used):
        if faces[k] >= 2:
            with_natural = list(rest)
            with_natural[k] -= 1
            options.append((tuple(with_natural), wilds, singles_allowed))
        if wilds:
            options.append((tuple(rest), wilds - 1, singles_allowed))
    for new_faces, new_wilds, new_singles in options:
        if pairs(new_faces, new_wilds, distinct, new_singles, used | {k}):
            return True
    return bool(singles_allowed) and pairs(tuple(rest), wilds, distinct, singles_allowed - 1, used)


def thirteen_orphans(faces: tuple[int, ...], wilds: int) -> bool:
    """One of each orphan plus one more orphan; wilds fill what is missing."""
    for extra in ORPHANS:
        wanted = Counter(ORPHANS)
        wanted[extra] += 1
        if all(faces[k] <= wanted[k] for k in range(34)) and sum(faces) + wilds == 14:
            return True
    return False


def _valid_suit_sets() -> list[frozenset[int]]:
    return [frozenset(c) for size in range(10) for c in combinations(range(9), size)
            if all(b - a >= 3 for a, b in zip(c, c[1:]))]


VALID_SUIT_SETS = _valid_suit_sets()


def shisanlan(faces: tuple[int, ...], wilds: int) -> bool:
    """Fourteen different kinds, no two of one suit less than three ranks apart; the naturals
    are some of them and wilds are the rest."""
    if any(n > 1 for n in faces) or sum(faces) + wilds != 14:
        return False
    sizes = []
    for base in (0, 9, 18):
        held = {r for r in range(9) if faces[base + r]}
        sizes.append({len(s) for s in VALID_SUIT_SETS if held <= s})
    honours = sum(faces[27:34])
    return any(a + b + c + h == 14 for a in sizes[0] for b in sizes[1] for c in sizes[2]
               for h in range(honours, 8))


def faces_and_wilds(hand: list[Tile], wild_kinds: frozenset[Tile], stand_ins: dict[Tile, Tile]) -> tuple[tuple[int, ...], list[Tile]]:
    faces = [0] * 34
    wild_tiles = []
    for tile in hand:
        if tile in wild_kinds:
            wild_tiles.append(tile)
        else:
            faces[stand_ins.get(tile, tile)] += 1
    return tuple(faces), wild_tiles


def complete_faces(faces: tuple[int, ...], wilds: int, melds_needed: int, shapes: Shapes) -> bool:
    size = sum(faces) + wilds
    assert size == 3 * melds_needed + 2
    pair_kinds = None if shapes.pair_kinds is None else frozenset(int(k) for k in shapes.pair_kinds)
    if shapes.standard and standard(faces, wilds, pair_kinds, shapes.honour_chows):
        return True
    if size == 14:
        distinct = not shapes.four_as_two_pairs
        if shapes.seven_pairs and pairs(faces, wilds, distinct, 0):
            return True
        if shapes.thirteen_orphans and thirteen_orphans(faces, wilds):
            return True
        if shapes.shisanlan and shisanlan(faces, wilds):
            return True
    if size == 17 and shapes.eight_pairs_plus_single:
        if pairs(faces, wilds, not shapes.four_as_two_pairs, 1):
            return True
    return False


def complete(hand: list[Tile], wild_kinds: frozenset[Tile], melds_needed: int, shapes: Shapes,
             stand_ins: dict[Tile, Tile] | None = None) -> bool:
    faces, wild_tiles = faces_and_wilds(hand, wild_kinds, stand_ins or {})
    return complete_faces(faces, len(wild_tiles), melds_needed, shapes)


def waits(hand: list[Tile], wild_kinds: frozenset[Tile], melds_needed: int, shapes: Shapes,
          candidates, stand_ins: dict[Tile, Tile] | None = None) -> tuple[Tile, ...]:
    out = []
    for tile in candidates:
        if hand.count(tile) >= 4 or (tile.is_flower and tile not in wild_kinds):
            continue
        if complete(hand + [tile], wild_kinds, melds_needed, shapes, stand_ins):
            out.append(tile)
    return tuple(out)


def min_wilds_as_wild(hand: list[Tile], wild_kinds: frozenset[Tile], melds_needed: int, shapes: Shapes,
                      stand_ins: dict[Tile, Tile] | None = None) -> int | None:
    """Try every number of wild tiles of each kind playing their own face."""
    faces, wild_tiles = faces_and_wilds(hand, wild_kinds, stand_ins or {})
    kinds = Counter(t for t in wild_tiles if not t.is_flower)
    best = None
    for made in product(*(range(n + 1) for n in kinds.values())):
        trial = list(faces)
        for kind, n in zip(kinds, made):
            trial[kind] += n
        as_wild = len(wild_tiles) - sum(made)
        if complete_faces(tuple(trial), as_wild, melds_needed, shapes):
            best = as_wild if best is None else min(best, as_wild)
    return best
