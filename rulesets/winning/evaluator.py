"""`Evaluator`: win checks, waits and decompositions for one set of rules.

Build one per region and hand setting (wild kinds, shapes, stand-ins) and call it many times;
the module-level functions in `rulesets.winning` build one per call.

The win check and the waits are closures built in `fast.py` (one pass over the tiles, four
table look-ups; tables.py has the tables).  This module keeps the rest: validation with a clear
message, which wilds can be natural, and the decompositions a scorer needs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import product
from operator import mul
from types import MappingProxyType

from ..tiles import ALL_TILES, KIND_COUNT, Tile
from . import tables
from .decompose import KIND_NAMES, assemble, role_of, standard_splits, win_options
from .fast import MAX_MELDS as _MAX_MELDS, build_is_complete, build_waits, size_error as _size_error
from .ordered import ordered_classes
from .readings import ANY_READING, NO_WIN, WIN_NATURAL, WIN_WILD, GroupView, Split, standard_classes
from .results import HandError, WinShape
from .shapes import PAIRS_258, ShapeKind, Shapes
from .special import RawGroup, SpecialStats, special_splits
from .walk_memo import UNKEYABLE, WalkMemo, view_key

_POW5 = tuple(5 ** r for r in range(9))


@lru_cache(maxsize=256)
def _prepare(wild_ints: tuple[int, ...], stand_in_ints: tuple[tuple[int, int], ...], shapes: Shapes) -> tuple:
    """(wild kinds, stand-ins, face per kind, pair mode, pair places) for one set of rules,
    checked once: evaluators for the same rules share it (judging makes one per hand)."""
    wilds = frozenset(Tile(k) for k in wild_ints)
    stands = {Tile(s): Tile(t) for s, t in stand_in_ints}
    for source, face in stands.items():
        if source in wilds:
            raise HandError(f"stand-in {source} is itself wild: a tile cannot be both")
        if face not in wilds or face.is_flower:
            raise HandError(f"stand-in {source} plays {face}, which is not a wild kind")
    if len(set(stands.values())) < len(stands):
        raise HandError("two stand-ins play the same face")
    # face_of[kind]: the face a physical tile plays, None for a wild, -1 for a stray flower.
    plays = dict(stand_in_ints)
    face_of = tuple(None if k in wild_ints else -1 if k >= 34 else plays.get(k, k) for k in range(KIND_COUNT))
    pairs = shapes.pair_kinds
    mode = "any" if pairs is None else "258" if pairs == PAIRS_258 else "listed"
    places = tuple(_component(int(k)) for k in sorted(pairs or ()))
    return wilds, MappingProxyType(stands), face_of, mode, places


def _component(face: int) -> tuple[int, int]:
    """(component 0-3 = m, p, s, honours; 5**rank) of a face."""
    if face < 27:
        return face // 9, _POW5[face % 9]
    return 3, _POW5[face - 27]


class Evaluator:
    """Win evaluation for fixed wild kinds, shapes and stand-ins.

    `wild_kinds`: the kinds whose tiles are wild (财神, 宝, 百搭, 混, 精, 赖子 …); a wild stands
    for any tile, and for its own face it is "natural".  `stand_ins`: physical kind → the face
    it plays, e.g. ``{Tile.WHITE: Tile.M9}`` when 9m is wild (白板 plays the wild's own face,
    RULES.md §27, RESEARCH.md §3.3; 红中 in 钻牌 regions, §26.2).  A stand-in must not be wild,
    its face must be a wild kind (so no face can have more than four tiles), and no two
    stand-ins may play the same face.

    Hands are sequences of `Tile` (or their int values), concealed tiles only: declared melds
    are left out and counted in `melds_needed` (4 for a 13-tile hand with nothing declared, 5
    for a 16-tile hand, one less per declared meld).  Flowers must be set aside unless they
    are wild.  Bad input raises `HandError` (a `ValueError`) with a one-line message.
    Tables assume a face is played by at most four tiles (including wilds counted as natural).
    """

    __slots__ = ("wild_kinds", "shapes", "stand_ins", "face_of", "suit_table", "honour_table", "pair_mode",
                 "_pair_places", "is_complete", "waits")

    is_complete: Callable[[Sequence[Tile], int], bool]
    """is_complete(concealed, melds_needed): whether the concealed tiles (3·melds_needed + 2 of
    them) form a shape the rules allow (a closure built by fast.py)."""

    waits: Callable[[Sequence[Tile], int, Iterable[Tile]], tuple[Tile, ...]]
    """waits(concealed, melds_needed, candidates): the kinds among `candidates` that complete a
    hand one tile short (3·melds_needed + 1).  Pass the region's kinds as `candidates`.  A kind
    is left out when all four of its tiles are already in the hand (it cannot be drawn); a
    flower is a wait only if wild.  Same answers as `waits_by_candidate`, faster."""

    def __init__(self, wild_kinds: Iterable[Tile] = frozenset(), shapes: Shapes = Shapes(),
                 stand_ins: Mapping[Tile, Tile] | None = None) -> None:
        prepared = _prepare(tuple(sorted(int(k) for k in wild_kinds)),
                            tuple(sorted((int(s), int(t)) for s, t in (stand_ins or {}).items())), shapes)
        self.wild_kinds, self.stand_ins, self.face_of, self.pair_mode, self._pair_places = prepared
        self.shapes = shapes
        self.suit_table = tables.suit_table()
        self.honour_table = tables.honour_table(shapes.honour_chows)

    def __getattr__(self, name: str) -> object:
        """`is_complete` and `waits` are built on first use (an evaluator made for one judgement
        never builds the waits); after that the slot answers directly."""
        if name == "is_complete":
            self.is_complete = build_is_complete(self)
            return self.is_complete
        if name == "waits":
            self.waits = build_waits(self)
            return self.waits
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __repr__(self) -> str:
        wilds = ",".join(str(k) for k in sorted(self.wild_kinds))
        return f"Evaluator(wild_kinds={{{wilds}}}, shapes={self.shapes}, stand_ins={dict(self.stand_ins)})"

    # ----------------------------------------------------------------- slow checks

    def is_complete_by_counts(self, concealed: Sequence[Tile], melds_needed: int) -> bool:
        """`is_complete` from validated face counts: the slow path for hands the fast one does
        not cover (more than four wilds) and for bad input (it raises the clear error)."""
        n = len(concealed)
        if n != 3 * melds_needed + 2 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 2)
        faces, wild_tiles = self._faces(concealed)
        return any(self._shape_complete(shape, faces, len(wild_tiles)) for shape in self.shapes.enabled(n))

    def special_complete(self, concealed: Sequence[Tile]) -> bool:
        """Whether the hand has one of the enabled special shapes (face counts, special.py)."""
        n = len(concealed)
        if not self._any_special(n):
            return False
        faces, wild_tiles = self._faces(concealed)
        stats = SpecialStats(faces, len(wild_tiles))
        return any(stats.complete(shape, self.shapes) for shape in self.shapes.enabled(n)[self.shapes.standard:])

    def waits_by_candidate(self, concealed: Sequence[Tile], melds_needed: int,
                           candidates: Iterable[Tile]) -> tuple[Tile, ...]:
        """`waits` by trying each candidate in turn: the plain method, used where the masks of
        fast.py do not apply (listed pair kinds, 十三烂, 八对+单张, a hand with many wilds) and
        by the tests as the reference for the fast path."""
        n = len(concealed)
        if n != 3 * melds_needed + 1 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 1)
        counts = self.check_counts(concealed)
        faces = [0] * 34
        for kind, count in enumerate(counts):
            face = self.face_of[kind]
            if count and face is not None:
                faces[face] += count
        wilds = len(concealed) - sum(faces)
        e, keys = self._entry_of_faces(faces)
        size = n + 1
        specials = self.shapes.enabled(size)[self.shapes.standard:] if self._any_special(size) else ()
        stats = SpecialStats(faces, wilds) if specials else None
        if stats is not None:
            specials = tuple(s for s in specials if stats.possible(s, self.shapes))
        standard = self.shapes.standard
        wild_result: bool | None = None
        out = []
        for tile in candidates:
            face = self.face_of[tile]
            if face is None:  # one more wild
                if counts[tile] >= 4:
                    continue
                if wild_result is None:
                    wild_result = (standard and self._standard_cost(e, keys) <= wilds + 1) or (
                        stats is not None and any(stats.complete(s, self.shapes, add_wild=True) for s in specials))
                if wild_result:
                    out.append(tile)
                continue
            if face < 0 or faces[face] >= 4:
                continue
            faces[face] += 1
            after, after_keys = self._entry_of_faces(faces)
            faces[face] -= 1
            if (standard and self._standard_cost(after, after_keys) <= wilds) or (
                    stats is not None and any(stats.complete(s, self.shapes, add=face) for s in specials)):
                out.append(tile)
        return tuple(out)

    def min_wilds_as_wild(self, concealed: Sequence[Tile], melds_needed: int) -> int | None:
        """The fewest wild tiles that must stand for another kind for the hand to be complete
        (wilds standing for their own face are natural); None if it is not complete.

        E.g. "at most one 赖子 in a 屁胡" (RULES.md §20): ``min_wilds_as_wild(...) <= 1``;
        硬胡 (no wild used as a wild): ``== 0``.
        """
        best = self._best_naturalisation(concealed, melds_needed)
        if best is None:
            return None
        if best[-1]:
            return best[0]
        return min(shape.wilds_as_wild for shape in self.decompositions(concealed, melds_needed))

    def _best_naturalisation(self, concealed: Sequence[Tile], melds_needed: int,
                             faced: tuple[list[int], list[Tile]] | None = None
                             ) -> tuple[int, ShapeKind, list[int], list[Tile], list[Tile], bool] | None:
        """(wilds as wild, shape, face counts, wilds kept as wild, wilds made natural, exact) at
        the best way of letting some wild tiles play their own face, or None if not complete.

        Every way is tried (a handful: at most five per wild kind), most natural first.  The
        tables hold at most four tiles per face, so a way that would put five tiles on one face
        (only possible with stand-ins) is skipped; `exact` is False when such a skipped way
        might have been better, and the caller then falls back to the decompositions.
        """
        n = len(concealed)
        if n != 3 * melds_needed + 2 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 2)
        faces, wild_tiles = self._faces(concealed) if faced is None else faced    # (`_faces`, where already read)
        kinds = Counter(wild_tiles)
        own = sorted(k for k in kinds if not k.is_flower)
        shapes = self.shapes.enabled(n)
        exact = True
        for counts in sorted(product(*(range(kinds[k] + 1) for k in own)), key=lambda c: -sum(c)):
            as_wild = len(wild_tiles) - sum(counts)
            trial = list(faces)
            for kind, extra in zip(own, counts):
                trial[kind] += extra
            if max(trial) > 4:
                exact = False
                continue
            for shape in shapes:
                if self._shape_complete(shape, trial, as_wild):
                    kept = list(wild_tiles)
                    for kind, extra in zip(own, counts):
                        for _ in range(extra):
                            kept.remove(kind)
                    made_natural = [kind for kind, extra in zip(own, counts) for _ in range(extra)]
                    return as_wild, shape, trial, kept, made_natural, exact
        return None

    # ------------------------------------------------------------ decompositions

    def evaluate(self, concealed: Sequence[Tile], melds_needed: int, win_tile: Tile | None = None) -> WinShape | None:
        """One decomposition of a complete hand, using the fewest wilds as wilds; None if the hand
        is not complete.  Shapes tie in the order standard, seven pairs, thirteen orphans,
        十三烂, 八对+单张.  With `win_tile`, the first group it can be in is reported."""
        if win_tile is not None and Tile(win_tile) not in concealed:
            raise HandError(f"the winning tile {Tile(win_tile)} is not in the hand")
        best = self._best_naturalisation(concealed, melds_needed)
        return None if best is None else self._evaluated(best, concealed, melds_needed, win_tile)

    def _evaluated(self, best: tuple[int, ShapeKind, list[int], list[Tile], list[Tile], bool],
                   concealed: Sequence[Tile], melds_needed: int, win_tile: Tile | None) -> WinShape | None:
        """`evaluate` from the hand's `_best_naturalisation` (found already)."""
        as_wild, shape, faces, kept, made_natural, exact = best
        if not exact:
            every = self.decompositions(concealed, melds_needed, win_tile)
            return min(every, key=lambda d: d.wilds_as_wild) if every else None
        sources = self._sources(concealed, made_natural)
        shapes = self._shapes_of(shape, self._first_split(shape, faces, kept), sources, kept, win_tile)
        return shapes[0] if shapes else None

    def _first_split(self, shape: ShapeKind, faces: list[int], wild_tiles: Sequence[Tile]) -> list[tuple[RawGroup, ...]]:
        """The first split of a complete hand in `shape` that the search finds."""
        if shape is ShapeKind.STANDARD:
            return standard_splits(faces, len(wild_tiles), self._pair_faces(), self.shapes.honour_chows,
                                   first=True, cost=self._keys_cost)
        return special_splits(shape, faces, len(wild_tiles), self.shapes, [int(t) for t in wild_tiles])[:1]

    def decompositions(self, concealed: Sequence[Tile], melds_needed: int,
                       win_tile: Tile | None = None, view: GroupView | None = None) -> list[WinShape]:
        """Every distinct decomposition of a complete hand, in every allowed shape ([] if none).

        Groups made only of wilds are listed once as *free* groups (`Group.free`), standing by
        default for their own face.  With `win_tile` (a physical kind in the hand), each
        decomposition is listed once per distinct group (and role) the tile can be in.
        十三烂 lists one decomposition (wilds play their own face where it fits, then fill the
        missing honours, then the lowest ranks that keep each suit valid).

        With `view` (how the caller sees a group, readings.py), one standard decomposition per
        class of splits the caller cannot tell apart; with `ANY_READING`, one decomposition.
        """
        return [build() for _, builds in self.classified_decompositions(concealed, melds_needed, win_tile, view)
                for build in builds]

    def classified_decompositions(self, concealed: Sequence[Tile], melds_needed: int, win_tile: Tile | None = None,
                                  view: GroupView | None = None, coarse: GroupView | None = None
                                  ) -> list[tuple[Hashable, list[Callable[[], WinShape]]]]:
        """The decompositions of `decompositions`, built on demand and grouped: (class, builders).

        With `coarse` (a rougher view than `view`, readings.standard_classes), the collapsed
        standard decompositions of one coarse class share a group, so a judge that reads only
        `coarse` checks one of them and builds the rest only if it keeps them; every other
        decomposition is a group of its own."""
        n = len(concealed)
        if n != 3 * melds_needed + 2 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 2)
        faces, wild_tiles = self._faces(concealed)
        if win_tile is not None and Tile(win_tile) not in concealed:
            raise HandError(f"the winning tile {Tile(win_tile)} is not in the hand")
        if view is ANY_READING:
            return _own_groups(self._any_reading(concealed, melds_needed, faces, wild_tiles, win_tile))
        # With fewer than two wilds a hand splits few ways: listing them is cheaper than the walk.
        if view is None or len(wild_tiles) < 2:
            return _own_groups(self._listed_readings(concealed, faces, wild_tiles, win_tile))
        sources = self._sources(concealed, [])
        out: list[tuple[Hashable, list[Callable[[], WinShape]]]] = []
        for shape in self.shapes.enabled(n):
            if not self._shape_complete(shape, faces, len(wild_tiles)):
                continue
            if shape is ShapeKind.STANDARD:
                found = self._collapsed_standard(faces, wild_tiles, sources, win_tile, view, coarse)
                if found is not None:
                    out += found
                    continue
            out += _own_groups(self._readings_of(shape, faces, wild_tiles, sources, win_tile))
        return out

    def _listed_readings(self, concealed: Sequence[Tile], faces: list[int], wild_tiles: list[Tile],
                         win_tile: Tile | None) -> tuple[WinShape, ...]:
        """Every decomposition of a complete hand in every allowed shape, each listed (not
        collapsed into classes), kept for the next judgement of the same tiles (`_LISTED`): the
        simulated players judge a hand self-drawn, then won on a discard, and the readings do
        not depend on who discarded.  They depend on the tiles, the winning tile and the rules
        (wilds, stand-ins, shapes: the evaluator's `face_of` and `shapes`)."""
        def listed() -> tuple[WinShape, ...]:
            sources = self._sources(concealed, [])
            out: list[WinShape] = []
            for shape in self.shapes.enabled(len(concealed)):
                if self._shape_complete(shape, faces, len(wild_tiles)):
                    out += self._readings_of(shape, faces, wild_tiles, sources, win_tile)
            return tuple(out)
        key = (tuple(sorted(int(t) for t in concealed)), None if win_tile is None else int(win_tile),
               self.face_of, self.shapes)
        return _LISTED.answer(key, listed)

    def _readings_of(self, shape: ShapeKind, faces: list[int], wild_tiles: list[Tile], sources: dict[int, list[Tile]],
                     win_tile: Tile | None) -> list[WinShape]:
        """Every decomposition of a complete hand in one shape, listed."""
        if shape is ShapeKind.STANDARD:
            splits = standard_splits(faces, len(wild_tiles), self._pair_faces(), self.shapes.honour_chows,
                                     cost=self._keys_cost)
        else:
            splits = special_splits(shape, faces, len(wild_tiles), self.shapes, [int(t) for t in wild_tiles])
        return self._shapes_of(shape, splits, sources, wild_tiles, win_tile)

    def _any_reading(self, concealed: Sequence[Tile], melds_needed: int, faces: list[int], wild_tiles: list[Tile],
                     win_tile: Tile | None) -> list[WinShape]:
        """One reading, for a caller that reads nothing of it: `evaluate`'s (the most natural)
        when it is found directly, else the first split found (never every split)."""
        best = self._best_naturalisation(concealed, melds_needed, (faces, wild_tiles))
        if best is None:
            return []
        if best[-1]:      # (`evaluate`, without finding `best` again: the players ask this at every wait weighed)
            shape = self._evaluated(best, concealed, melds_needed, win_tile)
            return [shape] if shape is not None else []
        sources = self._sources(concealed, [])
        for shape in self.shapes.enabled(len(concealed)):
            if not self._shape_complete(shape, faces, len(wild_tiles)):
                continue
            found = self._shapes_of(shape, self._first_split(shape, faces, wild_tiles), sources, wild_tiles, win_tile)
            if found:
                return found[:1]
        return []

    def _collapsed_standard(self, faces: list[int], wild_tiles: list[Tile], sources: dict[int, list[Tile]],
                            win_tile: Tile | None, view: GroupView, coarse: GroupView | None
                            ) -> list[tuple[Hashable, list[Callable[[], WinShape]]]] | None:
        """Builders of one standard decomposition per class (readings.py), grouped by coarse
        class, or None if the classes cannot be trusted for this hand (the caller then takes
        every split)."""
        counts = Counter(int(t) for t in wild_tiles)
        wild_counts = sorted((kind, n) for kind, n in counts.items() if kind < 34)
        if win_tile is None:
            win: tuple[int, int | None] = (NO_WIN, None)
        elif self.face_of[win_tile] is None:
            win = (WIN_WILD, int(win_tile))
        else:
            win = (WIN_NATURAL, self.face_of[win_tile])
        pair_faces = self._pair_faces()
        honour_chows = self.shapes.honour_chows
        # Where each wild kind lands follows `assemble`'s order: with several kinds, a winning wild
        # (or a split with more places of a kind's own face than its tiles) needs the walk in that order.
        found = None
        if len(counts) == 1 or win[0] != WIN_WILD:
            found = _kept_standard_classes(faces, len(wild_tiles), wild_counts, pair_faces, honour_chows,
                                           (win[0], None) if win[0] == WIN_WILD else win, view, self._keys_cost, coarse)
        if found is None and len(counts) > 1:
            found = ordered_classes(faces, len(wild_tiles), sorted(counts.items()), pair_faces, honour_chows, win,
                                    view, self._keys_cost, coarse)
        if found is None:
            return None

        def builder(split_of: Callable[[], Split]) -> Callable[[], WinShape]:
            def build() -> WinShape:
                split, index, place = split_of()
                groups, assignment = assemble(split, sources, wild_tiles, self.wild_kinds, pair_faces, False)
                natural = sum(1 for kind, face in assignment if kind == face)
                role = None if index is None else role_of(groups[index], place)  # type: ignore[arg-type]
                return WinShape(ShapeKind.STANDARD, groups, assignment, len(assignment) - natural, natural, index, role)
            return build

        grouped: dict[Hashable, list[Callable[[], WinShape]]] = {}
        for rough, split_of in found:
            grouped.setdefault(rough, []).append(builder(split_of))
        return list(grouped.items())

    def _shapes_of(self, shape: ShapeKind, splits: Iterable[tuple[RawGroup, ...]], sources: dict[int, list[Tile]],
                   wild_tiles: Sequence[Tile], win_tile: Tile | None) -> list[WinShape]:
        """WinShapes for the splits of one shape, without repeats (see below)."""
        distinct = shape in (ShapeKind.SEVEN_PAIRS, ShapeKind.EIGHT_PAIRS_PLUS_SINGLE) and not self.shapes.four_as_two_pairs
        pair_faces = self._pair_faces() if shape is ShapeKind.STANDARD else None
        out = []
        seen: set[tuple] = set()
        for split in splits:
            groups, assignment = assemble(split, sources, wild_tiles, self.wild_kinds, pair_faces, distinct)
            natural = sum(1 for kind, face in assignment if kind == face)
            base = dict(shape=shape, groups=groups, assignment=assignment,
                        wilds_as_wild=len(assignment) - natural, wilds_natural=natural)
            # Splits that differ only in which of several tiles playing one face sits where
            # (a natural 9m, a 白板 playing 9m, a wild 9m as itself) are the same decomposition.
            key = tuple(sorted((KIND_NAMES[g.kind], g.tiles, tuple(sorted(a for a in g.assignment if a[0] != a[1])))
                               for g in groups))
            options = [(None, None)] if win_tile is None else win_options(groups, Tile(win_tile))
            for index, role in options:
                marker = (key, None if index is None else (KIND_NAMES[groups[index].kind], groups[index].tiles), role)
                if marker not in seen:
                    seen.add(marker)
                    out.append(WinShape(**base, win_group=index, win_role=role))
        return out

    # ------------------------------------------------------------------ helpers

    def _any_special(self, size: int) -> bool:
        return len(self.shapes.enabled(size)) > self.shapes.standard

    def _pair_faces(self) -> frozenset[int] | None:
        pairs = self.shapes.pair_kinds
        return None if pairs is None else frozenset(int(k) for k in pairs)

    def _standard_cost(self, e: int, keys: Sequence[int]) -> int:
        """Fewest wilds for the standard shape, from the summed entry (and the keys)."""
        if self.pair_mode == "any":
            return (e & tables.A_MASK) + (-1 if e >> tables.PAIR_SHIFT & tables.PAIR_MASK else 2)
        if self.pair_mode == "258":
            return (e & tables.A_MASK) + (-1 if e >> tables.F258_SHIFT & 3 else 2)
        return self.listed_pair_cost(e, keys)

    def listed_pair_cost(self, e: int, keys: Sequence[int]) -> int:
        """Fewest wilds with the pair on one of the listed kinds: melds only everywhere, then
        the pair on a listed kind k takes min(count, 2) naturals of k and wilds for the rest
        (using fewer naturals never helps: taking one tile out of a component costs at most one
        wild more), or is two wilds."""
        a = e & tables.A_MASK
        best = a + 2 if self._pair_places else 99
        for comp, step in self._pair_places:
            key = keys[comp]
            count = key // step % 5
            if count:
                table = self.suit_table if comp < 3 else self.honour_table
                used = min(count, 2)
                cost = a - (table[key] & tables.A_MASK) + (table[key - used * step] & tables.A_MASK) + 2 - used
                best = min(best, cost)
        return best

    def _entry_of_faces(self, faces: Sequence[int]) -> tuple[int, list[int]]:
        # (each key is Σ count·5^rank; summed by `map`: a judgement reads every way of placing the wilds)
        keys = [sum(map(mul, faces[0:9], _POW5)), sum(map(mul, faces[9:18], _POW5)),
                sum(map(mul, faces[18:27], _POW5)), sum(map(mul, faces[27:34], _POW5))]
        suit = self.suit_table
        e = suit[keys[0]] + suit[keys[1]] + suit[keys[2]] + self.honour_table[keys[3]]
        return e, keys

    def _keys_cost(self, keys: list[int], pair_needed: bool) -> int:
        """Fewest wilds that turn the component keys into melds (and the pair if needed)."""
        suit = self.suit_table
        e = suit[keys[0]] + suit[keys[1]] + suit[keys[2]] + self.honour_table[keys[3]]
        return self._standard_cost(e, keys) if pair_needed else e & tables.A_MASK

    def _shape_complete(self, shape: ShapeKind, faces: Sequence[int], wilds: int) -> bool:
        if shape is ShapeKind.STANDARD:
            e, keys = self._entry_of_faces(faces)
            return self._standard_cost(e, keys) <= wilds
        return SpecialStats(faces, wilds).complete(shape, self.shapes)

    def _faces(self, concealed: Sequence[Tile]) -> tuple[list[int], list[Tile]]:
        """Face counts (34) and the wild tiles, after checking the hand."""
        physical = self.check_counts(concealed)
        faces = [0] * 34
        wild_tiles: list[Tile] = []
        for kind, count in enumerate(physical):
            if count:
                face = self.face_of[kind]
                if face is None:
                    wild_tiles += [ALL_TILES[kind]] * count
                else:
                    faces[face] += count
        return faces, wild_tiles

    def _sources(self, concealed: Sequence[Tile], made_natural: Sequence[Tile]) -> dict[int, list[Tile]]:
        """face → the physical tiles that play it naturally (sorted, so output is stable)."""
        sources: dict[int, list[Tile]] = {}
        for tile in sorted(ALL_TILES[t] for t in concealed):      # (checked tiles: `_faces` came first)
            face = self.face_of[tile]
            if face is not None:
                sources.setdefault(face, []).append(tile)
        for tile in made_natural:
            sources.setdefault(int(tile), []).append(Tile(tile))
        return sources

    def check_counts(self, concealed: Sequence[Tile]) -> list[int]:
        """Physical counts per kind; raises HandError for a non-tile, a stray flower, more than
        four of a kind, or more than four tiles playing one face."""
        physical = [0] * KIND_COUNT
        for tile in concealed:
            if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < KIND_COUNT:
                raise HandError(f"not a tile: {tile!r}")
            physical[tile] += 1
        face_of = self.face_of
        merged = False          # some tile held plays another kind's face (a stand-in)
        for kind in sorted(set(concealed)):     # the kinds held, in order (a judgement asks this several times)
            count = physical[kind]
            if count > 4:
                raise HandError(f"{count} × {Tile(kind)} in the hand: there are only four of each kind")
            face = face_of[kind]
            if face == -1:
                raise HandError(f"flower {Tile(kind)} in the concealed hand: set flowers aside (or make them wild)")
            merged = merged or (face is not None and face != kind)
        if not merged:          # each face is played by its own kind alone: counted above
            return physical
        faces = Counter()
        for kind, count in enumerate(physical):
            face = self.face_of[kind]
            if count and face is not None:
                faces[face] += count
        for face, count in faces.items():
            if count > 4:
                raise HandError(f"{count} tiles play {Tile(face)}: at most four can")
        return physical

    def invalid(self, concealed: Sequence[Tile]) -> HandError:
        try:
            self.check_counts(concealed)
        except HandError as error:
            return error
        return HandError(f"not a hand: {concealed!r}")


