"""`mahjong-table run`: the table's main job.

Without a configuration (see firmware/config.py for where one is looked for), or with
`--simulate`, it runs the controller against the built-in simulator (and says so), with simulated
players; with a configuration naming serial ports it drives the real boards.  It logs a line per
phase, fault, set check and hand (firmware/table_log.py, at --log-level; journal lines under
systemd: firmware/logs.py); each hand's line is also the unit's STATUS, and the watchdog is petted
from the event loop (firmware/service.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sqlite3
import sys
import textwrap
from pathlib import Path
from typing import TextIO

from drivers.await_chain import tasks_waiting
from drivers.errors import BoardIncompatible, DriverError, NotASerialPort, PortBusy
from firmware.config import TableConfig, unstable_port_names
from firmware.faults import FaultCode, LatchedFault, SetRejected, board_incompatible
from firmware.logs import DEFAULT_LEVEL, LEVELS, at_level, configured
from firmware.panel import Settings
from firmware.service import ServiceNotifier
from firmware.table_log import describe

from .cmd_rules import load_ruleset
from .errors import UserError
from .files import CardFull, TableBusy, check_recorder_name, database_trouble, ensure_dir, folder_of_named_file, open_database, open_events, refuse_empty, require_enrolled, state_dir, table_config
from .sim_args import check_speed, simulator_faults
from .starting import show_as_it_exits, shown_until_room
from .streams import stop_signal_heard, stop_signals
from .table_lock import table_held

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run the table (the built-in simulator unless a configuration names the boards' ports)",
        description="Run the controller.  The configuration is --config FILE, else $MAHJONG_TABLE_CONFIG, else "
                    "/etc/mahjong-table/config.toml if it exists; it drives the boards named there.  With none "
                    "of them, or with --simulate, it plays against the built-in simulator with simulated players, "
                    "keeping its ledger and settings in <state>/simulator/ (apart from the real table's).",
        epilog="examples:\n"
               "  mahjong-table run --ruleset changchun --hands 4 --seed 1 --speed 0 --events events.jsonl\n"
               "  mahjong-table run --ruleset sichuan --hands 1 --speed 0 --events -\n"
               "  mahjong-table run --simulate --hands 2 --speed 0 --fault corrupt=0.02 --db demo.db\n"
               "  mahjong-table run --ruleset wuhan --hands 1 --speed 0 --http 127.0.0.1:8080\n"
               "  mahjong-table run --hands 1 --speed 0 --mqtt mqtt://127.0.0.1:1883 --table t01\n"
               "  mahjong-table run --fault help",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", metavar="FILE", help="a TOML configuration naming the boards' serial ports (see deploy/config.toml)")
    parser.add_argument("--simulate", action="store_true",
                        help="play against the built-in simulator even if a configuration is found")
    parser.add_argument("--ruleset", metavar="ID", help="the ruleset (default: the front panel's saved choice, else changchun)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a house option; repeatable")
    parser.add_argument("--hands", type=int, metavar="N", help="stop after N hands (default: run until Ctrl-C)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the simulator's seed (default 1)")
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help="the simulator's speed: 1 real time, 10 ten times faster, 0.5 half as fast (0.01 at the slowest); 0 as fast as possible (default 1)")
    parser.add_argument("--events", metavar="FILE",
                        help="write the flight recorder (JSON Lines) to FILE, or to stdout with '-' (the other lines "
                             "then go to stderr); default: a new file per start in storage.events_dir, if configured")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="inject a simulator fault; repeatable, each fault once; `--fault help` lists them")
    parser.add_argument("--db", metavar="FILE", help="the ledger and settings database (default: table.db in the state directory)")
    parser.add_argument("--log-level", choices=tuple(LEVELS), default=DEFAULT_LEVEL, metavar="LEVEL",
                        help="debug, info (the default: a line per phase, fault and hand), warning or error; "
                             "under systemd the lines go to the journal with their priority")
    parser.add_argument("--http", metavar="HOST:PORT",
                        help="serve the web view and API there (default: [web] listen in the config), e.g. 127.0.0.1:8080")
    parser.add_argument("--mqtt", metavar="URL",
                        help="report to this MQTT broker (default: [mqtt] url in the config; docs/fleet.md), "
                             "e.g. mqtt://127.0.0.1:1883")
    parser.add_argument("--table", metavar="NAME",
                        help="this table's name on the broker, topics mahjong/NAME/… (default: [mqtt] table in the "
                             "config), e.g. t01")
    parser.set_defaults(handler=run_table)


class _StoppedEarly(BaseException):
    """SIGTERM (or SIGHUP) before the loop's own stop handlers were installed (Python starting, files
    opening)."""


class _EarlyStop:
    """SIGTERM until `until_stopped` takes over.  While files open it raises _StoppedEarly; from just
    before asyncio.run it is only noted (raised inside asyncio.run's setup it left a coroutine never
    awaited and an event loop open), and the loop's first step (`_stoppable`) honours it."""

    def __init__(self) -> None:
        self.noted: str | None = None

    def raising(self, signum: int, frame: object) -> None:
        raise _StoppedEarly(stop_signal_heard(signal.Signals(signum).name))

    def noting(self, signum: int, frame: object) -> None:
        self.noted = stop_signal_heard(signal.Signals(signum).name)

    def cancelling(self, name: str, task: asyncio.Task) -> None:
        """The loop's handler, from its first step until `until_stopped` installs its own."""
        self.noted = stop_signal_heard(name)
        task.cancel()



