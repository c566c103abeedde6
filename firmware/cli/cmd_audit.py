"""`mahjong-table audit FILE`: check a flight recorder against the rules (the wall hash included)."""

from __future__ import annotations

import argparse
import json

from firmware.records.audit import audit_events, read_events, split_hands

from .errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("audit", help="check a flight recorder: wall hashes, draw order, reserve, indicators, payments",
                                   description="Check every finished hand of a flight recorder (JSON Lines) against its "
                                               "ruleset: anyone can verify the wall was fixed before play began.")
    parser.add_argument("events", metavar="FILE", help="a flight recorder written by `run --events FILE`")
    parser.set_defaults(handler=audit)


def audit(args: argparse.Namespace) -> int:
    try:
        with open(args.events, encoding="utf-8") as handle:
            events = read_events(handle)
    except OSError as error:
        raise UserError(f"cannot read {args.events} ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise UserError(f"{args.events} line {error.lineno}: not JSON; is it a flight recorder?") from None
    hands = [h for h in split_hands(events) if h.first("hand_end")]
    problems = audit_events(events)
    for problem in problems:
        print(problem)
    print(f"{len(hands)} hand(s) audited: " + ("sound" if not problems else f"{len(problems)} problem(s)"))
    return 0 if not problems else 1
