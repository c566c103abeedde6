"""`Evaluator`: win checks, waits and decompositions for one set of rules.

Build one per region and hand setting (wild kinds, shapes, stand-ins) and call it many times;
the module-level functions in `rulesets.winning` build one per call.

How the fast check works (tables.py has the tables):

1. Two passes over the tiles add per-kind weights.  The first gives the three suit keys
   packed in one integer (base-5 digits, one 21-bit field per suit: under 2**63, so Python's
   `sum` stays in machine integers); the second gives the honour key plus the number of wild
   tiles (in units of 5**7).  Stand-ins weigh as the face they play; wilds weigh nothing in the
   first pass.
2. The four components' table entries are added; the sum says how many tiles were seen (a
   fifth copy of a kind would carry into the next rank and is caught here), the total of
   ``a`` and whether some component takes the pair at a discount.
3. Standard shape: complete iff ``sum(a) - 1 <= W`` with the discount, else ``sum(a) + 2 <= W``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import product
from operator import itemgetter

from ..tiles import KIND_COUNT, Tile
from . import tables
from .decompose import assemble, standard_splits, win_options
from .results import HandError, WinShape
from .shapes import PAIRS_258, ShapeKind, Shapes
from .special import RawGroup, SpecialStats, special_splits

_FIELD = 21  # bits per suit in the first pass's integer
_FIELD_MASK = (1 << _FIELD) - 1
_WILD_UNIT = 5 ** 7  # one wild in the second pass
_NOT_IN_HAND = _WILD_UNIT << 20  # a flower that is not wild: sends the check to validation
_SUIT = tables.SUIT_TABLE
_PAIR_ANY, _PAIR_258, _PAIR_LISTED = 0, 1, 2
_MAX_MELDS = 5  # 16-tile hands: 5 melds + a pair
_POW5 = tuple(5 ** r for r in range(9))


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

    __slots__ = ("wild_kinds", "shapes", "stand_ins", "_face", "_suit_weight", "_honour_weight",
                 "_honours", "_pair_mode", "_pair_places")

    def __init__(self, wild_kinds: Iterable[Tile] = frozenset(), shapes: Shapes = Shapes(),
                 stand_ins: Mapping[Tile, Tile] | None = None) -> None:
        wilds = frozenset(Tile(k) for k in wild_kinds)
        stands = {Tile(s): Tile(t) for s, t in (stand_ins or {}).items()}
        for source, face in stands.items():
            if source in wilds:
                raise HandError(f"stand-in {source} is itself wild: a tile cannot be both")
            if face not in wilds or face.is_flower:
                raise HandError(f"stand-in {source} plays {face}, which is not a wild kind")
        if len(set(stands.values())) < len(stands):
            raise HandError("two stand-ins play the same face")
        self.wild_kinds = wilds
        self.shapes = shapes
        self.stand_ins: Mapping[Tile, Tile] = stands
        # _face[kind]: the face a physical tile plays, None for a wild, -1 for a stray flower.
        wild_ints = {int(k) for k in wilds}
        plays = {int(s): int(t) for s, t in stands.items()}
        self._face = tuple(None if k in wild_ints else -1 if k >= 34 else plays.get(k, k)
                           for k in range(KIND_COUNT))
        self._suit_weight = [0 if f is None or not 0 <= f < 27 else _POW5[f % 9] << (_FIELD * (f // 9))
                             for f in self._face]
        self._honour_weight = [_WILD_UNIT if f is None else _NOT_IN_HAND if f == -1 else
                               _POW5[f - 27] if f >= 27 else 0 for f in self._face]
        self._honours = tables.HONOUR_CHOW_TABLE if shapes.honour_chows else tables.HONOUR_TABLE
        pairs = shapes.pair_kinds
        self._pair_mode = _PAIR_ANY if pairs is None else _PAIR_258 if pairs == PAIRS_258 else _PAIR_LISTED
        self._pair_places = tuple(_component(int(k)) for k in sorted(pairs or ()))

    def __repr__(self) -> str:
        wilds = ",".join(str(k) for k in sorted(self.wild_kinds))
        return f"Evaluator(wild_kinds={{{wilds}}}, shapes={self.shapes}, stand_ins={dict(self.stand_ins)})"

    # ----------------------------------------------------------------- fast checks

    def is_complete(self, concealed: Sequence[Tile], melds_needed: int) -> bool:
        """Whether the concealed tiles (3·melds_needed + 2 of them) form a shape the rules allow."""
        n = len(concealed)
        if n != 3 * melds_needed + 2 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 2)
        try:
            pick = itemgetter(*concealed)
            k = sum(pick(self._suit_weight))
            wilds, h = divmod(sum(pick(self._honour_weight)), _WILD_UNIT)
            e = _SUIT[k & _FIELD_MASK] + _SUIT[k >> _FIELD & _FIELD_MASK] + _SUIT[k >> 2 * _FIELD] + self._honours[h]
        except (IndexError, TypeError):
            raise self._invalid(concealed) from None
        if (e >> tables.TILES_SHIFT & tables.TILES_MASK) != n - wilds:
            raise self._invalid(concealed)  # a fifth copy, a stray flower …
        if wilds > 4:
            self._check_counts(concealed)  # five wilds of one kind?
        if self.shapes.standard:
            mode = self._pair_mode
            if mode == _PAIR_ANY:
                if (e & tables.A_MASK) + (-1 if e >> tables.PAIR_SHIFT else 2) <= wilds:
                    return True
            elif mode == _PAIR_258:
                if (e & tables.A_MASK) + (-1 if e >> tables.F258_SHIFT & 3 else 2) <= wilds:
                    return True
            elif self._listed_pair_cost(e, (k & _FIELD_MASK, k >> _FIELD & _FIELD_MASK, k >> 2 * _FIELD, h)) <= wilds:
                return True
        if n in (14, 17) and self._any_special(n):
            faces, wild_tiles = self._faces(concealed)
            stats = SpecialStats(faces, len(wild_tiles))
            return any(stats.complete(shape, self.shapes) for shape in self.shapes.enabled(n)[self.shapes.standard:])
        return False

    def waits(self, concealed: Sequence[Tile], melds_needed: int, candidates: Iterable[Tile]) -> tuple[Tile, ...]:
        """The kinds among `candidates` that complete a hand one tile short (3·melds_needed + 1).

        Pass the region's kinds as `candidates`.  A kind is left out when all four of its
        tiles are already in the hand (it cannot be drawn); a flower is a wait only if wild.
        """
        n = len(concealed)
        if n != 3 * melds_needed + 1 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 1)
        try:
            if n == 1:
                k, w2 = self._suit_weight[concealed[0]], self._honour_weight[concealed[0]]
            else:
                pick = itemgetter(*concealed)
                k, w2 = sum(pick(self._suit_weight)), sum(pick(self._honour_weight))
            wilds, h = divmod(w2, _WILD_UNIT)
            keys = [k & _FIELD_MASK, k >> _FIELD & _FIELD_MASK, k >> 2 * _FIELD, h]
            honours = self._honours
            entries = [_SUIT[keys[0]], _SUIT[keys[1]], _SUIT[keys[2]], honours[h]]
        except (IndexError, TypeError):
            raise self._invalid(concealed) from None
        total = sum(entries)
        if (total >> tables.TILES_SHIFT & tables.TILES_MASK) != n - wilds:
            raise self._invalid(concealed)
        if wilds > 4:
            self._check_counts(concealed)
        size = n + 1
        specials = self.shapes.enabled(size)[self.shapes.standard:] if self._any_special(size) else ()
        stats = None
        if specials:  # the hand is valid by now, so a plain count will do
            faces = [0] * 34
            for tile in concealed:
                face = self._face[tile]
                if face is not None:
                    faces[face] += 1
            stats = SpecialStats(faces, wilds)
            specials = tuple(s for s in specials if stats.possible(s, self.shapes))
            if not specials:
                stats = None
        standard, mode = self.shapes.standard, self._pair_mode
        want_tiles = (size - wilds) << tables.TILES_SHIFT
        shift, flag_mask = (tables.PAIR_SHIFT, 7) if mode == _PAIR_ANY else (tables.F258_SHIFT, 3)
        a_mask, tiles_bits = tables.A_MASK, tables.TILES_MASK << tables.TILES_SHIFT
        face_of = self._face
        wild_result: bool | None = None
        out = []
        for tile in candidates:
            face = face_of[tile]
            if face is None:  # one more wild
                if concealed.count(tile) >= 4:
                    continue
                if wild_result is None:
                    wild_result = (standard and self._standard_cost(total, keys) <= wilds + 1) or (
                        stats is not None and any(stats.complete(s, self.shapes, add_wild=True) for s in specials))
                if wild_result:
                    out.append(tile)
                continue
            if face < 0:
                continue
            if face < 27:
                comp, step = face // 9, _POW5[face % 9]
                table = _SUIT
            else:
                comp, step = 3, _POW5[face - 27]
                table = honours
            key = keys[comp] + step
            if key >= len(table):
                continue  # a fifth 9 carries out of the suit
            e = total - entries[comp] + table[key]
            if e & tiles_bits != want_tiles:
                continue  # a fifth copy
            if standard:
                if mode == _PAIR_LISTED:
                    changed = list(keys)
                    changed[comp] = key
                    ok = self._listed_pair_cost(e, changed) <= wilds
                else:
                    ok = (e & a_mask) + (-1 if e >> shift & flag_mask else 2) <= wilds
                if ok:
                    out.append(tile)
                    continue
            if stats is not None and any(stats.complete(s, self.shapes, add=face) for s in specials):
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

    def _best_naturalisation(self, concealed: Sequence[Tile], melds_needed: int
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
        faces, wild_tiles = self._faces(concealed)
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
        if best is None:
            return None
        as_wild, shape, faces, kept, made_natural, exact = best
        if not exact:
            every = self.decompositions(concealed, melds_needed, win_tile)
            return min(every, key=lambda d: d.wilds_as_wild) if every else None
        sources = self._sources(concealed, made_natural)
        if shape is ShapeKind.STANDARD:
            splits = standard_splits(faces, len(kept), self._pair_faces(), self.shapes.honour_chows,
                                     feasible=self._feasible, first=True)
        else:
            splits = special_splits(shape, faces, len(kept), self.shapes, [int(t) for t in kept])[:1]
        shapes = self._shapes_of(shape, splits, sources, kept, win_tile)
        return shapes[0] if shapes else None

    def decompositions(self, concealed: Sequence[Tile], melds_needed: int,
                       win_tile: Tile | None = None) -> list[WinShape]:
        """Every distinct decomposition of a complete hand, in every allowed shape ([] if none).

        Groups made only of wilds are listed once as *free* groups (`Group.free`), standing by
        default for their own face.  With `win_tile` (a physical kind in the hand), each
        decomposition is listed once per distinct group (and role) the tile can be in.
        十三烂 lists one decomposition (wilds play their own face where it fits, then fill the
        missing honours, then the lowest ranks that keep each suit valid).
        """
        n = len(concealed)
        if n != 3 * melds_needed + 2 or not 0 <= melds_needed <= _MAX_MELDS:
            raise _size_error(n, melds_needed, 2)
        faces, wild_tiles = self._faces(concealed)
        if win_tile is not None and Tile(win_tile) not in concealed:
            raise HandError(f"the winning tile {Tile(win_tile)} is not in the hand")
        sources = self._sources(concealed, [])
        out: list[WinShape] = []
        for shape in self.shapes.enabled(n):
            if not self._shape_complete(shape, faces, len(wild_tiles)):
                continue
            if shape is ShapeKind.STANDARD:
                splits = standard_splits(faces, len(wild_tiles), self._pair_faces(), self.shapes.honour_chows)
            else:
                splits = special_splits(shape, faces, len(wild_tiles), self.shapes, [int(t) for t in wild_tiles])
            out += self._shapes_of(shape, splits, sources, wild_tiles, win_tile)
        return out

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
            key = tuple(sorted((g.kind.value, g.tiles, tuple(sorted(a for a in g.assignment if a[0] != a[1])))
                               for g in groups))
            options = [(None, None)] if win_tile is None else win_options(groups, Tile(win_tile))
            for index, role in options:
                marker = (key, None if index is None else (groups[index].kind.value, groups[index].tiles), role)
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
        if self._pair_mode == _PAIR_ANY:
            return (e & tables.A_MASK) + (-1 if e >> tables.PAIR_SHIFT else 2)
        if self._pair_mode == _PAIR_258:
            return (e & tables.A_MASK) + (-1 if e >> tables.F258_SHIFT & 3 else 2)
        return self._listed_pair_cost(e, keys)

    def _listed_pair_cost(self, e: int, keys: Sequence[int]) -> int:
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
                table = _SUIT if comp < 3 else self._honours
                used = min(count, 2)
                cost = a - (table[key] & tables.A_MASK) + (table[key - used * step] & tables.A_MASK) + 2 - used
                best = min(best, cost)
        return best

    def _entry_of_faces(self, faces: Sequence[int]) -> tuple[int, list[int]]:
        keys = [sum(faces[base + r] * _POW5[r] for r in range(9)) for base in (0, 9, 18)]
        keys.append(sum(faces[27 + r] * _POW5[r] for r in range(7)))
        e = _SUIT[keys[0]] + _SUIT[keys[1]] + _SUIT[keys[2]] + self._honours[keys[3]]
        return e, keys

    def _feasible(self, faces: list[int], wilds: int, pair_needed: bool) -> bool:
        """Whether face counts plus wilds can still become melds (plus the pair if needed)."""
        e, keys = self._entry_of_faces(faces)
        cost = self._standard_cost(e, keys) if pair_needed else e & tables.A_MASK
        return cost <= wilds

    def _shape_complete(self, shape: ShapeKind, faces: Sequence[int], wilds: int) -> bool:
        if shape is ShapeKind.STANDARD:
            e, keys = self._entry_of_faces(faces)
            return self._standard_cost(e, keys) <= wilds
        return SpecialStats(faces, wilds).complete(shape, self.shapes)

    def _faces(self, concealed: Sequence[Tile]) -> tuple[list[int], list[Tile]]:
        """Face counts (34) and the wild tiles, after checking the hand."""
        physical = self._check_counts(concealed)
        faces = [0] * 34
        wild_tiles: list[Tile] = []
        for kind, count in enumerate(physical):
            if count:
                face = self._face[kind]
                if face is None:
                    wild_tiles += [Tile(kind)] * count
                else:
                    faces[face] += count
        return faces, wild_tiles

    def _sources(self, concealed: Sequence[Tile], made_natural: Sequence[Tile]) -> dict[int, list[Tile]]:
        """face → the physical tiles that play it naturally (sorted, so output is stable)."""
        sources: dict[int, list[Tile]] = {}
        for tile in sorted(Tile(t) for t in concealed):
            face = self._face[tile]
            if face is not None:
                sources.setdefault(face, []).append(tile)
        for tile in made_natural:
            sources.setdefault(int(tile), []).append(Tile(tile))
        return sources

    def _check_counts(self, concealed: Sequence[Tile]) -> list[int]:
        """Physical counts per kind; raises HandError for a non-tile, a stray flower, more than
        four of a kind, or more than four tiles playing one face."""
        physical = [0] * KIND_COUNT
        for tile in concealed:
            if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < KIND_COUNT:
                raise HandError(f"not a tile: {tile!r}")
            physical[tile] += 1
        for kind, count in enumerate(physical):
            if count > 4:
                raise HandError(f"{count} × {Tile(kind)} in the hand: there are only four of each kind")
            if count and self._face[kind] == -1:
                raise HandError(f"flower {Tile(kind)} in the concealed hand: set flowers aside (or make them wild)")
        faces = Counter()
        for kind, count in enumerate(physical):
            face = self._face[kind]
            if count and face is not None:
                faces[face] += count
        for face, count in faces.items():
            if count > 4:
                raise HandError(f"{count} tiles play {Tile(face)}: at most four can")
        return physical

    def _invalid(self, concealed: Sequence[Tile]) -> HandError:
        try:
            self._check_counts(concealed)
        except HandError as error:
            return error
        return HandError(f"not a hand: {concealed!r}")


def _size_error(n: int, melds_needed: int, extra: int) -> HandError:
    if not 0 <= melds_needed <= _MAX_MELDS:
        return HandError(f"melds_needed must be 0-{_MAX_MELDS}, got {melds_needed}")
    what = "complete hand" if extra == 2 else "hand one tile short"
    return HandError(f"{n} concealed tiles, but a {what} with {melds_needed} melds to go has "
                     f"{3 * melds_needed + extra}")


__all__ = ["Evaluator"]
