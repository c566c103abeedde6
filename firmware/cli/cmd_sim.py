"""`mahjong-table sim`: run the simulated table alone, so a controller or a board engineer's tool
can connect to its motor board, RFID board and display."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Callable

from firmware.cli.errors import UserError
from firmware.cli.paths import real_path
from firmware.cli.sim_args import check_speed, simulator_faults
from firmware.cli.whole_file import write_whole


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sim", help="run the simulated table (motor board, RFID board, display) until Ctrl-C",
        description="Serve the simulated table's three devices on ptys or TCP sockets and run "
                    "until interrupted.  Connect the controller to the printed paths (a configuration "
                    "naming them, see README.md).  With --console the terminal shows the table — the "
                    "display, the seat displays, latched faults — and typed commands press its keys, "
                    "lay tiles in its read zones and push tiles in (type help); it stops at `quit` or "
                    "the end of input.",
        epilog="examples:\n"
               "  mahjong-table sim\n"
               "  mahjong-table sim --listen socket://127.0.0.1:0 --json\n"
               "  mahjong-table sim --speed 10 --registry tags.json --write-config sim.toml --console\n"
               "  mahjong-table sim --speed 0 --fault corrupt=0.05 --fault jam=2:6\n"
               "  mahjong-table sim --fault help",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", default="pty", metavar="pty|socket://HOST:PORT",
                        help="where to serve: 'pty' (default) or socket://HOST:PORT, which uses "
                             "PORT, PORT+1 and PORT+2 for motor, RFID and display (0 = free ports)")
    parser.add_argument("--seed", type=int, default=0, help="seed of tags, shuffles, dice (default 0)")
    parser.add_argument("--speed", type=float, default=1.0,
                        help="mechanism speed: 1 = real time, 10 = ten times faster, 0 = as fast "
                             "as possible (default 1)")
    parser.add_argument("--sets", default="136", metavar="N",
                        help="tiles per set, both sets: 136, 144, 108, 112 (灌南), 112red (108 + 4 红中) or 84 (default 136)")
    parser.add_argument("--fault", action="append", default=[], metavar="FAULT",
                        help="inject a fault (repeatable, each fault once), e.g. corrupt=0.05 or jam=2:6; "
                             "`--fault help` lists them")
    parser.add_argument("--registry", metavar="FILE",
                        help="write the tag registry (UID -> tile, set, copy) as JSON, to pre-enrol "
                             "the controller")
    parser.add_argument("--json", action="store_true",
                        help="print where the devices are as one JSON line")
    parser.add_argument("--write-config", metavar="FILE",
                        help="write a configuration naming the served ports (and a state folder beside FILE) "
                             "for `enroll --config FILE` and `run --config FILE`")
    parser.add_argument("--console", action="store_true",
                        help="show the table in this terminal and take a person's actions from its input")
    parser.set_defaults(handler=run_sim)


def _tile_sets(text: str):
    from rulesets.tilesets import NAMED_SETS

    if text not in NAMED_SETS:
        raise UserError(f"--sets {text}: choose one of {', '.join(NAMED_SETS)}")
    return (NAMED_SETS[text], NAMED_SETS[text])


def _build_table(args: argparse.Namespace):
    """The table, once every argument is checked: a mistake is one line before anything is served."""
    from simulator import SimulatedTable

    check_speed(args.speed)
    _check_listen(args.listen)
    faults = simulator_faults(args.fault)
    _check_outputs(args.registry, args.write_config)
    return SimulatedTable(seed=args.seed, speed=args.speed, tile_sets=_tile_sets(args.sets),
                          faults=faults)


def _check_listen(listen: str) -> None:
    """'pty' or socket://HOST:PORT with room for PORT+2 (the table would refuse it only once serving)."""
    from simulator.endpoints import socket_address

    if listen == "pty":
        return
    if not listen.startswith("socket://"):
        raise UserError(f"--listen {listen}: use 'pty' or socket://HOST:PORT")
    try:
        socket_address(listen, 3)                   # the motor board, the RFID board, the display
    except ValueError as error:
        raise UserError(f"--listen {listen}: {error}") from None


def run_sim(args: argparse.Namespace) -> int:
    if "help" in args.fault:
        from .cmd_run import fault_help
        print(fault_help())
        return 0
    table = _build_table(args)
    return asyncio.run(_serve(table, args))


