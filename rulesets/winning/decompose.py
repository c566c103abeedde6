"""Splitting a complete hand into groups — the slow path, used to score a winning hand.

`standard_splits` lists every distinct way face counts plus wilds split into melds and a pair;
`assemble` turns one split into `Group`s, deciding which physical tile (natural, stand-in or
wild of which kind) sits at each place; `win_options` finds the group(s) the winning tile can
be in and its role there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import combinations, product
from operator import mul

from ..tiles import ALL_TILES, Tile
from .results import Group, GroupKind, WinRole
from .special import RawGroup


HONOUR_CHOWS: tuple[tuple[int, int, int], ...] = (*combinations(range(27, 31), 3), (31, 32, 33))
"""南昌: any three different winds, or 中发白 (kind indices)."""

Feasible = Callable[[list[int], int, bool], bool]
"""feasible(faces, wilds, pair_needed): can what is left still be completed?"""
KeysCost = Callable[[list[int], bool], int]
"""cost(component keys, pair_needed): the fewest wilds that complete what is left."""

_POW5 = tuple(5 ** r for r in range(9))
_COMPONENTS = ((0, 9), (9, 9), (18, 9), (27, 7))
_COMPONENT = tuple(min(k // 9, 3) for k in range(34))
_STEP = tuple(_POW5[k % 9] if k < 27 else _POW5[k - 27] for k in range(34))


def chows_with(kind: int, honour_chows: bool) -> list[tuple[int, int, int]]:
    """The chows (as kind triples, ascending) that contain `kind`."""
    if kind < 27:
        base, rank = divmod(kind, 9)
        base *= 9
        return [(base + s, base + s + 1, base + s + 2) for s in (rank - 2, rank - 1, rank) if 0 <= s <= 6]
    return [c for c in HONOUR_CHOWS if kind in c] if honour_chows else []


# chows_with of every face, without and with honour chows (looked up at every step of a split's search)
_CHOWS_WITH = tuple(tuple(tuple(chows_with(k, honour)) for k in range(34)) for honour in (False, True))


def _options(faces: list[int], k: int, wilds: int, pair_needed: bool, pair_kinds: frozenset[int] | None,
             honour_chows: bool) -> Iterable[tuple[RawGroup, tuple[int, ...], int, bool]]:
    """Groups holding the lowest natural kind k: (group, naturals taken, wilds used, pair still needed).

    Kinds below k have no naturals left, so their places are wilds; places above k may be a
    natural (when there is one) or a wild — both are tried, since the natural may be needed
    elsewhere.
    """
    have = faces[k]
    if pair_needed and (pair_kinds is None or k in pair_kinds):
        if have >= 2:
            yield (GroupKind.PAIR, (k, k), (False, False)), (k, k), 0, False
        if wilds >= 1:
            yield (GroupKind.PAIR, (k, k), (False, True)), (k,), 1, False
    for natural in range(min(3, have), 0, -1):
        if wilds >= 3 - natural:
            yield (GroupKind.PUNG, (k, k, k), (False,) * natural + (True,) * (3 - natural)), (k,) * natural, 3 - natural, pair_needed
    for chow in _CHOWS_WITH[bool(honour_chows)][k]:
        choices = [(False,) if t == k else (True,) if t < k or not faces[t] else (False, True) for t in chow]
        for flags in product(*choices):
            used = sum(flags)
            if used <= wilds:
                taken = tuple(t for t, wild in zip(chow, flags) if not wild)
                yield (GroupKind.CHOW, chow, flags), taken, used, pair_needed


KIND_NAMES = {kind: kind.value for kind in GroupKind}
"""Each group kind's value, looked up (an Enum's `.value` is a descriptor call: splits are sorted by it)."""


def _split_key(group: RawGroup) -> tuple:
    kind, faces, flags = group
    return (faces is None, faces or (), KIND_NAMES[kind], flags)


def standard_splits(faces: Sequence[int], wilds: int, pair_kinds: frozenset[int] | None = None,
                    honour_chows: bool = False, feasible: Feasible | None = None,
                    first: bool = False, cost: KeysCost | None = None) -> list[tuple[RawGroup, ...]]:
    """Every distinct split of face counts (34) plus `wilds` into melds and one pair.

    The caller makes sure the tile count is 3n + 2.  Groups made of wilds only are *free*
    (faces None): one entry stands for every meld (or pair) they could be.  With `first`, stop
    at the first split found; `feasible` (on the face counts) or `cost` (on the components'
    keys, kept as the walk goes: cheaper) prunes branches that cannot be completed.
    """
    counts = list(faces)
    keys = [sum(map(mul, faces[base:base + size], _POW5)) for base, size in _COMPONENTS]
    found: dict[tuple[RawGroup, ...], None] = {}
    chosen: list[RawGroup] = []

    def finish(left: int, pair_needed: bool) -> None:
        free: list[RawGroup] = []
        if pair_needed:
            if left < 2 or (pair_kinds is not None and not pair_kinds):
                return
            free.append((GroupKind.PAIR, None, (True, True)))
            left -= 2
        if left % 3 == 0:
            free += [(GroupKind.PUNG, None, (True, True, True))] * (left // 3)
            found[tuple(sorted(chosen + free, key=_split_key))] = None

    def search(k: int, left: int, pair_needed: bool) -> bool:
        while k < 34 and not counts[k]:
            k += 1
        if k == 34:
            finish(left, pair_needed)
            return first and bool(found)
        for group, taken, used, pair_after in list(_options(counts, k, left, pair_needed, pair_kinds, honour_chows)):
            for t in taken:
                counts[t] -= 1
                keys[_COMPONENT[t]] -= _STEP[t]
            if cost is not None:
                go = cost(keys, pair_after) <= left - used
            else:
                go = feasible is None or feasible(counts, left - used, pair_after)
            if go:
                chosen.append(group)
                done = search(k, left - used, pair_after)
                chosen.pop()
            else:
                done = False
            for t in taken:
                counts[t] += 1
                keys[_COMPONENT[t]] += _STEP[t]
            if done:
                return True
        return False

    search(0, wilds, True)
    return list(found)


def _allowed(kind: GroupKind, face: int, pair_kinds: frozenset[int] | None, taken_pairs: set[int] | None) -> bool:
    if face >= 34:
        return False
    if kind is GroupKind.PAIR:
        if pair_kinds is not None and face not in pair_kinds:
            return False
        if taken_pairs is not None and face in taken_pairs:
            return False
    return True


def _free_faces(free: Sequence[tuple[GroupKind, int]], pool: Counter, pair_kinds: frozenset[int] | None,
                taken_pairs: set[int] | None) -> tuple[int, ...]:
    """What each group of wilds only (kind, size) stands for: the choice that lets the most
    wilds play their own face, among the faces of the wild kinds left (where the shape allows)
    and the lowest other allowed kinds.  Free groups are few, so every choice is tried."""
    options = []
    for kind, _ in free:
        own = [k for k in sorted(pool) if pool[k] > 0 and _allowed(kind, k, pair_kinds, taken_pairs)]
        # Other kinds all count alike (no wild plays them naturally); one per group is enough.
        wanted = len(free) if taken_pairs is not None and kind is GroupKind.PAIR else 1
        others: list[int] = []
        for face in range(34):
            if len(others) == wanted:
                break
            if face not in own and _allowed(kind, face, pair_kinds, taken_pairs):
                others.append(face)
        options.append(own + others)
    best: tuple[int, ...] | None = None
    best_natural = -1
    for faces in product(*options):
        if taken_pairs is not None:
            pair_faces = [f for f, (kind, _) in zip(faces, free) if kind is GroupKind.PAIR]
            if len(set(pair_faces)) < len(pair_faces):
                continue
        demand = Counter()
        for face, (_, size) in zip(faces, free):
            demand[face] += size
        natural = sum(min(pool[f], n) for f, n in demand.items())
        if natural > best_natural:
            best, best_natural = faces, natural
    if best is None:  # cannot happen for a complete hand: there are more kinds than pairs
        raise ValueError("no kinds left for the free pairs")
    return best


def assemble(split: Sequence[RawGroup], sources: Mapping[int, Sequence[Tile]], wild_tiles: Iterable[Tile],
             wild_kinds: frozenset[Tile], pair_kinds: frozenset[int] | None = None,
             distinct_pairs: bool = False) -> tuple[tuple[Group, ...], tuple[tuple[Tile, Tile], ...]]:
    """Groups with their physical tiles, and the wild assignment, for one split.

    `sources[face]` lists the physical tiles that play `face` naturally (the tile itself, a
    stand-in, or a wild standing for its own face); `wild_tiles` are the wild tiles left to
    fill the wild places.  A wild place first gets a wild of its own face (then it is natural),
    the rest in kind order.  `distinct_pairs`: free pairs must differ from the other pairs
    (seven pairs without four-as-two-pairs).
    """
    left = {face: list(tiles) for face, tiles in sources.items()}
    pool: dict[int, int] = {}  # wild tiles not placed yet, by kind (a plain dict: this runs per reading)
    for tile in wild_tiles:
        pool[tile] = pool.get(tile, 0) + 1
    work = [[kind, list(faces) if faces is not None else None, flags, [None] * len(flags)]
            for kind, faces, flags in split]
    for _, faces, flags, src in work:
        if faces is None:
            continue
        for i, wild in enumerate(flags):
            if not wild:
                src[i] = left[faces[i]].pop()
            elif pool.get(faces[i], 0) > 0:
                src[i] = ALL_TILES[faces[i]]
                pool[faces[i]] -= 1
    free = [entry for entry in work if entry[1] is None]
    if free:
        taken_pairs = {faces[0] for kind, faces, _, _ in work
                       if kind is GroupKind.PAIR and faces is not None} if distinct_pairs else None
        counter = Counter(pool)
        chosen = _free_faces([(entry[0], len(entry[2])) for entry in free], counter, pair_kinds, taken_pairs)
        for entry, face in zip(free, chosen):
            entry[1] = [face] * len(entry[2])
            for i in range(len(entry[2])):
                if counter[face] > 0:
                    entry[3][i] = ALL_TILES[face]
                    counter[face] -= 1
        pool = dict(counter)
    rest = sorted(tile for tile, count in pool.items() for _ in range(count))
    groups = []
    tile_of = ALL_TILES.__getitem__   # (by index, not Tile(k), an Enum call: this runs for every reading built)
    for kind, faces, flags, src in work:
        src = [s if s is not None else rest.pop(0) for s in src]
        groups.append(Group(kind, tuple(map(tile_of, faces)), tuple(map(tile_of, src)),
                            tuple(i for i, s in enumerate(src) if s in wild_kinds) if wild_kinds else ()))
    assignment = tuple(sorted(pair for g in groups for pair in g.assignment))
    return tuple(groups), assignment


def role_of(group: Group, place: int) -> WinRole:
    """What a winning tile at `place` of `group` did (places follow `group.tiles`, ascending)."""
    if group.kind is GroupKind.PAIR:
        return WinRole.PAIR
    if group.kind is GroupKind.PUNG:
        return WinRole.PUNG
    if group.kind is GroupKind.SINGLE:
        return WinRole.SINGLE
    if group.tiles[0].is_honour:
        return WinRole.HONOUR_CHOW
    if place == 1:
        return WinRole.CLOSED
    low = group.tiles[0].rank
    if place == 0:
        return WinRole.EDGE if low == 7 else WinRole.OPEN
    return WinRole.EDGE if low == 1 else WinRole.OPEN


def win_options(groups: Sequence[Group], win_tile: Tile) -> list[tuple[int, WinRole]]:
    """(group index, role) for every distinct place the physical `win_tile` can hold."""
    seen: set[tuple[Group, WinRole]] = set()
    out = []
    for index, group in enumerate(groups):
        for place, source in enumerate(group.sources):
            if source != win_tile:
                continue
            role = role_of(group, place)
            if (group, role) not in seen:
                seen.add((group, role))
                out.append((index, role))
    return out
