"""The fault campaign of issue 10: a real controller process against the simulator in its own
process, disturbed while it plays, and the books checked after.

For each region: `python -m simulator serve` (its players, a wire that damages frames) and
`python -m firmware run --config` on its ports, as on a real table.  While the ledger grows, a
schedule drawn from a seeded generator drops a board's link for 0.2–5 s, reboots a board (mid-build
or mid-hand, wherever it falls), or kills the controller with SIGKILL and starts it again.  Then:

- hands played (settled), resumed (a `resumed` event), voided (result "void", with reasons);
- lost: a hand some recorder began (`hand_start` or `resumed`) that the ledger neither settled nor
  voided — must be 0;
- settled twice: a wall hash or a (session, number) twice in the ledger — must be 0;
- the ledger's payments equal the recorders' (`mahjong-table audit … --ledger`), every recorder
  sound (a recorder cut by SIGKILL is a note, not a problem, when the ledger confirms its hands);
- stalls: a controller that stopped making progress for `STALL_S` (a silent hang) — must be 0.

`python -m tests.reliability.campaign [--regions a,b,…] [--hands N] [--seed S]` prints the figures
(docs/reliability.md keeps them); the tests run a short campaign by default and the full one under
`-m soak`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from firmware.build.registry import Registered, TileRegistry
from rulesets.tiles import Tile
from simulator.spawn import SimulatorProcess

ROOT = Path(__file__).resolve().parents[2]
STALL_S = 90.0                  # no settled hand for this long (real time) is a stall
DISRUPTIONS = ("cut_motor", "cut_rfid", "reset_motor", "reset_rfid", "kill", "kill")


@dataclass
class RegionFigures:
    region: str
    played: int = 0
    resumed: int = 0
    voided: list[str] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    settled_twice: int = 0
    disruptions: dict[str, int] = field(default_factory=dict)
    stalls: int = 0
    audit: list[str] = field(default_factory=list)        # the audit's problems (must be empty)
    audit_notes: int = 0
    controller_errors: list[str] = field(default_factory=list)

    @property
    def sound(self) -> bool:
        return not (self.lost or self.settled_twice or self.stalls or self.audit or self.controller_errors)


def _write_config(folder: Path, endpoints) -> Path:
    config = folder / "config.toml"
    config.write_text(
        "[devices]\n"
        f'motor = "{endpoints.motor}"\nrfid = "{endpoints.rfid}"\ndisplay = "{endpoints.display}"\n'
        "[storage]\n"
        f'state_dir = "{folder}"\nevents_dir = "{folder / "events"}"\n', encoding="utf-8")
    return config


class Controller:
    """`mahjong-table run --config` as a child process, started and killed at will."""

    def __init__(self, config: Path, ruleset: str, log: Path) -> None:
        self.config = config
        self.ruleset = ruleset
        self.log = log
        self.process: subprocess.Popen | None = None
        self.exits: list[int] = []

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "MAHJONG_TABLE_CONFIG": ""}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config", str(self.config),
                                             "--ruleset", self.ruleset], stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=env, cwd=self.config.parent)

    def kill(self) -> None:
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def _end(self, sig: int) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            self.exits.append(self.process.wait(30))
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.exits.append(self.process.wait())
        self.process = None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


def settled(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        try:
            return int(con.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


async def run_region(region: str, hands: int, seed: int, folder: Path) -> RegionFigures:
    figures = RegionFigures(region)
    rng = random.Random(f"{region}/{seed}/campaign")
    folder.mkdir(parents=True, exist_ok=True)
    args = ("--seed", str(seed), "--speed", "0", "--ruleset", region, "--players-seed", str(seed),
            "--listen", f"pty:{folder / 'ports'}", "--fault", "corrupt=0.01")
    async with SimulatorProcess(*args) as sim:
        registry = TileRegistry(folder / "tiles.db")
        registry.enroll(Registered(tag.uid, Tile.parse(tag.tile), tag.set_index, tag.copy)
                        for tag in await sim.control.registry())
        registry.close()
        controller = Controller(_write_config(folder, sim.endpoints), region, folder / "controller.log")
        db = folder / "table.db"
        controller.start()
        last_progress, last_count = time.monotonic(), 0
        try:
            while (count := settled(db)) < hands:
                if count > last_count:
                    last_progress, last_count = time.monotonic(), count
                elif time.monotonic() - last_progress > STALL_S:
                    figures.stalls += 1
                    break
                if not controller.alive():
                    figures.controller_errors.append(f"the controller exited ({controller.process.returncode}) "
                                                     "by itself; see controller.log")
                    break
                await asyncio.sleep(rng.uniform(0.5, 4.0))          # the schedule: when the next blow falls
                await disrupt(rng.choice(DISRUPTIONS), rng, sim, controller, figures)
        finally:
            controller.stop()
    _books(folder, figures)
    return figures


async def disrupt(what: str, rng: random.Random, sim: SimulatorProcess, controller: Controller,
                  figures: RegionFigures) -> None:
    figures.disruptions[what] = figures.disruptions.get(what, 0) + 1
    if what.startswith("cut_"):
        await sim.control.cut(what.removeprefix("cut_"), rng.uniform(0.2, 5.0))
    elif what.startswith("reset_"):
        await sim.control.reset(what.removeprefix("reset_"))
    elif what == "kill":
        controller.kill()
        controller.start()


def _books(folder: Path, figures: RegionFigures) -> None:
    """Count from the ledger and the recorders; audit them together."""
    db = folder / "table.db"
    files = sorted((folder / "events").glob("*.jsonl"))
    began: set[tuple[int, int]] = set()
    session = 0
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue                               # a line cut by SIGKILL: the audit says so
            if event.get("event") in ("session_start", "session_resumed"):
                session = event.get("session", session)
            if event.get("event") == "resumed":
                figures.resumed += 1
            if event.get("event") in ("hand_start", "resumed"):
                began.add((session, event["hand"]))
            if event.get("event") == "hand_void":
                figures.voided.append(event.get("reason", "?"))
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT session, number, result, wall_hash FROM hands").fetchall()
    figures.played = sum(1 for _, _, result, _ in rows if result != "void")
    figures.settled_twice = len(rows) - len({(s, n) for s, n, _, _ in rows}) + len(rows) - len({w for *_, w in rows})
    kept = {(s, n) for s, n, _, _ in rows}
    figures.lost = sorted(n for s, n in began if (s, n) not in kept and not _still_open(db, n))
    audit = subprocess.run([sys.executable, "-m", "firmware", "audit", *map(str, files), "--ledger", str(db), "--json"],
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        report = json.loads(audit.stdout)
        figures.audit = [f"{p['where']}: {p['text']}" for p in report["problems"]]
        figures.audit_notes = len(report["notes"])
    except ValueError:
        figures.audit = [f"the audit did not answer: {audit.stderr.strip()[-300:]}"]


def _still_open(db: Path, number: int) -> bool:
    """The hand still in the journal (the last hand of a campaign stopped mid-hand is not lost)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        row = con.execute("SELECT value FROM journal WHERE key = 'hand'").fetchone()
    return row is not None and json.loads(row[0]).get("number") == number


