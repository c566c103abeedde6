"""The fast paths of an `Evaluator`: the win check and the waits, built once per evaluator.

Both are closures over the evaluator's weights and tables: a local name is the cheapest thing
CPython reads, and the win check is about a microsecond, so attribute look-ups would show.

**One pass over the tiles.**  Every kind has one integer weight (`hand_weights`): bits 0–63
hold the three suit keys (base-5 digits, 21 bits for 万 and 筒, 22 for 条 so that a carry out of
条 cannot reach the honours), bits 64–80 the honour key and bits 81 up the number of wild
tiles.  The sum of the hand's weights gives all four component keys and the wild count at
once; a flower that is not wild weighs a huge wild count, so the tile count check below sends
the hand to validation.  The sum is a plain loop, unrolled for 14 tiles: ``sum()`` is quick
only while the total fits in 63 bits, which an honour or a wild ends (measured: the loop is
10% quicker on such hands, the unrolled sum 15% quicker again).

**The win check** adds the four components' table entries (tables.py) and reads the standard
cost, seven pairs and thirteen orphans off the sum.  十三烂 and 八对+单张 (two regions) are
decided from face counts (special.py) after the fast fields say no.

**Waits** (a hand one tile short): adding one tile changes one component only.  For each
component key, `WaitMasks` lists the ranks whose tile lowers the component's meld cost ``a`` by
one, or raises it by two, each with or without a pair at a discount, and the ranks held an odd
number of times, not at all, or twice.  Which of those sets complete the hand follows from the
hand's total cost, its pair flags and its wilds (see `_standard_waits`), so a call is a few
look-ups of cached masks.  A hand with so many wilds that a tile raising the cost by five could
still complete it, listed pair kinds, and 十三烂 / 八对+单张 use the per-candidate loop
(`Evaluator.waits_by_candidate`), which the tests compare with this path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ..tiles import Tile
from . import tables
from .results import HandError

if TYPE_CHECKING:
    from .evaluator import Evaluator

SUIT_BITS = 21
SUIT_MASK = (1 << SUIT_BITS) - 1
LAST_SUIT_MASK = (1 << SUIT_BITS + 1) - 1
HIGH_SHIFT = 64                     # the honour key starts here
HONOUR_KEYS = 5 ** 7
WILD_ONE = HONOUR_KEYS              # one wild, in the part above bit 63: the next block of the table
STRAY = 1 << 40                     # a flower that is not wild
BUDGET = tables.FAST_WILDS
MAX_MELDS = 5
POW5 = tuple(5 ** r for r in range(9))
_CACHE_LIMIT = 1 << 16              # keys per mask cache before it is emptied


def hand_weights(faces: Sequence[int | None]) -> list[int]:
    """The per-kind weights for `faces` (face played per physical kind; None: wild, -1: stray)."""
    out = []
    for face in faces:
        if face is None:
            out.append(WILD_ONE << HIGH_SHIFT)
        elif face < 0:
            out.append(STRAY << HIGH_SHIFT)  # far past the end of the honour table
        elif face < 27:
            out.append(POW5[face % 9] << SUIT_BITS * (face // 9))
        else:
            out.append(POW5[face - 27] << HIGH_SHIFT)
    return out


def component_keys(x: int) -> tuple[int, int, int, int, int]:
    """(m key, p key, s key, honour key, wilds) from a summed weight."""
    wilds, honours = divmod(x >> HIGH_SHIFT, HONOUR_KEYS)
    return x & SUIT_MASK, x >> SUIT_BITS & SUIT_MASK, x >> 2 * SUIT_BITS & LAST_SUIT_MASK, honours, wilds


def size_error(n: int, melds_needed: int, extra: int) -> HandError:
    if not 0 <= melds_needed <= MAX_MELDS:
        return HandError(f"melds_needed must be 0-{MAX_MELDS}, got {melds_needed}")
    what = "complete hand" if extra == 2 else "hand one tile short"
    return HandError(f"{n} concealed tiles, but a {what} with {melds_needed} melds to go has "
                     f"{3 * melds_needed + extra}")


# ------------------------------------------------------------------------------ win check

def build_is_complete(ev: "Evaluator") -> Callable[[Sequence[Tile], int], bool]:
    """`is_complete(concealed, melds_needed)` for this evaluator (see the module docstring).

    The honour look-up goes to `tables.honour_wild_table`, which folds the wild count in (up
    to four wilds): the sum's tile count is the hand's, and the shapes compare with BUDGET.
    More wilds, a stray flower or a fifth 9 index past a table and take the slow path, which
    validates the hand and says what is wrong."""
    weight = hand_weights(ev.face_of)
    suit, honours = tables.suit_table(), tables.honour_wild_table(ev.shapes.honour_chows)
    shapes = ev.shapes
    standard, listed = shapes.standard, ev.pair_mode == "listed"
    # The pair flags that give the discount: any pair or 2/5/8 pairs (listed kinds: listed_ok).
    pair_bits = tables.PAIR_MASK << tables.PAIR_SHIFT if ev.pair_mode == "any" else 3 << tables.F258_SHIFT
    seven_mask = tables.ODD_MASK if shapes.four_as_two_pairs else 0xFF  # odd, or odd + 32 * big
    seven_limit = BUDGET if shapes.seven_pairs else -1
    orphan_limit = 1 if shapes.thirteen_orphans else -1
    slow14, slow17 = shapes.shisanlan, shapes.eight_pairs_plus_single
    invalid, slow_special, by_counts = ev.invalid, ev.special_complete, ev.is_complete_by_counts

    def listed_ok(e: int, x: int) -> bool:
        keys = component_keys(x)
        wilds = keys[4]
        return ev.listed_pair_cost(e - (BUDGET - wilds), keys[:4]) <= wilds

    if standard and not listed and not slow14 and not slow17:
        return _plain_is_complete(weight, suit, honours, pair_bits, seven_mask, seven_limit, orphan_limit,
                                  invalid, by_counts)
    entry = _entry(weight, suit, honours, invalid, by_counts)

    def is_complete(concealed: Sequence[Tile], melds_needed: int) -> bool:
        found = entry(concealed, melds_needed)
        if found.__class__ is bool:  # the slow path answered
            return found  # type: ignore[return-value]
        e, x, n = found  # type: ignore[misc]
        if standard:
            if listed:
                if listed_ok(e, x):
                    return True
            elif e & pair_bits:
                if (e & 63) <= 5:  # a - 1 <= BUDGET
                    return True
            elif (e & 63) <= 2:  # a + 2 <= BUDGET
                return True
        if n == 14:
            if (e >> 11 & seven_mask) <= seven_limit or (e >> 19 & 63) <= orphan_limit:
                return True
            if slow14:
                return slow_special(concealed)
        elif n == 17 and slow17:
            return slow_special(concealed)
        return False

    return is_complete


def _entry(weight: list[int], suit: Sequence[int], honours: Sequence[int],
           invalid: Callable[[Sequence[Tile]], HandError], by_counts: Callable[[Sequence[Tile], int], bool]
           ) -> Callable[[Sequence[Tile], int], "tuple[int, int, int] | bool"]:
    """(summed entry, summed weight, tile count) of a hand, or the slow path's answer (a bool)
    for a hand it does not cover; the general `is_complete` starts with it (the plain one has
    the same steps inline, a call less)."""

    def entry(concealed: Sequence[Tile], melds_needed: int) -> tuple[int, int, int] | bool:
        n = len(concealed)
        if n != 3 * melds_needed + 2 or n > 17:
            raise size_error(n, melds_needed, 2)
        try:
            x = 0
            for tile in concealed:  # a plain loop: quicker than sum() once the total passes 63 bits
                x += weight[tile]
            e = suit[x & 2097151] + suit[x >> 21 & 2097151] + suit[x >> 42 & 4194303] + honours[x >> 64]
        except IndexError:  # more than four wilds, a stray flower, a fifth 9
            return by_counts(concealed, melds_needed)
        except TypeError:
            raise invalid(concealed) from None
        if e >> 25 != n:
            raise invalid(concealed)  # a fifth copy …
        return e, x, n

    return entry


def _plain_is_complete(weight: list[int], suit: Sequence[int], honours: Sequence[int], pair_bits: int,
                       seven_mask: int, seven_limit: int, orphan_limit: int,
                       invalid: Callable[[Sequence[Tile]], HandError],
                       by_counts: Callable[[Sequence[Tile], int], bool]) -> Callable[[Sequence[Tile], int], bool]:
    """`is_complete` for the usual rules (the standard shape, any or 2/5/8 pair, seven pairs and
    thirteen orphans or not): the same steps as the general one, without the branches for listed
    pair kinds, 十三烂 and 八对+单张."""

    def is_complete(concealed: Sequence[Tile], melds_needed: int) -> bool:
        n = len(concealed)
        if n != 3 * melds_needed + 2 or n > 17:
            raise size_error(n, melds_needed, 2)
        try:
            if n == 14:  # the usual hand, unrolled: no loop to run (15% of the check)
                t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13 = concealed
                x = (weight[t0] + weight[t1] + weight[t2] + weight[t3] + weight[t4] + weight[t5] + weight[t6]
                     + weight[t7] + weight[t8] + weight[t9] + weight[t10] + weight[t11] + weight[t12] + weight[t13])
            else:
                x = 0
                for tile in concealed:
                    x += weight[tile]
            e = suit[x & 2097151] + suit[x >> 21 & 2097151] + suit[x >> 42 & 4194303] + honours[x >> 64]
        except IndexError:  # more than four wilds, a stray flower, a fifth 9
            return by_counts(concealed, melds_needed)
        except TypeError:
            raise invalid(concealed) from None
        if e >> 25 != n:
            raise invalid(concealed)  # a fifth copy …
        if e & pair_bits:
            if (e & 63) <= 5:  # a - 1 <= BUDGET
                return True
        elif (e & 63) <= 2:  # a + 2 <= BUDGET
            return True
        return n == 14 and ((e >> 11 & seven_mask) <= seven_limit or (e >> 19 & 63) <= orphan_limit)

    return is_complete


# ---------------------------------------------------------------------------------- waits

class WaitMasks:
    """Per component key, the rank masks the waits need, computed once and cached.

    masks(key) = (U0, U1, U2, U3, U3, U3, odd, zero, two, far).  Adding a tile of a rank in
    D0 lowers the component's ``a`` by one and the component then takes the pair at a
    discount; D1 lowers ``a`` without that; D2 raises ``a`` by two with the discount, D3
    without.  U0 = D0, U1 = D0|D1, U2 = D0|D1|D2, U3 = all four: the waits of the standard
    shape are one of them per component (see `standard_index`).  A rank held four times is in
    none (there is no fifth tile).  odd / zero / two: ranks held an odd number of times, not at
    all, twice (seven pairs, thirteen orphans).  far: some rank raises ``a`` by five or more,
    which only a hand with many wilds could still use.
    """

    __slots__ = ("table", "ranks", "shift", "mask", "cache")

    def __init__(self, table: Sequence[int], ranks: int, shift: int, mask: int) -> None:
        self.table, self.ranks, self.shift, self.mask = table, ranks, shift, mask
        self.cache: dict[int, tuple[int, ...]] = {}

    def compute(self, key: int) -> tuple[int, ...]:
        """The masks of `key`, stored in `cache` (emptied when it grows past its limit)."""
        table, shift, mask = self.table, self.shift, self.mask
        a = table[key] & 63
        d0 = d1 = d2 = d3 = odd = zero = two = 0
        far = False
        rest = key
        for rank in range(self.ranks):
            count = rest % 5
            rest //= 5
            bit = 1 << rank
            if count & 1:
                odd |= bit
            elif count == 0:
                zero |= bit
            elif count == 2:
                two |= bit
            if count == 4:
                continue
            after = table[key + POW5[rank]]
            rise = (after & 63) - a
            discount = after >> shift & mask
            if rise == -1:
                if discount:
                    d0 |= bit
                else:
                    d1 |= bit
            elif rise == 2:
                if discount:
                    d2 |= bit
                else:
                    d3 |= bit
            else:
                far = True
        u3 = d0 | d1 | d2 | d3
        found = (d0, d0 | d1, d0 | d1 | d2, u3, u3, u3, odd, zero, two, far)
        if len(self.cache) >= _CACHE_LIMIT:
            self.cache.clear()
        self.cache[key] = found
        return found


def standard_index(cost: int, wilds: int) -> int:
    """Which U of `WaitMasks` holds a component's standard waits (add 1 when another component
    has a pair flag), or -1 for none.

    With T the hand's total cost and P_o the pair flags of the *other* components, a tile of
    the component brings the cost to T - 2 (D0), T - 2 or T + 1 (D1, as P_o is set or not),
    T + 1 (D2), T + 1 or T + 4 (D3); it completes the hand when that is at most the wilds.
    """
    if cost - 2 > wilds:
        return -1
    if cost + 1 > wilds:
        return 0
    if cost + 4 > wilds:
        return 2
    return 4


_PARTS = ((0, 0, 511), (1, 9, 511), (2, 18, 511), (3, 27, 127), (4, 34, 255))
"""(component, first kind, mask width): 万, 筒, 条, honours, flowers."""


class Plan:
    """How to turn masks of winning kinds into the caller's candidates, in their order.

    Candidates in ascending kind order, each once (the usual: a region's kinds), are read per
    component through cached tuples; any other order is a plain walk over the candidates.
    """

    __slots__ = ("source", "index", "ordered", "parts")

    def __init__(self, candidates: tuple[Tile, ...]) -> None:
        self.source = candidates
        kinds = [int(t) for t in candidates]
        self.index = {kind: i for i, kind in reversed(list(enumerate(kinds)))}
        self.ordered = kinds == sorted(set(kinds))
        self.parts: tuple[dict[int, tuple[Tile, ...]], ...] = ({}, {}, {}, {}, {})

    def _part(self, component: int, mask: int) -> tuple[Tile, ...]:
        base = (0, 9, 18, 27, 34)[component]
        found = tuple(self.source[self.index[base + r]] for r in range(9) if mask >> r & 1 and base + r in self.index)
        self.parts[component][mask] = found
        return found

    def tiles(self, kinds: int) -> tuple[Tile, ...]:
        """The candidates whose kind bit is set in `kinds` (a 42-bit mask)."""
        if not self.ordered:
            return self._any_order(kinds)
        out: tuple[Tile, ...] = ()
        for component, shift, width in _PARTS:
            mask = kinds >> shift & width
            if mask:
                found = self.parts[component].get(mask)
                out += found if found is not None else self._part(component, mask)
        return out

    def _any_order(self, kinds: int) -> tuple[Tile, ...]:
        return tuple(t for t in self.source if kinds >> t & 1)


def build_waits(ev: "Evaluator") -> Callable[[Sequence[Tile], int, Iterable[Tile]], tuple[Tile, ...]]:
    """`waits(concealed, melds_needed, candidates)` for this evaluator (see the module docstring)."""
    weight = hand_weights(ev.face_of)
    suit, honours = tables.suit_table(), tables.honour_wild_table(ev.shapes.honour_chows)
    shapes = ev.shapes
    shift, mask = (tables.PAIR_SHIFT, tables.PAIR_MASK) if ev.pair_mode == "any" else (tables.F258_SHIFT, 3)
    exact_only = ev.pair_mode == "listed" or shapes.shisanlan or shapes.eight_pairs_plus_single
    standard, seven, distinct, orphans = shapes.standard, shapes.seven_pairs, not shapes.four_as_two_pairs, shapes.thirteen_orphans
    suit_masks, honour_masks = WaitMasks(suit, 9, shift, mask), WaitMasks(honours, 7, shift, mask)
    suit_cache, honour_cache = suit_masks.cache, honour_masks.cache
    suit_compute, honour_compute = suit_masks.compute, honour_masks.compute
    invalid, slow = ev.invalid, ev.waits_by_candidate
    # Faces → kinds: a kind that plays its own face, a stand-in that plays a wild kind's face;
    # wild kinds are candidates in their own right when one more wild completes the hand.
    wild_kinds = [k for k, face in enumerate(ev.face_of) if face is None]
    own_bits = sum(1 << k for k, face in enumerate(ev.face_of) if face == k)
    stand_in_moves = [(int(face), int(source)) for source, face in ev.stand_ins.items()]
    plans: dict[int, Plan] = {}

    def plan_for(candidates: Iterable[Tile]) -> Plan:
        plan = plans.get(id(candidates))
        if plan is None or plan.source is not candidates:
            source = candidates if isinstance(candidates, tuple) else tuple(candidates)
            plan = Plan(source)
            if len(plans) > 64:
                plans.clear()
            plans[id(source)] = plan
        return plan

    def waits(concealed: Sequence[Tile], melds_needed: int, candidates: Iterable[Tile]) -> tuple[Tile, ...]:
        n = len(concealed)
        if n != 3 * melds_needed + 1 or n > 16:
            raise size_error(n, melds_needed, 1)
        if exact_only:
            return slow(concealed, melds_needed, candidates)
        try:
            x = 0
            for tile in concealed:
                x += weight[tile]
            km, kp, ks, kh = x & 2097151, x >> 21 & 2097151, x >> 42 & 4194303, x >> 64
            em, ep, es, eh = suit[km], suit[kp], suit[ks], honours[kh]
        except IndexError:  # more than four wilds, a stray flower, a fifth 9
            return slow(concealed, melds_needed, candidates)
        except TypeError:
            raise invalid(concealed) from None
        total = em + ep + es + eh
        if total >> 25 != n:
            raise invalid(concealed)
        wilds = kh // HONOUR_KEYS
        mm = suit_cache.get(km) or suit_compute(km)
        mp = suit_cache.get(kp) or suit_compute(kp)
        ms = suit_cache.get(ks) or suit_compute(ks)
        mh = honour_cache.get(kh) or honour_compute(kh)
        wm = wp = ws = wh = 0
        wild_ok = False
        if standard:
            cost = (total & 63) - BUDGET + wilds  # the table counted the wilds in; take them out
            pairs = total >> shift & mask
            index = standard_index(cost, wilds)
            if index >= 0:
                if index == 4 and (mm[9] or mp[9] or ms[9] or mh[9]):
                    return slow(concealed, melds_needed, candidates)
                wm = mm[index + (pairs > (em >> shift & mask))]
                wp = mp[index + (pairs > (ep >> shift & mask))]
                ws = ms[index + (pairs > (es >> shift & mask))]
                wh = mh[index + (pairs > (eh >> shift & mask))]
            wild_ok = cost + (-1 if pairs else 2) <= wilds + 1
        if n == 13:
            if seven:
                odd = (total >> 11 & 31) - BUDGET + wilds
                clean = not (distinct and total >> 16 & 7)
                if clean and odd - 1 <= wilds:  # complete an odd kind
                    wm, wp, ws, wh = wm | mm[6], wp | mp[6], ws | ms[6], wh | mh[6]
                if odd + 1 <= wilds:  # a new single, or a third of a pair, against one more wild
                    if clean:
                        wm, wp, ws, wh = wm | mm[7], wp | mp[7], ws | ms[7], wh | mh[7]
                    if not distinct:
                        wm, wp, ws, wh = wm | mm[8], wp | mp[8], ws | ms[8], wh | mh[8]
                wild_ok = wild_ok or (clean and odd <= wilds + 1)
            if orphans:
                two = total >> 19 & 63
                if two == 0:  # any orphan
                    wm, wp, ws, wh = wm | 257, wp | 257, ws | 257, wh | 127
                    wild_ok = True
                elif two == 1:  # a missing orphan
                    wm, wp, ws, wh = wm | mm[7] & 257, wp | mp[7] & 257, ws | ms[7] & 257, wh | mh[7]
                    wild_ok = True
        kinds = (wm | wp << 9 | ws << 18 | wh << 27) & own_bits
        if stand_in_moves:
            faces = wm | wp << 9 | ws << 18 | wh << 27
            for face, source in stand_in_moves:
                if faces >> face & 1:
                    kinds |= 1 << source
        if wild_ok:
            for kind in wild_kinds:
                if concealed.count(kind) < 4:
                    kinds |= 1 << kind
        plan = plans.get(id(candidates))
        if plan is None or plan.source is not candidates:
            plan = plan_for(candidates)
        return plan.tiles(kinds)

    return waits
