"""The API's methods, once: each answers over HTTP (`GET /api/…`) and over JSON-RPC on the WebSocket.

Moonraker's convention: one method set, two transports; the HTTP path and the method name say the
same thing (`GET /api/hands` ↔ `history.hands`).  HTTP answers `{"result": …}` or
`{"error": {"code", "message"}}`; arguments come from the query string (or, for POST, a JSON
body).  Every method reads; the only ones that act are `sim.key` and `sim.touch`, and they exist
only while the table is the simulator.  Ledger reads run in a worker thread, never in the loop.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable, Mapping

from rulesets.tiles import quoted

from ..records.history import (History, HistoryError, LedgerDamaged, hand_audit, hand_events, hand_json, hands_csv,
                               hours_csv, parse_day, session_json)
from ..records.recorder import SecretLeak
from .live import OBJECTS, LiveTable
from .public_filter import check_event
from .sim import PressError, TouchRefused, parse_press, parse_touch


class ApiError(Exception):
    """A request that cannot be answered: an HTTP status and one line saying what to do."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Context:
    """What the methods read: the live table, the ledger's history (None without a ledger file)."""

    live: LiveTable
    history: History | None
    version: str
    started: float


Method = Callable[[Context, Mapping[str, Any]], Awaitable[Any]]


# -- arguments ----------------------------------------------------------------------------------------

LARGEST = 2**63 - 1         # the ledger's numbers are SQLite integers
WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]{1,20}\s*")   # ASCII digits only: str.isdigit() took ² and ٣, int() then
#                                                     refused ² (a 500) and read ٣ as 3; a sign twice, too (a probe)


def int_arg(params: Mapping[str, Any], name: str, default: int | None = None, minimum: int = 0) -> int | None:
    """A whole number, from a query's text or a JSON integer (not 1.5, not true)."""
    value = params.get(name)
    if value is None or value == "":
        return default
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and WHOLE_NUMBER.fullmatch(value):
        number = int(value)
    if number is None or not minimum <= number <= LARGEST:
        raise ApiError(400, f"{name}={quoted(value)}: give a whole number from {minimum} to {LARGEST}")
    return number


def float_arg(params: Mapping[str, Any], name: str) -> float | None:
    value = params.get(name)
    if value is None or value == "":
        return None
    try:
        number = float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else math.nan
    except (ValueError, OverflowError):     # (a JSON integer of 400 digits is no float)
        number = math.nan
    if not math.isfinite(number):
        raise ApiError(400, f"{name}={quoted(value)}: give a time in seconds since 1970 (e.g. 1767225600)")
    return number


def day_arg(params: Mapping[str, Any]):
    value = params.get("day")
    if value is None or value == "":
        return None
    try:
        return parse_day(str(value))
    except HistoryError as error:
        raise ApiError(400, str(error)) from None


def objects_arg(params: Mapping[str, Any]) -> dict[str, list[str] | None]:
    """{"objects": {name: null | [attrs]}} (JSON-RPC) or ?objects=table,display (HTTP); default all."""
    value = params.get("objects")
    if value is None or value == "":
        return {name: None for name in OBJECTS}
    if isinstance(value, str):
        return {name.strip(): None for name in value.split(",") if name.strip()}
    if isinstance(value, dict) and all(v is None or (isinstance(v, list) and all(isinstance(a, str) for a in v))
                                       for v in value.values()):
        return dict(value)
    raise ApiError(400, "objects: give {\"table\": null, \"display\": [\"page\"]} or ?objects=table,display")


# -- the methods ------------------------------------------------------------------------------------

