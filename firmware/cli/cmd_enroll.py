"""`mahjong-table enroll`: register a tile set's RFID tags through a read zone, with progress."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sqlite3
import sys
from collections import Counter
from pathlib import Path
from typing import Callable

from drivers.errors import DriverError
from firmware.config import TableConfig
from firmware.build.enrollment import EnrollStep, enroll_set
from firmware.build.registry import Registered, RegistryError, TileRegistry
from rulesets.tilesets import NAMED_SETS

from .enroll_kinds import kind_tags, kinds_asked, kinds_enrolled, refuse_kinds_of
from .errors import UserError
from .files import ensure_dir, folder_of_named_file, open_database, refuse_empty, table_config
from .table_lock import table_held

SIMULATED_SEED = 0          # the simulated table enrolled on: its tags are drawn from it
MEMORY = ":memory:"         # a simulated enrolment's registry without --registry: kept nowhere
PROMPT_CLEARED_S = 2.0      # how long a stopping enrolment waits for its seat line to be cleared


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "enroll", help="register a tile set's RFID tags through a seat's read zone",
        description="Register a set's tags kind by kind: lay the asked tiles in the read zone and press 确认 on the "
                    "front panel.  The configuration is found as for `run` (--config, $MAHJONG_TABLE_CONFIG, "
                    "/etc/mahjong-table/config.toml); the tags go to tiles.db in its state directory, which is "
                    "created if missing.  Without a configuration (or with --simulate) it runs against the built-in "
                    "simulator, which is pre-enrolled for `run`: this shows the procedure on the set lying on its "
                    "table top.  A simulator started with `sim --registry FILE` is enrolled at once with --import FILE.  "
                    "A tile lost or damaged and replaced (a new tag): --kinds enrols only its kind anew, in an "
                    "enrolled set (on the simulator without --registry, its own pre-enrolled set).",
        epilog="examples:\n"
               "  mahjong-table enroll --tiles 84\n"
               "  mahjong-table enroll --simulate --tiles 108 --seat 2\n"
               "  mahjong-table enroll --config sim.toml --import tags.json\n"
               "  mahjong-table enroll --simulate --kinds 1p,5z",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", metavar="FILE", help="the table's configuration (ports and state directory)")
    parser.add_argument("--simulate", action="store_true", help="enrol on the built-in simulator even if a configuration is found")
    parser.add_argument("--set", type=int, default=None, choices=(0, 1), dest="set_index",
                        help="which of the two sets (back colours): 0 or 1 (default 0; an --import says each tag's own)")
    parser.add_argument("--tiles", default="136", choices=sorted(NAMED_SETS), help="the tile set to enrol (default 136)")
    parser.add_argument("--seat", type=int, default=0, choices=(0, 1, 2, 3), help="the read zone to use (default 0)")
    parser.add_argument("--replace", action="store_true", help="forget this set's tags first")
    parser.add_argument("--kinds", metavar="TILES",
                        help="enrol only these kinds of an enrolled set anew (a tile replaced; e.g. 1p,5z): lay "
                             "each kind's copies, old and new; its old tags go as the new ones are saved, the "
                             "set's other tags stay (not with --replace or --import)")
    parser.add_argument("--registry", metavar="FILE", help="the registry database (default: tiles.db in the state directory)")
    parser.add_argument("--import", dest="import_file", metavar="JSON",
                        help="instead of reading tags, import a registry exported by `mahjong-table sim --registry FILE`")
    parser.set_defaults(handler=enroll)


SIMULATED_TRIES = 3     # the simulated technician lays the same tiles at every ask: refused so often, for ever


def _simulated_progress(tries: int) -> Callable[[EnrollStep], None]:
    """`_progress`, stopping the enrolment in one line once one kind was refused `tries` times: the
    simulated technician lays the same tiles at each ask, and nobody at the terminal can lay others
    (it asked again for ever, 20,000 lines a minute)."""
    refused: Counter[int] = Counter()

    def step(done: EnrollStep) -> None:
        _progress(done)
        if done.problem:
            refused[done.kind_index] += 1
            if refused[done.kind_index] >= tries:
                why = done.problem.removesuffix(", then press 确认 again")      # (nobody will: it stops)
                raise UserError(f"enrolment stopped, nothing was saved: the simulated table's {done.name} were "
                                f"refused {tries} times ({why})")
    return step


def _progress(step: EnrollStep) -> None:
    if step.name:
        note = f" — {step.problem}" if step.problem else ""
        print(f"[{step.kind_index + 1}/{step.kinds}] lay {step.copies} × {step.name} and press 确认{note}", flush=True)
    else:
        print(f"[{step.kinds}/{step.kinds}] every kind read", flush=True)


def enroll(args: argparse.Namespace) -> int:
    refuse_empty(args, {"config": "/etc/mahjong-table/config.toml", "registry": "tiles.db", "import_file": "tiles.json",
                        "kinds": "1p"},
                 flags={"import_file": "--import"})
    config = table_config(args.config, args.simulate)
    if config.devices is None:
        return _enroll_with(config, args)
    with table_held(config.state_dir, "enroll"):       # not beside a running controller (its boards, its registry)
        return _enroll_with(config, args)


def _enroll_with(config: TableConfig, args: argparse.Namespace) -> int:
    tile_set = NAMED_SETS[args.tiles]
    simulated = config.devices is None
    if args.import_file and args.set_index is not None:
        raise UserError("--set does not go with --import: the export says each tag's set; leave --set out")
    kinds = kinds_asked(args, tile_set)
    args.set_index = 0 if args.set_index is None else args.set_index
    path = _registry_path(config, args)
    if simulated and args.set_index != 1 and not args.import_file:
        print(f"{'simulating' if args.simulate else 'no configuration'}: enrolling against the built-in simulator, "
              "whose loose set on the table top is set 1")
        args.set_index = 1
    exported = read_export(Path(args.import_file)) if args.import_file else None     # before the registry is made
    registry = open_database(TileRegistry, path, "tile registry", "--registry")
    try:
        if exported is not None:
            count = import_registry(registry, exported, args.replace)
            print(f"imported {count} tags from {args.import_file} into {path}")
            short = sets_not_whole(registry.sets())
            if short:
                print(f"mahjong-table: warning: {short}", file=sys.stderr)
            return 0
        if kinds and path == MEMORY:            # shown on the simulator's own set: enrolled as for `run`
            _pre_enrol_the_simulator(registry, tile_set)
        if kinds:
            refuse_kinds_of(registry, path, args.set_index, tile_set, args.tiles)
        elif not args.replace:
            _refuse_an_enrolled_set(registry, path, args.set_index)
        before = kind_tags(registry, args.set_index, kinds)
        count = asyncio.run(_enroll(config, registry, tile_set, args, kinds))      # (with --replace or --kinds,
        #                                                          the old tags go as the new ones are saved)
        done = kinds_enrolled(registry, args.set_index, kinds, before, path) if kinds else None
    except RegistryError as error:
        raise UserError(str(error)) from None
    except DriverError as error:
        raise UserError(str(error)) from None
    except sqlite3.Error as error:
        raise UserError(f"{path}: cannot use it as the tile registry ({error}); move it away or choose "
                        "another with --registry") from None
    finally:
        registry.close()
    if done is not None:
        print(done)
        return 0
    print(f"enrolled {count} tags as set {args.set_index} ({tile_set.name}) in {path}")
    return 0


async def _prompt_cleared(controller, seat: int) -> None:
    """The seat's line cleared on its display before the links close, however the enrolment ended: a
    stopped one left its prompt there, under the next run too (a probe).  Bounded: a board that is
    gone does not hold the stop up."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(controller.seat_lines.shown(seat), PROMPT_CLEARED_S)