__all__ = ["Evaluator"]


_WALKS = WalkMemo()
"""The walks of the last hands judged (walk_memo.py): a judgement of the same tiles seen alike,
won another way (self-drawn, then on a discard), walks no more."""

_LISTED = WalkMemo()
"""The listed readings of the last hands judged (`Evaluator._listed_readings`): a judgement of
the same tiles, won another way (self-drawn, then on a discard), splits them no more."""


def _kept_standard_classes(faces: list[int], wilds: int, wild_counts: list[tuple[int, int]],
                           pair_faces: frozenset[int] | None, honour_chows: bool, win: tuple[int, int | None],
                           view: GroupView, cost: Callable[[list[int], bool], int], coarse: GroupView | None
                           ) -> tuple[tuple[Hashable, Callable[[], Split]], ...] | None:
    """`standard_classes`, kept by what it depends on.  `cost` only prunes branches that cannot be
    completed (a function of the pair faces and honour chows, in the key), so it is not."""
    views = (view_key(view), view_key(coarse))

    def walk() -> tuple[tuple[Hashable, Callable[[], Split]], ...] | None:
        found = standard_classes(faces, wilds, wild_counts, pair_faces, honour_chows, win, view, cost, coarse)
        return None if found is None else tuple(found)
    if UNKEYABLE in views:
        return walk()
    return _WALKS.answer((tuple(faces), wilds, tuple(wild_counts), pair_faces, honour_chows, win, views), walk)


def _own_groups(shapes: Iterable[WinShape]) -> list[tuple[Hashable, list[Callable[[], WinShape]]]]:
    """Each decomposition in a group of its own (already built)."""
    return [(("own", n), [lambda shape=shape: shape]) for n, shape in enumerate(shapes)]