async def server_info(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    status = ctx.live.status()
    table = status["table"]
    return {"version": ctx.version, "lifecycle": table.get("lifecycle"), "ruleset": table.get("ruleset"),
            "faults": status["faults"]["active"], "uptime": round(time.monotonic() - ctx.started, 1),
            "simulator": ctx.live.sim is not None, "history": ctx.history is not None, "objects": list(objects_of(ctx)),
            "clients": len(ctx.live.clients), "clients_dropped": ctx.live.dropped, "refused": ctx.live.refused}


def objects_of(ctx: Context) -> tuple[str, ...]:
    return tuple(name for name in OBJECTS if name != "sim" or ctx.live.sim is not None)


async def objects_query(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return ctx.live.query(objects_arg(params))
    except SecretLeak:
        raise ApiError(500, "the public filter refused the table's state; see the log") from None


def _history(ctx: Context) -> History:
    if ctx.history is None:
        raise ApiError(404, "this table keeps no ledger file (run with --db FILE)")
    return ctx.history


async def _read(ctx: Context, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """A ledger read, in a worker thread: the loop never waits on the disk."""
    try:
        return await asyncio.to_thread(fn, *args, **kwargs)
    except LedgerDamaged as error:
        raise ApiError(500, str(error)) from None
    except HistoryError as error:
        raise ApiError(404 if str(error).startswith("no ") else 400, str(error)) from None


async def history_sessions(ctx: Context, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    sessions = await _read(ctx, _history(ctx).sessions, day_arg(params))
    return [session_json(s) for s in sessions]


def _hand_filters(params: Mapping[str, Any], limit: int | None = 500) -> dict[str, Any]:
    """The hands asked for; at most `limit` unless the request gives its own (the CSV export: every one)."""
    return {"session": int_arg(params, "session"), "day": day_arg(params), "since": float_arg(params, "since"),
            "after": int_arg(params, "after", minimum=0), "limit": int_arg(params, "limit", limit, minimum=1),
            "newest": flag_arg(params, "newest")}


def flag_arg(params: Mapping[str, Any], name: str) -> bool:
    """A yes or no: true/1 or false/0 (a query's text or a JSON boolean); left out, no."""
    value = params.get(name)
    if value is None or value == "" or value is False or value in ("0", "false"):
        return False
    if value is True or value in ("1", "true"):
        return True
    raise ApiError(400, f"{name}={quoted(value)}: give {name}=1 (or true), or leave it out")


async def history_hands(ctx: Context, params: Mapping[str, Any]) -> list[dict[str, Any]]:
    hands = await _read(ctx, _history(ctx).hands, **_hand_filters(params))
    return [hand_json(h) for h in hands]


async def history_hand(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    hand_id = int_arg(params, "id", minimum=1)
    if hand_id is None:
        raise ApiError(400, "id: give the hand's id (the `id` of /api/hands)")
    hand = await _read(ctx, _history(ctx).hand, hand_id)
    return hand_json(hand)


async def history_hand_events(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    """A finished hand's recorder lines and the audit's verdict on them."""
    hand_id = int_arg(params, "id", minimum=1)
    if hand_id is None:
        raise ApiError(400, "id: give the hand's id (the `id` of /api/hands)")
    history = _history(ctx)
    hand = await _read(ctx, history.hand, hand_id)
    events = await _read(ctx, hand_events, hand)
    for event in events:                          # the recorder's lines are public; checked all the same
        try:
            check_event(event)
        except SecretLeak:
            ctx.live.refused += 1
            raise ApiError(500, f"hand {hand_id}: a recorder line failed the public filter") from None
    problems = await _read(ctx, hand_audit, hand, events)
    return {"hand": hand_json(hand), "events": events, "audit": {"sound": not problems, "problems": problems}}


async def history_hours(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    sessions, days = await _hours(ctx, day_arg(params))
    return {"sessions": [s.to_json() for s in sessions], "days": [d.to_json() for d in days]}


async def _hours(ctx: Context, day: Any) -> tuple[list, list]:
    """The hours by session and by day; with a day, that day's and the sessions that played in it."""
    history = _history(ctx)
    sessions = await _read(ctx, history.session_hours)
    days = await _read(ctx, history.day_hours, day)
    if day is not None:
        wanted = {s for d in days for s in d.sessions}
        sessions = [s for s in sessions if int(s.key) in wanted]
    return sessions, days


def _sim(ctx: Context):
    if ctx.live.sim is None:
        raise ApiError(404, "this table is not the simulator: nothing to press or touch (the web view is read-only)")
    return ctx.live.sim


async def sim_state(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    _sim(ctx)
    return ctx.live.query({"sim": None})["status"]["sim"]


async def sim_key(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    sim = _sim(ctx)
    try:
        panel, key, long = parse_press(params.get("panel"), params.get("key"), params.get("long", False))
    except PressError as error:
        raise ApiError(400, str(error)) from None
    sim.press(panel, key, long)
    return {"panel": panel, "key": key.name.lower(), "long": long}


async def sim_touch(ctx: Context, params: Mapping[str, Any]) -> dict[str, Any]:
    sim = _sim(ctx)
    try:
        page, button = parse_touch(params.get("page"), params.get("button"))
    except PressError as error:
        raise ApiError(400, str(error)) from None
    try:
        await sim.touch(page, button)
    except TouchRefused as error:
        raise ApiError(409, str(error)) from None
    return {"page": page, "button": button}


HAND_FILTERS = tuple(_hand_filters({}))     # the arguments `_hand_filters` reads: named once, there
ANYWHERE = ("token",)       # the API token may come in any request's query string (server.py)


def takes(name: str, arguments: tuple[str, ...], method: Method) -> Method:
    """`method`, refusing an argument it does not take: a filter misspelt (?dya=…) was ignored, and
    the answer looked filtered when it was not."""
    async def checked(ctx: Context, params: Mapping[str, Any]) -> Any:
        check_arguments(name, arguments, params)
        return await method(ctx, params)
    return checked


def check_arguments(name: str, arguments: tuple[str, ...], params: Mapping[str, Any]) -> None:
    unknown = sorted(str(key) for key in params if key not in arguments and key not in ANYWHERE)
    if unknown:
        known = ", ".join(arguments) if arguments else "none"
        raise ApiError(400, f"{name} takes no argument {quoted(unknown[0])} (its arguments: {known})")


METHODS: dict[str, Method] = {
    "server.info": takes("server.info", (), server_info),
    "table.objects.query": takes("table.objects.query", ("objects",), objects_query),
    "history.sessions": takes("history.sessions", ("day",), history_sessions),
    "history.hands": takes("history.hands", HAND_FILTERS, history_hands),
    "history.hand": takes("history.hand", ("id",), history_hand),
    "history.hand_events": takes("history.hand_events", ("id",), history_hand_events),
    "history.hours": takes("history.hours", ("day",), history_hours),
    "sim.state": takes("sim.state", (), sim_state),
    "sim.key": takes("sim.key", ("panel", "key", "long"), sim_key),
    "sim.touch": takes("sim.touch", ("page", "button"), sim_touch),
}

# CSV exports (HTTP only): the same filters as the JSON methods.


async def hands_export(ctx: Context, params: Mapping[str, Any]) -> str:
    check_arguments("/api/hands.csv", HAND_FILTERS, params)
    # every hand asked for, not the JSON page's 500: a month's export for the bills was cut at its first 500 hands
    filters, history = _hand_filters(params, limit=None), _history(ctx)
    if filters["limit"] is not None or filters["newest"]:
        return hands_csv(await _read(ctx, history.hands, **filters))
    # read a page at a time: the rows of a year's hands at once held hundreds of MB (6,000 hands: 35 MB)
    parts, after = [], filters["after"]
    while True:
        page = await _read(ctx, history.hands, **{**filters, "after": after, "limit": CSV_PAGE})
        parts.append(hands_csv(page, header=not parts))
        if len(page) < CSV_PAGE:
            return "".join(parts)
        after = page[-1].id


CSV_PAGE = 1000             # hands read from the ledger at once for an export


async def hours_export(ctx: Context, params: Mapping[str, Any]) -> str:
    """/api/hours's rows as CSV, by day or by session, of one day as it filters them."""
    check_arguments("/api/hours.csv", ("day", "by"), params)
    by = params.get("by", "day")
    if by not in ("day", "session"):
        raise ApiError(400, f"by={by!r}: give by=day or by=session")
    sessions, days = await _hours(ctx, day_arg(params))
    return hours_csv(days if by == "day" else sessions)


__all__ = ["ApiError", "Context", "METHODS", "check_arguments", "hands_export", "hours_export"]
