"""`python -m simulator serve …`: the simulated table in its own process, as real boards are.

    $ python -m simulator serve --seed 7 --speed 0 --ruleset changchun
    {"motor": "/dev/pts/5", "rfid": "/dev/pts/6", "display": "/dev/pts/7",
     "control": "unix:/tmp/mahjong-sim-k2j4/control.sock", "pid": 4242}

It starts a `SimulatedTable` (seed, speed, tile sets, faults), serves its three devices on ptys
or sockets, serves the control channel (docs/protocol.md §10), lets the simulated players play
at it in its own event loop when a ruleset is named (nothing they do can stall a controller in
another process), prints where everything is as one JSON line on stdout, and runs until:
SIGTERM or SIGINT, a `stop` request, or the end of its standard input when that is a pipe or a
terminal — its parent died or closed the pipe (`--keep-running` turns that watch off; a standard
input of /dev/null or a file is not watched).  It always stops cleanly and exits 0; a mistake in its arguments is one line on
stderr and exit 2; the players failing is a line on stderr, and the `players` request says why.

`simulator.spawn.SimulatorProcess` starts it from another program.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, NoReturn, Sequence

from rulesets.definition import OptionError, Ruleset
from rulesets.regions import UnknownRegion, get_region
from rulesets.tilesets import NAMED_SETS

from .control import ControlError
from .control_server import ControlServer, TableControl
from .faults import FAULT_HELP, parse_faults
from .table import SimulatedTable
from .world import SimulatorError


class UsageError(Exception):
    """A mistake in the simulator's arguments (one line; exit 2)."""


@dataclass(frozen=True)
class ServeOptions:
    listen: str = "pty"                 # 'pty', 'pty:DIR' (behind links in DIR), socket://HOST:PORT
    seed: int = 0
    speed: float = 1.0
    sets: str | None = None             # a name of NAMED_SETS; default the ruleset's, else 136
    faults: tuple[str, ...] = ()
    ruleset: str | None = None          # the players' region; None: no players
    options: tuple[str, ...] = ()       # KEY=VALUE house options of that ruleset
    players_seed: int | None = None     # default: the table's seed
    control: str = "unix"               # 'unix' (a private socket), unix:/path, tcp://HOST:PORT
    keep_running: bool = False          # do not stop at the end of stdin


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"simulator serve: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m simulator serve", description=__doc__.splitlines()[0])
    parser.add_argument("--listen", default="pty", metavar="pty|pty:DIR|socket://HOST:PORT",
                        help="pty:DIR serves ptys behind stable links in DIR (they survive an unplug)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--speed", type=float, default=1.0,
                        help="mechanism speed: 1 = real time, 0 = as fast as possible")
    parser.add_argument("--sets", metavar="N", help=f"tile sets: {', '.join(NAMED_SETS)}")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="inject a fault (repeatable); --fault help lists them")
    parser.add_argument("--ruleset", metavar="ID", help="simulated players play this region")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a house option of that ruleset (repeatable)")
    parser.add_argument("--players-seed", type=int, metavar="N")
    parser.add_argument("--control", default="unix", metavar="unix|unix:PATH|tcp://HOST:PORT")
    parser.add_argument("--keep-running", action="store_true",
                        help="keep serving when standard input ends")
    return parser


def read_options(argv: Sequence[str]) -> ServeOptions:
    """ServeOptions from `serve`'s arguments; UsageError (one line) for any mistake."""
    args = build_parser().parse_args(list(argv))
    if args.speed < 0:
        raise UsageError(f"--speed {args.speed:g}: must be >= 0 (0 = as fast as possible)")
    if not (args.listen == "pty" or args.listen.startswith(("pty:", "socket://"))):
        raise UsageError(f"--listen {args.listen}: use 'pty', 'pty:DIR' or socket://HOST:PORT")
    if args.sets is not None and args.sets not in NAMED_SETS:
        raise UsageError(f"--sets {args.sets}: choose one of {', '.join(NAMED_SETS)}")
    if args.option and args.ruleset is None:
        raise UsageError("--option needs --ruleset: house options belong to the players' ruleset")
    if not (args.control == "unix" or args.control.startswith(("unix:", "tcp://"))):
        raise UsageError(f"--control {args.control}: use unix, unix:PATH or tcp://HOST:PORT")
    return ServeOptions(args.listen, args.seed, args.speed, args.sets, tuple(args.fault), args.ruleset,
                        tuple(args.option), args.players_seed, args.control, args.keep_running)


