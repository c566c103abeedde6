"""The collapsed walk in split order, for hands whose wilds are of several kinds.

`assemble` (decompose.py) decides which wild kind sits at each wild place by an order: the
split's groups sorted by `_split_key` (by their faces: the lowest first; groups of wilds only
last), places in order within a group.  Walking that order, a place standing for a wild
kind's own face takes a tile of that kind while one is left (else it is filled like a place
standing for another kind); the places standing for another kind are filled last, in that
order, by the wild tiles left sorted by kind: the lowest kind's tiles take the first of them.
Whether the winning tile — a wild of one kind — can sit at a place is therefore decided by
the place's position in that order.

`readings._Walk` takes the groups holding the lowest natural tile first, which is not that
order (a chow whose low places are wilds sorts before groups taken earlier), so it cannot
tell where a kind lands.  This walk takes the groups by their first face instead: at each
face, the groups starting there, in `_split_key` order.  The places standing for another kind
met so far are then known at every step (the wilds used less those that played their own
face), so the winning tile's position is known where it is placed and is checked against its
kind's share of the order once the free groups are set.  The classes are those of the
exhaustive walk: same views, same splits (every multiset of groups each holding a natural
tile, the rest free), and a winning wild only where `assemble` puts a tile of its kind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import product

from .decompose import HONOUR_CHOWS, _free_faces, _split_key
from .readings import NATURAL, NO_WIN, WILD_OTHER, WILD_OWN, WIN_NATURAL, WIN_WILD, Class, CostOf, GroupView, Witness, _Walk, \
    raw_role
from .results import GroupKind, WinRole
from .special import RawGroup

_COMPONENT = tuple(min(k // 9, 3) for k in range(34))
_POW5 = tuple(5 ** r for r in range(9))
_STEP = tuple(_POW5[k % 9] if k < 27 else _POW5[k - 27] for k in range(34))
_CHOW_FLAGS = tuple(flags for flags in product((False, True), repeat=3) if not all(flags))

NOT_PLACED, PLACED = -1, -2
"""The winning tile's state in the walk: not placed yet, placed where its kind surely is, or
(a number ≥ 0) placed at that position among the places standing for another kind."""


def _face_options(face: int, pair_kinds: frozenset[int] | None, honour_chows: bool) -> tuple[RawGroup, ...]:
    """Every group starting at `face` that may hold a natural tile, in `_split_key` order."""
    out: list[RawGroup] = []
    if pair_kinds is None or face in pair_kinds:
        out += [(GroupKind.PAIR, (face, face), (False, False)), (GroupKind.PAIR, (face, face), (False, True))]
    out += [(GroupKind.PUNG, (face,) * 3, (False,) * n + (True,) * (3 - n)) for n in (3, 2, 1)]
    if face < 27:
        chows = [(face, face + 1, face + 2)] if face % 9 <= 6 else []
    else:
        chows = [c for c in HONOUR_CHOWS if c[0] == face] if honour_chows else []
    out += [(GroupKind.CHOW, chow, flags) for chow in chows for flags in _CHOW_FLAGS]
    return tuple(sorted(out, key=_split_key))


class _OrderedWalk(_Walk):
    """One collapsed walk over the standard splits of one hand, in split order."""

    def __init__(self, faces: Sequence[int], wilds: int, wild_kinds: Sequence[tuple[int, int]],
                 pair_kinds: frozenset[int] | None, honour_chows: bool, win: tuple[int, int | None],
                 view: GroupView, cost: CostOf | None, coarse: GroupView | None) -> None:
        own = [(kind, count) for kind, count in wild_kinds if kind < 34]
        super().__init__(faces, wilds, own, pair_kinds, honour_chows, win, view, cost, coarse)
        self.kinds = tuple(sorted(wild_kinds))  # every wild kind, flowers too: `rest` holds them all
        self.face_options = tuple(_face_options(face, pair_kinds, honour_chows) for face in range(34))
        self.placed: dict[tuple, tuple] = {}

    def run(self) -> dict[Class, Witness]:
        win = NOT_PLACED if self.win_mode != NO_WIN else PLACED
        return self.walk(self.next_face(-1), 0, self.wilds, True, win, (0,) * len(self.wild_counts))

    def next_face(self, face: int) -> int:
        """The next face after `face` where a group can start (one of its places has a natural
        tile), or 34."""
        counts = self.counts
        for f in range(face + 1, 34):
            if counts[f]:
                return f
            if f < 27 and f % 9 <= 6 and (counts[f + 1] or counts[f + 2]):
                return f
            if f >= 27 and self.honour_chows and any(c[0] == f and (counts[c[1]] or counts[c[2]]) for c in HONOUR_CHOWS):
                return f
        return 34

    def walk(self, face: int, first: int, left: int, pair_needed: bool, win: int,
             own_used: tuple[int, ...]) -> dict[Class, Witness]:
        """The classes of what can follow: groups starting at `face` from option `first` on,
        then the later faces, then the free groups."""
        counts, keys = self.counts, self.keys
        state = (face, first, keys[0], keys[1], keys[2], keys[3], left, pair_needed, win, own_used)
        found = self.memo.get(state)
        if found is not None:
            return found
        out: dict[Class, Witness] = {}
        if face == 34:
            out = self.finish_ordered(left, pair_needed, win, own_used)
        else:
            if not counts[face] and not (win == NOT_PLACED and self.win_mode == WIN_NATURAL and self.win_face <= face):
                out.update(self.walk(self.next_face(face), 0, left, pair_needed, win, own_used))
            options = self.face_options[face]
            for index in range(first, len(options)):
                self.take(options[index], face, index, left, pair_needed, win, own_used, out)
        self.memo[state] = out
        return out

    def take(self, group: RawGroup, face: int, index: int, left: int, pair_needed: bool, win: int,
             own_used: tuple[int, ...], out: dict[Class, Witness]) -> None:
        """Add to `out` the classes that take `group` next (if the tiles allow it)."""
        kind, faces, flags = group
        if kind is GroupKind.PAIR and not pair_needed:
            return
        used = flags.count(True)
        if used > left:
            return
        counts, keys = self.counts, self.keys
        taken = [f for f, wild in zip(faces, flags) if not wild]
        need = Counter(taken)
        if any(counts[f] < n for f, n in need.items()):
            return
        for f in taken:
            counts[f] -= 1
            keys[_COMPONENT[f]] -= _STEP[f]
        pair_after = pair_needed and kind is not GroupKind.PAIR
        if self.cost is None or self.cost(keys, pair_after) <= left - used:
            other = self.wilds - left - sum(own_used)  # places standing for another kind so far
            own, choices = self.placements(group, own_used, other, win)
            for place, state, cls in choices:
                rest = self.walk(face, index, left - used, pair_after, state, own)
                item = (group, place)
                for classes, witness in rest.items():
                    merged = tuple(sorted(classes + (cls,)))
                    if merged not in out:
                        out[merged] = (item, witness)
        for f in taken:
            counts[f] += 1
            keys[_COMPONENT[f]] += _STEP[f]

    def placements(self, group: RawGroup, own_used: tuple[int, ...], other: int, win: int
                   ) -> tuple[tuple[int, ...], list[tuple[int | None, int, int]]]:
        """The own-face wilds used after `group`, and per place the winning tile can take in it
        (None: not there) the walk's win state after it and the group's class id."""
        key = (group, own_used, other, win)
        known = self.placed.get(key)
        if known is not None:
            return known
        kind, faces, flags = group
        used = list(own_used)
        places: list[int] = []
        for face, wild in zip(faces, flags):
            if not wild:
                places.append(NATURAL)
                continue
            i = self.wild_index.get(face)
            if i is not None and used[i] < self.wild_counts[i][1]:
                used[i] += 1
                places.append(WILD_OWN)
            else:
                places.append(WILD_OTHER)
        code = tuple(places)
        choices = [(None, win, self.view_id(kind, faces, code, None))]
        if win == NOT_PLACED:
            roles: set[tuple[WinRole, int]] = set()
            position = other
            for place, (face, mark) in enumerate(zip(faces, code)):
                state = None
                if self.win_mode == WIN_NATURAL and mark == NATURAL and face == self.win_face:
                    state = PLACED
                elif self.win_mode == WIN_WILD and mark == WILD_OWN and face == self.win_face:
                    state = PLACED
                elif self.win_mode == WIN_WILD and mark == WILD_OTHER:
                    state = position
                position += mark == WILD_OTHER
                role = raw_role(kind, faces, place)
                if state is not None and (role, state) not in roles:
                    roles.add((role, state))
                    choices.append((place, state, self.view_id(kind, faces, code, role)))
        known = self.placed[key] = (tuple(used), choices)
        return known

    def finish_ordered(self, left: int, pair_needed: bool, win: int, own_used: tuple[int, ...]) -> dict[Class, Witness]:
        """The free groups, as `assemble` sets them, and where the winning wild may be."""
        if any(self.counts) or (win == NOT_PLACED and self.win_mode == WIN_NATURAL):
            return {}
        other = self.wilds - left - sum(own_used)  # places standing for another kind before the free groups
        free: list[tuple[GroupKind, int]] = []
        if pair_needed:
            if left < 2 or (self.pair_kinds is not None and not self.pair_kinds):
                return {}
            free.append((GroupKind.PAIR, 2))
            left -= 2
        if left % 3:
            return {}
        free += [(GroupKind.PUNG, 3)] * (left // 3)
        pool: Counter[int] = Counter()
        for (face, count), used in zip(self.wild_counts, own_used):
            pool[face] = count - used
        faces = _free_faces(free, pool, self.pair_kinds, None) if free else ()
        groups = []
        for (kind, size), face in zip(free, faces):
            natural = min(pool[face], size)
            pool[face] -= natural
            groups.append((kind, face, size, natural))
        start, end = self.share(pool)
        if win >= 0 and not start <= win < end:
            return {}  # the winning tile's place holds a wild of another kind
        hosts: list[tuple[int | None, int | None]] = [(None, None)]
        if win == NOT_PLACED:  # a winning wild: a free group holding its kind
            hosts = []
            position = other
            for index, (kind, face, size, natural) in enumerate(groups):
                if face == self.win_face and natural:
                    hosts.append((index, 0))
                elif start <= position + size - natural - 1 and position < end:
                    hosts.append((index, natural + max(start - position, 0)))
                position += size - natural
        out: dict[Class, Witness] = {}
        for host, place in hosts:
            classes = []
            witness: Witness = ()
            for index in reversed(range(len(groups))):  # built back to front: the witness lists them in order
                kind, face, size, natural = groups[index]
                role = None if index != host else WinRole.PAIR if kind is GroupKind.PAIR else WinRole.PUNG
                places = (WILD_OWN,) * natural + (WILD_OTHER,) * (size - natural)
                classes.append(self.view_id(kind, (face,) * size, places, role))
                witness = (((kind, None, (True,) * size), place if index == host else None), witness)
            out.setdefault(tuple(sorted(classes)), witness)
        return out

    def share(self, pool: Counter[int]) -> tuple[int, int]:
        """[start, end): the positions, among the places standing for another kind, that the
        winning wild's kind fills (`assemble` fills them with the wilds left, sorted by kind)."""
        if self.win_mode != WIN_WILD:
            return 0, 0
        start = 0
        for kind, count in self.kinds:
            rest = pool[kind] if kind < 34 else count
            if kind == self.win_face:
                return start, start + rest
            start += rest
        return 0, 0


