"""Weeks unattended: does the controller leak across link episodes?

A table in a parlour runs for weeks; its cables are knocked, its adapters re-enumerate, its boards
reboot.  Each episode opens ports again, starts tasks, threads, maybe a worker process.  One file
descriptor left behind per episode would end the table after a few thousand of them ("too many
open files"), with nobody near it.

This plays one region on the real controller process (`mahjong-table run --config`) against the
simulator process, as the fault campaign does (tests/reliability/campaign.py), but deals only the
episodes the controller recovers from *without* restarting: a board's link cut, its USB adapter
unplugged, a board rebooted, the display's link cut, unplugged or rebooted.  After each episode, once the next
hand has reached the ledger, it reads the controller process's open file descriptors, threads,
child processes and resident memory from /proc.

    python -m tests.reliability.leaks [--region R] [--episodes N] [--seed S]

prints the samples and the growth between the first quarter and the last (docs/reliability.md
keeps the figures); `tests/reliability/test_leaks.py` runs it short by default and long under
`-m soak`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from simulator.spawn import SimulatorProcess
from tests.reliability.campaign import (WIRE_NOISE, Controller, Progress, RegionFigures, _child_env, card_of,
                                        enroll_from, write_config)

EPISODES = ("cut_motor", "cut_rfid", "unplug_motor", "unplug_rfid", "reset_motor", "reset_rfid",
            "cut_display", "reset_display", "unplug_display")
LONGEST_CUT_S = 1.5         # a cut or an unplug lasts 0.2 s to this (long enough to be lost and found again)


@dataclass(frozen=True)
class Sample:
    """The controller process as /proc shows it after an episode and the hand that followed."""

    episode: int
    fds: int
    threads: int
    children: int
    rss_kb: int


@dataclass
class LeakFigures:
    region: str
    samples: list[Sample] = field(default_factory=list)
    episodes: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)      # a stall, an exit: the run could not be measured

    def early(self) -> list[Sample]:
        return self.samples[:max(1, len(self.samples) // 4)]

    def late(self) -> list[Sample]:
        return self.samples[-max(1, len(self.samples) // 4):]

    def grown(self, what: str) -> int:
        """How much `what` grew: the least of the last quarter's samples less the most of the first
        quarter's (a sample can catch a port being reopened: this never counts one as a leak)."""
        return min(getattr(s, what) for s in self.late()) - max(getattr(s, what) for s in self.early())

    def rss_growth_kb(self) -> int:
        """The median of the last quarter's resident memory less the first quarter's."""
        return int(statistics.median(s.rss_kb for s in self.late()) - statistics.median(s.rss_kb for s in self.early()))


def read_process(pid: int, episode: int) -> Sample:
    proc = Path(f"/proc/{pid}")
    status = dict(line.split(":", 1) for line in (proc / "status").read_text().splitlines() if ":" in line)
    return Sample(episode, len(os.listdir(proc / "fd")), int(status["Threads"]), len(_children(pid)),
                  int(status["VmRSS"].split()[0]))


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:         # gone meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


async def watch_for_leaks(region: str, episodes: int, seed: int, folder: Path) -> LeakFigures:
    figures = LeakFigures(region)
    rng = random.Random(f"{region}/{seed}/leaks")
    folder.mkdir(parents=True, exist_ok=True)
    args = ("--seed", str(seed), "--speed", "0", "--ruleset", region, "--players-seed", str(seed),
            "--listen", f"pty:{folder / 'ports'}", *(item for fault in WIRE_NOISE for item in ("--fault", fault)))
    async with SimulatorProcess(*args, env=_child_env()) as sim:
        await enroll_from(sim, folder)
        controller = Controller(write_config(folder, sim.endpoints), region, folder / "controller.log")
        watched = RegionFigures(region)
        progress = Progress(card_of(folder) / "table.db", controller, watched)
        deck: list[str] = []
        controller.start()
        try:
            if not await progress.until(2):          # the first build and hand: the process at its working size
                figures.problems.append("the table did not play its first hands")
            for episode in range(episodes if not figures.problems else 0):
                if not deck:
                    deck = list(EPISODES)
                    rng.shuffle(deck)
                kind = deck.pop()
                figures.episodes[kind] = figures.episodes.get(kind, 0) + 1
                await asyncio.sleep(rng.uniform(0.0, 1.0) * progress.hand_seconds)
                await _episode(sim, kind, rng)
                if not await progress.until(progress.count + 1):
                    figures.problems.append(f"after {kind} (episode {episode + 1}): stalls {watched.stalls}, "
                                            f"exits {watched.exits}")
                    break
                assert controller.process is not None
                figures.samples.append(read_process(controller.process.pid, episode + 1))
        finally:
            await controller.started()
            controller.stop()
    if controller.exits and controller.exits[-1] != 0:
        figures.problems.append(f"SIGTERM ended the controller with status {controller.exits[-1]}; see controller.log")
    return figures


async def _episode(sim: SimulatorProcess, kind: str, rng: random.Random) -> None:
    what, device = kind.split("_", 1)
    if what == "cut":
        await sim.control.cut(device, rng.uniform(0.2, LONGEST_CUT_S))
    elif what == "unplug":
        await sim.control.unplug(device, rng.uniform(0.2, LONGEST_CUT_S))
    else:
        await sim.control.reset(device)


def report(figures: LeakFigures) -> str:
    lines = [f"{figures.region}: {len(figures.samples)} episodes "
             f"({', '.join(f'{k} {n}' for k, n in sorted(figures.episodes.items()))})"]
    if figures.samples:
        first, last = figures.samples[0], figures.samples[-1]
        lines.append(f"  open files {first.fds} → {last.fds} (grown {figures.grown('fds'):+d}); threads {first.threads} "
                     f"→ {last.threads} (grown {figures.grown('threads'):+d}); child processes {first.children} → "
                     f"{last.children}; resident {first.rss_kb / 1024:.1f} → {last.rss_kb / 1024:.1f} MB "
                     f"(last quarter's median less the first's: {figures.rss_growth_kb() / 1024:+.1f} MB)")
    lines += [f"  problem: {p}" for p in figures.problems]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--region", default="changchun")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", default="", help="where the ports, state and log go (default: a new folder in /tmp)")
    parser.add_argument("--samples", action="store_true", help="print every sample too")
    args = parser.parse_args(argv)
    if args.episodes < 4:
        parser.error(f"--episodes {args.episodes}: give at least 4 (the first quarter is compared with the last)")
    folder = Path(args.folder or tempfile.mkdtemp(prefix="mahjong-leaks-"))
    figures = asyncio.run(watch_for_leaks(args.region, args.episodes, args.seed, folder))
    if args.samples:
        for s in figures.samples:
            print(f"  {s.episode:4d}  fds {s.fds:3d}  threads {s.threads:3d}  children {s.children}  rss {s.rss_kb} kB")
    print(report(figures))
    return 0 if not figures.problems else 1


if __name__ == "__main__":
    sys.exit(main())
