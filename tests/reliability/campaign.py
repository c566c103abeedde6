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

`python -m tests.reliability.campaign [--regions a,b,…] [--hands N] [--seed S] [--option KEY=VALUE …]`
prints the figures (docs/reliability.md keeps them); `--option` sets a house option for the controller
and the simulated players alike.  The tests run a short campaign by default and the full one under
`-m soak`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from drivers.messages import FaultCode
from firmware.build.registry import Registered, TileRegistry
from firmware.records.history import History, HistoryError, hand_audit, hand_events
from rulesets.tiles import Tile
from simulator.faults import parse_faults
from simulator.spawn import SimulatorProcess
from tests.reliability.display_check import display_follows

ROOT = Path(__file__).resolve().parents[2]
STALL_S = 60.0                  # no hand reached the ledger for this long (real time): a stall
POLL_S = 0.05                   # how often the ledger is looked at
FIRST_HAND_GUESS_S = 0.3        # a hand's time at --speed 0 until the ledger has shown one
RESTARTS = 3                    # a controller that exits by itself is started again this often, then it is an error
DISRUPTIONS = ("cut_motor", "cut_rfid", "reset_motor", "reset_rfid", "kill", "kill")
# dealt only when named in --kinds: the display's link, a port that vanishes (a USB adapter pulled
# and put back), a controller frozen for 0.5–8 s (SIGSTOP: an SD card stalling the Pi), a clean
# restart (SIGTERM: the owner restarting the service), a brown-out (both boards and the display
# reboot at once; the Pi rides it out on its own supply) and a power cut (all of that, and the
# controller killed and started again: the whole table lost its power), and a freeze with a
# brown-out 0–0.3 s after it ends (the boards latched E13 and queued its report while the controller
# was away; the reboot loses what the link had not delivered yet while the controller catches up:
# campaign 51001, a move refused for a fault the controller never heard of)
MORE_DISRUPTIONS = ("cut_display", "reset_display", "unplug_motor", "unplug_rfid", "unplug_display", "freeze", "term",
                    "brownout", "power_cut", "freeze_brownout")
DEVICES = ("motor", "rfid", "display")
# dealt only when named, and only as root: the card full for 0.5–6 s (its folder a small tmpfs of its
# own, filled to the last byte by a ballast file, then freed)
CARD_DISRUPTIONS = ("fill",)
# dealt only when named: a person's job, done by a person at the table (`_person_mends`) — a stacking
# head that jams in the next build (E01), the service hatch opened (E12, an interlock, which also
# latches on the motor board when a motor ran), the front panel's STOP pressed (E16), the mixer's
# thermal protection (E11), the dice motor stalling at the next roll (E05): the person removes the
# cause after 0.5–5 s and presses 确认 on the front panel until the board holds none
# kind → the fault the board latches, and the simulator's fault that causes it ("" for the STOP key)
PERSON_JOBS = {"jam": (FaultCode.PUSH_JAM, "jam"), "hatch": (FaultCode.HATCH_OPEN, "hatch_open"),
               "stop_key": (FaultCode.EMERGENCY_STOP, ""), "overtemp": (FaultCode.OVER_TEMPERATURE, "overtemp"),
               "dice_stall": (FaultCode.DICE_MOTOR, "dice_stall")}
ARMED = ("jam", "dice_stall")   # these bite when the mechanism next runs (a build, a roll of the dice)
PERSON_DISRUPTIONS = tuple(PERSON_JOBS)
KINDS = DISRUPTIONS + MORE_DISRUPTIONS + CARD_DISRUPTIONS + PERSON_DISRUPTIONS
MEND_EVERY_S = 2.0              # a person presses 确认 again this often while the fault stays
PERSON_CODES = tuple(code for code, _ in PERSON_JOBS.values())
PEOPLE_FINISH_S = 20.0          # at a region's end, the persons at work are given this long (a jam may never come)
WIRE_NOISE = ("corrupt=0.01",)  # the simulator's faults all through a run: a flipped bit in one frame of a hundred
CARD_BYTES = 64 << 20           # the tmpfs that stands in for the card, for the `fill` kind