def ordered_classes(faces: Sequence[int], wilds: int, wild_kinds: Sequence[tuple[int, int]],
                    pair_kinds: frozenset[int] | None, honour_chows: bool, win: tuple[int, int | None],
                    view: GroupView, cost: CostOf | None = None, coarse: GroupView | None = None
                    ) -> list[tuple[tuple[RawGroup, ...], int | None, int | None, Class]]:
    """`readings.standard_classes` for a hand with wilds of several kinds, the winning tile
    natural or wild: `wild_kinds` lists (kind, tiles) of every wild kind in the hand (flowers
    too) and `win` is (NO_WIN, None), (WIN_NATURAL, face) or (WIN_WILD, the winning tile's
    kind).  Never None: the walk sees the order that decides where each kind lands."""
    walk = _OrderedWalk(faces, wilds, wild_kinds, pair_kinds, honour_chows, win, view, cost, coarse)
    found = walk.run()
    out = []
    for classes, witness in found.items():
        chosen: list[tuple[RawGroup, int | None]] = []
        while witness:
            item, witness = witness
            chosen.append(item)
        split = tuple(group for group, _ in chosen)  # already in split order
        win_index = next((n for n, (_, place) in enumerate(chosen) if place is not None), None)
        rough = tuple(sorted(walk.coarse_of[i] for i in classes)) if coarse is not None else classes
        out.append((split, win_index, None if win_index is None else chosen[win_index][1], rough))
    return out


__all__ = ["ordered_classes"]
