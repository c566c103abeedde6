"""Readings collapsed by what a region looks at: one decomposition per class, not every one.

A region's requirements and scorer read a reading (a decomposition with its wild assignment
and the winning tile's place) through a few features: which suits and honours stand, which
groups are pungs, the pair, the group holding the winning tile, sometimes where the chows
start or how many wilds stand for another kind.  Splits that agree on those features judge
and score the same, so only one of them needs to be built, judged and priced.  With wilds a
hand has hundreds or thousands of splits (1122334455m + four wilds: 712 readings) but a few
dozen classes.

What a region looks at is given as a *group view*: a function of one group —
``view(kind, faces, places, role)`` with the faces it stands for, a code per place (0 a
natural tile, 1 a wild standing for another kind, 2 a wild standing for its own face) and the
winning tile's role when the group holds it, else None — whose value, over the groups of a
reading, is all the region reads of the concealed part.  The contract: two readings whose
multisets of views are equal are legal alike and priced alike (rulesets/scoring/views.py
builds the views; tests/rulesets/test_reading_classes.py holds every region to it by
comparing the collapsed verdict and settlement with the exhaustive ones).

`standard_classes` walks the same splits as `decompose.standard_splits` (the group holding the
lowest natural tile, partial groups filled by wilds, groups of wilds only left *free*), but
merges, at each step, options that take the same natural tiles, use as many wilds and show the
same view, and memoises what can follow a state (the tiles left, the wilds left, whether the
pair and the winning tile are placed).  It handles hands whose wilds are of one kind: every
wild place then holds that kind, so a place standing for the wild's own face is natural
wherever it is, as `assemble` makes it.  `Evaluator.decompositions` keeps the exhaustive walk
for the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from .decompose import _free_faces, _options, _split_key
from .results import GroupKind, WinRole
from .special import RawGroup

GroupView = Callable[[GroupKind, tuple[int, ...], tuple[int, ...], "WinRole | None"], Hashable]
"""view(kind, faces, places, role): how a region sees one group (see the module docstring)."""

ANY_READING: GroupView = lambda kind, faces, places, role: None  # noqa: E731
"""The view of a region that reads nothing of the groups: one reading is enough."""

NATURAL, WILD_OTHER, WILD_OWN = range(3)
NO_WIN, WIN_NATURAL, WIN_WILD = range(3)

Class = frozenset
Witness = tuple  # a linked list: ((raw group, win place or None), rest)


def exact_view(kind: GroupKind, faces: tuple[int, ...], places: tuple[int, ...], role: WinRole | None) -> Hashable:
    """Everything of a group: no two different groups look alike."""
    return kind.value, faces, places, role.value if role is not None else None


def raw_role(kind: GroupKind, faces: Sequence[int], place: int) -> WinRole:
    """`decompose.role_of` on a raw group: what a winning tile at `place` did."""
    if kind is GroupKind.PAIR:
        return WinRole.PAIR
    if kind is GroupKind.PUNG:
        return WinRole.PUNG
    if kind is GroupKind.SINGLE:
        return WinRole.SINGLE
    if faces[0] >= 27:
        return WinRole.HONOUR_CHOW
    if place == 1:
        return WinRole.CLOSED
    low = faces[0] % 9 + 1
    if place == 0:
        return WinRole.EDGE if low == 7 else WinRole.OPEN
    return WinRole.EDGE if low == 1 else WinRole.OPEN


class _Walk:
    """One collapsed walk over the standard splits of one hand (see `standard_classes`)."""

    def __init__(self, faces: Sequence[int], wilds: int, wild_face: int | None, pair_kinds: frozenset[int] | None,
                 honour_chows: bool, win: tuple[int, int | None], view: GroupView) -> None:
        self.counts = list(faces)
        self.wilds = wilds
        self.wild_face = wild_face  # the face of the (one) wild kind, or None (no wilds, or a flower)
        self.pair_kinds = pair_kinds
        self.honour_chows = honour_chows
        self.win_mode, self.win_face = win
        self.view = view
        self.memo: dict[tuple, dict[Class, Witness]] = {}

    # -- classes -----------------------------------------------------------------------------

    def group_class(self, kind: GroupKind, faces: tuple[int, ...], flags: tuple[bool, ...], role: WinRole | None) -> Class:
        own = self.wild_face
        places = tuple(NATURAL if not wild else WILD_OWN if face == own else WILD_OTHER for face, wild in zip(faces, flags))
        return self.view(kind, faces, places, role)

    def win_places(self, faces: tuple[int, ...], flags: tuple[bool, ...]) -> list[int]:
        """Places of a group where the winning tile can sit (one per distinct role is enough)."""
        if self.win_mode == WIN_NATURAL:
            return [i for i, (face, wild) in enumerate(zip(faces, flags)) if not wild and face == self.win_face]
        if self.win_mode == WIN_WILD:
            return [i for i, wild in enumerate(flags) if wild]
        return []

    # -- the walk ------------------------------------------------------------------------------

    def run(self) -> dict[Class, Witness]:
        return self.search(0, self.wilds, True, self.win_mode == NO_WIN, 0)

    def search(self, start: int, left: int, pair_needed: bool, win_placed: bool, own_used: int) -> dict[Class, Witness]:
        counts = self.counts
        k = start
        while k < 34 and not counts[k]:
            k += 1
        if k == 34:
            return self.finish(left, pair_needed, win_placed, own_used)
        state = (tuple(counts[k:]), k, left, pair_needed, win_placed, own_used)
        found = self.memo.get(state)
        if found is not None:
            return found
        out: dict[Class, Witness] = {}
        tried: set[tuple] = set()
        for group, taken, used, pair_after in list(_options(counts, k, left, pair_needed, self.pair_kinds,
                                                           self.honour_chows)):
            kind, faces, flags = group
            own = sum(1 for face, wild in zip(faces, flags) if wild and face == self.wild_face)
            choices: list[tuple[int | None, WinRole | None]] = [(None, None)]
            if not win_placed:
                roles: dict[WinRole, int] = {}
                for place in self.win_places(faces, flags):
                    roles.setdefault(raw_role(kind, faces, place), place)
                choices += [(place, role) for role, place in roles.items()]
            for place, role in choices:
                cls = self.group_class(kind, faces, flags, role)
                key = (taken, used, pair_after, cls, own, role is not None)
                if key in tried:
                    continue
                tried.add(key)
                for t in taken:
                    counts[t] -= 1
                rest = self.search(k, left - used, pair_after, win_placed or role is not None, own_used + own)
                for t in taken:
                    counts[t] += 1
                for classes, witness in rest.items():
                    merged = _add(classes, cls)
                    if merged not in out:
                        out[merged] = ((group, place), witness)
        self.memo[state] = out
        return out

    def finish(self, left: int, pair_needed: bool, win_placed: bool, own_used: int) -> dict[Class, Witness]:
        """The groups of wilds only (a pair if still needed, then pungs), as `assemble` will
        show them; the winning tile, if it is a wild not yet placed, goes into one of them."""
        free: list[tuple[GroupKind, int]] = []
        if pair_needed:
            if left < 2 or (self.pair_kinds is not None and not self.pair_kinds):
                return {}
            free.append((GroupKind.PAIR, 2))
            left -= 2
        if left % 3:
            return {}
        free += [(GroupKind.PUNG, 3)] * (left // 3)
        if not free:
            return {frozenset(): ()} if win_placed else {}
        pool = Counter({self.wild_face: self.wilds - own_used}) if self.wild_face is not None else Counter()
        faces = _free_faces(free, pool, self.pair_kinds, None)
        groups = []
        for (kind, size), face in zip(free, faces):
            natural = min(pool[face], size)
            pool[face] -= natural
            flags = (True,) * size
            groups.append(((kind, None, flags), (face,) * size, natural))
        out: dict[Class, Witness] = {}
        if win_placed:
            hosts: list[int | None] = [None]
        elif self.win_mode == WIN_WILD:
            hosts = list(range(len(groups)))
        else:
            return {}  # a natural winning tile sits in a group with naturals
        for host in hosts:  # the wild winning tile in a free group: pair → 单吊, pung → 双碰
            classes = []
            witness: Witness = ()
            for index, ((kind, _, flags), shown, natural) in enumerate(groups):
                role = None
                if index == host:
                    role = WinRole.PAIR if kind is GroupKind.PAIR else WinRole.PUNG
                places = (WILD_OWN,) * natural + (WILD_OTHER,) * (len(flags) - natural)
                classes.append(self.view(kind, shown, places, role))
                witness = (((kind, None, flags), 0 if role is not None else None), witness)
            out.setdefault(_multiset(classes), witness)
        return out


def _add(classes: Class, view: Hashable) -> Class:
    """The multiset `classes` with one more `view`."""
    counts = dict(classes)
    counts[view] = counts.get(view, 0) + 1
    return frozenset(counts.items())


def _multiset(classes: list[Hashable]) -> Class:
    """A hashable multiset of views (views need not be orderable)."""
    return frozenset(Counter(classes).items())


def standard_classes(faces: Sequence[int], wilds: int, wild_face: int | None, pair_kinds: frozenset[int] | None,
                     honour_chows: bool, win: tuple[int, int | None], view: GroupView = exact_view
                     ) -> list[tuple[tuple[RawGroup, ...], int | None, int | None]]:
    """One standard split per class: (groups sorted as `standard_splits` sorts them, index of
    the group holding the winning tile and its place there, or None, None).

    `faces`: face counts of the natural tiles; `wilds`: the wild tiles, all of one kind whose
    face is `wild_face` (None: no wild can play its own face, e.g. a wild flower); `win`:
    (NO_WIN, None), (WIN_NATURAL, face of the winning tile) or (WIN_WILD, None).
    """
    walk = _Walk(faces, wilds, wild_face, pair_kinds, honour_chows, win, view)
    out = []
    for witness in walk.run().values():
        chosen: list[tuple[RawGroup, int | None]] = []
        while witness:
            item, witness = witness
            chosen.append(item)
        order = sorted(range(len(chosen)), key=lambda i: _split_key(chosen[i][0]))
        split = tuple(chosen[i][0] for i in order)
        win_index = next((n for n, i in enumerate(order) if chosen[i][1] is not None), None)
        out.append((split, win_index, None if win_index is None else chosen[order[win_index]][1]))
    return out


__all__ = ["GroupView", "ANY_READING", "exact_view", "NATURAL", "WILD_OTHER", "WILD_OWN", "NO_WIN", "WIN_NATURAL", "WIN_WILD",
           "standard_classes", "raw_role"]
