"""`mahjong-table run`: the table's main job.

Without a configuration file it runs the controller against the built-in simulator (and says
so), with simulated players; with `--config FILE` naming serial ports it drives the real boards.
One line is printed per hand (result, winner, payments).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from drivers.errors import DriverError
from firmware.config import ConfigError, TableConfig, load_config
from firmware.faults import SetRejected
from firmware.panel import Settings

from .cmd_rules import load_ruleset
from .errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="run the table (the built-in simulator unless --config names the boards' ports)",
        description="Run the controller. Without --config it plays against the built-in simulator with simulated "
                    "players; with --config it drives the boards named there.")
    parser.add_argument("--config", metavar="FILE", help="a TOML configuration naming the boards' serial ports (see deploy/config.toml)")
    parser.add_argument("--ruleset", metavar="ID", help="the ruleset (default: the front panel's saved choice, else changchun)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a house option; repeatable")
    parser.add_argument("--hands", type=int, metavar="N", help="stop after N hands (default: run until Ctrl-C)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the simulator's seed (default 1)")
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help="the simulator's speed: 1 real time, 0 as fast as possible (default 1)")
    parser.add_argument("--events", metavar="FILE", help="write the flight recorder (JSON Lines) to FILE")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="inject a simulator fault (see `mahjong-table sim --fault help`); repeatable")
    parser.add_argument("--db", metavar="FILE", help="the ledger and settings database (default: in the state directory)")
    parser.add_argument("--http", metavar="HOST:PORT",
                        help="serve the web view and API there, e.g. 127.0.0.1:8080 (default: [web] listen in the config)")
    parser.set_defaults(handler=run_table)


def run_table(args: argparse.Namespace) -> int:
    if args.hands is not None and args.hands < 1:
        raise UserError(f"--hands {args.hands}: give a number of hands of at least 1")
    if args.speed < 0:
        raise UserError(f"--speed {args.speed}: give 0 (as fast as possible) or more")
    try:
        config = load_config(args.config) if args.config else TableConfig(devices=None)
    except ConfigError as error:
        raise UserError(str(error)) from None
    db_path = Path(args.db) if args.db else config.state_dir / "table.db"
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create {db_path.parent} for the ledger ({error.strerror}); choose another with --db") from None
    settings = Settings(db_path)
    region_id, options = settings.ruleset_choice()
    region_id = args.ruleset or config.ruleset or region_id
    ruleset = load_ruleset(region_id, args.option, config.options if not args.ruleset else {})
    if args.ruleset or config.ruleset:
        settings.save_choice(ruleset.id, dict(ruleset.options))
    settings.close()
    web = _web_settings(args, config)
    events = _open_events(args.events) if args.events or config.events_dir is None else _open_events_dir(config.events_dir)
    args.events_path = events.name if events is not None and isinstance(getattr(events, "name", None), str) \
        and events is not sys.stdout else None
    try:
        if config.devices is None:
            print(f"no configuration: running {ruleset.region.name} ({ruleset.id}) against the built-in simulator "
                  f"(seed {args.seed}, speed {args.speed:g}) with simulated players", flush=True)
            return asyncio.run(_serving(web, db_path, lambda serving: _run_simulated(ruleset, args, events, str(db_path), serving)))
        print(f"running {ruleset.region.name} ({ruleset.id}) on the boards of {config.source}", flush=True)
        return asyncio.run(_serving(web, db_path, lambda serving: _run_real(ruleset, config, args, events, str(db_path), serving)))
    except SetRejected as error:
        print(f"mahjong-table: the set was rejected and never reached play: {error}", file=sys.stderr)
        return 1
    except DriverError as error:
        print(f"mahjong-table: the table stopped: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        if events is not None and events is not sys.stdout:
            events.close()


def _open_events(path: str | None):
    if path is None:
        return None
    if path == "-":
        return sys.stdout
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot write the flight recorder to {path} ({error.strerror})") from None


def _open_events_dir(directory: Path):
    """A new flight recorder file in the configured directory, readable by its owner only."""
    import os
    import time
    try:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.jsonl"
        return open(path, "x", encoding="utf-8", opener=lambda name, flags: os.open(name, flags, 0o600))
    except OSError as error:
        raise UserError(f"cannot write the flight recorder in {directory} ({error.strerror}); fix storage.events_dir") from None


def print_hand(event: dict) -> None:
    if event["event"] != "hand_end":
        return
    payments = " ".join(f"{p:+d}" for p in event["payments"])
    if event["result"] == "draw":
        line = f"hand {event['hand']}: 荒庄 (draw)"
    else:
        line = f"hand {event['hand']}: 胡 by seat {', '.join(map(str, event['winners']))}"
    print(f"{line}; payments {payments}; totals {' '.join(f'{t:+d}' for t in event['totals'])}; next dealer seat {event['next_dealer']}",
          flush=True)


async def _run_simulated(ruleset, args, events, db_path: str, serving=None) -> int:
    from firmware.simulated import run_simulated
    try:
        table = serving.simulated_table(ruleset, args) if serving is not None else None
        try:
            if table is not None:
                await table.start("pty")
            result = await run_simulated(ruleset, hands=args.hands, seed=args.seed, speed=args.speed, events=events,
                                         ledger_path=db_path, faults=tuple(args.fault), on_event=print_hand,
                                         settings_path=db_path, table=table, events_path=args.events_path,
                                         on_session=serving.attach if serving is not None else None)
        finally:
            if table is not None:
                await table.stop()
    except ValueError as error:
        raise UserError(str(error)) from None
    print(f"{result.hands} hand(s) played; totals {' '.join(f'{t:+d}' for t in result.totals)}")
    return 0


async def _run_real(ruleset, config: TableConfig, args, events, db_path: str, serving=None) -> int:
    from firmware.build.registry import TileRegistry
    from firmware.controller import TableController, monotonic_clock, open_devices
    from firmware.records.ledger import Ledger
    from firmware.records.recorder import FlightRecorder
    from firmware.session import TableSession

    devices_cfg = config.devices
    registry = TileRegistry(config.state_dir / "tiles.db")
    if not len(registry):
        raise UserError(f"no tiles are enrolled in {config.state_dir / 'tiles.db'}: run `mahjong-table enroll --config {config.source}` first")
    ledger = Ledger(db_path, events=args.events_path)
    try:
        async with open_devices(devices_cfg.motor, devices_cfg.rfid, devices_cfg.display, devices_cfg.baudrate) as devices:
            clock = monotonic_clock()                    # one table clock for the recorder and the controller
            recorder = FlightRecorder(events, clock=clock)
            recorder.listen(print_hand)
            settings = Settings(db_path)
            try:
                controller = TableController(devices, ruleset, registry, recorder, clock=clock, settings=settings)
                session = TableSession(controller, ledger, args.hands)
                if serving is not None:
                    serving.attach(session)
                await session.run()
            finally:
                settings.close()
        return 0
    finally:
        ledger.close()
        registry.close()


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


async def _serving(settings, db_path: Path, run):
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
    print(f"web view at {address} (API: {address}api/state; see docs/api.md)", flush=True)
    try:
        return await run(serving)
    finally:
        await serving.stop()
