"""`mahjong-table audit FILE`: check a flight recorder against the rules (the wall hash included)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from firmware.records.audit import audit_events, split_hands

from .errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("audit", help="check a flight recorder: wall hashes, draw order, reserve, indicators, payments",
                                   description="Check every finished hand of a flight recorder (JSON Lines) against its "
                                               "ruleset: anyone can verify the wall was fixed before play began.",
                                   epilog="examples:\n"
                                          "  mahjong-table audit events.jsonl",
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("events", metavar="FILE", help="a flight recorder written by `run --events FILE`")
    parser.set_defaults(handler=audit)


def audit(args: argparse.Namespace) -> int:
    events = read_recorder(Path(args.events))
    hands = [h for h in split_hands(events) if h.first("hand_end")]
    problems = audit_events(events)
    if not hands:
        problems.append(f"{args.events}: no finished hand to audit (an empty or cut-off recorder proves nothing)")
    for problem in problems:
        print(problem)
    print(f"{len(hands)} hand(s) audited: " + ("sound" if not problems else f"{len(problems)} problem(s)"))
    return 0 if not problems else 1


def read_recorder(path: Path) -> list[dict]:
    """The events of a flight recorder; anything that is not one is one line naming the line."""
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise UserError(f"{path} is a folder; name a flight recorder file in it") from None
    except OSError as error:
        raise UserError(f"cannot read {path} ({error.strerror})") from None
    events = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            event = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise UserError(f"{path} line {number}: not UTF-8 text; is it a flight recorder?") from None
        except json.JSONDecodeError:
            raise UserError(f"{path} line {number}: not JSON; is it a flight recorder?") from None
        if not isinstance(event, dict) or not isinstance(event.get("event"), str):
            raise UserError(f"{path} line {number}: not a flight recorder event (an object with \"event\")")
        events.append(event)
    return events