@dataclass
class RegionFigures:
    region: str
    played: int = 0
    resumed: int = 0
    voided: list[str] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    settled_twice: int = 0
    disruptions: dict[str, int] = field(default_factory=dict)
    moments: dict[str, int] = field(default_factory=dict)       # "kind in a hand" / "kind between hands"
    stalls: int = 0
    stall_views: list[str] = field(default_factory=list)     # what the table showed at each stall
    audit: list[str] = field(default_factory=list)        # the audit's problems (must be empty)
    ledger_differs: list[str] = field(default_factory=list)     # hands whose payments differ (must be empty)
    pages: list[str] = field(default_factory=list)         # hands whose page (lines, audit) is wrong (must be empty)
    ledger_only: int = 0           # settled hands whose hand_end a SIGKILL kept out of the recorder
    audit_notes: int = 0
    controller_errors: list[str] = field(default_factory=list)
    exits: list[str] = field(default_factory=list)     # the controller ended by itself and was started again
    display: list[str] = field(default_factory=list)   # the display did not follow the table at the end
    people: list[asyncio.Task] = field(default_factory=list)    # persons mending what a person must
    mended: dict[str, int] = field(default_factory=dict)        # a person's jobs done, by kind

    @property
    def sound(self) -> bool:
        return not (self.lost or self.settled_twice or self.stalls or self.audit or self.ledger_differs
                    or self.pages or self.controller_errors or self.display)


def card_of(folder: Path) -> Path:
    """Where a region's table keeps its state and recorders (the Pi's card): apart from its log and
    ports, so a full card (`fill`) fills only what the card holds on a real table."""
    return folder / "card"


def write_config(folder: Path, endpoints) -> Path:
    """A table's config naming the simulator process's ports, its state and recorders on its card."""
    config = folder / "config.toml"
    card = card_of(folder)
    config.write_text(
        "[devices]\n"
        f'motor = "{endpoints.motor}"\nrfid = "{endpoints.rfid}"\ndisplay = "{endpoints.display}"\n'
        "[storage]\n"
        f'state_dir = "{card}"\nevents_dir = "{card / "events"}"\n', encoding="utf-8")
    return config


class Card:
    """The region's card as a tmpfs of its own (`fill` only): filled to the last byte and freed."""

    def __init__(self, path: Path, mounted: bool) -> None:
        self.path = path
        self.mounted = mounted

    @classmethod
    def make(cls, path: Path, fillable: bool) -> "Card":
        path.mkdir(parents=True, exist_ok=True)
        if not fillable:
            return cls(path, False)
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={CARD_BYTES},mode=0755", "tmpfs", str(path)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"the fill disruption needs a tmpfs for the card and could not mount one at {path} "
                             f"({done.stderr.strip() or done.returncode}): run the campaign as root, or leave fill out")
        return cls(path, True)

    async def fill(self, seconds: float) -> None:
        """Full for `seconds`: a ballast file takes every byte left, then goes."""
        ballast = self.path / "ballast"
        await asyncio.to_thread(_fill, ballast)
        try:
            await asyncio.sleep(seconds)
        finally:
            ballast.unlink(missing_ok=True)

    def release(self, keep: Path) -> None:
        """Unmount, keeping a copy of what it held in `keep` (the books are read from there)."""
        if not self.mounted:
            return
        shutil.copytree(self.path, keep, ignore=shutil.ignore_patterns("ballast"))
        subprocess.run(["umount", "--lazy", str(self.path)], check=True)   # our own reads may hold it a moment
        self.path.rmdir()
        keep.rename(self.path)
        self.mounted = False


