"""The controller against the built-in simulator: the same code path as real boards.

The simulator serves the three devices on real ptys; the controller opens them exactly as it
opens `/dev/serial/by-id/…`.  The simulated table comes pre-enrolled: its tag registry is copied
into the controller's tile registry.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable, TextIO

from rulesets.definition import Ruleset
from rulesets.tiles import Tile
from simulator import parse_faults
from simulator.spawn import SimulatorProcess
from simulator.table import Endpoints, SimulatedTable

from .build.registry import Registered, TileRegistry
from .controller import TableController, monotonic_clock
from .devices import open_devices
from .version import package_version
from .journal import journaled_links
from .panel import Settings
from .records.ledger import HAND_KEY, SESSION_KEY, Ledger
from .records.recorder import FlightRecorder, RecorderFiles
from .records.store import Store, ThreadedSink
from .session import TableSession
from .win_tables import use_kept_table

PlayersFactory = Callable[[SimulatedTable, Ruleset, int], Any]   # returns an object with `async run()`


@dataclass(frozen=True)
class RunResult:
    hands: int
    totals: tuple[int, int, int, int]
    events: int


def new_table(ruleset: Ruleset, *, seed: int, speed: float, faults: tuple[str, ...] = ()) -> SimulatedTable:
    """A simulated table loaded with two sets of the ruleset's tiles (not yet serving)."""
    return SimulatedTable(seed=seed, speed=speed, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(faults))


def enroll_simulated(table: SimulatedTable, registry: TileRegistry) -> int:
    """Copy the simulated table's tags into the registry (the simulator comes pre-enrolled)."""
    entries = [Registered(uid, ident.kind, ident.set_index, ident.copy) for uid, ident in table.registry().items()]
    return registry.enroll(entries)


def default_players(table: SimulatedTable, ruleset: Ruleset, seed: int) -> Any:
    from simulator.players import SimulatedPlayers
    return SimulatedPlayers(table, ruleset, seed=seed)


log = logging.getLogger("firmware.simulated")

async def run_simulated(ruleset: Ruleset, *, hands: int | None, seed: int = 0, speed: float = 0.0,
                        events: TextIO | None = None, ledger_path: str = ":memory:",
                        faults: tuple[str, ...] = (), players: PlayersFactory | None = default_players,
                        on_event: Callable[[dict], None] | None = None,
                        table: SimulatedTable | None = None, settings_path: str | None = None,
                        on_session: Callable[[TableSession], None] | None = None,
                        resume: bool = False, events_path: str | None = None) -> RunResult:
    """Play `hands` hands of `ruleset` (None: until cancelled) on a simulated table in this process;
    return what happened.  (Tests use it to reach into the table; `run_in_process` is the table a
    person runs, served from its own process as real boards are.)

    `on_event` hears every recorder event; `on_session` gets the session once it is composed (tests
    read its state from there; the web view attaches there); `events_path` names the recorder's
    file for the ledger's history.  With `resume`, a journal in the ledger (`ledger_path`) is picked
    up: only for a `table` that is the same physical table the journal was written at."""
    own_table = table is None
    if table is None:
        table = new_table(ruleset, seed=seed, speed=speed, faults=faults)
    endpoints = await table.start("pty") if own_table else table.endpoints
    registry = TileRegistry()
    enroll_simulated(table, registry)
    start_players = (lambda: players(table, ruleset, seed).run()) if players is not None else None
    try:
        return await _play(endpoints, registry, ruleset, hands, _table_clock(table), start_players, events=events,
                           ledger_path=ledger_path, settings_path=settings_path, on_event=on_event,
                           on_session=on_session, resume=resume, events_path=events_path)
    finally:
        if own_table:
            await table.stop()


async def run_in_process(ruleset: Ruleset, *, hands: int | None, seed: int = 0, speed: float = 0.0,
                         events: TextIO | None = None, ledger_path: str = ":memory:", faults: tuple[str, ...] = (),
                         on_event: Callable[[dict], None] | None = None, settings_path: str | None = None,
                         on_session: Callable[[TableSession], None] | None = None,
                         on_simulator: Callable[[SimulatorProcess], None] | None = None,
                         events_path: str | None = None) -> RunResult:
    """Play on the simulator served from its own process with its players in their own loop, as
    real boards are: nothing the simulator or its players do can hold this controller's loop.  The
    recorder's clock is the controller's own (the simulator's clock lives in the other process)."""
    args = ["--seed", str(seed), "--speed", repr(speed), "--ruleset", ruleset.id, "--players-seed", str(seed)]
    args += [arg for key, value in ruleset.options for arg in ("--option", f"{key}={value}")]
    args += [arg for fault in faults for arg in ("--fault", fault)]
    async with SimulatorProcess(*args) as sim:
        if on_simulator is not None:
            on_simulator(sim)
        registry = TileRegistry()
        registry.enroll(Registered(tag.uid, Tile.parse(tag.tile), tag.set_index, tag.copy)
                        for tag in await sim.control.registry())
        assert sim.endpoints is not None
        return await _play(sim.endpoints, registry, ruleset, hands, monotonic_clock(), None, events=events,
                           ledger_path=ledger_path, settings_path=settings_path, on_event=on_event,
                           on_session=on_session, resume=False, events_path=events_path)