def _pre_enrol_the_simulator(registry: TileRegistry, tile_set) -> None:
    """The tags of the simulated table `_enroll` makes (the same seed makes the same tags)."""
    from firmware.simulated import enroll_simulated
    from simulator.table import SimulatedTable
    enroll_simulated(SimulatedTable(seed=SIMULATED_SEED, speed=0, tile_sets=(tile_set, tile_set)), registry)


def _refuse_an_enrolled_set(registry: TileRegistry, path: Path | str, set_index: int) -> None:
    """Before any board is opened or any tile asked for: a set enrolled already would read "0 new" at
    every kind (its tags are known), and the new tags could not be saved beside the old ones."""
    held = registry.sets().get(set_index, 0)
    if held:
        raise UserError(f"set {set_index} is enrolled already in {path} ({held} tags): run with --replace "
                        "to enrol it anew")


def sets_not_whole(held: dict[int, int]) -> str | None:
    """What to say of the registry's sets when one is no whole set of any kind, or the two differ (an
    export missing a tile was imported without a word, and that set was rejected at every build)."""
    sizes = {tile_set.size for tile_set in NAMED_SETS.values()}
    counts = ", ".join(f"set {s}: {n} tags" for s, n in sorted(held.items()))
    odd = [s for s, n in sorted(held.items()) if n not in sizes]
    if odd or len(set(held.values())) > 1:
        which = f"set {odd[0]}" if len(odd) == 1 else "a set"
        return (f"{counts}: {which} is not whole (a set holds {', '.join(map(str, sorted(sizes)))} tiles, and "
                "a table's two sets the same), and a set short of a tile is rejected at every build; import "
                "or enrol it whole (--replace)")
    return None


