"""How far a hand is from complete (向听数): -1 complete, 0 ready, 1 one tile from ready, …

Used to choose discards and claims, not to judge wins (rulesets.judging does that).  The
standard shape is counted exactly per suit (best melds, partial melds and the pair, memoised per
instance); each wild is one step nearer, which is exact in all but a few corner cases.  Seven
pairs, an all-pungs hand and a one-suit hand (for regions that demand them) have their own counts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

from rulesets.tiles import Tile
from rulesets.winning import Shapes

FAR = 99
Triple = tuple[int, int, int]      # (melds, partial melds, pair 0/1)
_NOTHING: tuple[Triple, ...] = ((0, 0, 0),)     # the options of a part with no tiles
_BASES = (0, 9, 18, 27)     # where 万, 筒, 条 and the honours begin among the 34 faces
JOINS_KEPT = 1 << 16     # remembered joins of a partial hand and a part (ids: a few MB at most)
# each face's part (万, 筒, 条, honours) and rank in it, looked up at every discard weighed
_SUIT_RANK = tuple((min(face // 9, 3), face - _BASES[min(face // 9, 3)]) for face in range(34))


def _combine(left: Iterable[Triple], right: Iterable[Triple], needed: int) -> list[Triple]:
    """The options of two parts of a hand together (one pair at most), counted only as far as
    they can matter: melds up to `needed`, partial melds up to the melds still missing.  The
    count stays exact (more of either could not lower it) and the options stay few: combining
    the parts' whole Pareto sets, sorted and pruned at each step, was most of the players' time."""
    best: dict[tuple[int, int], int] = {}     # (melds, pair) → most partial melds
    for m1, t1, p1 in left:
        for m2, t2, p2 in right:
            p = p1 + p2
            if p > 1:
                continue
            m = min(m1 + m2, needed)
            t = min(t1 + t2, needed - m)
            if best.get((m, p), -1) < t:
                best[(m, p)] = t
    return [(m, t, p) for (m, p), t in best.items()]


def _prune(options: Iterable[Triple]) -> tuple[Triple, ...]:
    """Keep only options no other option beats in every count."""
    items = sorted(set(options), reverse=True)
    kept: list[Triple] = []
    for option in items:
        _, t, p = option
        for _, kt, kp in kept:      # each kept one has at least as many melds (sorted)
            if kt >= t and kp >= p:
                break
        else:
            kept.append(option)
    return tuple(kept)


def _normal(counts: Sequence[int], runs: bool) -> tuple[int, ...]:
    """The counts a part's options depend on: a suit's without the empty ranks at either end (its
    melds and partial melds read only ranks relative to each other) and read from whichever end
    gives the lesser tuple (a suit read backwards has the same melds), the honours' by size (they
    make no runs).  Parts the same but for that share one entry of `Parts.options`' memo."""
    if not runs:
        return tuple(sorted(c for c in counts if c))
    start, end = _held_span(counts)
    return _lesser_end(tuple(counts[start:end]))


def _held_span(counts: Sequence[int]) -> tuple[int, int]:
    """Where a suit's held ranks begin and end (the slice of its counts)."""
    start, end = 0, len(counts)
    while start < end and not counts[start]:
        start += 1
    while end > start and not counts[end - 1]:
        end -= 1
    return start, end


def _lesser_end(counts: tuple[int, ...]) -> tuple[int, ...]:
    """A suit's counts read from whichever end gives the lesser tuple."""
    back = counts[::-1]
    return back if back < counts else counts


