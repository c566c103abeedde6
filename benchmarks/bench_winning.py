"""Win check and waits: rulesets.winning against the `mahjong` package, side by side.

Run on demand (not a test):  python benchmarks/bench_winning.py [--hands N] [--repeat R]

Both engines judge the same seeded hands.  `mahjong` has no wilds, so it gets the natural hand
(what the wilds stand for) as its 34-count array; ours gets the same hand with k of its tiles
replaced by wild tiles (k = 0, 1–2, 4), as a tile list.  Shapes for ours: standard, seven
pairs and thirteen orphans — the shapes `Agari.is_agari` knows.  Waits: `mahjong` checks the
34 kinds with `is_agari` (skipping kinds already held four times); ours is `Evaluator.waits`.

Each hand is timed over R back-to-back calls (the per-call time is the mean of those R); the
table shows the median over hands, and the ratio mahjong / ours.  Goals (issue #3): win check
with 0–4 wilds at least 4× faster than is_agari on winning hands; waits with wilds at least 3×
faster than 34 × is_agari.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mahjong.agari import Agari  # noqa: E402  (benchmark dependency: pip install '.[bench]')

from rulesets.tiles import Tile  # noqa: E402
from rulesets.winning import Evaluator, Shapes  # noqa: E402

KINDS = tuple(Tile(k) for k in range(34))
SHAPES = Shapes(seven_pairs=True, four_as_two_pairs=False, thirteen_orphans=True)  # as is_agari
WILD = Tile.RED  # 红中 as the wild kind (红中麻将); hands are dealt without natural 红中


def winning_hand(rng: random.Random) -> list[Tile]:
    """Four random melds and a pair, at most four of a kind, no 红中."""
    kinds = KINDS[:33]
    while True:
        tiles: list[Tile] = [rng.choice(kinds)] * 2
        for _ in range(4):
            if rng.random() < 0.6:
                base, start = rng.choice((0, 9, 18)), rng.randrange(7)
                tiles += [Tile(base + start + i) for i in range(3)]
            else:
                tiles += [rng.choice(kinds)] * 3
        if max(tiles.count(t) for t in set(tiles)) <= 4:
            rng.shuffle(tiles)
            return tiles


def with_wilds(tiles: list[Tile], count: int, rng: random.Random) -> list[Tile]:
    out = list(tiles)
    for i in rng.sample(range(len(out)), count):
        out[i] = WILD
    return out


def counts34(tiles: list[Tile]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def mahjong_waits(agari: Agari, counts: list[int]) -> list[int]:
    out = []
    for kind in range(34):
        if counts[kind] < 4:
            counts[kind] += 1
            if agari.is_agari(counts):
                out.append(kind)
            counts[kind] -= 1
    return out


def per_call(function, argument, repeat: int) -> float:
    """Mean seconds per call over `repeat` back-to-back calls."""
    start = time.perf_counter()
    for _ in range(repeat):
        function(argument)
    return (time.perf_counter() - start) / repeat


def measure(hands: int, repeat: int, seed: int) -> list[tuple[str, float, float]]:
    rng = random.Random(seed)
    agari = Agari()
    ours = Evaluator({WILD}, SHAPES)
    plain = Evaluator(frozenset(), SHAPES)  # for waits without wilds: 红中 is then a plain tile
    complete, waits, plain_waits = ours.is_complete, ours.waits, plain.waits
    rows: dict[str, tuple[list[float], list[float]]] = {}

    def record(name: str, theirs: float, mine: float) -> None:
        a, b = rows.setdefault(name, ([], []))
        a.append(theirs)
        b.append(mine)

    for _ in range(hands):
        hand = winning_hand(rng)
        natural = counts34(hand)
        assert agari.is_agari(natural)
        for label, wilds in (("0 wilds", 0), ("1-2 wilds", rng.choice((1, 2))), ("4 wilds", 4)):
            tiles = with_wilds(hand, wilds, rng)
            assert complete(tiles, 4)
            record(f"win check, {label}", per_call(agari.is_agari, natural, repeat),
                   per_call(lambda t: complete(t, 4), tiles, repeat))
        short = list(hand)
        short.pop(rng.randrange(14))
        short_counts = counts34(short)
        expected = mahjong_waits(agari, short_counts)
        assert [int(t) for t in plain_waits(short, 4, KINDS)] == expected
        slow = max(1, repeat // 10)
        theirs = per_call(lambda c: mahjong_waits(agari, c), short_counts, slow)
        record("waits, 0 wilds", theirs, per_call(lambda t: plain_waits(t, 4, KINDS), short, slow))
        wild_short = with_wilds(short, rng.choice((1, 2)), rng)
        record("waits, 1-2 wilds", theirs, per_call(lambda t: waits(t, 4, KINDS), wild_short, slow))
    return [(name, statistics.median(a), statistics.median(b)) for name, (a, b) in rows.items()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20260101)
    args = parser.parse_args(argv)
    results = measure(args.hands, args.repeat, args.seed)
    print(f"Python {sys.version.split()[0]}; {args.hands} seeded hands, seed {args.seed}; median per call")
    print(f"{'':24}{'mahjong':>12}{'ours':>12}{'ratio':>9}  goal")
    failed = False
    for name, theirs, mine in results:
        ratio = theirs / mine
        goal = 4.0 if name.startswith("win") else 3.0 if "1-2" in name else None
        verdict = "" if goal is None else f"≥{goal:.0f}× {'met' if ratio >= goal else 'MISSED'}"
        failed |= goal is not None and ratio < goal
        print(f"{name:24}{theirs * 1e6:10.2f}µs{mine * 1e6:10.2f}µs{ratio:8.1f}×  {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