def _fill(ballast: Path) -> None:
    chunk = b"\0" * (1 << 20)
    with open(ballast, "wb", buffering=0) as f:
        while chunk:
            try:
                f.write(chunk)
            except OSError:
                chunk = chunk[:len(chunk) // 2]


class Controller:
    """`mahjong-table run --config` as a child process, started and killed at will."""

    def __init__(self, config: Path, ruleset: str, log: Path, options: tuple[str, ...] = ()) -> None:
        self.config = config
        self.ruleset = ruleset
        self.options = options          # house options, KEY=VALUE
        self.log = log
        self.process: subprocess.Popen | None = None
        self.exits: list[int] = []
        self._log_at_start = 0

    def start(self) -> None:
        self._log_at_start = self.log.stat().st_size if self.log.exists() else 0
        env = {**_child_env(), "MAHJONG_TABLE_CONFIG": ""}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--config", str(self.config),
                                             "--ruleset", self.ruleset, *_option_args(self.options)],
                                            stdout=out, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, env=env, cwd=self.config.parent)

    def kill(self) -> None:
        self.end(signal.SIGKILL)

    async def freeze(self, seconds: float) -> None:
        """Stopped (SIGSTOP) for `seconds`, then on again: the boards see a host gone quiet."""
        if not self.alive():
            return
        self.process.send_signal(signal.SIGSTOP)
        try:
            await asyncio.sleep(seconds)
        finally:
            if self.alive():
                self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.end(signal.SIGTERM)

    def end(self, sig: int) -> None:
        """Send `sig` and wait for the exit (its status in `exits`); a kill if it does not go in 30 s."""
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

    async def started(self, timeout: float = 20.0) -> None:
        """Until this start has opened its session (a SIGTERM before Python installs the handlers
        would end it with status -15: the stop at the end waits for this, a kill does not)."""
        deadline = time.monotonic() + timeout
        while self.alive() and time.monotonic() < deadline:
            with self.log.open("rb") as f:
                f.seek(self._log_at_start)
                if b" session " in f.read():
                    return
            await asyncio.sleep(POLL_S)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


async def enroll_from(sim: SimulatorProcess, folder: Path) -> None:
    """Enroll the simulated table's tiles in the registry on `folder`'s card, as `enroll --import` would."""
    card_of(folder).mkdir(parents=True, exist_ok=True)
    registry = TileRegistry(card_of(folder) / "tiles.db")
    registry.enroll(Registered(tag.uid, Tile.parse(tag.tile), tag.set_index, tag.copy)
                    for tag in await sim.control.registry())
    registry.close()


def recorder_lines(path: Path) -> list[dict]:
    """A recorder's events; a line a kill cut short is left out (the audit reports it)."""
    events = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    return events


