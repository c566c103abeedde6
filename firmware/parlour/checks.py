"""What the parlour accepts from the network: each field it reads, checked where it is received.

A table's status, event or hand is JSON from anyone who may publish on the broker; the page, the
store and the day's counts read fields of it (a time becomes a date, a list of scores is summed
and drawn).  Each check here raises ValueError naming the one field that is wrong, so the watcher
counts the message and skips it (one warning line), and nothing malformed reaches the page or the
store.  A store written before these checks is read through them too (`checked_status`).
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Mapping

# Seconds since 1970 a table's clock may say: from 1970 to the year 5138, which every date function
# reads (1e300, NaN or a string would break the day's counts and the page).
LATEST_TIME = 1e11
STATES = ("online", "offline")
TEXTS = ("reason", "version", "phase", "message", "ruleset", "ruleset_name")
FAULT_TEXTS = ("code", "source", "message", "name_zh", "todo_zh", "name_en", "todo_en")


def loads(payload: bytes) -> dict[str, Any]:
    """The payload as a JSON object; NaN and Infinity, which JSON has no words for, are refused."""
    data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number JSON allows")


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_time(value: Any) -> bool:
    """Seconds since 1970 that a date can be made of."""
    return is_number(value) and 0 <= value < LATEST_TIME


def require(data: Mapping[str, Any], key: str, test: Callable[[Any], bool], what: str, *, optional: bool = True) -> None:
    """ValueError naming `key` unless it passes `test` (or, `optional`, is absent or null)."""
    value = data.get(key)
    if value is None and optional:
        return
    if not test(value):
        raise ValueError(f"{key} must be {what}, not {_shown(value)}")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "…"


def _list_of(test: Callable[[Any], bool], length: int | None = None) -> Callable[[Any], bool]:
    def check(value: Any) -> bool:
        return isinstance(value, list) and (length is None or len(value) == length) and all(test(v) for v in value)
    return check


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _seat(value: Any) -> bool:
    return is_int(value) and 0 <= value <= 3


def _storage(value: Any) -> bool:
    return isinstance(value, dict) and is_number(value.get("free_mb")) and is_number(value.get("total_mb"))


def _fault(value: Any) -> bool:
    return (isinstance(value, dict) and isinstance(value.get("code"), str)
            and all(value.get(key) is None or isinstance(value.get(key), str) for key in FAULT_TEXTS)
            and (value.get("since") is None or is_time(value.get("since"))))


def checked_status(data: dict[str, Any]) -> dict[str, Any]:
    """A table's status as the parlour reads it; ValueError naming the first wrong field."""
    if data.get("status") not in STATES:
        raise ValueError(f"status must be online or offline, not {_shown(data.get('status'))}")
    for key in TEXTS:
        require(data, key, _text, "text")
    for key in ("updated", "session_started"):
        require(data, key, is_time, "seconds since 1970")
    require(data, "heartbeat_s", lambda v: is_number(v) and v > 0, "a number of seconds above 0")
    require(data, "session", is_int, "a whole number")
    require(data, "hand", lambda v: is_int(v) and v >= 0, "a whole number from 0")
    require(data, "dealer", _seat, "a seat, 0 to 3")
    require(data, "hand_over", lambda v: isinstance(v, bool), "true or false")
    require(data, "fault", lambda v: isinstance(v, bool), "true or false")
    require(data, "totals", _list_of(is_number, 4), "four numbers")
    require(data, "faults", _list_of(_fault), "a list of faults, each with its code")
    require(data, "storage_low", _storage, "free_mb and total_mb")
    require(data, "hands_today", lambda v: is_int(v) and v >= 0, "a whole number from 0")
    require(data, "hours_today", lambda v: is_number(v) and v >= 0, "a number of hours from 0")
    return data


def checked_event(data: dict[str, Any]) -> dict[str, Any]:
    """An event envelope: run (when the table's publisher started), seq from 1, at, the event."""
    require(data, "run", is_time, "seconds since 1970", optional=False)
    require(data, "seq", lambda v: is_int(v) and v >= 1, "a whole number from 1", optional=False)
    require(data, "at", is_time, "seconds since 1970")
    require(data, "event", lambda v: isinstance(v, dict), "the event (an object)", optional=False)
    return data


def checked_hand(data: dict[str, Any], table: str) -> dict[str, Any]:
    """A settled hand of `table`, as the store and the page read it."""
    require(data, "id", lambda v: isinstance(v, str) and v.startswith(f"{table}:"), f"text starting {table}:",
            optional=False)
    require(data, "table", lambda v: v == table, f"{table}, the table of its topic", optional=False)
    require(data, "finished", is_time, "seconds since 1970", optional=False)
    require(data, "started", is_time, "seconds since 1970")
    require(data, "hand", lambda v: is_int(v) and v >= 0, "a whole number from 0")
    for key in ("ruleset", "result"):
        require(data, key, _text, "text")
    require(data, "winners", _list_of(_seat), "a list of seats")
    for key in ("payments", "totals"):
        require(data, key, _list_of(is_number), "a list of numbers")
    return data


__all__ = ["LATEST_TIME", "checked_event", "checked_hand", "checked_status", "is_time", "loads"]
