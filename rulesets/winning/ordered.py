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
face), so the winning tile's position is known where it is placed.  Whether its kind fills
that position depends on the tiles of the kinds before it (or of its own kind) that later
groups still take as their own face or as free groups: the walk keeps, per class of what
follows, the most (or the fewest) such tiles any of its splits takes, which decides it.
The classes are those of the exhaustive walk: same views, same splits (every multiset of
groups each holding a natural tile, the rest free), and a winning wild only where
`assemble` puts a tile of its kind.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import lru_cache, partial
from itertools import product

from .decompose import HONOUR_CHOWS, _free_faces, _split_key
from .readings import NATURAL, NO_WIN, WILD_OTHER, WILD_OWN, WIN_NATURAL, WIN_WILD, Class, CostOf, GroupView, Split, Witness, _Walk, \
    one_per_reading, raw_role, split_of, unroll
from .results import GroupKind, WinRole
from .special import RawGroup

_COMPONENT = tuple(min(k // 9, 3) for k in range(34))
_POW5 = tuple(5 ** r for r in range(9))
_STEP = tuple(_POW5[k % 9] if k < 27 else _POW5[k - 27] for k in range(34))
_CHOW_FLAGS = tuple(flags for flags in product((False, True), repeat=3) if not all(flags))

NOT_PLACED, PLACED = -1, -2
"""The winning tile's state in the walk: not placed yet, or placed."""

Found = dict[Class, tuple[int, Witness]]
"""class → (tiles of the tracked kinds taken by the groups in it, best for the winning wild;
a split of that class)."""


def _face_options(face: int, pair_kinds: frozenset[int] | None, honour_chows: bool) -> tuple[tuple, ...]:
    """Every group starting at `face` that may hold a natural tile, in `_split_key` order, each
    as (group, naturals taken, (face, count) of each natural it needs, wilds used)."""
    groups: list[RawGroup] = []
    if pair_kinds is None or face in pair_kinds:
        groups += [(GroupKind.PAIR, (face, face), (False, False)), (GroupKind.PAIR, (face, face), (False, True))]
    groups += [(GroupKind.PUNG, (face,) * 3, (False,) * n + (True,) * (3 - n)) for n in (3, 2, 1)]
    if face < 27:
        chows = [(face, face + 1, face + 2)] if face % 9 <= 6 else []
    else:
        chows = [c for c in HONOUR_CHOWS if c[0] == face] if honour_chows else []
    groups += [(GroupKind.CHOW, chow, flags) for chow in chows for flags in _CHOW_FLAGS]
    out = []
    for group in sorted(groups, key=_split_key):
        taken = tuple(f for f, wild in zip(group[1], group[2]) if not wild)
        out.append((group, taken, tuple(Counter(taken).items()), len(group[2]) - len(taken)))
    return tuple(out)


@lru_cache(maxsize=8)
def _all_face_options(pair_kinds: frozenset[int] | None, honour_chows: bool) -> tuple[tuple[tuple[tuple, ...], ...], tuple[int, ...]]:
    """The options of every face, and per face the index after the last option whose first
    place is natural (later ones leave the face's naturals to nothing)."""
    options = tuple(_face_options(face, pair_kinds, honour_chows) for face in range(34))
    ends = tuple(max((i + 1 for i, option in enumerate(face) if not option[0][2][0]), default=0) for face in options)
    return options, ends


class _OrderedWalk(_Walk):
    """One collapsed walk over the standard splits of one hand, in split order.

    For a winning wild of the lowest kind, its place holds that kind while fewer places
    standing for another kind come before it than the kind has tiles left at the end: the
    walk tracks that kind's tiles taken after the place (own faces, free groups), the fewer
    the better.  For the highest kind, at least as many places must come before it as the
    lower kinds have tiles left: it tracks the lower kinds' tiles, the more the better.  A
    kind between two others would need both: `tracking` is None and the caller judges every
    split."""

    def __init__(self, faces: Sequence[int], wilds: int, wild_kinds: Sequence[tuple[int, int]],
                 pair_kinds: frozenset[int] | None, honour_chows: bool, win: tuple[int, int | None],
                 view: GroupView, cost: CostOf | None, coarse: GroupView | None) -> None:
        own = [(kind, count) for kind, count in wild_kinds if kind < 34]
        super().__init__(faces, wilds, own, pair_kinds, honour_chows, win, view, cost, coarse)
        self.kinds = tuple(sorted(wild_kinds))  # every wild kind, flowers too: `rest` holds them all
        self.face_options, self.holding_end = _all_face_options(pair_kinds, honour_chows)
        self.placed: dict[tuple, tuple] = {}
        self.costs: dict[tuple, int] = {}
        self.nexts: dict[tuple, int] = {}
        self.shares: dict[tuple[int, ...], tuple[int, int]] = {}
        self.bases: dict[tuple, tuple] = {}
        self.tracking = self.tracked_kinds()
        self.most = self.win_mode == WIN_WILD and self.kinds[0][0] != self.win_face  # the highest kind

    def tracked_kinds(self) -> tuple[bool, ...] | None:
        """Per own-face kind, whether its tiles taken later decide the winning wild's place."""
        if self.win_mode != WIN_WILD:
            return (False,) * len(self.wild_counts)
        kinds = [kind for kind, _ in self.kinds]
        if kinds[0] == self.win_face:  # the lowest: its own tiles
            return tuple(face == self.win_face for face, _ in self.wild_counts)
        if kinds[-1] == self.win_face:  # the highest: the tiles of every kind before it
            return tuple(face < self.win_face for face, _ in self.wild_counts)
        return None

    def run(self) -> Found:
        win = NOT_PLACED if self.win_mode != NO_WIN else PLACED
        return self.walk(self.next_face(-1), 0, self.wilds, True, win, (0,) * len(self.wild_counts))

    def next_face(self, face: int) -> int:
        """The next face after `face` where a group can start (one of its places has a natural
        tile), or 34."""
        keys = self.keys
        key = (face, keys[0], keys[1], keys[2], keys[3])
        found = self.nexts.get(key)
        if found is None:
            found = self.nexts[key] = self.find_next_face(face)
        return found

    def find_next_face(self, face: int) -> int:
        counts = self.counts
        for f in range(face + 1, 34):
            if counts[f]:
                return f
            if f < 27 and f % 9 <= 6 and (counts[f + 1] or counts[f + 2]):
                return f
            if f >= 27 and self.honour_chows and any(c[0] == f and (counts[c[1]] or counts[c[2]]) for c in HONOUR_CHOWS):
                return f
        return 34

    def walk(self, face: int, first: int, left: int, pair_needed: bool, win: int, own_used: tuple[int, ...]) -> Found:
        """The classes of what can follow: groups starting at `face` from option `first` on,
        then the later faces, then the free groups."""
        counts, keys = self.counts, self.keys
        asked = (face, first, keys[0], keys[1], keys[2], keys[3], left, pair_needed, win, own_used)
        found = self.memo.get(asked)
        if found is not None:
            return found
        lost = win == NOT_PLACED and self.win_mode == WIN_NATURAL  # the natural winning tile must sit by its face
        while face < 34:  # to the first group that can be taken: states that differ only before it are one
            options = self.face_options[face]
            end = len(options) if not counts[face] else self.holding_end[face]
            while first < end:
                group, _, need, used = options[first]
                if used <= left and (pair_needed or group[0] is not GroupKind.PAIR):
                    for f, n in need:
                        if counts[f] < n:
                            break
                    else:
                        break
                first += 1
            if first < end:
                break
            if counts[face] or (lost and self.win_face <= face):
                self.memo[asked] = {}
                return self.memo[asked]
            face, first = self.next_face(face), 0
        state = (face, first, keys[0], keys[1], keys[2], keys[3], left, pair_needed, win, own_used)
        found = self.memo.get(state)
        if found is not None:
            self.memo[asked] = found
            return found
        out: Found = {}
        if face == 34:
            out = self.finish_ordered(left, pair_needed, win, own_used)
        else:
            if not counts[face] and not (lost and self.win_face <= face):
                out.update(self.walk(self.next_face(face), 0, left, pair_needed, win, own_used))
            for index in range(first, end):
                group, _, need, used = option = options[index]
                if used > left or (not pair_needed and group[0] is GroupKind.PAIR):
                    continue
                for f, n in need:
                    if counts[f] < n:
                        break
                else:
                    self.take(option, face, index, left, pair_needed, win, own_used, out)
        self.memo[state] = self.memo[asked] = out
        return out

    def take(self, option: tuple, face: int, index: int, left: int, pair_needed: bool, win: int,
             own_used: tuple[int, ...], out: Found) -> None:
        """Add to `out` the classes that take the option's group next (its tiles are there)."""
        group, taken, _, used = option
        counts, keys = self.counts, self.keys
        for f in taken:
            counts[f] -= 1
            keys[_COMPONENT[f]] -= _STEP[f]
        pair_after = pair_needed and group[0] is not GroupKind.PAIR
        if self.cost is None or self.cost_of(pair_after) <= left - used:
            other = self.wilds - left - sum(own_used)  # places standing for another kind so far
            own, tracked, choices = self.placements(group, (face, index, own_used, other if win == NOT_PLACED else -1, win),
                                                    own_used, other, win)
            item_win = win == PLACED  # the caller is past the winning tile: it needs the tracked count
            most, merges = self.most, self.merges
            for place, after, cls, need_tracked in choices:
                rest = self.walk(face, index, left - used, pair_after, after, own)
                item = (group, place)
                for classes, (count, witness) in rest.items():
                    if need_tracked is not None and (count < need_tracked if most else count >= need_tracked):
                        continue  # the winning wild's place holds another kind in every such split
                    merged = merges.get((classes, cls))
                    if merged is None:
                        merged = merges[(classes, cls)] = self.merge(classes, cls)
                    if item_win:
                        count += tracked
                        known = out.get(merged)
                        if known is None or (count > known[0] if most else count < known[0]):
                            out[merged] = (count, (item, witness))
                    elif merged not in out:
                        out[merged] = (0, (item, witness))
        for f in taken:
            counts[f] += 1
            keys[_COMPONENT[f]] += _STEP[f]

    def cost_of(self, pair_needed: bool) -> int:
        """The fewest wilds that complete the naturals left (the tables), once per tiles left."""
        keys = self.keys
        key = (keys[0], keys[1], keys[2], keys[3], pair_needed)
        found = self.costs.get(key)
        if found is None:
            found = self.costs[key] = self.cost(keys, pair_needed)
        return found

    def placements(self, group: RawGroup, key: tuple, own_used: tuple[int, ...], other: int, win: int
                   ) -> tuple[tuple[int, ...], int, list[tuple[int | None, int, int, int | None]]]:
        """The own-face wilds used after `group`, the tracked kinds' tiles it takes, and per
        place the winning tile can take in it (None: not there): the win state after it, the
        group's class id and the bound the tracked count of what follows must meet (None:
        none); `key` names the group (its face and option) and what else decides them."""
        known = self.placed.get(key)
        if known is not None:
            return known
        base = self.bases.get(key[:3])
        if base is None:
            base = self.bases[key[:3]] = self.base(group, own_used)
        own, tracked, none_cls, hosts = base
        choices: list[tuple[int | None, int, int, int | None]] = [(None, win, none_cls, None)]
        if win == NOT_PLACED:
            seen: set[tuple[WinRole, int | None]] = set()
            for place, offset, role, cls in hosts:
                bound: int | None | bool = None
                if offset is not None:
                    bound = self.bound(other + offset, own)
                    if bound is False:
                        continue
                if (role, bound) not in seen:
                    seen.add((role, bound))
                    choices.append((place, PLACED, cls, bound))
        known = self.placed[key] = (own, tracked, choices)
        return known

    def base(self, group: RawGroup, own_used: tuple[int, ...]) -> tuple[tuple[int, ...], int, int, list[tuple]]:
        """What `placements` says of a group whatever came before it but the own faces used: the
        own faces used after it, the tracked kinds' tiles it takes, its class id without the
        winning tile, and each place the winning tile may take, as (place, its position among
        the group's places standing for another kind or None, role, class id)."""
        kind, faces, flags = group
        used = list(own_used)
        places: list[int] = []
        tracked = 0
        for face, wild in zip(faces, flags):
            if not wild:
                places.append(NATURAL)
                continue
            i = self.wild_index.get(face)
            if i is not None and used[i] < self.wild_counts[i][1]:
                used[i] += 1
                tracked += self.tracking[i]
                places.append(WILD_OWN)
            else:
                places.append(WILD_OTHER)
        code = tuple(places)
        hosts = []
        offset = 0
        for place, (face, mark) in enumerate(zip(faces, code)):
            here = offset
            offset += mark == WILD_OTHER
            if self.win_mode == WIN_NATURAL:
                if mark != NATURAL or face != self.win_face:
                    continue
            elif self.win_mode != WIN_WILD:
                continue
            elif mark != WILD_OTHER and (mark != WILD_OWN or face != self.win_face):
                continue
            role = raw_role(kind, faces, place)
            hosts.append((place, here if mark == WILD_OTHER and self.win_mode == WIN_WILD else None, role,
                          self.view_id(kind, faces, code, role)))
        return tuple(used), tracked, self.view_id(kind, faces, code, None), hosts

    def bound(self, position: int, own_used: tuple[int, ...]) -> int | None | bool:
        """What the tracked count of the groups after a winning wild at `position` (among the
        places standing for another kind) must be: False if its kind can no longer fill it,
        None if it surely does, else the bound (fewer than it for the lowest kind, at least it
        for the highest)."""
        known = self.shares.get(own_used)
        if known is None:
            known = self.shares[own_used] = self.share({face: count - used for (face, count), used in zip(self.wild_counts, own_used)})
        start, end = known
        if self.most:
            return None if start <= position else start - position
        return end - position if end > position else False

    def finish_ordered(self, left: int, pair_needed: bool, win: int, own_used: tuple[int, ...]) -> Found:
        """The free groups, as `assemble` sets them, and where the winning wild may be."""
        if any(self.counts) or (win == NOT_PLACED and self.win_mode == WIN_NATURAL):
            return {}
        other = self.wilds - left - sum(own_used)  # places standing for another kind before the free groups
        free = self.free_groups(left, pair_needed)
        if free is None:
            return {}
        pool: Counter[int] = Counter()
        for (face, count), used in zip(self.wild_counts, own_used):
            pool[face] = count - used
        faces = _free_faces(free, pool, self.pair_kinds, None) if free else ()
        groups = []
        tracked = 0
        tracking = dict(zip((face for face, _ in self.wild_counts), self.tracking))
        for (kind, size), face in zip(free, faces):
            natural = min(pool[face], size)
            pool[face] -= natural
            tracked += natural * tracking.get(face, False)
            groups.append((kind, face, size, natural))
        hosts: list[tuple[int | None, int | None]] = [(None, None)]
        if win == NOT_PLACED:  # a winning wild: a free group holding its kind
            start, end = self.share(pool)
            hosts = []
            position = other
            for index, (kind, face, size, natural) in enumerate(groups):
                if face == self.win_face and natural:
                    hosts.append((index, 0))
                elif natural < size and start <= position + size - natural - 1 and position < end:
                    hosts.append((index, natural + max(start - position, 0)))
                position += size - natural
        out: Found = {}
        for host, place in hosts:
            classes = []
            witness: Witness = ()
            for index in reversed(range(len(groups))):  # built back to front: the witness lists them in order
                kind, face, size, natural = groups[index]
                role = None if index != host else WinRole.PAIR if kind is GroupKind.PAIR else WinRole.PUNG
                places = (WILD_OWN,) * natural + (WILD_OTHER,) * (size - natural)
                classes.append(self.view_id(kind, (face,) * size, places, role))
                witness = (((kind, None, (True,) * size), place if index == host else None), witness)
            out.setdefault(tuple(sorted(set(classes) if self.as_set else classes)), (tracked, witness))
        return out

    def share(self, pool: Mapping[int, int]) -> tuple[int, int]:
        """[start, end): the positions, among the places standing for another kind, that the
        winning wild's kind fills (`assemble` fills them with the wilds left, sorted by kind)."""
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
                    ) -> list[tuple[Hashable, Callable[[], Split]]] | None:
    """`readings.standard_classes` for a hand with wilds of several kinds, the winning tile
    natural or wild: `wild_kinds` lists (kind, tiles) of every wild kind in the hand (flowers
    too) and `win` is (NO_WIN, None), (WIN_NATURAL, face) or (WIN_WILD, the winning tile's
    kind).  None when the winning wild's kind lies between two others (see `_OrderedWalk`): the
    caller then judges every split."""
    walk = _OrderedWalk(faces, wilds, wild_kinds, pair_kinds, honour_chows, win, view, cost, coarse)
    if walk.tracking is None:
        return None
    found = one_per_reading(walk, walk.run())
    return [(walk.coarse_class(classes), partial(_split, witness)) for classes, (_, witness) in found.items()]


def _split(witness: Witness) -> Split:
    """The split a witness names (its groups already in split order)."""
    return split_of(unroll(witness))


__all__ = ["ordered_classes"]