def run_table(args: argparse.Namespace) -> int:
    """The run, with its log lines where the other human lines go (stderr when the recorder has stdout).
    A SIGTERM before the table runs (until `until_stopped` takes over) ends it in order, with status 0,
    as systemd's stop expects."""
    early = _EarlyStop()
    for sig in stop_signals():
        signal.signal(sig, early.raising)
    with configured(args.log_level, lambda: sys.stderr if args.events == "-" else sys.stdout):
        try:
            return _run_when_the_card_has_room(args, early)
        except _StoppedEarly as stopped:
            print(f"stopped by {stopped.args[0]} while starting: nothing was running yet", flush=True)
            return 0


def _run_when_the_card_has_room(args: argparse.Namespace, early: _EarlyStop) -> int:
    """`_run_table`, started again once there is room when the card is too full to open the table's
    files.  Freeing the card is a person's job: exiting would only have systemd start the run again
    and again, so it says so once (the log, the unit's STATUS, E24 on the table's display) and waits,
    keeping systemd's start timeout at bay.  A SIGTERM while it waits ends it with status 0, as one
    at any start does."""
    service = ServiceNotifier.from_environment()
    told = False
    while True:
        try:
            return _run_table(args, early)
        except CardFull as full:
            if not told:
                line = f"mahjong-table: {full}; waiting: the table starts by itself once the card has room"
                print(line, file=sys.stderr, flush=True)
                service.status(line)
                told = True
            devices, folder = table_config(args.config, args.simulate).devices, full.folder
            _run_loop(early, lambda: shown_until_room(folder, devices, service))
            print(f"mahjong-table: the card has room again ({folder}): starting", file=at_level(sys.stderr, logging.INFO),
                  flush=True)


def _run_table(args: argparse.Namespace, early: _EarlyStop) -> int:
    if "help" in args.fault:
        print(fault_help())
        return 0
    _check_arguments(args)
    config = table_config(args.config, args.simulate)
    if config.devices is not None and args.fault:
        raise UserError(f"--fault {args.fault[0]}: faults are injected into the simulator, not real boards; "
                        "add --simulate to try it on the simulator")
    simulator_faults(args.fault)               # checked now: the simulator's process would refuse them only once started
    held = table_held(config.state_dir, "run") if config.devices is not None else contextlib.nullcontext()
    # the lock is taken inside: a state folder it cannot be made in shows E25 too (another holder does not)
    with _shown_if_it_cannot_start(config, early), held:
        return _run_configured(args, config, early)


# An empty value (`--db ""`, a shell variable that was never set) would read as no flag at all.
_NOT_EMPTY = {"config": "/etc/mahjong-table/config.toml", "ruleset": "changchun", "events": "events.jsonl",
              "db": "demo.db", "http": "127.0.0.1:8080", "mqtt": "mqtt://127.0.0.1:1883", "table": "t01"}


def _check_arguments(args: argparse.Namespace) -> None:
    """The values a person typed, before any file is opened."""
    if args.hands is not None and args.hands < 1:
        raise UserError(f"--hands {args.hands}: give a number of hands of at least 1")
    check_speed(args.speed)
    refuse_empty(args, _NOT_EMPTY)
    if args.events is not None:
        check_recorder_name(args.events)


