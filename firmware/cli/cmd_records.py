"""`mahjong-table records [list|move]`: the flight recorders on the card, and moving old ones off it.

The table never deletes a recorder; when the card runs low it says so (docs/operations.md, "Room on
the card"), and the owner moves the old ones elsewhere with `records move --before DAY --to DIR`.
Files the table still needs stay (firmware/records/recorder_files.py)."""

from __future__ import annotations

import argparse
import json
import os
from datetime import datetime
from pathlib import Path

from firmware.records.history import HistoryError, day_bounds, parse_day
from firmware.records.recorder_files import LedgerUnreadable, RecorderFile, held_open, move_off, needed_files, survey

from .errors import UserError
from .files import refuse_empty, table_config


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "records", help="the flight recorders on the card: list them, move old ones off it",
        description="The flight recorders in the table's events folder (storage.events_dir): what each holds and "
                    "whether the table still needs it (`list`, the default), and moving the ones last written before "
                    "a day to another folder — a USB stick, a share — (`move`): each is copied, read back, compared, "
                    "and only then removed from the card.  The table never deletes a recorder itself.  On the "
                    "table: `mahjong-table records move --before 2026-06-01 --to /media/usb/recorders`.",
        epilog="examples:\n"
               "  mahjong-table records --folder .\n"
               "  mahjong-table records --folder . --json\n"
               "  mahjong-table records move --folder . --before 2026-06-01 --to /tmp --dry-run",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", nargs="?", choices=("list", "move"), default="list")
    parser.add_argument("--config", metavar="FILE", help="the table's configuration (default: as `run` finds it)")
    parser.add_argument("--folder", metavar="DIR", help="the recorders' folder (default: the configuration's "
                                                        "storage.events_dir)")
    parser.add_argument("--db", metavar="FILE", help="the table's ledger, whose journal says which files it still "
                                                     "needs (default: table.db in the configuration's state folder)")
    parser.add_argument("--before", metavar="YYYY-MM-DD", help="move: the files last written before this day")
    parser.add_argument("--to", metavar="DIR", help="move: the folder they go to (it must exist)")
    parser.add_argument("--dry-run", action="store_true", help="move: say what would move, move nothing")
    parser.add_argument("--json", action="store_true", help="list: one JSON object")
    parser.set_defaults(handler=records)


def records(args: argparse.Namespace) -> int:
    refuse_empty(args, {"config": "/etc/mahjong-table/config.toml", "folder": "/var/lib/mahjong-table/events",
                        "db": "/var/lib/mahjong-table/table.db", "before": "2026-06-01", "to": "/media/usb/recorders"})
    _check_flags_of(args)
    folder, ledger = _places(args)
    if args.action == "move" and not ledger.is_file():
        unknown = (f"no ledger at {ledger}: its journal says which recorders the table still needs; name it "
                   "with --db FILE (table.db in the table's state folder)")
        if not args.dry_run:
            raise UserError(f"{unknown}, or move the files by hand")
        print(f"{unknown}: without it a move is refused")
    try:
        files = survey(folder, {**needed_files(ledger), **held_open(folder)})
    except LedgerUnreadable as error:
        named = "name another ledger" if getattr(args, "db", None) else "name the ledger with --db"
        raise UserError(f"{error}; {named}, or move the files by hand") from None
    if args.action == "move":
        return _move(args, folder, files)
    known = ledger.is_file()            # without the ledger, which files the table needs is not known
    if args.json:
        print(json.dumps({"folder": str(folder), "ledger": str(ledger) if known else None,
                          "files": [_as_json(f) for f in files]}, ensure_ascii=False))
    else:
        _print_list(folder, files, None if known else ledger)
    _refuse_unread(folder, files)
    return 0


def _refuse_unread(folder: Path, files: list[RecorderFile]) -> None:
    """A file that could not be read is listed with its reason, and the exit status says so, as the
    audit's does for a file it cannot read (2)."""
    unread = [f for f in files if f.unreadable]
    if unread:
        raise UserError(f"{len(unread)} file(s) in {folder} could not be read as recorders (listed with the reason, "
                        f"first {unread[0].path.name}): make them readable, or move them out of the folder")


