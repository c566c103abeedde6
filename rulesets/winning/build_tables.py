"""Build the win-evaluation tables and write them to `_tables.py`.

Run `python -m rulesets.winning.build_tables` after changing this file; the test suite checks
that the shipped `_tables.py` equals a fresh build (`render()`).

What is built
-------------
**Suits.**  For every count pattern of one suit (9 ranks, 0–4 each: 5**9 patterns) the tables
need:

- ``a``: the fewest wilds that turn the pattern into melds only (chows and pungs),
- ``b``: the fewest wilds that turn it into melds plus one pair,
- ``b258``: the same with the pair restricted to rank 2, 5 or 8 (二五八将).

A wild may stand for any tile, so the question is the cheapest split of the tiles into *partial
groups*: a partial pung (1–3 equal tiles), a partial pair (1–2 equal tiles) or a partial chow
(tiles of 2 or 3 distinct ranks inside one run r, r+1, r+2), each wild filling one missing
place.  A left-to-right dynamic programme over the ranks finds the cheapest split; its state at
a rank is (chows that end here, chows that still need this and the next rank, pair placed?).
At most two equal chows start at a rank: three equal chows cost exactly what three pungs of the
same tiles cost, so nothing is lost.

The programme is run on all patterns at once as an automaton: a node is the vector of best
costs per state after a prefix of ranks, and equal vectors are merged.  Merging nodes that give
the same answers for every suffix (minimisation) leaves a few hundred nodes per rank, which is
what is shipped: level r maps (node, count) to the node after consuming `count` tiles of
0-based rank r, and `SUIT_OUTPUTS` maps the last nodes to ``(a, b - a == -1)``;
`SUIT_258_LEVELS` / `SUIT_258_OUTPUTS` are the same with the pair on 2/5/8 only.  Both
``b - a`` and ``b258 - a`` are always -1 or 2: a pair adds two tiles, so they are
``≡ 2 (mod 3)``; a pair of wilds costs 2 more, and turning the pair into a pung costs 1 more
(the build checks this).  `tables.py` expands the automata into flat per-pattern tables at
import time in milliseconds.

**Honours** have no chows, except in regions (南昌) where three different winds, or 中发白,
form a chow.  Without those chows every honour kind is its own component, with a tiny formula.
With them, winds (4 kinds) and dragons (3 kinds) are two components, whose 625 and 125 patterns
are solved here by plain search and shipped as `WIND_CHOW_OUTPUTS` and `DRAGON_CHOW_OUTPUTS`
(``(a, b - a == -1)`` per base-5 key).
"""

from __future__ import annotations

import sys
from functools import lru_cache
from itertools import combinations, product
from pathlib import Path

INFINITE = 99
RANKS = 9
ALL_RANKS = tuple(range(RANKS))
RANKS_258 = (1, 4, 7)  # 0-based ranks of 2, 5, 8
_STATES = tuple((x, y, p) for x in range(3) for y in range(3) for p in range(2))
_STATE_INDEX = {state: i for i, state in enumerate(_STATES)}
_START = _STATE_INDEX[(0, 0, 0)]
_END_WITH_PAIR = _STATE_INDEX[(0, 0, 1)]

Automaton = tuple[tuple[tuple[tuple[int, ...], ...], ...], tuple[tuple[int, int], ...]]


def _pung_cost(m: int) -> int:
    """Wilds needed to put m equal tiles into pungs (4 = 3 + 1, 5 = 3 + 2)."""
    return -m % 3


def _pair_cost(m: int) -> int:
    """Wilds needed to put m equal tiles into one pair plus pungs (0 tiles: a pair of wilds)."""
    if m == 0:
        return 2
    return min(2 - q + _pung_cost(m - q) for q in (1, 2) if q <= m)


