"""What the controller's worst loop lags are made of, region by region.

Run on demand (not a test):
    python benchmarks/looplag_anatomy.py [--hands 100] [--seed S] [--regions a,b] [--over 10]
        [--simulator-nice N] [--controller-nice N] [--gc-freeze]

It plays as `bench_looplag.py` does (the simulator and its players in their own process) and
probes every tick of the controller's loop watch (firmware/loopwatch.py, every 20 ms).  For each
tick that came more than `--over` ms late it splits the window since the tick before into:

- gc: time inside garbage collections (`gc.callbacks`), in any thread of the controller's process
  (a collection holds the GIL wherever it runs);
- own CPU: CPU the loop thread itself used in the window (callbacks, and a collection it ran);
- run queue: time the loop thread was runnable but waited for a core (the OS: other processes,
  /proc/self/task/<tid>/schedstat);
- others: CPU the controller's other threads used in the window (the store's writer, the executor's
  threads): time they may have held the GIL while the loop waited for it (the scoring worker is a
  process of its own: not counted).

The cause named per lag is the largest of these; a region's verdict is the cause of most of its
lag milliseconds.  The figures depend on the machine and its load: the load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _schedstat(tid: int) -> tuple[int, int]:
    """(CPU ns, run-queue wait ns) of one thread of this process; (0, 0) once it is gone."""
    try:
        with open(f"/proc/self/task/{tid}/schedstat") as f:
            cpu, wait, _ = f.read().split()
        return int(cpu), int(wait)
    except (OSError, ValueError):
        return 0, 0


@dataclass
class Lag:
    ms: float
    gc_ms: float
    own_cpu_ms: float
    runq_ms: float
    others_ms: float
    busiest: str            # the other thread with the most CPU in the window

    @property
    def cause(self) -> str:
        parts = {"gc": self.gc_ms, "own CPU": self.own_cpu_ms, "run queue (OS)": self.runq_ms,
                 f"GIL ({self.busiest})": self.others_ms}
        name, value = max(parts.items(), key=lambda kv: kv[1])
        return name if value >= 0.25 * self.ms else "unexplained"


@dataclass
class Probe:
    """Hooked to the loop watch's ticks and to `gc.callbacks`; made in the loop's thread."""
    over_ms: float
    loop_tid: int = field(default_factory=threading.get_native_id)
    lags: list[Lag] = field(default_factory=list)
    gc_pauses: list[tuple[int, float, str]] = field(default_factory=list)   # (generation, ms, thread)
    _gc_started: dict[int, float] = field(default_factory=dict)
    _gc_done_ms: float = 0.0
    _last: tuple[float, float, dict[int, tuple[int, int]]] | None = None

    def install(self) -> None:
        gc.callbacks.append(self._on_gc)

    def remove(self) -> None:
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, info: dict) -> None:
        tid = threading.get_native_id()
        if phase == "start":
            self._gc_started[tid] = time.perf_counter()
        elif tid in self._gc_started:
            ms = (time.perf_counter() - self._gc_started.pop(tid)) * 1000
            self._gc_done_ms += ms
            self.gc_pauses.append((info["generation"], ms, threading.current_thread().name))

    def _sample(self) -> tuple[float, float, dict[int, tuple[int, int]]]:
        threads = {t.native_id: t for t in threading.enumerate() if t.native_id is not None}
        return time.perf_counter(), self._gc_done_ms, {tid: _schedstat(tid) for tid in threads}

    def on_tick(self, lag_ms: float) -> None:
        now = self._sample()
        if self._last is not None and lag_ms > self.over_ms:
            self.lags.append(self._window(lag_ms, self._last, now))
        self._last = now

    def _window(self, lag_ms: float, before: tuple, after: tuple) -> Lag:
        names = {t.native_id: t.name for t in threading.enumerate()}
        own = [b - a for a, b in zip(before[2].get(self.loop_tid, (0, 0)), after[2][self.loop_tid])]
        others = {tid: (after[2][tid][0] - before[2].get(tid, (0, 0))[0]) / 1e6
                  for tid in after[2] if tid != self.loop_tid}
        busiest = max(others, key=others.get, default=None)
        return Lag(lag_ms, after[1] - before[1], own[0] / 1e6, own[1] / 1e6, sum(others.values()),
                   names.get(busiest, "?") if busiest is not None else "-")


@dataclass(frozen=True)
class Trial:
    """What to change for one measurement (all off: the controller as it is)."""
    simulator_nice: int = 0        # the simulator process's nice value (raised: it yields to the controller)
    controller_nice: int = 0       # this process's (below 0 needs root: what a systemd Nice= gives)
    gc_freeze: bool = False        # gc.freeze() once the controller has started


async def probe_region(region: str, hands: int, seed: int, over_ms: float,
                       trial: Trial = Trial()) -> tuple[list[float], Probe]:
    from firmware.simulated import run_in_process
    from rulesets.regions import get_region
    lags: list[float] = []
    probe = Probe(over_ms)

    def on_event(event: dict) -> None:
        if event["event"] == "hand_end" and "loop_lag_ms" in event:
            lags.append(float(event["loop_lag_ms"]))

    def on_session(session) -> None:
        session.hub.loop_watch.on_tick = probe.on_tick
        if trial.gc_freeze:
            session.hub.recorder.listen(lambda e: gc.freeze() if e["event"] == "hand_start" and not gc.get_freeze_count() else None)

    def on_simulator(sim) -> None:
        if trial.simulator_nice:
            os.setpriority(os.PRIO_PROCESS, sim.pid, trial.simulator_nice)

    if trial.controller_nice:
        os.setpriority(os.PRIO_PROCESS, 0, trial.controller_nice)

    probe.install()
    try:
        await run_in_process(get_region(region).resolve({}), hands=hands, seed=seed, speed=0.0,
                             on_event=on_event, on_session=on_session, on_simulator=on_simulator)
    finally:
        probe.remove()
    return lags, probe


def report(region: str, lags: list[float], probe: Probe) -> str:
    causes: Counter[str] = Counter()
    for lag in probe.lags:
        causes[lag.cause] += lag.ms
    worst = sorted(probe.lags, key=lambda lag: -lag.ms)[:3]
    pauses = Counter(g for g, _, _ in probe.gc_pauses)
    longest = max((ms for _, ms, _ in probe.gc_pauses), default=0.0)
    gen2 = [ms for g, ms, _ in probe.gc_pauses if g == 2]
    lines = [f"{region}: {len(lags)} hands, worst hand {max(lags, default=0):.1f} ms; "
             f"{len(probe.lags)} ticks over {probe.over_ms:.0f} ms; "
             f"verdict: {causes.most_common(1)[0][0] if causes else '-'}",
             f"  gc: {dict(sorted(pauses.items()))} collections, longest {longest:.1f} ms, "
             f"gen-2 {sum(gen2):.0f} ms in {len(gen2)}"]
    for lag in worst:
        lines.append(f"  lag {lag.ms:6.1f} ms = gc {lag.gc_ms:5.1f}, own CPU {lag.own_cpu_ms:5.1f}, "
                     f"run queue {lag.runq_ms:5.1f}, others' CPU {lag.others_ms:5.1f} ({lag.busiest}) → {lag.cause}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regions", default="shenyang,luoshan,baida,hangzhou,changchun")
    parser.add_argument("--simulator-nice", type=int, default=0)
    parser.add_argument("--controller-nice", type=int, default=0)
    parser.add_argument("--gc-freeze", action="store_true")
    parser.add_argument("--over", type=float, default=10.0, help="probe ticks later than this (ms)")
    args = parser.parse_args(argv)
    from rulesets.regions import REGION_IDS
    regions = args.regions.split(",")
    unknown = [r for r in regions if r not in REGION_IDS]
    if unknown:
        print(f"unknown region(s) {', '.join(unknown)}; known: {', '.join(REGION_IDS)}", file=sys.stderr)
        return 2
    trial = Trial(args.simulator_nice, args.controller_nice, args.gc_freeze)
    print(f"# {trial}")
    print(f"# {os.cpu_count()} CPU(s), load {os.getloadavg()[0]:.1f}; {args.hands} hands per region, seed {args.seed}")
    for region in regions:
        lags, probe = asyncio.run(probe_region(region, args.hands, args.seed, args.over, trial))
        print(report(region, lags, probe), f"\n  (load now {os.getloadavg()[0]:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
