"""`mahjong-table audit FILE [FILE…] [--ledger DB] [--json]`: check flight recorders against the rules,
their hash chain and (with --ledger) the score ledger.  Exit 0 sound, 1 problems, 2 unreadable input."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from firmware.records.audit import Report, audit_recorders
from firmware.records.audit_ledger import LedgerView
from firmware.records.stream import BadInput, RecorderOnDisk

from .errors import UserError
from .files import refuse_empty
from .paths import real_path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "audit", help="check flight recorders: hash chain, wall hashes, draw order, reserve, indicators, payments",
        description="Check every hand of one or more flight recorders (JSON Lines, in any order: they are read in the "
                    "order their hash chain links them, the order they were written: "
                    "a restarted controller starts a new file) against their rulesets and their hash chain; with "
                    "--ledger, against the score ledger too.  One line per problem, then a summary.  Exit status: "
                    "0 sound, 1 problems found, 2 a file that cannot be read.",
        epilog="examples:\n"
               "  mahjong-table audit events.jsonl\n"
               "  mahjong-table audit events.jsonl --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", metavar="FILE", nargs="+", help="a flight recorder written by `run --events FILE`")
    parser.add_argument("--ledger", metavar="DB", help="the score ledger (SQLite) the table kept: every finished hand "
                                                       "must be in it, and its hands in the recorders")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.set_defaults(handler=audit)


def audit(args: argparse.Namespace) -> int:
    refuse_empty(args, {"ledger": "/var/lib/mahjong-table/table.db"})
    _named_once(args.events)
    # each file is read a line at a time, never whole (a month's recorder, parsed, is more than a Pi's
    # memory); its faults come as it is read
    files = [RecorderOnDisk(path) for path in args.events]
    try:
        report = audit_recorders(files, _ledger(args.ledger, files))
    except BadInput as error:
        raise UserError(str(error)) from None
    print(json.dumps(_as_json(report), ensure_ascii=False) if args.json else _as_text(report))
    return 0 if report.sound else 1


def _ledger(path: str | None, files: list[RecorderOnDisk]) -> LedgerView | None:
    """The ledger, opened before the files are audited (a wrong name is said at once, not after an
    hour's audit); when it cannot be, a file that cannot be read is said first, as it always was."""
    if path is None:
        return None
    try:
        return LedgerView.open(path)
    except BadInput:
        for recorder in files:
            recorder.facts                  # (raises BadInput for a file that is none)
        raise


def _named_once(paths: list[str]) -> None:
    """The same recorder named twice (by two spellings, or a glob and a name) would read as a tamperer's copy."""
    seen: dict[Path, str] = {}
    for path in paths:
        real = real_path(Path(path), path)
        if real in seen:
            raise UserError(f"{path} is named twice ({seen[real]}); name each recorder once")
        seen[real] = path


def _as_text(report: Report) -> str:
    lines = [str(problem) for problem in report.problems] + [f"note: {note}" for note in report.notes]
    verdict = "sound" if report.sound else f"{len(report.problems)} problem(s)"
    notes = f" ({len(report.notes)} note(s))" if report.notes else ""
    lines.append(f"{report.hands} hand(s) audited: {verdict}{notes}")
    return "\n".join(lines)


def _as_json(report: Report) -> dict:
    return {"sound": report.sound, "files": list(report.files), "hands": report.hands,
            "problems": [{"where": p.where, "text": p.text} for p in report.problems],
            "notes": [{"where": n.where, "text": n.text} for n in report.notes]}
