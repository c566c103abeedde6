"""Win check and waits: rulesets.winning against `xiangting` (Rust) and `mahjong` (pure Python).

Run on demand (not a test):  python benchmarks/bench_winning.py [--hands N] [--rounds R] [--seed S] [--markdown]
(needs the `bench` extra: pip install '.[bench]').

How it is measured, so that no engine is flattered:

- **Same inputs.** Every engine gets the same Python lists of `Tile`s, dealt from a seeded
  generator.  Each engine converts the list to what it needs *inside the timed call*
  (`mahjong` and `xiangting` take 34 counts; ours takes the list as it is).
- **Every hand class.** Win check: a winning standard hand, seven pairs, thirteen orphans, and
  14 random tiles that do not win.  Waits: a ready hand (a winning hand less one tile) and 13
  random tiles.  `mahjong` has no wilds and neither has `xiangting`: they judge the natural hand,
  ours judges the same hand with k of its tiles replaced by wild tiles (5p is the wild kind; the
  hands are dealt without natural 5p), k = 0–4.
- **Same shapes.** Ours allows standard, seven pairs (four of a kind is not two pairs) and
  thirteen orphans, the shapes `Agari.is_agari` and `xiangting` know.  Waits: ours is
  `Evaluator.waits` over the 34 kinds; `xiangting` is `calculate_necessary_tiles` (its answer is
  the waits when the hand is ready); `mahjong` is `is_agari` over the 34 kinds.
- **Alternated rounds.** Each round times every engine once over the whole list of a class
  (one call per hand), in a new shuffled order each round, so a busy machine, and the cache
  traces of whatever ran just before, slow every engine alike.  The table shows the min and the median per call over the rounds.
- **Checked.** Before timing, the engines' answers on natural hands are compared (a benchmark of
  wrong answers would be worthless).

The ratio columns are ours / theirs (below 1: we are faster).  Goals (issue 12): win check ≤
`xiangting` and < `mahjong` on every class; waits ≤ 2 × `xiangting`.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.tiles import Tile  # noqa: E402
from rulesets.winning import ORPHANS, Evaluator, Shapes  # noqa: E402

try:  # the peers are optional: the benchmark says which ones it measured
    from mahjong.agari import Agari
except ImportError:  # pragma: no cover - depends on the environment
    Agari = None
try:
    import xiangting
except ImportError:  # pragma: no cover
    xiangting = None

WILD = Tile.P5
KINDS = tuple(Tile(k) for k in range(34))
DEALT = tuple(k for k in KINDS if k != WILD)
SHAPES = Shapes(seven_pairs=True, four_as_two_pairs=False, thirteen_orphans=True)
WILD_COUNTS = (0, 1, 2, 3, 4)
Hand = list[Tile]


# -- hands -------------------------------------------------------------------------------------

def _fits(tiles: Sequence[Tile]) -> bool:
    return all(tiles.count(t) <= 4 for t in set(tiles))


def standard_hand(rng: random.Random) -> Hand:
    """Four random melds (60% chows) and a pair, no natural 5p."""
    while True:
        tiles: Hand = [rng.choice(DEALT)] * 2
        for _ in range(4):
            if rng.random() < 0.6:
                base, start = rng.choice((0, 9, 18)), rng.randrange(7)
                tiles += [Tile(base + start + i) for i in range(3)]
            else:
                tiles += [rng.choice(DEALT)] * 3
        if WILD not in tiles and _fits(tiles):
            rng.shuffle(tiles)
            return tiles


def seven_pairs_hand(rng: random.Random) -> Hand:
    tiles = [k for k in rng.sample(DEALT, 7) for _ in range(2)]
    rng.shuffle(tiles)
    return tiles


def orphans_hand(rng: random.Random) -> Hand:
    tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    rng.shuffle(tiles)
    return tiles


def random_tiles(rng: random.Random, size: int) -> Hand:
    wall = [k for k in DEALT for _ in range(4)]
    return rng.sample(wall, size)


def losing_hand(rng: random.Random, agari) -> Hand:
    while True:
        tiles = random_tiles(rng, 14)
        if not agari(tiles):
            return tiles


def ready_hand(rng: random.Random) -> Hand:
    tiles = standard_hand(rng)
    tiles.pop(rng.randrange(14))
    return tiles


def with_wilds(tiles: Hand, count: int, rng: random.Random) -> Hand:
    out = list(tiles)
    for i in rng.sample(range(len(out)), count):
        out[i] = WILD
    return out


# -- engines: each takes a tile list and converts it itself ------------------------------------

def ours() -> tuple[Callable[[Hand], bool], Callable[[Hand], object]]:
    evaluator = Evaluator({WILD}, SHAPES)
    complete, waits = evaluator.is_complete, evaluator.waits

    def win(tiles: Hand) -> bool:
        return complete(tiles, 4)

    def wait(tiles: Hand) -> object:
        return waits(tiles, 4, KINDS)

    return win, wait


def mahjong_engine() -> tuple[Callable[[Hand], bool], Callable[[Hand], object]]:
    is_agari = Agari().is_agari

    def win(tiles: Hand) -> bool:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        return is_agari(counts)

    def wait(tiles: Hand) -> object:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        out = []
        for kind in range(34):
            if counts[kind] < 4:
                counts[kind] += 1
                if is_agari(counts):
                    out.append(kind)
                counts[kind] -= 1
        return out

    return win, wait


def xiangting_engine() -> tuple[Callable[[Hand], bool], Callable[[Hand], object]]:
    replacement = xiangting.calculate_replacement_number
    necessary = xiangting.calculate_necessary_tiles
    four = xiangting.PlayerCount.FOUR

    def win(tiles: Hand) -> bool:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        return replacement(counts, four) == 0

    def wait(tiles: Hand) -> object:
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        number, flags = necessary(counts, four)
        return flags if number == 1 else 0

    return win, wait


# -- measuring ---------------------------------------------------------------------------------

def _pass(function: Callable[[Hand], object], hands: list[Hand]) -> float:
    start = time.perf_counter()
    for hand in hands:
        function(hand)
    return (time.perf_counter() - start) / len(hands)


def check_answers(engines: dict[str, tuple], rows: dict[str, dict[str, list[Hand]]]) -> None:
    """The engines agree on every natural hand (ours: no wilds) before anything is timed."""
    ours_win, ours_wait = engines["ours"]
    for name, (win, wait) in engines.items():
        if name == "ours":
            continue
        for label, lists in rows.items():
            for hand in lists["0"]:
                if label.startswith("win"):
                    assert win(hand) == ours_win(hand), (name, label, hand)
                else:
                    theirs = wait(hand)
                    mine = [int(t) for t in ours_wait(hand) if t != WILD]  # drawing a wild always helps
                    if isinstance(theirs, int):  # xiangting's bit set may name kinds held four times
                        held = {t for t in hand if hand.count(t) == 4}
                        theirs = [k for k in range(34) if theirs >> k & 1 and k not in held]
                    theirs = [k for k in theirs if k != WILD]
                    assert theirs == mine, (name, label, hand, theirs, mine)


def build_rows(hands: int, seed: int, agari) -> dict[str, dict[str, list[Hand]]]:
    """label → {"0": natural hands, "1".."4": the same hands with k wilds} (fixed lists)."""
    rng = random.Random(seed)
    makers = {
        "win check, standard": standard_hand,
        "win check, seven pairs": seven_pairs_hand,
        "win check, thirteen orphans": orphans_hand,
        "win check, not winning": lambda r: losing_hand(r, agari),
        "waits, ready hand": ready_hand,
        "waits, random 13 tiles": lambda r: random_tiles(r, 13),
    }
    rows = {}
    for label, make in makers.items():
        natural = [make(rng) for _ in range(hands)]
        rows[label] = {str(k): [with_wilds(h, k, rng) for h in natural] for k in WILD_COUNTS}
    return rows


def measure(rows: dict[str, dict[str, list[Hand]]], engines: dict[str, tuple], rounds: int
            ) -> dict[tuple[str, str, str], list[float]]:
    """(label, engine, wilds) → per-call seconds, one per round."""
    times: dict[tuple[str, str, str], list[float]] = {}
    jobs = []
    for label, lists in rows.items():
        index = 0 if label.startswith("win") else 1
        for name, functions in engines.items():
            for wilds in (lists if name == "ours" else ("0",)):
                jobs.append((label, name, wilds, functions[index]))
    order = random.Random(len(jobs))
    for _ in range(rounds):
        order.shuffle(jobs)  # every job meets every predecessor (and its cache traces) alike
        for label, name, wilds, function in jobs:
            times.setdefault((label, name, wilds), []).append(_pass(function, rows[label][wilds]))
    return times


def report(times: dict[tuple[str, str, str], list[float]], engines: Sequence[str], labels: Sequence[str],
           markdown: bool) -> bool:
    peers = [e for e in engines if e != "ours"]
    met = True
    head = ["case", "wilds", "ours min", "ours median"] + [f"{p} {s}" for p in peers for s in ("min", "median")] + \
        [f"ours/{p}" for p in peers] + ["goal"]
    lines = []
    for (label, name, wilds), values in sorted(times.items(), key=lambda kv: (labels.index(kv[0][0]), kv[0][2])):
        if name != "ours":
            continue
        mine = statistics.median(values)
        cells = [label, wilds, f"{min(values) * 1e6:.2f}", f"{mine * 1e6:.2f}"]
        ratios = []
        for peer in peers:
            theirs = times[(label, peer, "0")]
            cells += [f"{min(theirs) * 1e6:.2f}", f"{statistics.median(theirs) * 1e6:.2f}"]
            ratios.append((peer, mine / statistics.median(theirs)))
        cells += [f"{r:.2f}" for _, r in ratios]
        goal = ""
        for peer, ratio in ratios:
            limit = (1.0 if peer == "xiangting" else 0.999) if label.startswith("win") else (2.0 if peer == "xiangting" else None)
            if limit is None:
                continue
            ok = ratio <= limit
            met &= ok
            goal += f"{'≤' if peer == 'xiangting' else '<'}{limit:g}× {peer} {'met' if ok else 'MISSED'}; "
        cells.append(goal.rstrip("; "))
        lines.append(cells)
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "|".join("---" if i < 2 else "---:" for i in range(len(head) - 1)) + "|---|")
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(str(row[i])) for row in [head] + lines) for i in range(len(head))]
        for row in [head] + lines:
            print("  ".join(str(c).ljust(w) if i in (0, len(head) - 1) else str(c).rjust(w)
                            for i, (c, w) in enumerate(zip(row, widths))))
    return met


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="hands per class (default 500)")
    parser.add_argument("--rounds", type=int, default=15, help="timed rounds (default 15)")
    parser.add_argument("--seed", type=int, default=20260101)
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown (for docs/winning.md)")
    args = parser.parse_args(argv)
    engines = {"ours": ours()}
    if xiangting is not None:
        engines["xiangting"] = xiangting_engine()
    if Agari is not None:
        engines["mahjong"] = mahjong_engine()
    missing = [name for name, module in (("xiangting", xiangting), ("mahjong", Agari)) if module is None]
    judge = engines.get("mahjong", engines.get("xiangting", engines["ours"]))[0]
    rows = build_rows(args.hands, args.seed, judge)
    check_answers(engines, rows)
    times = measure(rows, engines, args.rounds)
    versions = []
    for name in ("xiangting", "mahjong"):
        if name in engines:
            from importlib.metadata import version
            versions.append(f"{name} {version(name)}")
    print(f"CPython {platform.python_version()} on {platform.machine()}; {', '.join(versions) or 'no peers'}; "
          f"{args.hands} hands per class, seed {args.seed}; {args.rounds} alternated rounds; µs per call")
    if missing:
        print(f"not installed, not measured: {', '.join(missing)} (pip install '.[bench]')")
    met = report(times, list(engines), list(rows), args.markdown)
    print("all goals met" if met else "some goals MISSED")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