def _edges(rank: int, count: int, pair_ranks: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """(from state, to state, cost) for consuming `count` tiles of 0-based `rank`.

    A state is (x, y, p): x chows end at this rank, y chows need this rank and the next, p says
    whether the pair is placed.  z new chows start here (none at ranks 8 and 9).
    """
    best: dict[tuple[int, int], int] = {}
    for x, y, p in _STATES:
        for z in range(3) if rank <= RANKS - 3 else (0,):
            places = x + y + z
            for used in range(min(count, places) + 1):
                left = count - used
                base = places - used  # chow places filled by wilds
                options = [(p, base + _pung_cost(left))]
                if p == 0 and rank in pair_ranks:
                    options.append((1, base + _pair_cost(left)))
                for q, cost in options:
                    key = (_STATE_INDEX[(x, y, p)], _STATE_INDEX[(y, z, q)])
                    if cost < best.get(key, INFINITE):
                        best[key] = cost
    return tuple((src, dst, cost) for (src, dst), cost in sorted(best.items()))


def build_suit_automaton(pair_ranks: tuple[int, ...] = ALL_RANKS) -> Automaton:
    """The minimised per-suit automaton: (levels, outputs), see the module docstring.

    `pair_ranks` are the 0-based ranks the pair may have (all, or 2/5/8).  An output is
    ``(a, b - a == -1)``.
    """
    edges = {(r, c): _edges(r, c, pair_ranks) for r in range(RANKS) for c in range(5)}
    start = tuple(0 if i == _START else INFINITE for i in range(len(_STATES)))
    layers: list[dict[tuple[int, ...], int]] = [{start: 0}]
    moves: list[list[tuple[int, ...]]] = []
    for rank in range(RANKS):
        following: dict[tuple[int, ...], int] = {}
        rows = []
        for vector in layers[-1]:
            row = []
            for count in range(5):
                out = [INFINITE] * len(_STATES)
                for src, dst, cost in edges[(rank, count)]:
                    total = vector[src] + cost
                    if total < out[dst]:
                        out[dst] = total
                row.append(following.setdefault(tuple(out), len(following)))
            rows.append(tuple(row))
        moves.append(rows)
        layers.append(following)
    # Minimise from the end: two nodes are one when all their successors are.
    outputs: dict[tuple[int, int], int] = {}
    classes = [outputs.setdefault(_output(v), len(outputs)) for v in layers[-1]]
    levels: list[tuple[tuple[int, ...], ...]] = []
    for rank in range(RANKS - 1, -1, -1):
        signature: dict[tuple[int, ...], int] = {}
        classes = [signature.setdefault(tuple(classes[t] for t in row), len(signature))
                   for row in moves[rank]]
        levels.append(tuple(signature))  # dicts keep insertion order = class number
    levels.reverse()
    return tuple(levels), tuple(outputs)


def _output(vector: tuple[int, ...]) -> tuple[int, int]:
    a, b = vector[_START], vector[_END_WITH_PAIR]
    if b - a not in (-1, 2):  # see the module docstring
        raise RuntimeError(f"pair cost out of range: a={a} b={b}")
    return a, int(b - a == -1)


def component_solver(chows: tuple[tuple[int, ...], ...]):
    """costs(counts) -> (a, b) for a small component whose chows are the listed kind triples,
    by plain search over partial groups (memoised for the solver's lifetime)."""

    @lru_cache(maxsize=None)
    def cost(rest: tuple[int, ...], pair: bool) -> int:
        if not any(rest):
            return 2 if pair else 0
        k = next(i for i, n in enumerate(rest) if n)
        best = INFINITE
        for take in range(1, min(3, rest[k]) + 1):  # partial pung of k
            best = min(best, 3 - take + cost(_minus(rest, {k: take}), pair))
        if pair:
            for take in range(1, min(2, rest[k]) + 1):
                best = min(best, 2 - take + cost(_minus(rest, {k: take}), False))
        for chow in chows:
            if k not in chow:
                continue
            others = [j for j in chow if j != k]
            # Kinds below k are gone (k is the lowest left): they are wilds.  Higher ones may be
            # natural or wild.
            choices = [(0, 1) if j > k and rest[j] else (0,) for j in others]
            for picks in product(*choices):
                taken = {k: 1, **{j: 1 for j, pick in zip(others, picks) if pick}}
                best = min(best, 3 - len(taken) + cost(_minus(rest, taken), pair))
        return best

    def costs(counts: tuple[int, ...]) -> tuple[int, int]:
        return cost(tuple(counts), False), cost(tuple(counts), True)

    return costs


def _minus(counts: tuple[int, ...], taken: dict[int, int]) -> tuple[int, ...]:
    return tuple(n - taken.get(i, 0) for i, n in enumerate(counts))


WIND_CHOWS = tuple(combinations(range(4), 3))  # any three different winds (南昌)
DRAGON_CHOWS = ((0, 1, 2),)  # 白发中


def build_honour_chow_outputs(kinds: int, chows: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, int], ...]:
    """(a, b - a == -1) for every pattern of a wind or dragon component, indexed base 5."""
    out = []
    costs = component_solver(chows)
    for key in range(5 ** kinds):
        counts = tuple(key // 5 ** i % 5 for i in range(kinds))
        a, b = costs(counts)
        if b - a not in (-1, 2):
            raise RuntimeError(f"pair cost out of range for {counts}: a={a} b={b}")
        out.append((a, int(b - a == -1)))
    return tuple(out)


def _hex(values: list[int] | tuple[int, ...], width: int) -> str:
    return b"".join(v.to_bytes(width, "little") for v in values).hex()


def _hex_lines(name: str, text: str, width: int = 96) -> list[str]:
    chunks = [text[i:i + width] for i in range(0, len(text), width)] or [""]
    return [f"{name} = bytes.fromhex("] + [f'    "{c}"' for c in chunks] + ["    )"]


def render() -> str:
    """The text of `_tables.py`: every table as little-endian bytes in hex (fast to import)."""
    suit = build_suit_automaton(ALL_RANKS)
    suit_258 = build_suit_automaton(RANKS_258)
    winds = build_honour_chow_outputs(4, WIND_CHOWS)
    dragons = build_honour_chow_outputs(3, DRAGON_CHOWS)
    lines = [
        '"""Generated by `python -m rulesets.winning.build_tables`; do not edit.',
        "",
        "The minimised per-suit automata and the honour-chow components; build_tables.py says",
        "what they mean and tables.py expands them.  Each level of an automaton is a run of",
        "little-endian uint16: the 5 successors (count 0-4) of node 0, then of node 1, ...;",
        'each output is (a, pair flag) as two bytes."""',
        "",
    ]
    for name, (levels, outputs) in (("SUIT", suit), ("SUIT_258", suit_258)):
        for rank, level in enumerate(levels):
            lines += _hex_lines(f"{name}_LEVEL_{rank}", _hex([t for row in level for t in row], 2))
        lines.append(f"{name}_LEVELS = (" + ", ".join(f"{name}_LEVEL_{r}" for r in range(RANKS)) + ")")
        lines += _hex_lines(f"{name}_OUTPUTS", _hex([v for out in outputs for v in out], 1))
    lines += _hex_lines("WIND_CHOW_OUTPUTS", _hex([v for out in winds for v in out], 1))
    lines += _hex_lines("DRAGON_CHOW_OUTPUTS", _hex([v for out in dragons for v in out], 1))
    lines.append("")
    return "\n".join(lines)


TABLES_PATH = Path(__file__).with_name("_tables.py")


def main() -> int:
    TABLES_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {TABLES_PATH}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