@contextlib.contextmanager
def _shown_if_it_cannot_start(config: TableConfig, early: _EarlyStop):
    """A real table that cannot start for a reason a person must fix (the one-line error says which)
    shows E25 on its display as the run exits: the people at the table see why it does not play.
    A full card is waited for instead (E24, `_run_when_the_card_has_room`); a table another program
    holds is left alone (its display is that program's)."""
    try:
        yield
    except (CardFull, TableBusy):
        raise
    except UserError as error:
        _shown_as_it_exits(config, early, LatchedFault(FaultCode.CANNOT_START, 0, str(error), "controller"))
        raise


def _shown_as_it_exits(config: TableConfig, early: _EarlyStop, fault: LatchedFault) -> None:
    """`fault` on a real table's display as the run exits (E25, E26): the people at the table see why
    it does not play.  A table with no display named is left to the log."""
    if config.devices is not None and config.devices.display is not None:
        devices = config.devices
        _run_loop(early, lambda: show_as_it_exits(devices, fault))


def _run_configured(args: argparse.Namespace, config: TableConfig, early: _EarlyStop) -> int:
    if config.devices is not None:
        require_enrolled(config)
    if args.db:
        db_path = Path(args.db)
        folder_of_named_file(db_path, "ledger", "--db")         # (never created: a typo would start a new ledger)
    else:
        db_path = ensure_dir(state_dir(config), "ledger", "--db") / "table.db"
    ruleset = _choose_ruleset(args, config, db_path)
    web = _web_settings(args, config)
    fleet = _fleet_settings(args, config)
    events = open_events(args.events, config.events_dir)
    events_path = str(events.path) if events is not None and events is not sys.stdout else None
    say = _Say(at_level(sys.stderr, logging.INFO) if events is sys.stdout else sys.stdout,
               ServiceNotifier.from_environment())
    try:
        if config.devices is None:
            say(f"{'simulating' if args.config or args.simulate else 'no configuration'}: running "
                f"{ruleset.region.name} ({ruleset.id}) against the built-in simulator "
                f"(seed {args.seed}, speed {args.speed:g}) with simulated players")
            return _run_loop(early, lambda: _serving(web, db_path, say, _reported(fleet, db_path, say, lambda serving:
                _run_simulated(ruleset, args, events, events_path, str(db_path), say, serving))))
        with _table_books(config, db_path, events_path) as (registry, ledger, settings):
            say(f"running {ruleset.region.name} ({ruleset.id}) on the boards of {config.source}")
            for warning in unstable_port_names(config.devices):
                say.warning(warning)
            return _run_loop(early, lambda: _serving(web, db_path, say, _reported(fleet, db_path, say, lambda serving:
                _run_real(ruleset, config, args, events, (registry, ledger, settings), say, serving))))
    except SetRejected as error:           # E14 at the start only: a set that fails its check waits for a person
        print(f"mahjong-table: this table cannot play these rules: {error}", file=sys.stderr)
        return 1
    except PortBusy as error:              # another controller drives these boards: it goes on undisturbed
        print(f"mahjong-table: {error}, then run again", file=sys.stderr)
        return 2
    except NotASerialPort as error:        # the configuration names no port: a person's job (E25, status 2)
        raise UserError(str(error)) from None
    except DriverError as error:
        print(f"mahjong-table: the table stopped: {error}", file=sys.stderr)
        if isinstance(error, BoardIncompatible):
            _shown_as_it_exits(config, early, board_incompatible(error))
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        if events is not None and events is not sys.stdout:
            events.close()


def _run_loop(early: _EarlyStop, main) -> int:
    """asyncio.run(main()) with no SIGTERM raised into it: from here a SIGTERM is noted, and `main()`
    is made only in the loop (a signal in asyncio.run's setup leaves nothing half made)."""
    for sig in stop_signals():
        signal.signal(sig, early.noting)      # a signal pending before this still raises, here
    try:
        return asyncio.run(_stoppable(early, main))
    finally:
        for sig in stop_signals():
            signal.signal(sig, early.noting)  # the closed loop restored the default (death) for it


async def _stoppable(early: _EarlyStop, main):
    """`main()`, stopped by a SIGTERM until `until_stopped` replaces this handler.  The handler is
    installed before the note is read, so a signal that came before it is not lost."""
    for sig in stop_signals():
        asyncio.get_running_loop().add_signal_handler(sig, early.cancelling, sig.name, asyncio.current_task())
    if early.noted is None:
        try:
            return await main()
        except asyncio.CancelledError:
            if early.noted is None:
                raise
    raise _StoppedEarly(early.noted)