def _registry_path(config: TableConfig, args: argparse.Namespace) -> Path | str:
    """--registry, else the table's tiles.db (its folder created, or one line saying how); a
    simulated enrolment without --registry is kept in memory (the simulator is pre-enrolled)."""
    if args.registry:
        path = Path(args.registry)
        folder_of_named_file(path, "tile registry", "--registry")     # (never created: a typo would start a new registry)
        return path
    if config.devices is None:
        if args.import_file:
            raise UserError("--import needs the table's registry: give --config FILE (or --registry FILE)")
        return MEMORY
    return ensure_dir(config.state_dir, "tile registry", "--registry") / "tiles.db"


def read_export(source: Path) -> list[Registered]:
    """The simulator's JSON export ({uid hex: {"tile", "set", "copy"}}), every entry checked."""
    import json
    from firmware.build.registry import export_entries
    try:
        return export_entries(json.loads(source.read_text(encoding="utf-8")))
    except OSError as error:
        raise UserError(f"cannot read {source} ({error.strerror})") from None
    except (ValueError, RecursionError) as error:
        raise UserError(f"{source} is not a registry export ({error}); make one with `mahjong-table sim --registry FILE`") from None


def import_registry(registry: TileRegistry, entries: list[Registered], replace: bool) -> int:
    """Pre-enrol the export's tags (with `replace`, its sets' earlier tags forgotten in the same
    transaction: a refused import keeps them)."""
    return registry.enroll(entries, replacing={e.tile_set for e in entries} if replace else ())


async def _enroll(config: TableConfig, registry: TileRegistry, tile_set, args, kinds=()) -> int:
    from drivers.serial_transport import DEFAULT_BAUDRATE
    from firmware.controller import TableController
    from firmware.devices import open_devices
    from firmware.records.recorder import FlightRecorder
    from rulesets.regions import get_region

    table = technician = None
    if config.devices is None:
        from simulator.table import SimulatedTable
        from simulator.technician import SimulatedTechnician
        table = SimulatedTable(seed=SIMULATED_SEED, speed=0, tile_sets=(tile_set, tile_set))
        endpoints = await table.start("pty")
        urls = (endpoints.motor, endpoints.rfid, endpoints.display)
        technician = asyncio.create_task(SimulatedTechnician(table, args.set_index).run())
    else:
        urls = (config.devices.motor, config.devices.rfid, config.devices.display)
    baudrate = config.devices.baudrate if config.devices is not None else DEFAULT_BAUDRATE
    try:
        async with open_devices(*urls, baudrate) as devices:
            controller = TableController(devices, get_region("changchun").resolve(), registry,
                                         FlightRecorder(None, clock=lambda: 0.0))
            await controller.start()
            try:
                return await enroll_set(controller.enroll_ports(), registry, tile_set, args.set_index,
                                        seat=args.seat, replacing=args.replace, kinds=kinds,
                                        on_step=_progress if technician is None else _simulated_progress(SIMULATED_TRIES))
            finally:
                await _prompt_cleared(controller, args.seat)
                await controller.stop()
    finally:
        if technician is not None:
            technician.cancel()
            await asyncio.gather(technician, return_exceptions=True)
        if table is not None:
            await table.stop()