def settled(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        try:
            return int(con.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


class Schedule:
    """The disruptions of one region, drawn from a seeded generator: dealt from a shuffled deck
    of every kind (a region plays on past its hands until the first deck is dealt: a short campaign
    sees each kind, however many hands settled between two looks at the ledger), each after 1 to `every` more hands
    have reached the ledger and a random fraction of a hand more, measured on the hands just played
    (at --speed 0 a hand takes 0.05-0.5 s by region and machine: the blow falls in a build, a deal,
    the play or a settlement, wherever, and never waits so long that several hands go by unhit)."""

    def __init__(self, rng: random.Random, every: int, kinds: tuple[str, ...] = DISRUPTIONS) -> None:
        self.rng = rng
        self.every = every
        self.kinds = kinds
        self._deck: list[str] = []
        self.dealt = 0

    def next_kind(self) -> str:
        if not self._deck:
            self._deck = list(self.kinds)
            self.rng.shuffle(self._deck)
        self.dealt += 1
        return self._deck.pop()

    def first_deck_dealt(self) -> bool:
        return self.dealt >= len(self.kinds)

    def next_stop(self, settled: int, hands: int) -> int:
        """How many hands the ledger holds before the next disruption: 1 to `every` more, and never
        past `hands` once the first deck is dealt."""
        target = settled + self.hands_before()
        return min(hands, target) if self.first_deck_dealt() else target

    def hands_before(self) -> int:
        return self.rng.randint(1, self.every)

    def delay(self, hand_seconds: float) -> float:
        return self.rng.uniform(0.0, 1.0) * hand_seconds


class Progress:
    """Watches the ledger grow; a stall or a controller that exited by itself ends the region."""

    def __init__(self, db: Path, controller: "Controller", figures: RegionFigures) -> None:
        self.db = db
        self.controller = controller
        self.figures = figures
        self.count = 0
        self._since = time.monotonic()
        self.hand_seconds = FIRST_HAND_GUESS_S     # the quickest hand yet, as the ledger saw them settle

    async def until(self, count: int) -> bool:
        """Wait until the ledger holds `count` hands; False if the region must end (a stall, an exit)."""
        while True:
            now = settled(self.db)
            if now > self.count:
                at = time.monotonic()
                if self.count:                  # not the first hands, which include the start and the first build;
                    each = (at - self._since) / (now - self.count)      # the quickest, as most include a recovery
                    self.hand_seconds = each if self.count == 1 else min(self.hand_seconds, each)
                self.count, self._since = now, at
            if self.count >= count:
                return True
            if time.monotonic() - self._since > STALL_S:
                self.figures.stalls += 1
                return False
            if not self.controller.alive():
                self.figures.exits.append(f"status {self.controller.process.returncode}: {_last_words(self.controller.log)}")
                if len(self.figures.exits) > RESTARTS:
                    self.figures.controller_errors.append(f"the controller exited {len(self.figures.exits)} times "
                                                          "by itself; see controller.log")
                    return False
                self.controller.start()         # as the unit's Restart=on-failure does (deploy/mahjong-table.service)
                self._since = time.monotonic()
            await asyncio.sleep(POLL_S)


async def run_region(region: str, hands: int, seed: int, folder: Path, every: int = 2,
                     kinds: tuple[str, ...] = DISRUPTIONS, faults: tuple[str, ...] = WIRE_NOISE,
                     options: tuple[str, ...] = ()) -> RegionFigures:
    """Play `hands` hands of `region` (settled or voided, in the ledger) under disruptions."""
    figures = RegionFigures(region)
    schedule = Schedule(random.Random(f"{region}/{seed}/campaign"), every, kinds)
    folder.mkdir(parents=True, exist_ok=True)
    card = Card.make(card_of(folder), "fill" in kinds)
    try:
        await _play_region(region, hands, seed, folder, card, schedule, figures, faults, options)
    finally:
        card.release(folder / "card-kept")
    _books(folder, figures)
    return figures


async def _play_region(region: str, hands: int, seed: int, folder: Path, card: Card, schedule: Schedule,
                       figures: RegionFigures, faults: tuple[str, ...], options: tuple[str, ...] = ()) -> None:
    args = ("--seed", str(seed), "--speed", "0", "--ruleset", region, "--players-seed", str(seed), *_option_args(options),
            "--listen", f"pty:{folder / 'ports'}", *(item for fault in faults for item in ("--fault", fault)))
    async with SimulatorProcess(*args, env=_child_env()) as sim:
        await enroll_from(sim, folder)
        controller = Controller(write_config(folder, sim.endpoints), region, folder / "controller.log", options)
        progress = Progress(card.path / "table.db", controller, figures)
        try:
            controller.start()
            while await progress.until(schedule.next_stop(progress.count, hands)):
                if progress.count >= hands and schedule.first_deck_dealt():
                    break
                await asyncio.sleep(schedule.delay(progress.hand_seconds))
                await disrupt(schedule.next_kind(), schedule.rng, sim, controller, figures, card)
            await _people_done(sim, figures)
            if figures.stalls:
                figures.stall_views.append(await _table_seen(sim))
            elif controller.alive():
                figures.display.extend(filter(None, [await display_follows(sim, progress.db)]))
        finally:
            for person in figures.people:
                person.cancel()
            await controller.started()
            controller.stop()
            if controller.exits and controller.exits[-1] != 0 and not figures.controller_errors:
                figures.controller_errors.append(f"SIGTERM ended the controller with status {controller.exits[-1]}, "
                                                 "not 0; see controller.log")


async def disrupt(what: str, rng: random.Random, sim: SimulatorProcess, controller: "Controller",
                  figures: RegionFigures, card: Card) -> None:
    """One blow; where it fell (the recorder's last event then) is counted with it."""
    figures.disruptions[what] = figures.disruptions.get(what, 0) + 1
    where = f"{what} {_moment(card.path / 'events')}"
    figures.moments[where] = figures.moments.get(where, 0) + 1
    if what.startswith("cut_"):
        await sim.control.cut(what.removeprefix("cut_"), rng.uniform(0.2, 5.0))
    elif what.startswith("unplug_"):
        await sim.control.unplug(what.removeprefix("unplug_"), rng.uniform(0.2, 5.0))
    elif what.startswith("reset_"):
        await sim.control.reset(what.removeprefix("reset_"))
    elif what in ("brownout", "power_cut"):
        if what == "power_cut":
            controller.end(signal.SIGKILL)
        await _brownout(sim)
        if what == "power_cut":
            controller.start()
    elif what == "freeze":
        await controller.freeze(rng.uniform(0.5, 8.0))
    elif what == "freeze_brownout":
        await controller.freeze(rng.uniform(0.5, 8.0))
        await asyncio.sleep(rng.uniform(0.0, 0.3))
        await _brownout(sim)
    elif what == "fill":
        await card.fill(rng.uniform(0.5, 6.0))
    elif what in PERSON_DISRUPTIONS:
        figures.people.append(asyncio.create_task(_person_mends(what, rng, sim, figures), name=f"person-{what}"))
    elif what in ("kill", "term"):
        if what == "term":
            await controller.started()          # a SIGTERM before the handlers are in would be a kill
        controller.end(signal.SIGKILL if what == "kill" else signal.SIGTERM)
        if what == "term" and controller.exits[-1] != 0:
            figures.controller_errors.append(f"SIGTERM mid-run ended the controller with status "
                                             f"{controller.exits[-1]}, not 0; see controller.log")
        controller.start()


async def _brownout(sim: SimulatorProcess) -> None:
    """Both boards and the display reboot at once."""
    await asyncio.gather(*(sim.control.reset(device) for device in DEVICES))


async def _person_mends(what: str, rng: random.Random, sim: SimulatorProcess, figures: RegionFigures) -> None:
    """A person's job, from the cause to the 确认 that lets the table go on: a jam armed for the next
    build is cleared once the board holds it; the hatch is closed and the STOP key let go of after a
    moment.  Then 确认 on the front panel while the board still holds the fault (a press the table
    missed — its controller killed, its link cut — is pressed again, as a person would)."""
    code, cause = PERSON_JOBS[what]
    if what == "stop_key":
        await sim.control.press("front", "stop")
    else:
        await sim.control.fault(f"jam={rng.randrange(4)}:{rng.randrange(20)}" if what == "jam" else cause)
    while what in ARMED and not await _board_holds(sim, code):     # it bites at the next build, or roll
        await asyncio.sleep(POLL_S * 4)
    await asyncio.sleep(rng.uniform(0.5, 5.0))      # the person walks over, mends, closes the hatch
    if cause:
        await sim.control.clear(cause)
    while await _board_holds(sim, code):
        await sim.control.press("front", "confirm")
        await asyncio.sleep(MEND_EVERY_S)
    figures.mended[what] = figures.mended.get(what, 0) + 1


async def _people_done(sim: SimulatorProcess, figures: RegionFigures) -> None:
    """At a region's end: the persons at work finish (a jam still armed for a build that never came
    is taken away), and what they left is mended, so the display check sees the table, not a fault
    page."""
    pending = [person for person in figures.people if not person.done()]
    if pending:
        await asyncio.wait(pending, timeout=PEOPLE_FINISH_S)
    for person in figures.people:
        if not person.done():
            person.cancel()
        (outcome,) = await asyncio.gather(person, return_exceptions=True)
        if outcome is not None and not isinstance(outcome, asyncio.CancelledError):
            figures.controller_errors.append(f"the campaign's person failed: {outcome!r}")
    if not figures.people:
        return
    for _, cause in PERSON_JOBS.values():
        if cause:
            await sim.control.clear(cause)
    for _ in range(5):
        if not await _board_faults(sim) & set(PERSON_CODES):
            return
        await sim.control.press("front", "confirm")
        await asyncio.sleep(MEND_EVERY_S)


async def _board_faults(sim: SimulatorProcess) -> set[int]:
    """The codes the motor board holds latched now."""
    return {code for code, _, _ in (await sim.control.table()).faults["motor"]}


async def _board_holds(sim: SimulatorProcess, code: int) -> bool:
    return code in await _board_faults(sim)


def _moment(events: Path) -> str:
    """"in a hand" or "between hands", from the last line of the newest recorder."""
    files = sorted(events.glob("*.jsonl"), key=lambda p: p.stat().st_mtime) if events.exists() else []
    last = ""
    if files:
        with files[-1].open("rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 4096))
            lines = f.read().decode("utf-8", "replace").splitlines()
        for line in reversed(lines):
            try:
                last = json.loads(line).get("event", "")
                break
            except ValueError:
                continue
    return "between hands" if last in ("", "hand_end", "recorder_start", "session_start", "session_resumed",
                                       "recorder_end", "set_check") else "in a hand"


async def _table_seen(sim: SimulatorProcess) -> str:
    """One line of what the table shows and how the players stand (to read a stall by)."""
    table, players = await sim.control.table(), await sim.control.players()
    message = {k: v for k, v in table.components.items() if k.endswith("t_msg")}
    return (f"page {table.page} {message}, seats {[list(lines) for lines in table.seats]}, "
            f"walls {[sum(w) for w in table.walls]}, lifts {dict(table.lifts)}, faults {dict(table.faults)}; players "
            f"running {players.running}, error {players.error}, errors {list(players.errors)[-14:]}, "
            f"their last actions {list(players.journal)}, waiting in {list(players.waiting_in)}")


def _last_words(log: Path) -> str:
    """The controller's last line (why it stopped)."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    return lines[-1][:200] if lines else "nothing logged"


def _child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}


def _books(folder: Path, figures: RegionFigures) -> None:
    """Count from the ledger and the recorders; audit them together."""
    log = folder / "controller.log"
    if log.exists() and "Traceback (most recent call last)" in log.read_text(encoding="utf-8", errors="replace"):
        figures.controller_errors.append("the controller crashed with a traceback; see controller.log")
    db = card_of(folder) / "table.db"
    files = sorted((card_of(folder) / "events").glob("*.jsonl"))
    began: set[tuple[int, int]] = set()
    paid: dict[tuple[int, int], list[int]] = {}
    session = 0
    for path in files:
        for event in recorder_lines(path):
            if event.get("event") in ("session_start", "session_resumed"):
                session = event.get("session", session)
            if event.get("event") == "resumed":
                figures.resumed += 1
            if event.get("event") in ("hand_start", "resumed"):
                began.add((session, event["hand"]))
            if event.get("event") == "hand_void":
                figures.voided.append(event.get("reason", "?"))
            if event.get("event") == "hand_end":
                paid[(session, event["hand"])] = list(event["payments"])
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT session, number, result, wall_hash FROM hands").fetchall()
        kept: dict[tuple[int, int], list[int]] = {}
        for session_id, number, side, amount in con.execute(
                "SELECT h.session, h.number, p.side, p.amount FROM hands h JOIN payments p ON p.hand = h.id"):
            kept.setdefault((session_id, number), [0, 0, 0, 0])[side] = amount
    for key, payments in sorted(paid.items()):
        if kept.get(key, [0, 0, 0, 0]) != payments or key not in {(s, n) for s, n, _, _ in rows}:
            figures.ledger_differs.append(f"session {key[0]} hand {key[1]}: recorder {payments}, "
                                          f"ledger {kept.get(key, 'no row')}")
    figures.ledger_only = sum(1 for s, n, _, _ in rows if (s, n) not in paid)
    figures.played = sum(1 for _, _, result, _ in rows if result != "void")
    figures.settled_twice = len(rows) - len({(s, n) for s, n, _, _ in rows}) + len(rows) - len({w for *_, w in rows})
    kept = {(s, n) for s, n, _, _ in rows}
    figures.lost = sorted(n for s, n in began if (s, n) not in kept and not _still_open(db, n))
    figures.pages = _hand_pages(db, {(s, n) for s, n, _, _ in rows if (s, n) not in paid})
    audit = subprocess.run([sys.executable, "-m", "firmware", "audit", *map(str, files), "--ledger", str(db), "--json"],
                           capture_output=True, text=True, env=_child_env())
    try:
        report = json.loads(audit.stdout)
        figures.audit = [f"{p['where']}: {p['text']}" for p in report["problems"]]
        figures.audit_notes = len(report["notes"])
    except ValueError:
        figures.audit = [f"the audit did not answer: {audit.stderr.strip()[-300:]}"]


def _hand_pages(db: Path, end_lost: set[tuple[int, int]]) -> list[str]:
    """Every settled hand's page as the web view reads it (firmware/records/history.py): its lines
    from the recorders of the runs that played it, to its `hand_end` (unless a SIGKILL kept that line
    out: `end_lost`), and the audit of that hand sound."""
    problems = []
    for hand in History(str(db)).hands(limit=100_000):
        try:
            events = hand_events(hand)
        except HistoryError as error:
            problems.append(str(error))
            continue
        if (hand.session, hand.number) in end_lost:
            continue
        if events[-1]["event"] != "hand_end":
            problems.append(f"hand {hand.id}: its page ends at {events[-1]['event']}, not its hand_end")
        problems += [f"hand {hand.id}: {p}" for p in hand_audit(hand, events)]
    return problems


def _still_open(db: Path, number: int) -> bool:
    """The hand still in the journal (the last hand of a campaign stopped mid-hand is not lost)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        row = con.execute("SELECT value FROM journal WHERE key = 'hand'").fetchone()
    return row is not None and json.loads(row[0]).get("number") == number


async def campaign(regions: list[str], hands: int, seed: int, folder: Path, every: int = 2,
                   kinds: tuple[str, ...] = DISRUPTIONS, faults: tuple[str, ...] = WIRE_NOISE,
                   options: tuple[str, ...] = ()) -> list[RegionFigures]:
    return [await run_region(region, hands, seed, folder / region, every, kinds, faults, options) for region in regions]


def _option_args(options: tuple[str, ...]) -> tuple[str, ...]:
    """House options as the simulator's players and the controller both take them: `--option KEY=VALUE`."""
    return tuple(item for option in options for item in ("--option", option))


def report(results: list[RegionFigures]) -> str:
    """The figures as Markdown: a row per region, the totals, the disruptions by kind and moment."""
    lines = ["| region | played | resumed | voided | lost | settled twice | stalls | ledger = recorders | audit | "
             "disruptions |", "|---|---:|---:|---:|---:|---:|---:|---|---|---|"]
    for r in results:
        shown = ", ".join(f"{k} {v}" for k, v in sorted(r.disruptions.items()))
        audit = "sound" if not r.audit else f"{len(r.audit)} problem(s)"
        ledger = "yes" if not r.ledger_differs else f"NO ({len(r.ledger_differs)})"
        lines.append(f"| {r.region} | {r.played} | {r.resumed} | {len(r.voided)} | {len(r.lost)} | {r.settled_twice} "
                     f"| {r.stalls} | {ledger} | {audit} ({r.audit_notes} note(s)) | {shown} |")
    reasons: dict[str, int] = {}
    for reason in (v for r in results for v in r.voided):
        reasons[reason] = reasons.get(reason, 0) + 1
    moments: dict[str, int] = {}
    for r in results:
        for key, n in r.moments.items():
            moments[key] = moments.get(key, 0) + n
    lines.append(f"\n{sum(r.played for r in results)} hands played in {len(results)} region(s); resumed "
                 f"{sum(r.resumed for r in results)}; voided {sum(len(r.voided) for r in results)}"
                 f"{' (' + '; '.join(f'{n} × {k}' for k, n in sorted(reasons.items())) + ')' if reasons else ''}; "
                 f"lost {sum(len(r.lost) for r in results)}; settled twice {sum(r.settled_twice for r in results)}; "
                 f"stalls {sum(r.stalls for r in results)}; the controller ended by itself (started again) "
                 f"{sum(len(r.exits) for r in results)} time(s); ledger = recorders: "
                 f"{'yes' if not any(r.ledger_differs for r in results) else 'NO'} "
                 f"({sum(r.ledger_only for r in results)} settled hand(s) whose end a SIGKILL kept out of the "
                 f"recorder); audit: {'sound' if not any(r.audit for r in results) else 'PROBLEMS'}; "
                 f"hand pages: {'whole' if not any(r.pages for r in results) else 'PROBLEMS'}; display: "
                 f"{'follows' if not any(r.display for r in results) else '; '.join(d for r in results for d in r.display)}")
    lines.append("\ndisruptions: " + "; ".join(f"{k} {n}" for k, n in sorted(moments.items())))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--regions", default="changchun,sichuan,guangshui,wuhan,luoshan,hangzhou,guizhou,yunnan")
    parser.add_argument("--hands", type=int, default=13)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=2, help="a disruption after 1 to EVERY hands")
    parser.add_argument("--folder", default="",
                        help="where each region's ports, state and recorders go (default: a new folder in /tmp)")
    known = ", ".join(sorted(set(KINDS)))
    parser.add_argument("--kinds", default=",".join(DISRUPTIONS),
                        help=f"the disruptions dealt, comma-separated (of {known}; default {','.join(DISRUPTIONS)})")
    parser.add_argument("--faults", default=",".join(WIRE_NOISE),
                        help="the simulator's faults all through, comma-separated `--fault` items of `mahjong-table "
                             f"sim` (default {','.join(WIRE_NOISE)}; e.g. add missed_read=0.02,foreign_tag=0.01)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house option for every region played (repeatable), e.g. dead_wall=7_stacks")
    args = parser.parse_args(argv)
    kinds = tuple(args.kinds.split(","))
    faults = tuple(f for f in args.faults.split(",") if f)
    try:
        parse_faults(faults)
    except ValueError as error:
        parser.error(f"--faults: {error}")
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        parser.error(f"unknown disruption(s) {', '.join(unknown)}: choose from {known}")
    regions = args.regions.split(",")
    if len(set(regions)) != len(regions):
        parser.error("a region is named twice in --regions: run it again with another --seed instead")
    folder = Path(args.folder or tempfile.mkdtemp(prefix="mahjong-campaign-")).resolve()   # the controller runs elsewhere
    earlier = [str(folder / r) for r in regions if (folder / r).exists() and any((folder / r).iterdir())]
    if earlier:    # an earlier run's registry, ledger and recorders would be counted in this one's books
        parser.error(f"{', '.join(earlier)} holds an earlier run: pass another --folder, or remove it")
    print(f"campaign folder: {folder}", flush=True)
    results = asyncio.run(campaign(regions, args.hands, args.seed, folder, args.every, kinds=kinds, faults=faults,
                                   options=tuple(args.option)))
    print(report(results))
    for r in results:
        for problem in (r.audit + r.ledger_differs + r.pages + r.controller_errors + [f"stall: {v}" for v in r.stall_views]
                        + [f"exit: {e}" for e in r.exits]):
            print(f"{r.region}: {problem}")
    return 0 if all(r.sound for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