def fault_help() -> str:
    from simulator import FAULT_HELP
    return textwrap.fill(FAULT_HELP, width=100, subsequent_indent="  ", break_on_hyphens=False)


def _choose_ruleset(args: argparse.Namespace, config: TableConfig, db_path: Path):
    """--ruleset, else the configuration's, else the front panel's saved choice with its saved house
    options (over the configuration's: the panel's is the owner's latest word; before, they were
    dropped at every start, and a restart voided the hand the panel's options were played in); a
    chosen one is saved.  The saved choice is read only when it is played: a named ruleset replaces
    it, and a warning about a hand-edited value in it would name rules that are not played."""
    settings = open_database(Settings, db_path, "ledger and settings database", "--db")
    try:
        named = args.ruleset or config.ruleset
        region_id, saved_options = (named, {}) if named else settings.ruleset_choice()
        options = _config_options(config, region_id)
        options.update(saved_options)               # (none when a ruleset is named: its own options)
        ruleset = load_ruleset(region_id, args.option, options, f"{config.source}: table.options")
        if named:
            settings.save_choice(ruleset.id, dict(ruleset.options))
    except sqlite3.Error as error:                  # (a full card lets it open but not save the choice)
        raise database_trouble(db_path, "ledger and settings database", error, "--db", "save the rules in") from None
    finally:
        settings.close()
    return ruleset


def _config_options(config: TableConfig, region_id: str) -> dict[str, str]:
    """The configuration's house options for the ruleset played.  They belong to the configuration's
    ruleset; a configuration that names none gives each to whichever ruleset has it, and the others are
    left out with a warning: the owner may pick any ruleset on the front panel, and the table must
    still start at the next boot."""
    if config.ruleset is not None:
        return dict(config.options) if region_id == config.ruleset else {}
    if not config.options:
        return {}
    from rulesets.regions import UnknownRegion, get_region
    try:
        keys = [option.key for option in get_region(region_id).options]
    except UnknownRegion:
        return {}                                   # (load_ruleset names the ruleset itself)
    lacking = [key for key in config.options if key not in keys]
    if lacking:
        log.warning("%s: table.options %s left out: %s has no such house option (its options: %s); name "
                    "table.ruleset to tie the options to one ruleset", config.source, ", ".join(lacking),
                    region_id, ", ".join(keys) or "none")
    return {key: value for key, value in config.options.items() if key in keys}


class _Say:
    """The lines a person reads: the banner and the result, mirrored to systemd's STATUS; each hand's
    line is the log's (firmware/table_log.py) and only its STATUS is said here."""

    def __init__(self, stream: TextIO, service: ServiceNotifier) -> None:
        self.stream = stream
        self.service = service

    def __call__(self, line: str) -> None:
        self.detail(line)
        self.service.status(line)

    def played(self, hands: int, totals: tuple[int, ...]) -> None:
        """The run's last line once its hands are played (`--hands N`): a real table's and the simulator's alike."""
        self(f"{hands} hand(s) played; totals {' '.join(f'{t:+d}' for t in totals)}")

    def warning(self, line: str) -> None:
        """A line a technician must see: the log's, at warning (`journalctl -p warning` shows it)."""
        log.warning("%s", line)
        self.service.status(line)

    def detail(self, line: str) -> None:
        """A line for the log only (not systemd's STATUS)."""
        print(line, file=self.stream, flush=True)

    def hand(self, event: dict) -> None:
        if event["event"] == "hand_end":
            self.service.status(describe(event)[1])          # the log prints the same line (table_log)


