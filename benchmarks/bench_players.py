"""Simulated players and the whole table: the longest the players hold the loop, their CPU per
hand, and the table's hands per CPU-second, per region.

Run on demand (not a test):
    python benchmarks/bench_players.py [--hands N] [--seed S] [--regions a,b] [--code DIR]

Each region plays N hands on the built-in simulated table (`firmware.simulated.run_simulated`,
speed 0), like `mahjong-table run --speed 0` but with the simulator and its players in this process
(`run` serves them from a process of their own).  The players' task is
wrapped so that every step it runs between two awaits is timed: that is how long the players
hold the event loop; a discard decision made in several steps is also timed whole.  Columns:

- decision: the most CPU one decision took on the main thread (ms) less any garbage collection
  inside it: a discard choice is made in steps (brain.discard_thoughts, which lets the table run
  between its whole-hand judgements), summed over its steps; any other decision is one step;
- worst step: the most CPU one step took, i.e. the longest the players held the event loop;
  (wall) the same in wall time (more than its CPU on a busy machine, and with the collections);
  gc pause: the process's longest collection;
- players/hand: the players' CPU per hand (the sum of their steps);
- table/hand: the whole table's CPU per hand: this process (controller, simulator, links and
  players) and the controller's scoring worker (a process of its own: firmware/worker.py);
- worker: the scoring worker's part of it (its start-up — Python, the rules, the win tables, about
  0.2 s — then about a millisecond a hand: a run of N hands pays the start-up once);
- kernel: this process's part of it spent in the kernel (system time: mostly the ptys' writes and reads,
  whose cost depends on the machine: on a virtual machine a pty's write and wake-up has been seen
  to cost 50 times a pipe's);
- hands/s: hands per CPU-second of the whole table;
- steady, hands/s: the same after the first hand, the start-up behind (this process's links and
  handshakes, the worker's Python, rules and win tables): the table's CPU from the first hand's end
  (the worker's read from /proc while it runs) to the end, over the hands after the first.  A table
  starts once and plays for hours: this is its rate; the column before counts a start-up every N hands;
- wall/hand: the time a hand takes (at speed 0 the table waits only on itself: the boards'
  acknowledgements, the journal's disk writes).

`--against DIR` plays every region with this checkout and with DIR alternately (`--rounds N`: N times
each, keeping each checkout's run with the least table CPU), each region in a
process of its own (the win tables built before timing, as an older checkout builds them at import),
and prints per region and as medians the ratios this / DIR of the players' CPU and the table's.

Every checkout run is compiled to bytecode first (`compileall`, as `pip install .` compiles an installed
table's modules), so no run counts compiling its modules again.

The last line gives the medians across regions.  `--code DIR` runs another checkout's code
(e.g. the commit before these changes, unpacked with `git archive`) for a before/after table;
the same seeds give the same hands when the players decide the same.

Goals (issue 12, issue 10): no decision over 10 ms (and so no step); players' CPU per hand a
third of before; at least 30 hands per CPU-second (median region).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import gc
import importlib
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path


class GcClock:
    """CPU time the cyclic garbage collector spent on the main thread (where the players run),
    and the longest pause in any thread (gc.callbacks run in the collecting thread, which holds
    the interpreter meanwhile: its own CPU clock measures the pause)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.longest = 0.0
        self._start = 0.0
        self._main = threading.main_thread().ident

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._start = time.thread_time()
        else:
            pause = time.thread_time() - self._start
            if threading.get_ident() == self._main:
                self.total += pause
            self.longest = max(self.longest, pause)


GC = GcClock()


class TimedSteps:
    """Drives a coroutine and times each step it runs (between two of its awaits): the main
    thread's CPU time less the garbage collector's (what the decision costs: a collection lands in
    whichever code runs when it is due, and is the process's, not the players'; the process's CPU
    clock would also count the journal writer's thread, busy on the other core meanwhile), and wall
    time (how long it held the loop; more on a busy machine)."""

    def __init__(self, coro, steps: list[tuple[float, float]]) -> None:
        self.coro, self.steps = coro, steps

    def __await__(self):
        coro, steps = self.coro, self.steps
        clock, cpu = time.perf_counter, time.thread_time
        value, error = None, None
        while True:
            start, start_cpu, start_gc = clock(), cpu(), GC.total
            try:
                sent = coro.throw(error) if error is not None else coro.send(value)
            except StopIteration as stop:
                steps.append((cpu() - start_cpu - (GC.total - start_gc), clock() - start))
                return stop.value
            except BaseException:
                steps.append((cpu() - start_cpu - (GC.total - start_gc), clock() - start))
                raise
            steps.append((cpu() - start_cpu - (GC.total - start_gc), clock() - start))
            try:
                value, error = (yield sent), None
            except BaseException as thrown:  # cancellation reaches the players' coroutine
                value, error = None, thrown


