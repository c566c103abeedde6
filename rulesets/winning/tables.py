"""Per-component lookup tables, expanded at import from the shipped automata (`_tables.py`).

A *component* is one suit (9 ranks), or the honours (7 kinds).  Its *key* is its count pattern
in base 5: ``sum(count[rank] * 5**rank)``, rank 0-based (东南西北白发中 = honour ranks 0–6).
Each table entry is 16 bits with four fields, laid out so that the entries of a hand's
components can simply be added and every field read off the sum (for hands of at most 17 tiles
no field overflows):

- bits 0–5, ``a``: the fewest wilds that make the component melds only (sum ≤ 34);
- bits 6–7, ``f258``: 1 when the component takes a 2/5/8 pair for one wild *fewer* than
  ``a`` (``b258 = a - 1``), else 0 (``b258 = a + 2``); always 0 for honours (sum ≤ 3);
- bits 8–12, the number of tiles in the pattern, capped at 31 (sum ≤ 17).  A fifth copy of a
  kind carries into the next rank of the key and shows up as a wrong total;
- bits 13–15, ``pair``: 1 when the component takes any pair for one wild fewer (``b = a - 1``),
  else 0 (``b = a + 2``) (sum ≤ 4).

A hand whose components have these entries, with W wilds and 3n + 2 tiles in all, forms n melds
plus a pair iff ``sum(a) - 1 <= W`` when some component has the pair flag, else
``sum(a) + 2 <= W`` (the pair is then two wilds, or a component's pair with a wild: both cost 2);
the wilds left over come in threes and make pungs.  A component forms
``(tiles + wilds used) // 3`` melds.  The tables are read-only `memoryview`s over `bytes`.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable

from . import _tables

SUIT_KEYS = 5 ** 9
HONOUR_KEYS = 5 ** 7
A_MASK = 0x3F
F258_SHIFT = 6
TILES_SHIFT = 8
TILES_MASK = 0x1F
PAIR_SHIFT = 13
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
    return _BYTE_VALUES_TWICE[d:d + 256]


def _additive(kinds: int, per_digit: list[int]) -> bytes:
    """A byte table of ``sum(per_digit[count])`` over the digits of every key (e.g. tile count)."""
    plane = bytes([0])
    for _ in range(kinds):
        plane = b"".join(plane.translate(_plus(per_digit[c])) for c in range(5))
    return plane


def _map(plane: bytes, function: Callable[[int], int]) -> bytes:
    return plane.translate(bytes(function(x) & 0xFF for x in range(256)))


def _add(*planes: bytes) -> bytes:
    """Byte-wise sum of planes whose sums stay below 256 (one big-integer addition)."""
    total = sum(int.from_bytes(plane, "little") for plane in planes)
    return total.to_bytes(len(planes[0]), "little")


def _entries(low: bytes, high: bytes) -> memoryview:
    """Pack two byte planes into native 16-bit entries (`low` in bits 0-7)."""
    packed = bytearray(2 * len(low))
    packed[0::2], packed[1::2] = (low, high) if sys.byteorder == "little" else (high, low)
    return memoryview(bytes(packed)).cast("H")


def _tile_bits(kinds: int) -> bytes:
    return _map(_additive(kinds, [0, 1, 2, 3, 4]), lambda n: min(n, TILES_MASK))


def _suit_table() -> memoryview:
    out = _tables.SUIT_258_OUTPUTS  # (a, f258) per last node
    low = _expand(_tables.SUIT_258_LEVELS, bytes(a + (f << F258_SHIFT) for a, f in zip(out[0::2], out[1::2])))
    pair = _expand(_tables.SUIT_LEVELS, bytes(f << (PAIR_SHIFT - 8) for f in _tables.SUIT_OUTPUTS[1::2]))
    return _entries(low, _add(_tile_bits(9), pair))


# Honour kinds without chows: (a, b - a == -1) by count — 0: (0, no), 1: a 1-tile pung needs
# 2, a pair 1; 2: pung 1, pair 0; 3: pung 0, pair 2 (pair + single); 4: 2 (3 + 1), pair 1.
_HONOUR_KIND = ((0, 0), (2, 1), (1, 1), (0, 0), (2, 1))


def _honour_table(honour_chows: bool) -> memoryview:
    if not honour_chows:  # seven one-kind components
        a = _additive(7, [o[0] for o in _HONOUR_KIND])
        pair = _additive(7, [o[1] for o in _HONOUR_KIND])
    else:  # winds (ranks 0-3) and dragons (ranks 4-6) are two components: add their entries
        winds, dragons = _tables.WIND_CHOW_OUTPUTS, _tables.DRAGON_CHOW_OUTPUTS
        a = b"".join(winds[0::2].translate(_plus(d)) for d in dragons[0::2])
        pair = b"".join(winds[1::2].translate(_plus(d)) for d in dragons[1::2])
    pair_bits = _map(pair, lambda n: min(n, 1) << (PAIR_SHIFT - 8))
    return _entries(a, _add(_tile_bits(7), pair_bits))


SUIT_TABLE = _suit_table()
HONOUR_TABLE = _honour_table(honour_chows=False)
HONOUR_CHOW_TABLE = _honour_table(honour_chows=True)


def entry_fields(entry: int) -> tuple[int, int, int, int]:
    """(a, f258, tiles, pair) of an entry or of a sum of entries."""
    return (entry & A_MASK, entry >> F258_SHIFT & 3, entry >> TILES_SHIFT & TILES_MASK,
            entry >> PAIR_SHIFT)


def key_of(counts: list[int] | tuple[int, ...]) -> int:
    """The base-5 key of a component's counts (rank 0 first)."""
    return sum(c * 5 ** i for i, c in enumerate(counts))


def counts_of_key(key: int, kinds: int) -> tuple[int, ...]:
    return tuple(key // 5 ** i % 5 for i in range(kinds))


__all__ = ["SUIT_TABLE", "HONOUR_TABLE", "HONOUR_CHOW_TABLE", "SUIT_KEYS", "HONOUR_KEYS",
           "A_MASK", "F258_SHIFT", "TILES_SHIFT", "TILES_MASK", "PAIR_SHIFT", "entry_fields",
           "key_of", "counts_of_key"]