async def _serve(table, args: argparse.Namespace) -> int:
    from simulator import SimulatorError

    try:
        where = await table.start(args.listen)
    except OSError as error:
        raise UserError(f"cannot serve on {args.listen}: {error.strerror or error}; "
                        "pick another port or use --listen pty") from None
    except SimulatorError as error:             # (the address is checked first: this is a last resort)
        raise UserError(str(error)) from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        if args.registry:
            _write_registry(table, Path(args.registry))
        if args.write_config:
            _write_config(where, Path(args.write_config))
        if args.json:
            print(json.dumps(where.as_dict()), flush=True)
        else:
            sets = " + ".join(str(s.size) for s in table.tile_sets)
            print(f"simulated table: seed {args.seed}, speed {args.speed:g}, tile sets {sets}"
                  + (f", faults: {', '.join(args.fault)}" if args.fault else ""))
            print(f"  motor board  {where.motor}")
            print(f"  RFID board   {where.rfid}")
            print(f"  display      {where.display}")
            if args.registry:
                print(f"  registry     {args.registry}")
            if args.write_config:
                print(f"  config       {args.write_config}")
            print("Ctrl-C stops." if not args.console else "Ctrl-C or quit stops.", flush=True)
        if args.console:
            await _console(table, stop)
        else:
            await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await table.stop()
    return 0


async def _console(table, stop: asyncio.Event) -> None:
    """A person at the table in this terminal, until `quit`, the end of input or a signal."""
    import sys

    from simulator.console import TableConsole, stdin_lines

    async with stdin_lines(sys.stdin) as lines:
        console = asyncio.create_task(TableConsole(table, sys.stdout).run(lines), name="console")
        stopped = asyncio.create_task(stop.wait(), name="console-stop")
        await asyncio.wait((console, stopped), return_when=asyncio.FIRST_COMPLETED)
        for task in (console, stopped):
            task.cancel()
        await asyncio.gather(console, stopped, return_exceptions=True)


CONFIG_MARK = "# written by `mahjong-table sim --write-config`"
OWN_EXPORT_LIMIT = 1 << 20          # a registry export is some 20 KB: anything far larger is not one


def _check_outputs(registry: str | None, write_config: str | None) -> None:
    """--registry and --write-config overwrite only a file `sim` wrote there before (a config, a ledger
    or a tag list of one's own is never lost), checked before anything is served."""
    if registry is not None:
        _check_output("--registry", registry, _is_registry_export, "tags.json")
    if write_config is not None:
        _check_output("--write-config", write_config, _is_written_config, "sim.toml")
    if registry and write_config and Path(registry).resolve() == Path(write_config).resolve():
        raise UserError(f"--registry {registry} and --write-config {write_config} are the same file; "
                        "name two files, e.g. --registry tags.json --write-config sim.toml")


def _check_output(flag: str, text: str, ours: Callable[[Path], bool], example: str) -> None:
    if not text.strip():                            # (Path("") would be the current folder)
        raise UserError(f"{flag} is empty; name a file, e.g. {flag} {example}")
    path = Path(text)
    real_path(path, f"{flag} {text}")              # (a loop: compared and written below, it was a traceback)
    if path.is_dir():
        raise UserError(f"{flag} {path}: is a folder; name a file, e.g. {flag} {path / example}")
    if path.is_file() and not ours(path):           # (a device such as /dev/stdout is written as before)
        raise UserError(f"{flag} {path}: the file exists and was not written by `sim`; name a new file")
    folder = path.parent                            # checked before either file is written
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{flag} {path}: {folder} is not a folder you can write in; name a file in one")


def _is_written_config(path: Path) -> bool:
    try:
        with path.open("rb") as file:
            return file.read(len(CONFIG_MARK.encode())) == CONFIG_MARK.encode()
    except OSError:
        return False


def _is_registry_export(path: Path) -> bool:
    """Whether the file is what `_write_registry` writes: a registry export as `enroll --import`
    reads it (firmware.build.registry.export_entries), with at least one tag."""
    from firmware.build.registry import export_entries
    try:
        if path.stat().st_size > OWN_EXPORT_LIMIT:
            return False
        return bool(export_entries(json.loads(path.read_bytes())))
    except (OSError, ValueError, RecursionError):
        return False


def _write_config(where, path: Path) -> None:
    """A configuration for this simulated table: its ports, and a state folder of its own beside
    the file (the simulated table is enrolled and played like a real one, apart from it)."""
    state = path.resolve().parent / f"{path.stem}-state"
    text = (f"{CONFIG_MARK}: the simulated table's ports change at every start.\n"
            f"[devices]\nmotor = {json.dumps(where.motor)}\nrfid = {json.dumps(where.rfid)}\n"
            f"display = {json.dumps(where.display)}\n\n"
            f"[storage]\nstate_dir = {json.dumps(str(state))}\nevents_dir = {json.dumps(str(state / 'events'))}\n")
    try:
        write_whole(path, text)             # (whole or not at all: an earlier one is kept if this fails)
    except OSError as error:
        raise UserError(f"cannot write --write-config {path}: {error.strerror}") from None


def _write_registry(table, path: Path) -> None:
    entries = {uid.hex(): {"tile": str(ident.kind), "set": ident.set_index, "copy": ident.copy}
               for uid, ident in table.registry().items()}
    try:
        write_whole(path, json.dumps(entries, indent=1, sort_keys=True) + "\n")
    except OSError as error:
        raise UserError(f"cannot write --registry {path}: {error.strerror}") from None