async def _run_simulated(ruleset, args, events, events_path, db_path: str, say: _Say, serving=None) -> int:
    """The built-in simulator, served from its own process with its players (as real boards are)."""
    from firmware.session import JournalUnreadable
    from firmware.simulated import run_in_process
    from simulator import SimulatorError
    async with say.service.serving():
        say.service.ready()
        try:
            result = await until_stopped(run_in_process(
                ruleset, hands=args.hands, seed=args.seed, speed=args.speed, events=events, ledger_path=db_path,
                faults=tuple(args.fault), on_event=say.hand, settings_path=db_path, events_path=events_path,
                on_session=serving.attach if serving is not None else None,
                on_simulator=serving.simulator_process if serving is not None else None), say)
        except ValueError as error:
            raise UserError(str(error)) from None
        except JournalUnreadable as error:  # a person decides: one line, E25 shown
            raise UserError(str(error)) from None
        except sqlite3.Error as error:      # the ledger opened inside (a damaged page): one line, as a table's is
            raise database_trouble(Path(db_path), "ledger and settings database", error, "--db") from None
        except SimulatorError as error:     # its process did not serve: its own line says why, no traceback
            print(f"mahjong-table: the built-in simulator failed: {error}", file=sys.stderr, flush=True)
            return 1
    if result is not None:
        say.played(result.hands, result.totals)
    return 0


@contextlib.contextmanager
def _table_books(config: TableConfig, db_path: Path, events_path: str | None):
    """The tile registry, the ledger and the settings, opened before the loop (a damaged file is named
    in one line, a full card waited for: `CardFull`) and closed once the run and its store have ended."""
    from firmware.build.registry import TileRegistry
    from firmware.records.ledger import Ledger

    with contextlib.ExitStack() as books:
        registry = open_database(TileRegistry, config.state_dir / "tiles.db", "tile registry")
        books.callback(registry.close)
        ledger = open_database(lambda path: Ledger(path, events=events_path), db_path,
                               "ledger and settings database", "--db")
        books.callback(ledger.close)
        settings = open_database(Settings, db_path, "ledger and settings database", "--db")
        books.callback(settings.close)
        yield registry, ledger, settings


async def _run_real(ruleset, config: TableConfig, args, events, books, say: _Say, serving=None) -> int:
    from firmware.controller import TableController, monotonic_clock
    from firmware.devices import open_devices
    from firmware.records.recorder import FlightRecorder, RecorderFiles
    from firmware.records.store import Store, ThreadedSink
    from firmware.journal import journaled_links
    from firmware.session import JournalUnreadable, TableSession
    from firmware.version import package_version

    registry, ledger, settings = books
    devices_cfg = config.devices
    store = Store()
    async def table() -> None:
        # the boards are opened under the stop handlers: a SIGTERM while a board is awaited ends in order;
        # a board not answering yet (a link cut at start) is waited for with back-off, as a lost link is
        async with say.service.serving(), open_devices(devices_cfg.motor, devices_cfg.rfid, devices_cfg.display,
                                                       devices_cfg.baudrate, journaled_links(ledger),
                                                       patient=True, say=say.warning, hold_acks=True) as devices:
            say.service.ready(f"running {ruleset.region.name} on the boards")
            clock = monotonic_clock()                    # one table clock for the recorder and the controller
            recorder = FlightRecorder(ThreadedSink(events, store, close_target=False) if events else None, clock=clock,
                                      version=package_version())
            recorder.listen(say.hand)
            try:
                controller = TableController(devices, ruleset, registry, recorder, clock=clock, settings=settings)
                session = TableSession(controller, ledger, args.hands, store=store, resume=True,
                                       recorder_files=events if isinstance(events, RecorderFiles) else None)
                if serving is not None:
                    serving.attach(session)
                try:
                    played = await session.run()
                except JournalUnreadable as error:      # a person chooses the version: one line, E25 shown
                    raise UserError(str(error)) from None
                # the run's last line, as on the simulator; said before STOPPING=1, systemd's last word
                say.played(played, session.state.totals if session.state is not None else (0, 0, 0, 0))
            finally:
                recorder.close_cleanly()                 # stopped under our control: the file ends cleanly

    try:
        await until_stopped(table(), say)
        return 0
    finally:
        await asyncio.get_running_loop().run_in_executor(None, store.close)     # the journal and recorder land


async def until_stopped(work, say: _Say):
    """Run `work`; SIGTERM, SIGINT or SIGHUP cancel it (the session stops the motors, the journal keeps the
    hand in play) and the run ends with status 0.  A signal once stopping (a second Ctrl-C, a stop
    sent twice) cancels nothing more: cancelled again, the journal's last writes would be cut off.
    The handlers stay until the loop closes (`_run_loop` then notes any signal), so no signal in
    the rest of the stop (the web view, the store) kills the process with its files half closed."""
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(work)
    stopping = []

    def stop(name: str) -> None:
        stop_signal_heard(name)
        if stopping or task.done():
            say(f"{name} while stopping: the table is already stopping in order" if stopping else
                f"{name} as the run ends: it is already ending in order")
            return
        stopping.append(name)
        # where every task stood: a table stopped because it stalled tells what it waited for
        waiting = tasks_waiting(loop)
        task.cancel()                   # (first: a line that cannot be said does not keep the table running)
        for line in waiting:
            say.detail(f"at the stop, {line}")

    for sig in (*stop_signals(), signal.SIGINT):
        loop.add_signal_handler(sig, stop, sig.name)
    try:
        return await task
    except asyncio.CancelledError:
        if not stopping:
            raise
        say(f"stopped by {stopping[0]}: motors stopped, the hand in play is kept for the next start")
        return None