def timed_thinking(thinking, decisions: list[float]):
    """A discard decision made in steps (brain.discard_thoughts): the main thread's CPU of all its
    steps together, less the collections inside them, is recorded when it is decided."""
    total = 0.0
    while True:
        start, start_gc = time.thread_time(), GC.total
        try:
            next(thinking)
        except StopIteration as done:
            decisions.append(total + time.thread_time() - start - (GC.total - start_gc))
            return done.value
        total += time.thread_time() - start - (GC.total - start_gc)
        yield


def timed_players(steps: list[tuple[float, float]], decisions: list[float]):
    from simulator.players import SimulatedPlayers
    import simulator.players.hand_play as hand_play

    think = getattr(hand_play, "think", None)     # None: older code decides at once (a step is a decision)
    if think is not None and not getattr(think, "timed", False):
        async def timed_think(thinking):
            return await think(timed_thinking(thinking, decisions))
        timed_think.timed = True  # type: ignore[attr-defined]
        hand_play.think = timed_think

    def factory(table, ruleset, seed):
        players = SimulatedPlayers(table, ruleset, seed=seed)
        run = players.run

        async def timed_run() -> None:
            await TimedSteps(run(), steps)

        players.run = timed_run  # type: ignore[method-assign]
        return players

    return factory


async def one_region(region: str, hands: int, seed: int) -> dict:
    from firmware.simulated import run_simulated
    from rulesets.regions import get_region

    ruleset = get_region(region).resolve({})
    steps: list[tuple[float, float]] = []
    decisions: list[float] = []
    GC.longest = 0.0
    cpu, wall, kernel, worker = time.process_time(), time.perf_counter(), _system_time(), _children_cpu()
    started, first_hand = cpu, FirstHand()
    try:
        result = await run_simulated(ruleset, hands=hands, seed=seed, speed=0.0,
                                     players=timed_players(steps, decisions), on_event=first_hand)
        played, outcome = max(1, result.hands), " ".join(f"{t:+d}" for t in result.totals)
    except Exception as error:  # e.g. a link lost while the players held the loop
        played, outcome = max(1, hands), f"stopped: {type(error).__name__}: {error}"[:90]
    cpu, wall, kernel = time.process_time() - cpu, time.perf_counter() - wall, _system_time() - kernel
    worker = _children_cpu() - worker       # the scoring worker, reaped when the table stopped
    # after the first hand: the table's CPU (both processes) less what it had spent when that hand ended
    after_first = cpu - (first_hand.table - started) + worker - first_hand.worker
    steady = after_first / (played - 1) if first_hand.ended and played > 1 else (cpu + worker) / played
    cpu += worker
    worst_step = max((s[0] for s in steps), default=0.0)
    return {"region": region, "played": played, "worst": worst_step * 1e3,
            "decision": max(max(decisions, default=0.0), worst_step) * 1e3,
            "held": max((s[1] for s in steps), default=0.0) * 1e3,
            "players": sum(s[0] for s in steps) / played * 1e3, "table": cpu / played * 1e3, "rate": played / cpu,
            "steady": steady * 1e3, "steady_rate": 1 / steady,
            "kernel": kernel / played * 1e3, "worker": worker / played * 1e3,
            "wall": wall / played * 1e3,
            "gc": GC.longest * 1e3, "outcome": outcome}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regions", default="")
    parser.add_argument("--code", default=str(Path(__file__).resolve().parents[1]),
                        help="the checkout whose code to run (default: this one)")
    parser.add_argument("--against", default="",
                        help="another checkout (e.g. the commit before a change): each region is played by "
                             "both, alternately, each in its own process, and the ratios are printed")
    parser.add_argument("--rounds", type=int, default=1,
                        help="with --against: play each region this many times by each checkout, alternately, "
                             "and keep each checkout's least table CPU (one run's noise is ±15%%)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)   # one row per region, for --against
    args = parser.parse_args(argv)
    if args.against:
        return compare(args)
    if not args.json:
        compile_code(args.code)
    sys.path.insert(0, str(Path(args.code).resolve()))
    from rulesets.regions import REGION_IDS
    import rulesets
    regions = args.regions.split(",") if args.regions else list(REGION_IDS)
    if args.json:
        gc.callbacks.append(GC)
        warm_up()
        for region in regions:
            print(json.dumps(asyncio.run(one_region(region, args.hands, args.seed))), flush=True)
        return 0
    print(f"CPython {platform.python_version()}; code {Path(rulesets.__file__).resolve().parents[1]}; "
          f"{args.hands} hands per region, seed {args.seed}, speed 0")
    gc.callbacks.append(GC)
    print(f"{'region':16}{'hands':>6}{'decision':>10}{'worst step':>12}{'(wall)':>9}{'gc pause':>10}{'players/hand':>14}"
          f"{'table/hand':>12}{'worker':>9}{'kernel':>9}{'hands/s':>9}{'steady':>9}{'hands/s':>9}{'wall/hand':>11}"
          "  totals")
    rows = []
    for region in regions:
        row = asyncio.run(one_region(region, args.hands, args.seed))
        rows.append(row)
        print(f"{region:16}{row['played']:6}{row['decision']:8.1f}ms{row['worst']:10.1f}ms{row['held']:7.0f}ms{row['gc']:8.1f}ms"
              f"{row['players']:12.1f}ms{row['table']:10.1f}ms{row['worker']:7.1f}ms{row['kernel']:7.1f}ms"
              f"{row['rate']:9.1f}{row['steady']:7.1f}ms{row['steady_rate']:9.1f}{row['wall']:9.0f}ms"
              f"  {row['outcome']}")
    median = {key: statistics.median(r[key] for r in rows)
              for key in ("decision", "worst", "held", "gc", "players", "table", "worker", "kernel", "rate", "steady",
                          "steady_rate", "wall")}
    worst = max(r["worst"] for r in rows)
    decision = max(r["decision"] for r in rows)
    print(f"{'median':16}{'':6}{median['decision']:8.1f}ms{median['worst']:10.1f}ms{median['held']:7.0f}ms{median['gc']:8.1f}ms"
          f"{median['players']:12.1f}ms{median['table']:10.1f}ms{median['worker']:7.1f}ms{median['kernel']:7.1f}ms"
          f"{median['rate']:9.1f}{median['steady']:7.1f}ms{median['steady_rate']:9.1f}"
          f"{median['wall']:9.0f}ms")
    print(f"worst decision of all regions (all its steps): {decision:.1f} ms (goal ≤ 10 ms: "
          f"{'met' if decision <= 10 else 'MISSED'}); the longest the players held the loop (worst step): "
          f"{worst:.1f} ms; median hands per CPU-second: {median['rate']:.1f} "
          f"(goal ≥ 30: {'met' if median['rate'] >= 30 else 'MISSED'}); after the first hand (start-up "
          f"behind): {median['steady_rate']:.1f} ({'met' if median['steady_rate'] >= 30 else 'MISSED'})")
    return 0


class FirstHand:
    """The table's CPU so far (this process and its live children: the scoring worker) when the first
    hand ended: what follows is the table playing on, its start-up (this process's links and
    handshakes, the worker's Python, rules and win tables) behind it."""

    def __init__(self) -> None:
        self.ended = False
        self.table = self.worker = 0.0      # this process's CPU since the run began; the worker's so far

    def __call__(self, event: dict) -> None:
        if not self.ended and event.get("event") == "hand_end":
            self.ended = True
            self.table, self.worker = time.process_time(), _live_children_cpu()


def _live_children_cpu() -> float:
    """The CPU time so far of this process's children still running (s), from /proc (Linux): the
    scoring worker's, while the table plays.  Its schedstat (nanoseconds on a CPU; the worker has one
    thread), else its user and system times in clock ticks."""
    total, me = 0.0, str(os.getpid())
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rpartition(")")[2].split()
            if fields[1] != me:                                 # (its parent's id)
                continue
            try:
                total += int((proc / "schedstat").read_text().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")   # utime, stime
        except (OSError, IndexError):
            continue                                            # (a process gone meanwhile)
    return total


def _system_time() -> float:
    """This process's CPU time in the kernel so far (s)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def _children_cpu() -> float:
    """The CPU time of this process's children that have ended and been reaped (s): the scoring
    worker's, once the table has stopped it."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


PACKAGES = ("firmware", "drivers", "simulator", "rulesets")


def compile_code(code: str) -> None:
    """A checkout's modules compiled to bytecode before timing, as `pip install .` compiles a table's:
    where none is written (PYTHONDONTWRITEBYTECODE, as on the machine these figures come from, or a
    checkout never run) each process compiled every module changed since its last compile again,
    about 0.4 s of CPU in the table's process and some in its worker's, which an installed table never
    pays (the run's first hand and so its whole-run rate counted it; the steady rate did not)."""
    for package in PACKAGES:
        compileall.compile_dir(str(Path(code) / package), quiet=1)


def warm_up() -> None:
    """Build the win tables before timing, as an older checkout does at import: a region played in a
    process of its own would otherwise count them (≈50 ms) in its hands.  The simulated players'
    modules are imported before timing too (≈17 ms), as the controller's are."""
    importlib.import_module("simulator.players")
    try:
        from rulesets.winning import prepare
    except ImportError:
        return
    prepare()


def played_by(code: str, region: str, args: argparse.Namespace) -> dict:
    """One region played by the checkout `code`, in a process of its own (two checkouts' modules
    cannot share one)."""
    command = [sys.executable, __file__, "--json", "--code", code, "--regions", region,
               "--hands", str(args.hands), "--seed", str(args.seed)]
    # in the checkout's folder: a process it starts with `python -m` (its scoring worker) finds its
    # own modules first, as an older checkout's worker (spawned without -P) would not from elsewhere
    out = subprocess.run(command, capture_output=True, text=True, check=True, cwd=code).stdout
    return json.loads(out.strip().splitlines()[-1])


def compare(args: argparse.Namespace) -> int:
    """`--against`: every region played by this checkout and by the other, alternately (which goes
    first alternates too), and the ratios this / other of the players' CPU and the table's."""
    sys.path.insert(0, str(Path(args.code).resolve()))
    from rulesets.regions import REGION_IDS
    regions = args.regions.split(",") if args.regions else list(REGION_IDS)
    for code in (args.code, args.against):
        compile_code(code)
    print(f"CPython {platform.python_version()}; this: {args.code}; other: {args.against}; {args.hands} hands per "
          f"region, seed {args.seed}, speed 0; the two played alternately, each region in its own processes"
          + (f", {args.rounds} rounds each, the run with the least table CPU kept" if args.rounds > 1 else ""))
    print(f"{'region':16}{'players':>9}{'other':>9}{'ratio':>7}{'table':>9}{'other':>9}{'ratio':>7}"
          f"{'decision':>10}{'other':>9}  same totals")
    rows = []
    for n, region in enumerate(regions):
        runs: dict[str, list[dict]] = {args.code: [], args.against: []}
        for r in range(args.rounds):
            order = (args.code, args.against) if (n + r) % 2 == 0 else (args.against, args.code)
            for code in order:
                runs[code].append(played_by(code, region, args))
        mine, other = (min(runs[code], key=lambda run: run["table"]) for code in (args.code, args.against))
        row = {"players": mine["players"] / other["players"], "table": mine["table"] / other["table"]}
        rows.append((mine, other, row))
        print(f"{region:16}{mine['players']:7.1f}ms{other['players']:7.1f}ms{row['players']:7.2f}"
              f"{mine['table']:7.1f}ms{other['table']:7.1f}ms{row['table']:7.2f}"
              f"{mine['decision']:8.1f}ms{other['decision']:7.1f}ms  {mine['outcome'] == other['outcome']}", flush=True)
    keys = ("players", "table", "rate", "steady", "steady_rate", "wall")
    median = {key: statistics.median(r[0][key] for r in rows) for key in keys}
    other = {key: statistics.median(r[1][key] for r in rows) for key in keys}
    print(f"medians: players {median['players']:.1f} against {other['players']:.1f} ms "
          f"(ratio of the medians {median['players'] / other['players']:.3f}; median of the ratios "
          f"{statistics.median(r[2]['players'] for r in rows):.3f}); the table {median['table']:.1f} against "
          f"{other['table']:.1f} ms ({median['table'] / other['table']:.3f}); hands per CPU-second "
          f"{median['rate']:.1f} against {other['rate']:.1f}; after the first hand {median['steady']:.1f} against "
          f"{other['steady']:.1f} ms a hand ({median['steady'] / other['steady']:.3f}), hands per CPU-second "
          f"{median['steady_rate']:.1f} against {other['steady_rate']:.1f}; wall time a hand {median['wall']:.0f} against "
          f"{other['wall']:.0f} ms; worst decision "
          f"{max(r[0]['decision'] for r in rows):.1f} against {max(r[1]['decision'] for r in rows):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
