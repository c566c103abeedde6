"""Per-component lookup tables, expanded on first use from the shipped automata (`_tables.py`).

A *component* is one suit (9 ranks), or the honours (7 kinds).  Its *key* is its count pattern
in base 5: ``sum(count[rank] * 5**rank)``, rank 0-based (东南西北白发中 = honour ranks 0–6).
Each table entry is 30 bits with seven fields, laid out so that the entries of a hand's
components can simply be added and every field read off the sum (for hands of at most 17 tiles
no field overflows, and the sum stays below 2**30, a one-digit Python int):

- bits 0–5, ``a``: the fewest wilds that make the component melds only (sum ≤ 34);
- bits 6–7, ``f258``: 1 when the component takes a 2/5/8 pair for one wild *fewer* than
  ``a`` (``b258 = a - 1``), else 0 (``b258 = a + 2``); always 0 for honours (sum ≤ 3);
- bits 8–10, ``pair``: 1 when the component takes any pair for one wild fewer (``b = a - 1``),
  else 0 (``b = a + 2``) (sum ≤ 4);
- bits 11–15, ``odd``: kinds held an odd number of times (sum ≤ 17) — seven pairs needs a wild
  for each;
- bits 16–18, ``big``: kinds held three or four times (sum ≤ 5) — seven pairs without
  four-as-two-pairs allows none;
- bits 19–24, ``orphans``: 8 when the component rules out thirteen orphans (a tile that is
  not a terminal or honour, three of an orphan, or two orphan kinds doubled), else 1 when one
  orphan kind is held twice, else 0 (sum ≤ 32);
- bits 25–29, the number of tiles in the pattern (sum ≤ 17).  A fifth copy of a kind carries
  into the next rank of the key and shows up as a wrong total.  It is on top, so the check
  that every hand passes first is one shift.

A hand whose components have these entries, with W wilds and 3n + 2 tiles in all, forms n melds
plus a pair iff ``sum(a) - 1 <= W`` when some component has the pair flag, else
``sum(a) + 2 <= W`` (the pair is then two wilds, or a component's pair with a wild: both cost 2);
the wilds left over come in threes and make pungs.  A component forms
``(tiles + wilds used) // 3`` melds.  14 tiles are seven pairs iff ``odd <= W`` (and ``big == 0``
when four of a kind is not two pairs: read bits 11–18 as one number, ``odd + 32 * big <= W``),
and thirteen orphans iff ``orphans <= 1``.

The tables are read-only `memoryview`s, built the first time they are asked for (≈40 ms
here), so that importing the package costs nothing.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable
from functools import cache

from . import _tables

SUIT_KEYS = 5 ** 9
HONOUR_KEYS = 5 ** 7
A_MASK = 0x3F
F258_SHIFT = 6
PAIR_SHIFT = 8
PAIR_MASK = 0x7
ODD_SHIFT = 11
ODD_MASK = 0x1F
BIG_SHIFT = 16
BIG_MASK = 0x7
ORPHANS_SHIFT = 19
ORPHANS_MASK = 0x3F
ORPHAN_BAD = 8  # one component's `orphans` when it rules the shape out
TILES_SHIFT = 25
TILES_MASK = 0x1F
FAST_WILDS = 4
"""The most wild tiles `honour_wild_table` covers; a hand with more takes the slow path."""
_MAX_NODES = 256  # node ids must fit a byte for bytes.translate


def _levels(raw: tuple[bytes, ...]) -> list[array]:
    """Decode the shipped little-endian uint16 levels: level[node * 5 + count] = next node."""
    levels = []
    for level in raw:
        words = array("H")
        words.frombytes(level)
        if sys.byteorder == "big":
            words.byteswap()
        levels.append(words)
    return levels


def _expand(raw_levels: tuple[bytes, ...], node_output: bytes) -> bytes:
    """The output byte of an automaton for every key 0 .. 5**ranks - 1.

    The array of node ids is grown one rank at a time: appending rank r with count c to every
    pattern so far maps each node through the transition of c, and the key grows by c * 5**r,
    so the blocks for c = 0..4 are concatenated in order.  `bytes.translate` does the mapping
    at C speed; ranks whose node count exceeds a byte are crossed in one combined step.
    """
    levels = _levels(raw_levels)
    nodes = bytes([0])
    rank, depth = 0, len(levels)
    while rank < depth:
        # Successor lists after 1, 2, ... ranks, until the node count fits a byte again.
        reach = [[levels[rank][node * 5 + c] for c in range(5)]
                 for node in range(len(levels[rank]) // 5)]
        rank += 1
        while rank < depth and len(levels[rank]) // 5 > _MAX_NODES:
            level = levels[rank]
            reach = [[level[t * 5 + c] for c in range(5) for t in row] for row in reach]
            rank += 1
        last = rank == depth
        blocks = []
        for suffix in range(len(reach[0])):
            mapping = bytearray(256)
            for node, row in enumerate(reach):
                mapping[node] = node_output[row[suffix]] if last else row[suffix]
            blocks.append(nodes.translate(mapping))
        nodes = b"".join(blocks)
    return nodes


_BYTE_VALUES_TWICE = bytes(range(256)) * 2


def _plus(d: int) -> bytes:
    """The translate table that adds d to every byte (mod 256)."""
    return _BYTE_VALUES_TWICE[d % 256:d % 256 + 256]


def _additive(kinds: int, per_digit: list[int] | list[list[int]]) -> bytes:
    """A byte table of ``sum(per_digit[count])`` over the digits of every key (mod 256).

    `per_digit` is one list of five values for every rank, or one such list per rank."""
    by_rank = per_digit if isinstance(per_digit[0], list) else [per_digit] * kinds
    plane = bytes([0])
    for rank in range(kinds):
        values = by_rank[rank]
        plane = b"".join(plane.translate(_plus(values[c])) for c in range(5))  # type: ignore[index]
    return plane


def _map(plane: bytes, function: Callable[[int], int]) -> bytes:
    return plane.translate(bytes(function(x) & 0xFF for x in range(256)))


def _pack(fields: list[tuple[bytes, int]]) -> memoryview:
    """Native 32-bit entries ``sum(plane[key] << shift)`` from byte planes (one byte per key).

    No field overflows its bits, so the fields' bits are disjoint and each byte of the entries
    is a byte-wise sum of the fields' parts in it (one `translate` per part, one big-integer
    addition per byte)."""
    size = len(fields[0][0])
    packed = bytearray(4 * size)
    order = range(4) if sys.byteorder == "little" else range(3, -1, -1)
    for index, place in enumerate(order):
        parts = [plane.translate(bytes((v << shift) >> 8 * index & 0xFF for v in range(256)))
                 for plane, shift in fields if shift < 8 * index + 8 and shift + 8 > 8 * index]
        total = sum(int.from_bytes(part, "little") for part in parts)
        packed[place::4] = total.to_bytes(size, "little") if parts else bytes(size)
    return memoryview(bytes(packed)).cast("I")


def _tiles(kinds: int) -> bytes:
    return _map(_additive(kinds, [0, 1, 2, 3, 4]), lambda n: min(n, TILES_MASK))


# Seven pairs: per count, one for an odd count plus 32 (bit 5 of the byte: `big`, just above
# `odd` in the entry) for three or four of a kind.
_PAIRS_DIGIT = [0, 1, 0, 1 + 32, 32]
# Thirteen orphans: per count of an orphan kind, 1 for a pair and 16 for three or more; per
# count of any other kind, 16 for any tile.  A component is ruled out by a 16 or by two pairs.
_ORPHAN_DIGIT = [0, 0, 1, 16, 16]
_OTHER_DIGIT = [0, 16, 16, 16, 16]


def _orphan_field(code: int) -> int:
    return ORPHAN_BAD if code >= 2 else code


def _common_fields(orphan_ranks: list[bool]) -> list[tuple[bytes, int]]:
    """The fields every component has alike: seven pairs, thirteen orphans, tile count."""
    kinds = len(orphan_ranks)
    pairs = _additive(kinds, _PAIRS_DIGIT)  # odd + 32 * big
    orphans = _additive(kinds, [_ORPHAN_DIGIT if orphan else _OTHER_DIGIT for orphan in orphan_ranks])
    return [(pairs, ODD_SHIFT), (_map(orphans, _orphan_field), ORPHANS_SHIFT), (_tiles(kinds), TILES_SHIFT)]


def build_suit_table() -> memoryview:
    """A new suit table, built now (what `suit_table()` builds on first use)."""
    out = _tables.SUIT_258_OUTPUTS  # (a, f258) per last node
    low = _expand(_tables.SUIT_258_LEVELS, bytes(a + (f << F258_SHIFT) for a, f in zip(out[0::2], out[1::2])))
    pair = _expand(_tables.SUIT_LEVELS, bytes(_tables.SUIT_OUTPUTS[1::2]))
    return _pack([(low, 0), (pair, PAIR_SHIFT)] + _common_fields([rank in (0, 8) for rank in range(9)]))


# Honour kinds without chows: (a, b - a == -1) by count — 0: (0, no), 1: a 1-tile pung needs
# 2, a pair 1; 2: pung 1, pair 0; 3: pung 0, pair 2 (pair + single); 4: 2 (3 + 1), pair 1.
_HONOUR_KIND = ((0, 0), (2, 1), (1, 1), (0, 0), (2, 1))


def _honour_cost_planes(honour_chows: bool) -> tuple[bytes, bytes]:
    """(a, pair flag) planes of the honour component."""
    if not honour_chows:  # seven one-kind components
        a = _additive(7, [o[0] for o in _HONOUR_KIND])
        pair = _additive(7, [o[1] for o in _HONOUR_KIND])
    else:  # winds (ranks 0-3) and dragons (ranks 4-6) are two components: add their entries
        winds, dragons = _tables.WIND_CHOW_OUTPUTS, _tables.DRAGON_CHOW_OUTPUTS
        a = b"".join(winds[0::2].translate(_plus(d)) for d in dragons[0::2])
        pair = b"".join(winds[1::2].translate(_plus(d)) for d in dragons[1::2])
    return a, _map(pair, lambda n: min(n, 1))


def _build_honour_table(honour_chows: bool, wilds: range = range(1)) -> memoryview:
    """The honour table; with `wilds`, one block of 5**7 entries per wild count (see
    `honour_wild_table`)."""
    a, pair = _honour_cost_planes(honour_chows)
    common = _common_fields([True] * 7)
    pairs, orphans, tiles = (plane for plane, _ in common)
    budget = wilds.stop - 1
    # For hands of at most 17 tiles no byte overflows: a <= 14 + 4, odd <= 7 + 4, tiles <= 17.
    blocks = [(a.translate(_plus(budget - w)), pairs.translate(_plus(budget - w)), tiles.translate(_plus(w)))
              for w in wilds]
    return _pack([(b"".join(b[0] for b in blocks), 0), (pair * len(wilds), PAIR_SHIFT),
                  (b"".join(b[1] for b in blocks), ODD_SHIFT), (orphans * len(wilds), ORPHANS_SHIFT),
                  (b"".join(b[2] for b in blocks), TILES_SHIFT)])


class _SuitTable:
    """The suit table (5**9 entries), made once: built on the first call, unless one was given
    before (`give`: a copy the caller keeps in a file, firmware/win_tables.py, so that a start does
    not build it again).  Called like a function: `suit_table()`."""

    def __init__(self) -> None:
        self._table: memoryview | None = None

    def __call__(self) -> memoryview:
        if self._table is None:
            self._table = build_suit_table()
        return self._table

    @property
    def ready(self) -> bool:
        """Built or given already."""
        return self._table is not None

    def give(self, table: memoryview) -> None:
        """Use `table` from now on, unless one is in use already (a table is never swapped)."""
        if table.format != "I" or table.itemsize != 4 or len(table) != SUIT_KEYS:
            raise ValueError(f"a suit table holds {SUIT_KEYS} 4-byte entries, not {len(table)} of {table.itemsize} bytes")
        if self._table is None:
            self._table = table


suit_table = _SuitTable()


@cache
def honour_table(honour_chows: bool = False) -> memoryview:
    """The honour table (5**7 entries), with 南昌's honour chows or without."""
    return _build_honour_table(honour_chows)


