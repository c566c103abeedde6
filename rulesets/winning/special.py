"""The special shapes: seven pairs, thirteen orphans, 十三烂 and 八对+单张 (see shapes.py).

All work on *face counts* (34 entries: what each natural tile plays, stand-ins applied) plus a
number of wilds.  `SpecialStats` keeps the few numbers each check needs, so that waits can
ask "and with one more tile of kind f?" in constant time.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .results import GroupKind
from .shapes import ORPHANS, ShapeKind, Shapes

_ORPHANS = tuple(int(t) for t in ORPHANS)
_ORPHAN_SET = frozenset(_ORPHANS)
_HONOURS = tuple(range(27, 34))


def _shisanlan_capacities() -> dict[int, tuple[int, int]]:
    """For each valid 十三烂 rank set of one suit (bit mask of 0-based ranks): how many ranks a
    valid superset can have at most, and the smallest such superset (as a mask)."""
    valid = [sum(1 << r for r in ranks)
             for size in range(4) for ranks in combinations(range(9), size)
             if all(b - a >= 3 for a, b in zip(ranks, ranks[1:]))]
    out = {}
    for mask in valid:
        supersets = [s for s in valid if s & mask == mask]
        best = max(supersets, key=lambda s: (bin(s).count("1"), -s))
        out[mask] = (bin(best).count("1"), best)
    return out


SHISANLAN_SETS = _shisanlan_capacities()
"""Valid 十三烂 rank masks of one suit → (largest valid superset size, that superset)."""


class SpecialStats:
    """The numbers the special shapes need, for face counts and wilds; see `complete`."""

    __slots__ = ("faces", "wilds", "odd", "big", "ones", "extra", "non_orphan", "orphan_two",
                 "orphan_three", "masks", "honour_ok")

    def __init__(self, faces: Sequence[int], wilds: int) -> None:
        self.faces = faces
        self.wilds = wilds
        ones, twos, threes, fours = (faces.count(n) for n in (1, 2, 3, 4))
        self.odd = ones + threes  # kinds with an odd count
        self.big = threes + fours  # kinds with 3 or 4
        self.ones = ones
        self.extra = threes + 2 * fours  # tiles beyond one pair of a kind
        orphans = [faces[k] for k in _ORPHANS]
        self.non_orphan = sum(faces) - sum(orphans)
        self.orphan_two = sum(c >= 2 for c in orphans)
        self.orphan_three = sum(c >= 3 for c in orphans)
        self.masks: list[int] | None = None  # 十三烂 rank masks, computed when first needed
        self.honour_ok = all(faces[k] <= 1 for k in _HONOURS)

    def _shisanlan_masks(self) -> list[int]:
        if self.masks is None:
            faces = self.faces
            self.masks = [sum(1 << r for r in range(9) if faces[9 * s + r])
                          if max(faces[9 * s:9 * s + 9]) <= 1 else -1 for s in range(3)]
        return self.masks

    def possible(self, shape: ShapeKind, shapes: Shapes) -> bool:
        """False when no single added tile or wild can give `shape` (a quick filter for waits)."""
        if shape is ShapeKind.SEVEN_PAIRS:
            return self.odd - 1 <= self.wilds + 1 and (shapes.four_as_two_pairs or self.big == 0)
        if shape is ShapeKind.EIGHT_PAIRS_PLUS_SINGLE:
            if shapes.four_as_two_pairs:
                return self.odd - 2 <= self.wilds + 1
            return self.extra <= 1 and self.ones - 2 <= self.wilds + 1
        if shape is ShapeKind.THIRTEEN_ORPHANS:
            return self.non_orphan == 0 and self.orphan_three == 0 and self.orphan_two <= 1
        if shape is ShapeKind.SHISANLAN:
            return self.honour_ok and all(m in SHISANLAN_SETS for m in self._shisanlan_masks())
        return True

    def complete(self, shape: ShapeKind, shapes: Shapes, add: int | None = None,
                 add_wild: bool = False) -> bool:
        """Whether the hand (plus one tile of face `add`, or one more wild) has `shape`.

        The caller makes sure the tile count fits the shape (14, or 17 for 八对+单张).
        """
        wilds = self.wilds + add_wild
        c = self.faces[add] if add is not None else -1  # count before adding
        if shape is ShapeKind.SEVEN_PAIRS:
            odd = self.odd + ((1 if c % 2 == 0 else -1) if c >= 0 else 0)
            big = self.big + (c == 2)
            return odd <= wilds and (shapes.four_as_two_pairs or big == 0)
        if shape is ShapeKind.EIGHT_PAIRS_PLUS_SINGLE:
            if shapes.four_as_two_pairs:
                odd = self.odd + ((1 if c % 2 == 0 else -1) if c >= 0 else 0)
                return odd - 1 <= wilds  # one odd tile stays single, the rest get a wild each
            ones = self.ones + (c == 0) - (c == 1)
            extra = self.extra + (c >= 2)
            if extra >= 2:
                return False
            return ones <= wilds if extra == 1 else ones - 1 <= wilds
        if shape is ShapeKind.THIRTEEN_ORPHANS:
            non_orphan = self.non_orphan + (c >= 0 and add not in _ORPHAN_SET)
            orphan = c >= 0 and add in _ORPHAN_SET
            two = self.orphan_two + (orphan and c == 1)
            three = self.orphan_three + (orphan and c == 2)
            return non_orphan == 0 and three == 0 and two <= 1
        if shape is ShapeKind.SHISANLAN:
            masks = list(self._shisanlan_masks())
            honour_ok = self.honour_ok
            if c >= 0:
                if add >= 27:
                    honour_ok = honour_ok and c == 0
                else:
                    s, r = divmod(add, 9)
                    masks[s] = masks[s] | 1 << r if c == 0 and masks[s] >= 0 else -1
            if not honour_ok or any(m not in SHISANLAN_SETS for m in masks):
                return False
            honours = sum(self.faces[k] for k in _HONOURS) + (c >= 0 and add >= 27)
            room = 7 - honours + sum(SHISANLAN_SETS[m][0] - bin(m).count("1") for m in masks)
            return wilds <= room
        raise ValueError(f"not a special shape: {shape}")


RawGroup = tuple[GroupKind, tuple[int, ...] | None, tuple[bool, ...]]
"""(kind, faces per place or None for a free group of wilds, which places are wilds)."""


def seven_pairs_split(faces: Sequence[int], wilds: int) -> list[tuple[RawGroup, ...]]:
    """The split of a complete seven-pairs (or eight-pairs) hand: natural pairs, a natural tile
    with a wild, then pairs of wilds (free)."""
    groups: list[RawGroup] = []
    for k, c in enumerate(faces):
        groups += [(GroupKind.PAIR, (k, k), (False, False))] * (c // 2)
        if c % 2:
            groups.append((GroupKind.PAIR, (k, k), (False, True)))
            wilds -= 1
    groups += [(GroupKind.PAIR, None, (True, True))] * (wilds // 2)
    return [tuple(groups)]


def eight_pairs_splits(faces: Sequence[int], wilds: int, four_as_two: bool) -> list[tuple[RawGroup, ...]]:
    """Every split of a complete 八对+单张 hand: each choice of the single tile."""
    out = []
    singles = [k for k, c in enumerate(faces) if (c % 2 if four_as_two else c in (1, 3, 4))]
    forced = [] if four_as_two else [k for k, c in enumerate(faces) if c >= 3]
    choices: list[int | None] = forced or singles + [None]
    for single in choices:
        rest = list(faces)
        groups: list[RawGroup] = []
        left = wilds
        if single is None:
            if left < 1:
                continue
            groups.append((GroupKind.SINGLE, None, (True,)))
            left -= 1
        else:
            rest[single] -= 1
            groups.append((GroupKind.SINGLE, (single,), (False,)))
        odd = sum(c % 2 for c in rest)
        if odd > left or (left - odd) % 2:
            continue
        (pairs,) = seven_pairs_split(rest, left)
        out.append(tuple(groups) + pairs)
    return out


def orphans_splits(faces: Sequence[int], wilds: int) -> list[tuple[RawGroup, ...]]:
    """Every split of a complete 十三幺 hand: each choice of the pair's kind."""
    doubled = [k for k in ORPHANS if faces[k] == 2]
    out = []
    for pair in doubled or ORPHANS:
        groups: list[RawGroup] = []
        for k in ORPHANS:
            need = 2 if k == pair else 1
            have = faces[k]
            places = (False,) * have + (True,) * (need - have)
            groups.append((GroupKind.PAIR if need == 2 else GroupKind.SINGLE, (int(k),) * need, places))
        if sum(g[2].count(True) for g in groups) == wilds:
            out.append(tuple(groups))
    return out


