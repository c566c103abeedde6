"""Per-component lookup tables, expanded at import from the shipped automata (`_tables.py`).

A *component* is one suit (9 ranks), or the honours (7 kinds).  Its *key* is its count pattern
in base 5: ``sum(count[rank] * 5**rank)``, rank 0-based (东南西北白发中 = honour ranks 0–6).
Every table entry packs four byte fields, so the entries of a hand's components can simply be
added and each field read off the sum (no field can overflow for hands of at most 17 tiles):

- ``entry & 0xFF``: ``a``, the fewest wilds that make the component melds only;
- ``entry >> 8 & 0xFF``: the number of tiles in the pattern (used to catch a fifth copy of a
  kind, which carries into the next rank and changes this count);
- ``entry >> 16 & 0xFF``: 1 when the component takes a 2/5/8 pair for one wild *fewer* than
  ``a`` (``b258 = a - 1``), else 0 (then ``b258 = a + 2``);
- ``entry >> 24``: 1 when it takes any pair for one wild fewer (``b = a - 1``), else 0
  (``b = a + 2``).

So a hand of components with W wilds and the right number of tiles forms melds plus a pair iff
``sum(a) - 1 <= W`` when some component has the flag set, else ``sum(a) + 2 <= W`` (the pair
is then two wilds, or a wild pair placed in a component: both cost 2).  The number of melds a
component forms is ``(tiles + wilds) // 3``.  The tables are `memoryview`s over `bytes`, so they
are read-only.
"""

from __future__ import annotations

import sys
from . import _tables

SUIT_KEYS = 5 ** 9
HONOUR_KEYS = 5 ** 7
A_MASK = 0xFF
TILES_SHIFT = 8
F258_SHIFT = 16
PAIR_SHIFT = 24
_MAX_NODES = 256  # node ids must fit a byte for bytes.translate


def _expand(levels: tuple, outputs_as_bytes: bytes) -> bytes:
    """The per-pattern output byte of an automaton, for keys 0 .. 5**len(levels) - 1.

    The array of node ids is grown one rank at a time: appending rank r with count c to every
    pattern so far maps each node through the transition of c, and the key grows by c * 5**r,
    so the blocks for c = 0..4 are concatenated in order.  `bytes.translate` does the mapping
    at C speed; ranks whose node count exceeds a byte are crossed in one combined step.
    """
    nodes = bytes([0])
    rank = 0
    depth = len(levels)
    while rank < depth:
        step = 1
        while rank + step < depth and len(levels[rank + step]) > _MAX_NODES:
            step += 1
        blocks = []
        for suffix in range(5 ** step):
            digits = [suffix // 5 ** i % 5 for i in range(step)]
            mapping = bytearray(256)
            for node in range(len(levels[rank])):
                target = node
                for offset, count in enumerate(digits):
                    target = levels[rank + offset][target][count]
                mapping[node] = target if rank + step < depth else outputs_as_bytes[target]
            blocks.append(nodes.translate(mapping))
        nodes = b"".join(blocks)
        rank += step
    return nodes


def _additive(kinds: int, per_digit: list[bytes]) -> bytes:
    """A byte table of ``sum(per_digit[count])`` over the digits of every key (e.g. tile count)."""
    plane = bytes([0])
    for _ in range(kinds):
        plane = b"".join(plane.translate(bytes((x + per_digit[c]) & 0xFF for x in range(256)))
                         for c in range(5))
    return plane


def _interleave(a: bytes, tiles: bytes, f258: bytes, pair: bytes) -> memoryview:
    """Pack four byte planes into native 32-bit entries (a in the low byte)."""
    size = len(a)
    packed = bytearray(4 * size)
    planes = (a, tiles, f258, pair) if sys.byteorder == "little" else (pair, f258, tiles, a)
    for offset, plane in enumerate(planes):
        packed[offset::4] = plane
    return memoryview(bytes(packed)).cast("I")


def _suit_table() -> memoryview:
    outputs = _tables.SUIT_OUTPUTS
    classes = _expand(_tables.SUIT_LEVELS, bytes(range(len(outputs))))
    a = classes.translate(bytes([o[0] for o in outputs] + [0] * (256 - len(outputs))))
    pair = classes.translate(bytes([o[1] for o in outputs] + [0] * (256 - len(outputs))))
    f258 = _expand(_tables.SUIT_258_LEVELS, bytes(o[1] for o in _tables.SUIT_258_OUTPUTS))
    tiles = _additive(9, list(range(5)))
    return _interleave(a, tiles, f258, pair)


# Honour kinds without chows: (a, b - a == -1) by count — 0: (0, no), 1: a 1-tile pung needs
# 2, a pair 1; 2: pung 1, pair 0; 3: pung 0, pair 2 (pair + single); 4: 2 (3 + 1), pair 1.
_HONOUR_KIND = ((0, 0), (2, 1), (1, 1), (0, 0), (2, 1))


def _honour_table(honour_chows: bool) -> memoryview:
    tiles = _additive(7, list(range(5)))
    if not honour_chows:
        a = _additive(7, [o[0] for o in _HONOUR_KIND])
        pair = _additive(7, [o[1] for o in _HONOUR_KIND])
    else:  # winds (ranks 0-3) and dragons (ranks 4-6) are two components: add their entries
        winds, dragons = _tables.WIND_CHOW_OUTPUTS, _tables.DRAGON_CHOW_OUTPUTS
        a = bytes(w[0] + d[0] for d in dragons for w in winds)
        pair = bytes(w[1] + d[1] for d in dragons for w in winds)
    return _interleave(a, tiles, bytes(len(a)), pair)


SUIT_TABLE = _suit_table()
HONOUR_TABLE = _honour_table(honour_chows=False)
HONOUR_CHOW_TABLE = _honour_table(honour_chows=True)


def entry_fields(entry: int) -> tuple[int, int, int, int]:
    """(a, tiles, f258, pair) of an entry or of a sum of entries."""
    return (entry & A_MASK, entry >> TILES_SHIFT & 0xFF, entry >> F258_SHIFT & 0xFF,
            entry >> PAIR_SHIFT)


def key_of(counts: list[int] | tuple[int, ...]) -> int:
    """The base-5 key of a component's counts (rank 0 first)."""
    return sum(c * 5 ** i for i, c in enumerate(counts))


def counts_of_key(key: int, kinds: int) -> tuple[int, ...]:
    return tuple(key // 5 ** i % 5 for i in range(kinds))


__all__ = ["SUIT_TABLE", "HONOUR_TABLE", "HONOUR_CHOW_TABLE", "SUIT_KEYS", "HONOUR_KEYS",
           "A_MASK", "TILES_SHIFT", "F258_SHIFT", "PAIR_SHIFT", "entry_fields", "key_of",
           "counts_of_key"]