def _check_flags_of(args: argparse.Namespace) -> None:
    """A flag of the other action would be left out without a word: refused."""
    if args.action == "move" and args.json:
        raise UserError("--json is for records list; records move says a line per file")
    stray = [flag for flag, given in (("--before", args.before), ("--to", args.to), ("--dry-run", args.dry_run))
             if given is not None and given is not False]
    if args.action != "move" and stray:
        raise UserError(f"{stray[0]} is for records move (records move --before YYYY-MM-DD --to DIR [--dry-run])")


def _places(args: argparse.Namespace) -> tuple[Path, Path]:
    config = table_config(args.config)
    folder = Path(args.folder).expanduser() if args.folder else config.events_dir
    if folder is None:
        raise UserError("no recorders' folder: the configuration names none (storage.events_dir); pass --folder DIR")
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder: pass the recorders' folder with --folder DIR")
    ledger = Path(args.db).expanduser() if args.db else config.state_dir / "table.db"
    return folder, ledger


def _move(args: argparse.Namespace, folder: Path, files: list[RecorderFile]) -> int:
    if not args.before or not args.to:
        raise UserError("records move needs --before YYYY-MM-DD and --to DIR (e.g. --before 2026-06-01 "
                        "--to /media/usb/recorders)")
    try:
        before, _ = day_bounds(parse_day(args.before))
    except HistoryError as error:
        raise UserError(f"--before: {error}") from None
    to = Path(args.to).expanduser()
    if not to.is_dir() or not os.access(to, os.W_OK | os.X_OK):
        raise UserError(f"--to {to}: not a folder you can write in; create it (or mount the stick) first")
    if to.resolve() == folder.resolve():
        raise UserError(f"--to {to} is the recorders' folder itself: name another place")
    chosen = [f for f in files if f.modified < before]
    moved = failed = 0
    for recorder in chosen:
        if recorder.needed:
            print(f"kept {recorder.path.name}: {recorder.needed}")
            continue
        if recorder.unreadable:         # not the table's recorder to move: its owner looks at it first
            failed += 1
            print(f"not moved {recorder.path.name}: {recorder.unreadable}; it stays on the card")
            continue
        if args.dry_run:
            print(f"would move {recorder.path.name} ({_size(recorder.size)})")
            moved += recorder.size
            continue
        try:
            move_off(recorder, to)
        except OSError as error:
            failed += 1
            print(f"not moved {recorder.path.name}: {error.strerror or error}; it stays on the card")
            continue
        moved += recorder.size
        print(f"moved {recorder.path.name} ({_size(recorder.size)}) to {to}")
    verb = "would free" if args.dry_run else "freed"
    print(f"{verb} {_size(moved)} on the card; {len(files) - len(chosen)} file(s) last written on or after "
          f"{args.before} stay" + (f"; {failed} could not be moved" if failed else ""))
    return 1 if failed else 0


def _print_list(folder: Path, files: list[RecorderFile], missing_ledger: Path | None) -> None:
    for f in files:
        hands = "not read" if f.unreadable else f"hands {f.hands[0]}–{f.hands[1]}" if f.hands else "no hand"
        why = f"  ({f.unreadable})" if f.unreadable else f"  (kept: {f.needed})" if f.needed else ""
        print(f"{f.path.name}  {_size(f.size):>9}  {hands:<16} last written {_when(f.modified)}{why}")
    unread = sum(1 for f in files if f.unreadable)
    total = f"{len(files) - unread} recorder(s) in {folder}, {_size(sum(f.size for f in files))}" + (
        f"; {unread} file(s) could not be read as recorders" if unread else "")
    if missing_ledger is not None:
        print(f"{total}; no ledger at {missing_ledger}, so which of them the table still needs is not known "
              "(name it with --db FILE): none can be moved")
        return
    movable = sum(f.size for f in files if not f.needed and not f.unreadable)
    print(f"{total}; {_size(movable)} could be moved off the card (records move --before YYYY-MM-DD --to DIR)")


def _as_json(f: RecorderFile) -> dict:
    return {"name": f.path.name, "bytes": f.size, "modified": round(f.modified, 3),
            "hands": list(f.hands) if f.hands else None, "needed": f.needed, "unreadable": f.unreadable}


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n >= 1 << 20 else f"{n / 1024:.0f} KB"


def _when(t: float) -> str:
    return datetime.fromtimestamp(t).strftime("%Y-%m-%d %H:%M")


__all__ = ["register"]
