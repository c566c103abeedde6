"""The shipped tables: `_tables.py` equals a fresh build, and the expanded per-pattern tables
agree with plain search on every honour pattern and on random suit patterns."""

from __future__ import annotations

import random
from itertools import combinations

from rulesets.winning import build_tables, tables

SUIT_CHOWS = tuple((r, r + 1, r + 2) for r in range(7))


def test_shipped_tables_equal_a_fresh_build() -> None:
    """If this fails, run `python -m rulesets.winning.build_tables` and commit _tables.py."""
    assert build_tables.TABLES_PATH.read_text(encoding="utf-8") == build_tables.render()


def _expected(a: int, b: int) -> int:
    """The pair flag the tables store: 1 when b == a - 1, else b must be a + 2."""
    assert b - a in (-1, 2)
    return int(b == a - 1)


def test_suit_table_matches_search_on_random_patterns() -> None:
    solve = build_tables.component_solver(SUIT_CHOWS)
    rng = random.Random(7)
    for _ in range(3000):
        counts = [0] * 9
        for _ in range(rng.randint(0, 17)):
            rank = rng.randrange(9)
            counts[rank] = min(4, counts[rank] + 1)
        a, b = solve(tuple(counts))
        b258 = min(solve(tuple(c - (i == r) * min(c, 2) for i, c in enumerate(counts)))[0] + 2 - min(counts[r], 2)
                   for r in (1, 4, 7))
        got_a, f258, tiles, pair = tables.entry_fields(tables.SUIT_TABLE[tables.key_of(counts)])
        assert (got_a, tiles, pair, f258) == (a, sum(counts), _expected(a, b), _expected(a, b258)), counts


def test_every_suit_pattern_of_up_to_four_tiles() -> None:
    solve = build_tables.component_solver(SUIT_CHOWS)
    for size in range(5):
        for ranks in combinations(range(9 * 4), size):  # multisets via copies
            counts = [0] * 9
            for r in ranks:
                counts[r // 4] += 1
            a, b = solve(tuple(counts))
            got_a, _, _, pair = tables.entry_fields(tables.SUIT_TABLE[tables.key_of(counts)])
            assert (got_a, pair) == (a, _expected(a, b)), counts


def test_honour_tables_match_search_on_every_pattern_up_to_14_tiles() -> None:
    winds = build_tables.component_solver(build_tables.WIND_CHOWS)
    dragons = build_tables.component_solver(build_tables.DRAGON_CHOWS)
    single = build_tables.component_solver(())
    for key in range(tables.HONOUR_KEYS):
        counts = tables.counts_of_key(key, 7)
        if sum(counts) > 14:
            continue
        (aw, bw), (ad, bd) = winds(counts[:4]), dragons(counts[4:])
        got = tables.entry_fields(tables.HONOUR_CHOW_TABLE[key])
        assert got == (aw + ad, 0, sum(counts), _expected(aw + ad, min(bw + ad, aw + bd))), counts
        parts = [single((c,)) for c in counts]
        a = sum(p[0] for p in parts)
        b = min([a + 2] + [a - p[0] + p[1] for p in parts])
        assert tables.entry_fields(tables.HONOUR_TABLE[key]) == (a, 0, sum(counts), _expected(a, b)), counts


def test_tables_are_read_only() -> None:
    for table in (tables.SUIT_TABLE, tables.HONOUR_TABLE, tables.HONOUR_CHOW_TABLE):
        assert table.readonly
    assert len(tables.SUIT_TABLE) == tables.SUIT_KEYS