def _held(counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The counts of the 万, 筒, 条 and honour parts of a hand's 34 face counts."""
    return [tuple(counts[base:base + 9]) for base in _BASES]


def _gap(counts: Sequence[int]) -> int | None:
    """Where a suit's counts first hold two empty ranks in a row (None: nowhere)."""
    for rank in range(1, len(counts) - 2):
        if not counts[rank] and not counts[rank + 1]:
            return rank
    return None


class Parts:
    """What the distance counter remembers of hand parts, whatever the wilds: each suit's (or the
    honours') options by its counts, the options of partial hands by small ids, their joins and
    counts.  One table's counters (one per set of wilds: the 赖子, 宝 … change each hand) share one."""

    def __init__(self) -> None:
        self._memo: dict[tuple[tuple[int, ...], bool, bool], tuple[Triple, ...]] = {}
        self._parts: dict[tuple[tuple[int, ...], bool], int] = {}
        self._normal_ids: dict[tuple[tuple[int, ...], bool], int] = {}
        self._sets: list[tuple[Triple, ...]] = []
        self._ids: dict[tuple[Triple, ...], int] = {}
        self.intern(_NOTHING)                        # id 0: the empty hand
        self._joins: dict[tuple[int, int, int], int] = {}
        self._leasts: dict[tuple[int, int], int] = {}
        self._less: dict[tuple[tuple[int, ...], bool], tuple[int, ...]] = {}
        self._less_normal: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._least_joins: dict[tuple[int, int, int], int] = {}

    def part(self, counts: tuple[int, ...], runs: bool) -> int:
        """The id of one suit's (or the honours') options."""
        key = (counts, runs)
        found = self._parts.get(key)
        if found is None:      # (many suits are one `_normal` form: its id is kept too)
            normal = (_normal(counts, runs), runs)
            found = self._normal_ids.get(normal)
            if found is None:
                found = self._normal_ids[normal] = self.intern(self.options(*normal, True))
            self._parts[key] = found
        return found

    def intern(self, options: Sequence[Triple]) -> int:
        """A small id for a set of options: parts and partial hands are met again and again, and
        their joins are remembered by ids (a few hundred distinct sets: the counts are capped)."""
        key = tuple(sorted(options))
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self._sets)
            self._sets.append(key)
        return found

    def joined(self, state: int, part: int, needed: int) -> int:
        key = (state, part, needed)
        found = self._joins.get(key)
        if found is None:
            if len(self._joins) >= JOINS_KEPT:      # the oldest goes (one at a time: no long pause)
                del self._joins[next(iter(self._joins))]
            found = self._joins[key] = self.intern(_combine(self._sets[state], self._sets[part], needed))
        return found

    def parts_less(self, counts: tuple[int, ...], runs: bool) -> tuple[int, ...]:
        """The id of one part's options less one tile of each rank (0 for a rank not held, or
        for nothing left): a hand's every discard is weighed, and the same parts come back."""
        key = (counts, runs)
        found = self._less.get(key)
        if found is None:
            found = self._less[key] = self._suit_less(counts) if runs else self._each_less(counts, runs)
        return found

    def _each_less(self, counts: tuple[int, ...], runs: bool) -> tuple[int, ...]:
        """`parts_less`, rank by rank."""
        ids = []
        for rank, count in enumerate(counts):
            if not count:
                ids.append(0)
                continue
            less = counts[:rank] + (count - 1,) + counts[rank + 1:]
            ids.append(self.part(less, runs) if any(less) else 0)
        return tuple(ids)

    def _suit_less(self, counts: tuple[int, ...]) -> tuple[int, ...]:
        """`parts_less` of a suit: worked out once for its `_normal` form (many suits share one)
        and read back in the suit's own ranks (a rank's place in that form, read backwards where
        the form is)."""
        start, end = _held_span(counts)
        ahead = counts[start:end]
        normal = _lesser_end(ahead)
        by_place = self._less_normal.get(normal)
        if by_place is None:
            by_place = self._less_normal[normal] = self._each_less(normal, True)
        backwards = normal != ahead
        ids = [0] * len(counts)
        for rank in range(start, end):
            ids[rank] = by_place[end - 1 - rank] if backwards else by_place[rank - start]
        return tuple(ids)

    def least_joined(self, state: int, part: int, needed: int) -> int:
        """`least` of `joined` (one lookup where a hand's discards are weighed)."""
        key = (state, part, needed)
        found = self._least_joins.get(key)
        if found is None:
            if len(self._least_joins) >= JOINS_KEPT:      # the oldest goes, as in `joined`
                del self._least_joins[next(iter(self._least_joins))]
            found = self._least_joins[key] = self.least(self.joined(state, part, needed), needed)
        return found

    def least(self, state: int, needed: int) -> int:
        """Tiles from ready of a whole hand's options, before the wilds."""
        key = (state, needed)
        found = self._leasts.get(key)
        if found is None:
            found = self._leasts[key] = min(2 * (needed - m) - t - p for m, t, p in self._sets[state])
        return found

    def options(self, counts: tuple[int, ...], runs: bool, may_pair: bool) -> tuple[Triple, ...]:
        """The best (melds, partial melds, pair) readings of one part; `counts` as `_normal` gives
        them (so its first rank is held)."""
        key = (counts, runs, may_pair)
        found = self._memo.get(key)
        if found is not None:
            return found
        gap = _gap(counts) if runs else None
        if not counts:
            result: tuple[Triple, ...] = ((0, 0, 0),)
        elif gap is not None:
            result = self._apart(_normal(counts[:gap], runs), _normal(counts[gap + 2:], runs), may_pair)
        else:
            c = list(counts)
            n = len(c)
            out: list[Triple] = []
            # what the lowest rank held (`_normal`: rank 0) can be part of: (ranks taken, gain, pair still allowed)
            moves: list[tuple[tuple[int, ...], Triple, bool]] = []
            if c[0] >= 3:
                moves.append(((0, 0, 0), (1, 0, 0), may_pair))
            if runs and 2 < n and c[1] and c[2]:
                moves.append(((0, 1, 2), (1, 0, 0), may_pair))
            if c[0] >= 2:
                if may_pair:
                    moves.append(((0, 0), (0, 0, 1), False))
                moves.append(((0, 0), (0, 1, 0), may_pair))
            if runs and 1 < n and c[1]:
                moves.append(((0, 1), (0, 1, 0), may_pair))
            if runs and 2 < n and c[2]:
                moves.append(((0, 2), (0, 1, 0), may_pair))
            moves.append(((0,), (0, 0, 0), may_pair))
            for take, (gm, gt, gp), pair_left in moves:
                for k in take:
                    c[k] -= 1
                out += [(m + gm, t + gt, p + gp) for m, t, p in self.options(_normal(c, runs), runs, pair_left)]
                for k in take:
                    c[k] += 1
            result = _prune(out)
        self._memo[key] = result
        return result

    def _apart(self, left: tuple[int, ...], right: tuple[int, ...], may_pair: bool) -> tuple[Triple, ...]:
        """The options of a suit whose ranks fall in two groups two or more empty ranks apart: no
        meld or partial meld spans the gap, so each group's options are read alone (far fewer
        distinct groups than suits: the memo fills sooner) and summed, the pair in one group at most."""
        sides = ((True, False), (False, True)) if may_pair else ((False, False),)
        summed = [(m1 + m2, t1 + t2, p1 + p2)
                  for left_pair, right_pair in sides
                  for m1, t1, p1 in self.options(left, True, left_pair)
                  for m2, t2, p2 in self.options(right, True, right_pair)]
        return _prune(summed)


