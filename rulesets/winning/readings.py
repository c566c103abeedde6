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
wherever it is, as `assemble` makes it.  With several kinds it still serves while the order
in which `assemble` places the kinds does not matter; where it does (a wild winning tile, or
more places of a kind's own face than its tiles), ordered.py walks the splits in that order.
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from collections.abc import Callable, Hashable, Sequence

from .decompose import _free_faces, _options, _split_key, chows_with
from .results import GroupKind, WinRole
from .special import RawGroup

GroupView = Callable[[GroupKind, tuple[int, ...], tuple[int, ...], "WinRole | None"], Hashable]
"""view(kind, faces, places, role): how a region sees one group (see the module docstring)."""

ANY_READING: GroupView = lambda kind, faces, places, role: None  # noqa: E731
"""The view of a region that reads nothing of the groups: one reading is enough."""


def read_as_set(view: GroupView, reduce: Callable[[frozenset], Hashable] | None = None) -> GroupView:
    """Mark a view whose reader decides on the *set* of a reading's views, not their multiset
    (how many groups show a view does not count): readings whose views differ only in how
    often one appears are then one class.  `reduce`, if given, maps that set to what the
    reader decides on (e.g. whether three chows make a 龙): of the classes alike under it (and
    under the coarse view) the walk yields one.  Returns the view."""
    view.as_set = True  # type: ignore[attr-defined]
    view.reduce = reduce  # type: ignore[attr-defined]
    return view


def one_per_reading(walk: "_Walk", found: dict[Class, object]) -> dict[Class, object]:
    """The classes of `found` with one per value of the view's `reduce` (see `read_as_set`)
    and coarse class: the others are judged and priced alike."""
    reduce = getattr(walk.view, "reduce", None)
    if reduce is None:
        return found
    views = {i: view for view, i in walk.ids.items()}
    out: dict[Class, object] = {}
    seen: set[tuple] = set()
    for classes, value in found.items():
        rough = tuple(sorted(walk.coarse_of[i] for i in classes)) if walk.coarse is not None else None
        key = (reduce(frozenset(views[i] for i in classes)), rough)
        if key not in seen:
            seen.add(key)
            out[classes] = value
    return out

NATURAL, WILD_OTHER, WILD_OWN = range(3)
NO_WIN, WIN_NATURAL, WIN_WILD = range(3)

_POW5 = tuple(5 ** r for r in range(9))
_COMPONENT = tuple(min(k // 9, 3) for k in range(34))
_STEP = tuple(_POW5[k % 9] if k < 27 else _POW5[k - 27] for k in range(34))
CostOf = Callable[[list[int], bool], int]
"""cost(component keys, pair needed): the fewest wilds that complete what is left (the tables)."""

_NATURALS = tuple((NATURAL,) * n for n in range(4))
# The options of a group holding the lowest natural kind k depend on the counts of k (up to 3), on
# which kinds above k that share a chow with it are held, on the wilds left (up to 2: a group
# holding a natural takes at most two), on the pair and on the winning tile: `_Walk.options`.
_ABOVE = tuple(tuple(tuple(sorted({t for chow in chows_with(k, honour) for t in chow if t > k})) for k in range(34))
               for honour in (False, True))
_NO_WIN: tuple[tuple[None, None], ...] = ((None, None),)
Class = tuple  # sorted view ids
Split = tuple[tuple[RawGroup, ...], "int | None", "int | None"]  # groups, winning group, place in it


class ViewClass(tuple):
    """A class of readings as a judge sees it: the coarse views of its groups, in an order fixed
    for the walk (two classes of one hand are equal iff their views are)."""

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

    def __init__(self, faces: Sequence[int], wilds: int, wild_counts: Sequence[tuple[int, int]],
                 pair_kinds: frozenset[int] | None,
                 honour_chows: bool, win: tuple[int, int | None], view: GroupView, cost: CostOf | None,
                 coarse: GroupView | None = None) -> None:
        self.counts = list(faces)
        self.keys = [sum(faces[base + r] * _POW5[r] for r in range(size)) for base, size in ((0, 9), (9, 9), (18, 9), (27, 7))]
        self.cost = cost
        self.wilds = wilds
        # (face, tiles) of each wild kind that has a face (a wild flower has none)
        self.wild_counts = tuple(wild_counts)
        self.wild_index = {face: i for i, (face, _) in enumerate(self.wild_counts)}
        self.ambiguous = False  # some split has more places of a wild's own face than its tiles
        self.pair_kinds = pair_kinds
        self.honour_chows = honour_chows
        self.win_mode, self.win_face = win
        self.view = view
        self.ids: dict[Hashable, int] = {}
        self.coarse = coarse
        self.as_set = getattr(view, "as_set", False)
        self.coarse_ids: dict[Hashable, int] = {}
        self.coarse_of: list[int] = []  # view id → coarse view id
        self.coarse_views: list[Hashable] = []  # coarse view id → the view (`coarse_class`)
        self.memo: dict[tuple, dict[Class, Witness]] = {}
        # per (group, winning tile placed): its own-face places and (place, role, class id) choices
        self.seen: dict[tuple, tuple[tuple[int, ...], tuple[tuple[int | None, WinRole | None, int], ...]]] = {}
        self.offered: dict[tuple, list[tuple]] = {}  # `options` by what they depend on
        self.merges: dict[tuple[Class, int], Class] = {}  # (class, group's class id) → the class with it

    # -- classes -----------------------------------------------------------------------------

    def group_class(self, kind: GroupKind, faces: tuple[int, ...], flags: tuple[bool, ...], role: WinRole | None) -> int:
        """The id of the group's view (ids keep the class multisets small sorted tuples)."""
        if True in flags:
            own = self.wild_index
            places = tuple(NATURAL if not wild else WILD_OWN if face in own else WILD_OTHER
                           for face, wild in zip(faces, flags))
        else:
            places = _NATURALS[len(faces)]
        return self.view_id(kind, faces, places, role)

    def view_id(self, kind: GroupKind, faces: tuple[int, ...], places: tuple[int, ...], role: WinRole | None) -> int:
        view = self.view(kind, faces, places, role)
        found = self.ids.get(view)
        if found is None:
            found = self.ids[view] = len(self.ids)
            if self.coarse is not None:  # the full view determines it (it is part of the full one)
                rough = self.coarse(kind, faces, places, role)
                self.coarse_of.append(self.coarse_ids.setdefault(rough, len(self.coarse_ids)))
        return found

    def coarse_class(self, classes: Class) -> Hashable:
        """What a judge is told of a class: its coarse views (`ViewClass`), or without a coarse
        view the class itself."""
        if self.coarse is None:
            return classes
        views = self.coarse_views
        if len(views) != len(self.coarse_ids):
            views = self.coarse_views = list(self.coarse_ids)  # an id is its place in the dict
        return ViewClass(views[i] for i in sorted(self.coarse_of[i] for i in classes))

    def merge(self, classes: Class, cls: int) -> Class:
        """The class of a split with one more group of class `cls` (`merges` keeps them)."""
        return classes if self.as_set and cls in classes else tuple(sorted(classes + (cls,)))

    def win_choices(self, kind: GroupKind, faces: tuple[int, ...], flags: tuple[bool, ...]
                    ) -> tuple[tuple[int, WinRole], ...]:
        """(place, role) for each distinct role the winning tile can take in a group."""
        if self.win_mode == WIN_NATURAL:
            places = [i for i, (face, wild) in enumerate(zip(faces, flags)) if not wild and face == self.win_face]
        elif self.win_mode == WIN_WILD:
            places = [i for i, wild in enumerate(flags) if wild]
        else:
            return ()
        roles: dict[WinRole, int] = {}
        for place in places:
            roles.setdefault(raw_role(kind, faces, place), place)
        return tuple((place, role) for role, place in roles.items())

    def options(self, k: int, left: int, pair_needed: bool, win_placed: bool) -> list[tuple]:
        """`decompose._options` for the lowest natural kind k, each with what `describe` says of
        its group: worked out once per walk for what the options depend on (`_ABOVE`)."""
        counts = self.counts
        key = (k, counts[k] if counts[k] < 3 else 3, tuple(counts[t] > 0 for t in _ABOVE[self.honour_chows][k]),
               left if left < 2 else 2, pair_needed, win_placed)
        out = self.offered.get(key)
        if out is None:
            out = self.offered[key] = self._describe_options(k, left, pair_needed, win_placed)
        return out

    def _describe_options(self, k: int, left: int, pair_needed: bool, win_placed: bool) -> list[tuple]:
        seen, out = self.seen, []
        for option in _options(self.counts, k, left, pair_needed, self.pair_kinds, self.honour_chows):
            known = seen.get((option[0], win_placed))
            if known is None:
                known = seen[(option[0], win_placed)] = self.describe(option[0], win_placed)
            out.append(option + known)
        return out

    def describe(self, group: RawGroup, win_placed: bool
                 ) -> tuple[tuple[int, ...], tuple[tuple[int | None, WinRole | None, int], ...]]:
        """What a group brings wherever it is taken: the wild kinds whose own face it fills (one
        entry per place) and, per place the winning tile can take in it (None: not there), the
        role and the class id."""
        kind, faces, flags = group
        own_index = self.wild_index
        own_places = tuple(own_index[face] for face, wild in zip(faces, flags) if wild and face in own_index)
        placements = _NO_WIN if win_placed else _NO_WIN + self.win_choices(kind, faces, flags)
        return own_places, tuple((place, role, self.group_class(kind, faces, flags, role)) for place, role in placements)

    # -- the walk ------------------------------------------------------------------------------

    def run(self) -> dict[Class, Witness]:
        return self.search(0, self.wilds, True, self.win_mode == NO_WIN, (0,) * len(self.wild_counts))

    def search(self, start: int, left: int, pair_needed: bool, win_placed: bool,
               own_used: tuple[int, ...]) -> dict[Class, Witness]:
        counts, keys = self.counts, self.keys
        state = (keys[0], keys[1], keys[2], keys[3], left, pair_needed, win_placed, own_used)
        found = self.memo.get(state)
        if found is not None:
            return found
        k = start
        while k < 34 and not counts[k]:
            k += 1
        if k == 34:
            out = self.finish(left, pair_needed, win_placed, own_used)
            self.memo[state] = out
            return out
        out: dict[Class, Witness] = {}
        tried: set[tuple] = set()
        cost, memo, merges = self.cost, self.memo, self.merges
        win_face = self.win_face if not win_placed and self.win_mode == WIN_NATURAL else None
        for group, taken, used, pair_after, own_places, choices in self.options(k, left, pair_needed, win_placed):
            own = own_used
            for i in own_places:
                own = own[:i] + (own[i] + 1,) + own[i + 1:]
            left_after = left - used
            for place, role, cls in choices:
                key = (taken, used, pair_after, cls, own, place is None)
                if key in tried:
                    continue
                tried.add(key)
                for t in taken:
                    counts[t] -= 1
                    keys[_COMPONENT[t]] -= _STEP[t]
                if role is None and win_face is not None and not counts[win_face]:
                    rest = {}  # the natural winning tile has no group left to sit in
                else:
                    placed = win_placed or role is not None
                    # a state met before needs neither the tables' verdict nor the call (`search`'s key)
                    child = (keys[0], keys[1], keys[2], keys[3], left_after, pair_after, placed, own)
                    rest = memo.get(child)
                    if rest is None:
                        if cost is None or cost(keys, pair_after) <= left_after:
                            rest = self.search(k, left_after, pair_after, placed, own)
                        else:
                            rest = memo[child] = {}
                for t in taken:
                    counts[t] += 1
                    keys[_COMPONENT[t]] += _STEP[t]
                if not rest:
                    continue
                item = (group, place)
                for classes, witness in rest.items():
                    merged = merges.get((classes, cls))
                    if merged is None:
                        merged = merges[(classes, cls)] = self.merge(classes, cls)
                    if merged not in out:
                        out[merged] = (item, witness)
        self.memo[state] = out
        return out

    def free_groups(self, left: int, pair_needed: bool) -> list[tuple[GroupKind, int]] | None:
        """The groups `left` wilds alone make (a pair if still needed, then pungs), or None if they
        cannot (an odd count, or a pair no wild may stand for)."""
        free: list[tuple[GroupKind, int]] = []
        if pair_needed:
            if left < 2 or (self.pair_kinds is not None and not self.pair_kinds):
                return None
            free.append((GroupKind.PAIR, 2))
            left -= 2
        if left % 3:
            return None
        return free + [(GroupKind.PUNG, 3)] * (left // 3)

    def finish(self, left: int, pair_needed: bool, win_placed: bool, own_used: tuple[int, ...]) -> dict[Class, Witness]:
        """The groups of wilds only (a pair if still needed, then pungs), as `assemble` will
        show them; the winning tile, if it is a wild not yet placed, goes into one of them."""
        free = self.free_groups(left, pair_needed)
        if free is None:
            return {}
        if not free:
            return {(): ()} if win_placed else {}
        pool: Counter[int] = Counter()
        for (face, count), used in zip(self.wild_counts, own_used):
            if used > count:  # which of those places the wild's own tiles fill depends on the order
                self.ambiguous = True
            pool[face] = max(count - used, 0)
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
                classes.append(self.view_id(kind, shown, places, role))
                witness = (((kind, None, flags), 0 if role is not None else None), witness)
            out.setdefault(tuple(sorted(set(classes) if self.as_set else classes)), witness)
        return out


def standard_classes(faces: Sequence[int], wilds: int, wild_counts: Sequence[tuple[int, int]],
                     pair_kinds: frozenset[int] | None, honour_chows: bool, win: tuple[int, int | None],
                     view: GroupView = exact_view, cost: CostOf | None = None, coarse: GroupView | None = None
                     ) -> list[tuple[Hashable, Callable[[], Split]]] | None:
    """One standard split per class: (the class as a judge sees it (`_Walk.coarse_class`), and
    a function giving the split: its groups sorted as `standard_splits` sorts them, the index of
    the group holding the winning tile and its place there, or None, None), or None when the
    classes cannot be trusted (see below).

    `faces`: face counts of the natural tiles; `wilds`: the number of wild tiles;
    `wild_counts`: (face, tiles) of each wild kind with a face (a wild flower has none).  Where
    a split has more places standing for a wild's own face than that wild has tiles, `assemble`
    fills the first ones in its order with it and the rest with another kind; the walk cannot
    see that order, so it answers None and the caller judges every split.  With several wild
    kinds the winning tile must be natural (which wild kind lands where also follows that
    order).  `win`:
    (NO_WIN, None), (WIN_NATURAL, face of the winning tile) or (WIN_WILD, None).  `cost` prunes
    branches that cannot be completed (the evaluator's tables); without it every branch is walked.
    `coarse`: a rougher view whose value `view`'s value determines (e.g. the requirements' part
    of requirements and scorer): splits of one coarse class are legal alike, so a judge checks
    one of them (without it, the split's own class).
    """
    walk = _Walk(faces, wilds, wild_counts, pair_kinds, honour_chows, win, view, cost, coarse)
    found = walk.run()
    if walk.ambiguous:
        return None
    found = one_per_reading(walk, found)
    return [(walk.coarse_class(classes), partial(_sorted_split, witness)) for classes, witness in found.items()]


def _sorted_split(witness: Witness) -> Split:
    """The split a witness names, its groups sorted as `standard_splits` sorts them (worked out
    only for the classes a judge builds)."""
    return split_of(sorted(unroll(witness), key=lambda item: _split_key(item[0])))


def unroll(witness: Witness) -> list[tuple[RawGroup, int | None]]:
    """The (group, winning tile's place or None) items of a witness, in the walk's order."""
    chosen: list[tuple[RawGroup, int | None]] = []
    while witness:
        item, witness = witness
        chosen.append(item)
    return chosen


def split_of(chosen: Sequence[tuple[RawGroup, int | None]]) -> Split:
    """(groups, index of the group holding the winning tile, its place there) of ordered items."""
    win_index = next((n for n, (_, place) in enumerate(chosen) if place is not None), None)
    return tuple(group for group, _ in chosen), win_index, None if win_index is None else chosen[win_index][1]


__all__ = ["GroupView", "ViewClass", "ANY_READING", "read_as_set", "exact_view", "NATURAL", "WILD_OTHER", "WILD_OWN", "NO_WIN", "WIN_NATURAL", "WIN_WILD",
           "standard_classes", "raw_role"]
