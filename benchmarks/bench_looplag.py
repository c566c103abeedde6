"""The controller's loop lag per region: how late its event loop ran, hand by hand.

Run on demand (not a test):
    python benchmarks/bench_looplag.py [--hands 100] [--seed S] [--regions a,b]

Each region plays N hands as `mahjong-table run --speed 0` does (`firmware.simulated.
run_in_process`): the simulator and its players in their own process, as real boards are, so
the lag is the controller's own.  The controller's loop watch (firmware/loopwatch.py) records
the worst lag of each hand in its `hand_end` (`loop_lag_ms`); this prints, per region, the
worst hand and the 99th percentile over the hands (nearest rank), against the target of
issue 10: ≤ 20 ms.  A region over it is marked; the controller's log then names each lag
over 100 ms as it happens.

The figures depend on the machine and its load: say both when quoting them.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MS = 20.0


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (p in 0–100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


async def region_lags(region: str, hands: int, seed: int) -> list[float]:
    """The `loop_lag_ms` of every hand of `hands` played on region `region`."""
    from firmware.simulated import run_in_process
    from rulesets.regions import get_region
    lags: list[float] = []

    def on_event(event: dict) -> None:
        if event["event"] == "hand_end" and "loop_lag_ms" in event:
            lags.append(float(event["loop_lag_ms"]))

    await run_in_process(get_region(region).resolve({}), hands=hands, seed=seed, speed=0.0, on_event=on_event)
    return lags


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regions", default="", help="comma-separated region ids (default: all)")
    args = parser.parse_args(argv)
    from rulesets.regions import REGION_IDS
    regions = args.regions.split(",") if args.regions else list(REGION_IDS)
    unknown = [r for r in regions if r not in REGION_IDS]
    if unknown:
        print(f"unknown region(s) {', '.join(unknown)}; known: {', '.join(REGION_IDS)}", file=sys.stderr)
        return 2
    print(f"# {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} CPU(s), "
          f"load {os.getloadavg()[0]:.1f}; {args.hands} hands per region, seed {args.seed}, speed 0")
    print("| region | hands | worst (ms) | p99 (ms) | ≤ 20 ms | seconds |")
    print("|---|---:|---:|---:|---|---:|")
    over: list[str] = []
    everything: list[float] = []
    for region in regions:
        started = time.monotonic()
        lags = asyncio.run(region_lags(region, args.hands, args.seed))
        if not lags:
            print(f"| {region} | 0 | – | – | no hand ended | |")
            over.append(region)
            continue
        worst, p99 = max(lags), percentile(lags, 99)
        met = worst <= TARGET_MS
        if not met:
            over.append(region)
        everything += lags
        print(f"| {region} | {len(lags)} | {worst:.1f} | {p99:.1f} | {'yes' if met else 'NO'} | "
              f"{time.monotonic() - started:.0f} |", flush=True)
    if everything:
        print(f"\nall regions: {len(everything)} hands, worst {max(everything):.1f} ms, "
              f"p99 {percentile(everything, 99):.1f} ms; over {TARGET_MS:.0f} ms: {', '.join(over) or 'none'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