class Shanten:
    def __init__(self, wild_kinds: Iterable[Tile] = (), stand_ins: Mapping[Tile, Tile] | None = None,
                 shapes: Shapes = Shapes(), parts: Parts | None = None) -> None:
        wilds = frozenset(wild_kinds)
        plays = dict(stand_ins or {})
        self.wilds = wilds
        self.shapes = shapes
        # face a physical kind plays: None for a wild, -1 for a flower (never in a hand)
        self._face = tuple(None if Tile(k) in wilds else -1 if k >= 34 else int(plays.get(Tile(k), Tile(k)))
                           for k in range(42))
        self.parts = parts if parts is not None else Parts()

    def faces(self, kinds: Sequence[Tile]) -> tuple[list[int], int]:
        counts = [0] * 34
        wilds = 0
        for kind in kinds:
            face = self._face[kind]
            if face is None:
                wilds += 1
            elif face >= 0:
                counts[face] += 1
        return counts, wilds

    # -- the standard shape ------------------------------------------------------------------

    def standard(self, kinds: Sequence[Tile], needed: int, only_suit: str | None = None) -> int:
        """Standard shape; with `only_suit` ('m', 'p', 's') tiles of the other suits count for
        nothing (a one-suit hand with honours)."""
        counts, wilds = self.faces(kinds)
        return self._whole(self._part_ids(counts, only_suit), wilds, needed)

    def _part_ids(self, counts: list[int], only_suit: str | None = None,
                  held: list[tuple[int, ...]] | None = None) -> list[int]:
        """The ids of the 万, 筒, 条 and honour parts' options; 0 (nothing) for a part with no
        tiles or a suit `only_suit` leaves out (joining the id 0 changes nothing); `held`: the
        parts' counts (`_held`), where already taken."""
        part = self.parts.part
        m, p, s, z = _held(counts) if held is None else held
        if only_suit is not None:            # the other suits count for nothing
            m, p, s = (m if only_suit == "m" else (), p if only_suit == "p" else (), s if only_suit == "s" else ())
        return [part(m, True) if any(m) else 0, part(p, True) if any(p) else 0, part(s, True) if any(s) else 0,
                part(z, False) if any(z) else 0]

    def after_each_discard(self, kinds: Sequence[Tile], needed: int, discards: Iterable[Tile], *,
                           seven_pairs_ok: bool, unchanged: Collection[Tile] = ()) -> dict[Tile, int]:
        """`best` of `kinds` less one tile of each kind in `discards`, worked out together: a discard
        changes one suit, so the other parts are joined once (joins give the same count in any
        order: every cap is applied to the sums).  Each of `unchanged` (kinds not among `kinds`: a
        dead or void tile the count leaves out) gets `best` of `kinds` itself, from the same joins."""
        counts, wilds = self.faces(kinds)
        out, whole = self._standard_counts(counts, wilds, needed, discards)
        pairs_allowed = seven_pairs_ok and self.shapes.seven_pairs
        if unchanged:
            if pairs_allowed and len(kinds) >= 13:
                whole = min(whole, self._seven_pairs_of(counts, wilds))
            after = dict.fromkeys(unchanged, whole)
        if pairs_allowed and len(kinds) - 1 >= 13:
            self._seven_pairs_after_each(out, counts, wilds)
        if unchanged:
            out.update(after)
        return out

    def _seven_pairs_after_each(self, out: dict[Tile, int], counts: list[int], wilds: int) -> None:
        """Lower each discard's count in `out` to its seven-pairs count where that is less (`counts`
        and `wilds`: the whole hand's)."""
        # the seven-pairs tally of the whole hand: a discard changes one face of it
        pairs, held = self._seven_pairs_tally(counts)
        pair_value, from_tally, faces = self._pair_value, self._seven_pairs_from, self._face
        if from_tally(pairs, held, wilds) >= max(out.values(), default=-1):
            return      # no discard brings it below the whole hand's: it beats no count (most hands)
        for kind, value in out.items():
            face = faces[kind]
            if face is not None and face >= 0:
                count = counts[face]
                pairs_left = from_tally(pairs - pair_value(count) + pair_value(count - 1),
                                        held - (count != 0) + (count - 1 != 0), wilds)
            else:
                pairs_left = from_tally(pairs, held, wilds - (face is None))
            if pairs_left < value:
                out[kind] = pairs_left

    def standard_after_each(self, kinds: Sequence[Tile], needed: int, discards: Iterable[Tile],
                            only_suit: str | None = None) -> dict[Tile, int]:
        """`standard` of `kinds` less one tile of each kind in `discards`, in one pass."""
        counts, wilds = self.faces(kinds)
        return self._standard_after_each(counts, wilds, needed, discards, only_suit)

    def flush_after_each(self, kinds: Sequence[Tile], needed: int, discards: Collection[Tile],
                         suits: Iterable[str], below: int | None = None) -> list[dict[Tile, int]]:
        """`standard_after_each` with each of `suits` as `only_suit`, the hand read once for all.
        With `below`, only the suits whose count of the whole hand is below it: no discard makes
        a count lower than the whole hand's (the hand less a tile reads as the hand with that tile
        left alone), so the others' counts after each discard are `below` or more."""
        counts, wilds = self.faces(kinds)
        held = _held(counts)
        every = self._part_ids(counts, None, held)
        out = []
        for suit in suits:
            index = "mps".index(suit)       # the other suits' parts count for nothing (`_part_ids`)
            parts = [part if i in (index, 3) else 0 for i, part in enumerate(every)]
            if below is not None and self._whole(parts, wilds, needed) >= below:
                continue
            out.append(self._standard_after_each(counts, wilds, needed, discards, suit, held, parts))
        return out

    def _whole(self, parts: list[int], wilds: int, needed: int) -> int:
        """`standard` of a hand from its parts' ids (`_part_ids`) and its wilds."""
        memo = self.parts
        state = 0                                    # the id of ((0, 0, 0),): nothing yet
        for part in parts:
            if part:
                state = memo.joined(state, part, needed)
        return max(-1, memo.least(state, needed) - wilds)

    def _standard_after_each(self, counts: list[int], wilds: int, needed: int, discards: Iterable[Tile],
                             only_suit: str | None = None, held: list[tuple[int, ...]] | None = None,
                             parts: list[int] | None = None) -> dict[Tile, int]:
        """The standard count after each discard from the hand's face counts: a discard changes
        one part, so the other three are joined once for it (from the joins of the parts before
        it and after it), and its part less that tile is looked up (`Parts.parts_less`); a suit
        `only_suit` leaves out counts for nothing, whatever is discarded from it.  `held` and
        `parts`: `_held` and `_part_ids` of the counts, where already read."""
        return self._standard_counts(counts, wilds, needed, discards, only_suit, held, parts)[0]

    def _standard_counts(self, counts: list[int], wilds: int, needed: int, discards: Iterable[Tile],
                         only_suit: str | None = None, held: list[tuple[int, ...]] | None = None,
                         parts: list[int] | None = None) -> tuple[dict[Tile, int], int]:
        """`_standard_after_each`, and the standard count of the whole hand (`standard`)."""
        memo = self.parts
        if held is None:
            held = _held(counts)
        if parts is None:
            parts = self._part_ids(counts, only_suit, held)
        without = self._joins_without(parts, needed)
        whole = memo.least(memo.joined(without[0], parts[0], needed) if parts[0] else without[0], needed)
        less: list[tuple[int, ...] | None] = [None] * 4
        out: dict[Tile, int] = {}
        faces, least_joined = self._face, memo.least_joined     # (read once: a hand's every discard is weighed)
        for kind in discards:
            face = faces[kind]
            if face is None or face < 0:     # a wild (one fewer) or a flower (nothing of the hand)
                out[kind] = max(-1, whole - wilds + (face is None))
                continue
            suit, rank = _SUIT_RANK[face]
            if not parts[suit]:              # a suit left out: the rest as it was
                out[kind] = max(-1, whole - wilds)
                continue
            ids = less[suit]
            if ids is None:
                ids = less[suit] = memo.parts_less(held[suit], suit < 3)
            part = ids[rank]
            value = (least_joined(without[suit], part, needed) if part else memo.least(without[suit], needed)) - wilds
            out[kind] = value if value > -1 else -1
        return out, max(-1, whole - wilds)

    def _joins_without(self, parts: list[int], needed: int) -> list[int]:
        """Per part: the join of the other three (the joins before it joined with those after it)."""
        memo = self.parts
        before = [0] * 4
        state = 0
        for index in range(3):
            if parts[index]:
                state = memo.joined(state, parts[index], needed)
            before[index + 1] = state
        without = [0] * 4
        after = 0
        for index in range(3, -1, -1):
            prior = before[index]
            without[index] = prior if not after else after if not prior else memo.joined(prior, after, needed)
            if parts[index]:
                after = memo.joined(after, parts[index], needed)
        return without

    # -- other shapes ------------------------------------------------------------------------

    def seven_pairs(self, kinds: Sequence[Tile]) -> int:
        return self._seven_pairs_of(*self.faces(kinds))

    def _seven_pairs_of(self, counts: list[int], wilds: int) -> int:
        return self._seven_pairs_from(*self._seven_pairs_tally(counts), wilds)

    def _seven_pairs_tally(self, counts: list[int]) -> tuple[int, int]:
        """The pairs (`_pair_value` of each face) and the faces held (read only where a four
        counts as one pair)."""
        if self.shapes.four_as_two_pairs:       # (`_pair_value` of each face, the rule read once)
            return sum(c // 2 for c in counts if c >= 2), 0
        return sum(1 for c in counts if c >= 2), sum(1 for c in counts if c)

    def _pair_value(self, count: int) -> int:
        """The pairs one face's count makes: a four makes two where it counts as two."""
        return count // 2 if self.shapes.four_as_two_pairs else int(count >= 2)

    def _seven_pairs_from(self, pairs: int, held: int, wilds: int) -> int:
        """Seven pairs' distance from the tally (`_seven_pairs_tally`): where a four counts as one
        pair, seven different faces are needed."""
        short = 0 if self.shapes.four_as_two_pairs else max(0, 7 - held)
        return max(-1, 6 - pairs + short - wilds)

    def all_pungs(self, kinds: Sequence[Tile], needed: int) -> int:
        counts, wilds = self.faces(kinds)
        return self._all_pungs_from(*self._pung_tally(counts), wilds, needed)

    def all_pungs_after_each(self, kinds: Sequence[Tile], needed: int, discards: Iterable[Tile]) -> dict[Tile, int]:
        """`all_pungs` of `kinds` less one tile of each kind in `discards`: a discard changes one
        face's count, so the tally of the whole hand is corrected for it."""
        counts, wilds = self.faces(kinds)
        melds, pairs = self._pung_tally(counts)
        out: dict[Tile, int] = {}
        by_count: dict[int, int] = {}       # a discard's count depends only on how many of its face are held
        for kind in discards:
            face = self._face[kind]
            if face is None or face < 0:     # a wild (one fewer) or a flower (nothing of the hand)
                out[kind] = self._all_pungs_from(melds, pairs, wilds - (face is None), needed)
                continue
            count = counts[face]
            found = by_count.get(count)
            if found is None:
                found = by_count[count] = self._all_pungs_from(melds - (count == 3), pairs + (count == 3) - (count == 2),
                                                               wilds, needed)
            out[kind] = found
        return out

    @staticmethod
    def _pung_tally(counts: list[int]) -> tuple[int, int]:
        """The faces held three or more times (pungs) and twice (pairs)."""
        return sum(1 for c in counts if c >= 3), sum(1 for c in counts if c == 2)

    @staticmethod
    def _all_pungs_from(melds: int, pairs: int, wilds: int, needed: int) -> int:
        """All-pungs distance from the tally (`_pung_tally`)."""
        melds = min(melds, needed)
        best = 2 * needed - 2 * melds - min(pairs, needed - melds)
        if pairs:
            best = min(best, 2 * needed - 2 * melds - min(pairs - 1, needed - melds) - 1)
        return max(-1, best - wilds)

    def best(self, kinds: Sequence[Tile], needed: int, *, seven_pairs_ok: bool) -> int:
        """The standard shape, or seven pairs where allowed and nothing is declared."""
        value = self.standard(kinds, needed)
        if seven_pairs_ok and self.shapes.seven_pairs and len(kinds) >= 13:
            value = min(value, self.seven_pairs(kinds))
        return value