def _ruleset(options: ServeOptions) -> Ruleset | None:
    if options.ruleset is None:
        return None
    chosen: dict[str, str] = {}
    for text in options.options:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise UsageError(f"--option {text!r}: write KEY=VALUE, e.g. reserve_reading=R-A")
        chosen[key.strip()] = value.strip()
    try:
        return get_region(options.ruleset).resolve(chosen)
    except (UnknownRegion, OptionError) as error:
        raise UsageError(f"--ruleset {options.ruleset}: {error}") from None


def make_table(options: ServeOptions, ruleset: Ruleset | None) -> SimulatedTable:
    try:
        faults = parse_faults(options.faults)
    except ValueError as error:
        raise UsageError(f"--fault {error}") from None
    if options.sets is not None:
        tile_sets = (NAMED_SETS[options.sets],) * 2
    else:
        tile_sets = (ruleset.tiles,) * 2 if ruleset is not None else (NAMED_SETS["136"],) * 2
    return SimulatedTable(seed=options.seed, speed=options.speed, tile_sets=tile_sets, faults=faults)  # type: ignore[arg-type]


async def serve(options: ServeOptions, announce: Callable[[dict[str, Any]], None]) -> int:
    """Run the simulator until asked to stop; `announce` gets the endpoints once serving."""
    ruleset = _ruleset(options)
    table = make_table(options, ruleset)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    private_dir = tempfile.mkdtemp(prefix="mahjong-sim-") if options.control == "unix" else None
    control_address = f"unix:{private_dir}/control.sock" if private_dir else options.control
    players = players_task = None
    server: ControlServer | None = None
    watching: list[int] = []
    try:
        try:
            where = await table.start(options.listen)
        except OSError as error:
            raise UsageError(f"cannot serve on {options.listen}: {error.strerror or error}; pick "
                             "another port or use --listen pty") from None
        if ruleset is not None:
            from .players import SimulatedPlayers
            seed = options.seed if options.players_seed is None else options.players_seed
            players = SimulatedPlayers(table, ruleset, seed=seed)
            players_task = loop.create_task(players.run(), name="simulated-players")
            players_task.add_done_callback(_report_players)
        info = {"seed": options.seed, "speed": options.speed,
                "tile_sets": [s.size for s in table.tile_sets], "ruleset": ruleset.id if ruleset else None,
                "faults": list(options.faults)}
        control = TableControl(table, info=info, request_stop=stop.set, players=players,
                               players_task=players_task)
        server = ControlServer(control)
        try:
            address = await server.start(control_address)
        except (OSError, ControlError) as error:
            raise UsageError(f"--control {options.control}: cannot listen: {error}") from None
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        if not options.keep_running:
            watching = _watch_stdin(loop, stop.set)
        announce({**where.as_dict(), "control": address, "pid": os.getpid()})
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        for fd in watching:
            loop.remove_reader(fd)
        if server is not None:
            await server.close()
        if players_task is not None:
            players_task.cancel()
            await asyncio.gather(players_task, return_exceptions=True)
        await table.stop()
        if private_dir is not None:
            shutil.rmtree(private_dir, ignore_errors=True)
    return 0


def _watch_stdin(loop: asyncio.AbstractEventLoop, on_end: Callable[[], None]) -> list[int]:
    """Call `on_end` when standard input ends (the parent holding its pipe died or closed it).
    The descriptor stays blocking (it may be a terminal shared with a shell): it is read only
    when the loop says it is readable."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):
        return []                       # no standard input at all: nothing to watch

    def readable() -> None:
        try:
            data = os.read(fd, 4096)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            on_end()
    try:
        loop.add_reader(fd, readable)
    except PermissionError:
        return []                       # a file or /dev/null: no parent's pipe to watch
    return [fd]


def _report_players(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        print(f"simulator: the simulated players stopped: {task.exception()!r}", file=sys.stderr, flush=True)


def _print_line(data: dict[str, Any]) -> None:
    print(json.dumps(data), flush=True)


def main(argv: Sequence[str]) -> int:
    """`serve` and its arguments; the exit status."""
    if not argv or argv[0] != "serve":
        print("usage: python -m simulator serve [--listen …] [--seed N] [--speed X] [--sets N] "
              "[--fault F]… [--ruleset ID [--option K=V]…] [--control …] [--keep-running]",
              file=sys.stderr)
        return 2
    try:
        options = read_options(argv[1:])
        if "help" in options.faults:
            print(FAULT_HELP)
            return 0
        return asyncio.run(serve(options, _print_line))
    except (UsageError, SimulatorError) as error:
        print(str(error), file=sys.stderr)
        return 2