def _shisanlan_room(faces: Sequence[int]) -> int:
    """How many more tiles a valid 十三烂 hand could take (faces must be valid)."""
    masks = [sum(1 << r for r in range(9) if faces[9 * s + r]) for s in range(3)]
    return (7 - sum(faces[k] for k in _HONOURS)
            + sum(SHISANLAN_SETS[m][0] - bin(m).count("1") for m in masks))


def _shisanlan_fits(faces: Sequence[int], kind: int) -> bool:
    if faces[kind]:
        return False
    if kind >= 27:
        return True
    s, r = divmod(kind, 9)
    mask = sum(1 << q for q in range(9) if faces[9 * s + q])
    return mask | 1 << r in SHISANLAN_SETS


def shisanlan_split(faces: Sequence[int], wilds: int, own_faces: Sequence[int] = ()) -> list[tuple[RawGroup, ...]]:
    """The split of a complete 十三烂 hand.  Wilds first play their own face where it fits (then
    they are natural), then become the missing honours (东 … 中), then the lowest ranks that keep
    each suit valid, suit by suit (m, p, s)."""
    filled = list(faces)
    groups: list[RawGroup] = [(GroupKind.SINGLE, (k,), (False,)) for k, c in enumerate(faces) if c]

    def place(kind: int) -> None:
        nonlocal wilds
        filled[kind] += 1
        groups.append((GroupKind.SINGLE, (kind,), (True,)))
        wilds -= 1

    for kind in sorted(set(own_faces)):
        if wilds and kind < 34 and _shisanlan_fits(filled, kind):
            filled[kind] += 1
            if _shisanlan_room(filled) >= wilds - 1:
                filled[kind] -= 1
                place(kind)
            else:
                filled[kind] -= 1
    for k in _HONOURS:
        if wilds and not filled[k]:
            place(k)
    for s in range(3):
        mask = sum(1 << r for r in range(9) if filled[9 * s + r])
        superset = SHISANLAN_SETS[mask][1]
        for r in range(9):
            if wilds and superset >> r & 1 and not mask >> r & 1:
                place(9 * s + r)
    return [tuple(sorted(groups, key=lambda g: g[1]))]


def special_splits(shape: ShapeKind, faces: Sequence[int], wilds: int, shapes: Shapes,
                   own_faces: Sequence[int] = ()) -> list[tuple[RawGroup, ...]]:
    """The splits of a complete hand of a special shape; `own_faces` are the faces of the wild
    tiles (十三烂 lets them play themselves first)."""
    if shape is ShapeKind.SEVEN_PAIRS:
        return seven_pairs_split(faces, wilds)
    if shape is ShapeKind.EIGHT_PAIRS_PLUS_SINGLE:
        return eight_pairs_splits(faces, wilds, shapes.four_as_two_pairs)
    if shape is ShapeKind.THIRTEEN_ORPHANS:
        return orphans_splits(faces, wilds)
    if shape is ShapeKind.SHISANLAN:
        return shisanlan_split(faces, wilds, own_faces)
    raise ValueError(f"not a special shape: {shape}")


__all__ = ["SpecialStats", "SHISANLAN_SETS", "special_splits", "RawGroup"]