# -- the web view (firmware/web): --http HOST:PORT or [web] listen ---------------------------------------

def _web_settings(args: argparse.Namespace, config: TableConfig):
    """The web server's settings, or None when neither --http nor [web] listen asks for it."""
    listen = args.http or config.web.listen
    if listen is None:
        return None
    from firmware.web import WebError, parse_listen
    try:
        return parse_listen(listen, config.web.token)
    except WebError as error:
        raise UserError(f"--http {listen}: {error}" if args.http else f"{config.source}: web.listen: {error}") from None


async def _serving(settings, db_path: Path, say: _Say, run):
    """Run `run(serving)` with the web server up (serving None when no server was asked for)."""
    if settings is None:
        return await run(None)
    from firmware.web import WebError
    from firmware.web.serving import Serving
    serving = Serving(settings, db_path)
    try:
        address = await serving.start()
    except WebError as error:                       # the address is taken or refused
        raise UserError(str(error)) from None
    say(f"web view at {address} (API: {address}api/state; see docs/api.md)")
    try:
        return await run(serving)
    finally:
        await serving.stop()


# -- reporting to a broker (firmware/fleet): --mqtt URL --table NAME or [mqtt] ---------------------------

def _fleet_settings(args: argparse.Namespace, config: TableConfig):
    """The publisher's settings, or None when neither --mqtt nor [mqtt] asks for it."""
    url, table = args.mqtt or config.mqtt.url, args.table or config.mqtt.table
    if url is None and table is None:
        return None
    from firmware.fleet import FleetError, FleetSettings, check_table_name, parse_broker_url
    from firmware.fleet.settings import shown_url
    shown = shown_url(url or "")                    # a password in the URL is never echoed
    if url is None:
        raise UserError(f"--table {table}: name the broker too, --mqtt URL (or [mqtt] url in the config), "
                        "e.g. --mqtt mqtt://127.0.0.1:1883")
    if table is None:
        raise UserError(f"--mqtt {shown}: name this table too, --table NAME (or [mqtt] table in the config), e.g. --table t01")
    mqtt = config.mqtt
    try:
        broker = parse_broker_url(url, user=mqtt.user, password=mqtt.password, tls=mqtt.tls)
    except FleetError as error:
        raise UserError(f"--mqtt {shown}: {error}") from None
    try:
        return FleetSettings(broker, check_table_name(table))
    except FleetError as error:
        raise UserError(f"--table {table}: {error}") from None


class _Followers:
    """The web view (or None) and the publisher, both following the session once it is composed."""

    def __init__(self, serving, publisher) -> None:
        self.serving = serving
        self.publisher = publisher

    def simulator_process(self, sim) -> None:
        if self.serving is not None:
            self.serving.simulator_process(sim)

    def attach(self, session) -> None:
        if self.serving is not None:
            self.serving.attach(session)
        self.publisher.attach(session.public_feed())


def _reported(fleet, db_path: Path, say: _Say, run):
    """`run` with the table reporting to the broker too (`run` itself when no broker was asked for).
    The settled hands wait for the broker in an outbox beside the ledger."""
    if fleet is None:
        return run

    async def reporting(serving):
        from firmware.fleet.outbox import OutboxError
        from firmware.fleet.publisher import FleetPublisher
        publisher = FleetPublisher(fleet, db_path.with_name(f"mqtt-{fleet.table}.outbox.db"), db_path)
        try:
            await publisher.start()
        except OutboxError as error:
            raise UserError(str(error)) from None
        say(f"reporting to {fleet.broker.url()} as table {fleet.table} (mahjong/{fleet.table}/…; see docs/fleet.md)")
        try:
            return await run(_Followers(serving, publisher))
        finally:
            await publisher.stop()
    return reporting
