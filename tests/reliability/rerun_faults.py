"""Issue 9's fault runs, again: `run` against the built-in simulator with one injected fault, many
times, counting the runs that finished, the runs that hung (no exit within the limit: a silence)
and the runs that failed (a non-zero exit), and what the recorder said about each fault.

    python -m tests.reliability.rerun_faults [--runs 12] [--hands 2] [--limit 300] [--faults a,b]

prints the table docs/reliability.md keeps.  Each run is a real `python -m firmware run` process
(its simulator in its own process, as `run` does), with its own ledger and recorder in a temporary
folder; regions and seeds rotate so the runs differ.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from tests.reliability.campaign import recorder_lines

ROOT = Path(__file__).resolve().parents[2]
REGIONS = ("guangshui", "sichuan", "wuhan", "luoshan", "changchun", "hangzhou")
FAULTS = ("display:drop=0.05", "display:corrupt=0.05", "display:reset=20", "corrupt=0.01", "drop=0.02",
          "missed_read=0.05", "motor:reset=30", "rfid:reset=10")


@dataclass
class Figures:
    fault: str
    runs: int = 0
    finished: int = 0
    hung: int = 0
    failed: list[str] = field(default_factory=list)
    hands: int = 0
    voided: int = 0
    episodes: int = 0                           # link_back: a link lost and found again
    codes: Counter = field(default_factory=Counter)


def one_run(fault: str, region: str, seed: int, hands: int, limit: float, folder: Path) -> tuple[str, list[dict]]:
    """One run; ("finished" | "hung" | "failed: …", the recorder's events)."""
    events = folder / f"{region}-{seed}.jsonl"
    command = [sys.executable, "-m", "firmware", "run", "--simulate", "--ruleset", region, "--hands", str(hands),
               "--seed", str(seed), "--speed", "0", "--fault", fault, "--events", str(events),
               "--db", str(folder / f"{region}-{seed}.db"), "--log-level", "warning"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(folder)}
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return "hung", read_events(events)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        return f"failed: {last}", read_events(events)
    return "finished", read_events(events)


def read_events(path: Path) -> list[dict]:
    return recorder_lines(path) if path.exists() else []


def campaign(runs: int, hands: int, limit: float, faults: tuple[str, ...] = FAULTS) -> list[Figures]:
    table = []
    for fault in faults:
        figures = Figures(fault)
        for k in range(runs):
            region, seed = REGIONS[k % len(REGIONS)], 100 + k
            with tempfile.TemporaryDirectory() as folder:
                outcome, events = one_run(fault, region, seed, hands, limit, Path(folder))
            figures.runs += 1
            if outcome == "finished":
                figures.finished += 1
            elif outcome == "hung":
                figures.hung += 1
            else:
                figures.failed.append(f"{region} seed {seed}: {outcome}")
            ends = [e for e in events if e.get("event") == "hand_end"]
            figures.hands += sum(1 for e in ends if e.get("result") != "void")
            figures.voided += sum(1 for e in ends if e.get("result") == "void")
            figures.episodes += sum(1 for e in events if e.get("event") == "link_back")
            figures.codes.update(e["code"] for e in events if e.get("event") == "fault")
            print(f"  {fault:22} {region:10} seed {seed}: {outcome}", file=sys.stderr, flush=True)
        table.append(figures)
    return table


def report(table: list[Figures], runs: int, hands: int) -> str:
    lines = [f"{runs} runs of {hands} hands per fault (regions {', '.join(REGIONS)} in turn, seeds 100…):", "",
             "| fault | runs | finished | hung | failed | hands settled | voided | link episodes | faults recorded |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for f in table:
        codes = ", ".join(f"{code} ×{n}" for code, n in sorted(f.codes.items())) or "none"
        lines.append(f"| `{f.fault}` | {f.runs} | {f.finished} | {f.hung} | {len(f.failed)} | {f.hands} | "
                     f"{f.voided} | {f.episodes} | {codes} |")
    failures = [line for f in table for line in f.failed]
    if failures:
        lines += ["", "Failed runs:", *[f"- {line}" for line in failures]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=12)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds before a run counts as hung")
    parser.add_argument("--faults", default=",".join(FAULTS), help="comma-separated (default: all of them)")
    args = parser.parse_args(argv)
    faults = tuple(f for f in args.faults.split(",") if f)
    print(report(campaign(args.runs, args.hands, args.limit, faults), args.runs, args.hands))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