async def campaign(regions: list[str], hands: int, seed: int, folder: Path) -> list[RegionFigures]:
    return [await run_region(region, hands, seed, folder / region) for region in regions]


def report(results: list[RegionFigures]) -> str:
    lines = ["| region | played | resumed | voided | lost | settled twice | stalls | disruptions | audit |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        shown = ", ".join(f"{k} {v}" for k, v in sorted(r.disruptions.items()))
        audit = "sound" if not r.audit else f"{len(r.audit)} problem(s)"
        lines.append(f"| {r.region} | {r.played} | {r.resumed} | {len(r.voided)} | {len(r.lost)} | {r.settled_twice} "
                     f"| {r.stalls} | {shown} | {audit} ({r.audit_notes} note(s)) |")
    total = sum(r.played for r in results)
    lines.append(f"\n{total} hands played; resumed {sum(r.resumed for r in results)}; voided "
                 f"{sum(len(r.voided) for r in results)} ({sorted({v for r in results for v in r.voided})}); "
                 f"lost {sum(len(r.lost) for r in results)}; settled twice {sum(r.settled_twice for r in results)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--regions", default="changchun,sichuan,guangshui,wuhan,luoshan,hangzhou,guizhou,yunnan")
    parser.add_argument("--hands", type=int, default=13)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", default="/tmp/mahjong-campaign")
    args = parser.parse_args(argv)
    results = asyncio.run(campaign(args.regions.split(","), args.hands, args.seed, Path(args.folder)))
    print(report(results))
    for r in results:
        for problem in r.audit + r.controller_errors:
            print(f"{r.region}: {problem}")
    return 0 if all(r.sound for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