@cache
def honour_wild_table(honour_chows: bool = False) -> memoryview:
    """The honour table with the wild count folded in, for the fast paths (fast.py).

    Entry ``h + 5**7 * W`` (W = 0 … FAST_WILDS wild tiles) is the honour entry of key h plus W
    in the tile count, and ``FAST_WILDS - W`` in ``a`` and in ``odd``: adding it to the three
    suit entries gives a sum whose tile count is the whole hand's, and in which the standard
    shape holds iff ``a + (-1 or 2) <= FAST_WILDS`` and seven pairs iff ``odd (+ 32 big) <=
    FAST_WILDS`` — the wilds are already counted in.
    """
    return _build_honour_table(honour_chows, range(FAST_WILDS + 1))


def __getattr__(name: str) -> memoryview:
    """`SUIT_TABLE`, `HONOUR_TABLE` and `HONOUR_CHOW_TABLE` as module attributes, built on first use."""
    if name == "SUIT_TABLE":
        return suit_table()
    if name == "HONOUR_TABLE":
        return honour_table(False)
    if name == "HONOUR_CHOW_TABLE":
        return honour_table(True)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def entry_fields(entry: int) -> tuple[int, int, int, int]:
    """(a, f258, tiles, pair) of an entry or of a sum of entries."""
    return (entry & A_MASK, entry >> F258_SHIFT & 3, entry >> TILES_SHIFT & TILES_MASK,
            entry >> PAIR_SHIFT & PAIR_MASK)


def special_fields(entry: int) -> tuple[int, int, int]:
    """(odd, big, orphans) of an entry or of a sum of entries."""
    return entry >> ODD_SHIFT & ODD_MASK, entry >> BIG_SHIFT & BIG_MASK, entry >> ORPHANS_SHIFT & ORPHANS_MASK


def key_of(counts: list[int] | tuple[int, ...]) -> int:
    """The base-5 key of a component's counts (rank 0 first)."""
    return sum(c * 5 ** i for i, c in enumerate(counts))


def counts_of_key(key: int, kinds: int) -> tuple[int, ...]:
    return tuple(key // 5 ** i % 5 for i in range(kinds))


__all__ = ["SUIT_KEYS", "HONOUR_KEYS", "A_MASK", "F258_SHIFT", "PAIR_SHIFT", "PAIR_MASK", "ODD_SHIFT", "ODD_MASK",
           "BIG_SHIFT", "BIG_MASK", "ORPHANS_SHIFT", "ORPHANS_MASK", "ORPHAN_BAD", "TILES_SHIFT", "TILES_MASK",
           "FAST_WILDS", "suit_table", "honour_table", "honour_wild_table", "entry_fields", "special_fields",
           "key_of", "counts_of_key"]