async def _play(endpoints: Endpoints, registry: TileRegistry, ruleset: Ruleset, hands: int | None,
                clock: Callable[[], float], start_players: Callable[[], Any] | None, *, events: TextIO | None,
                ledger_path: str, settings_path: str | None, on_event: Callable[[dict], None] | None,
                on_session: Callable[[TableSession], None] | None, resume: bool,
                events_path: str | None) -> RunResult:
    """Open the boards at `endpoints`, compose the table, play; every part closed in order after.
    A display that misses its first pings (a noisy wire) is opened all the same, as `run` opens a
    real table's: E22 until it answers, not a stopped table; a board that does not answer stops it."""
    ledger = Ledger(ledger_path, events=events_path)
    settings = Settings(settings_path) if settings_path is not None else None
    store = Store()
    player_task: asyncio.Task | None = None
    try:
        if not resume:
            _say_a_new_table(await store.run(ledger.journal))
        sessions = journaled_links(ledger) if resume else None
        async with open_devices(endpoints.motor, endpoints.rfid, endpoints.display, sessions=sessions,
                                hold_acks=True, patient_display=True) as devices:
            sink = ThreadedSink(events, store, close_target=False) if events is not None else None
            recorder = FlightRecorder(sink, clock=clock, version=package_version())
            if on_event is not None:
                recorder.listen(on_event)
            try:
                controller = TableController(devices, ruleset, registry, recorder, clock=clock, settings=settings)
                session = TableSession(controller, ledger, hands, store=store, resume=resume,
                                       recorder_files=events if isinstance(events, RecorderFiles) else None)
                if on_session is not None:
                    on_session(session)
                if start_players is not None:
                    # the players judge hands here, in this process: the suit table mapped from its
                    # file (or built and kept), off the loop
                    await asyncio.to_thread(use_kept_table)
                    player_task = asyncio.create_task(start_players(), name="simulated-players")
                played = await _run_beside(session.run(), player_task)
                totals = session.state.totals if session.state is not None else (0, 0, 0, 0)
                return RunResult(played, totals, recorder.events_written)
            finally:
                recorder.close_cleanly()            # the run ended under our control: the file ends cleanly
    finally:
        if player_task is not None:
            player_task.cancel()
            await asyncio.gather(player_task, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(None, store.close)     # every write lands first
        ledger.close()
        registry.close()
        if settings is not None:
            settings.close()


async def _run_beside(main: Any, helper: asyncio.Task | None) -> Any:
    """Run `main`; if the helper task (the players) dies first, stop and raise its error."""
    main_task = asyncio.ensure_future(main)
    if helper is None:
        return await main_task
    try:
        done, _ = await asyncio.wait({main_task, helper}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:              # stopped from outside: the session ends before the ledger closes
        main_task.cancel()
        await asyncio.gather(main_task, return_exceptions=True)
        raise
    if main_task in done:
        return main_task.result()
    main_task.cancel()
    await asyncio.gather(main_task, return_exceptions=True)
    error = helper.exception()
    raise RuntimeError(f"the simulated players stopped: {error!r}") from error


def _table_clock(table: SimulatedTable) -> Callable[[], float]:
    """The table clock: the simulator's virtual clock (seconds since it started)."""
    return table.clock.now


def _say_a_new_table(journal: dict[str, dict]) -> None:
    """A run on the built-in simulator is a new table (its tiles made anew), so a hand the run before
    left in play is not resumed, as a real table's is: said, so nobody takes it for a lost hand."""
    hand, session = journal.get(HAND_KEY), journal.get(SESSION_KEY)
    if not isinstance(hand, dict) or not isinstance(session, dict):     # (a damaged row: the start says so)
        return
    log.warning("the built-in simulator is a new table each run: hand %s of session %s, left in play when the "
                "run before stopped, is not resumed but voided, paying nothing (a table on real boards resumes "
                "its hand)", hand.get("number", "?"), session.get("session", "?"))
