"""The shape of every flight-recorder event the audit reads: which fields, of which type.

The audit checks each line against this before using it, so a missing field or a wrong type is
one line naming the file, the line and the field — never a traceback further on.  Events not
listed here (the format is open: others add events) only need the envelope (`event`, `t`, `hand`);
fields beyond those listed are allowed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .chain import is_hex_digest


@dataclass(frozen=True)
class Kind:
    """A value's expected shape and how to say it."""

    says: str
    check: Callable[[Any], bool]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


INT = Kind("an integer", _int)
COUNT = Kind("a whole number ≥ 0", lambda v: _int(v) and v >= 0)
NUMBER = Kind("a number", lambda v: (_int(v) or isinstance(v, float)) and math.isfinite(v))
TEXT = Kind("text", lambda v: isinstance(v, str))
FLAG = Kind("true or false", lambda v: isinstance(v, bool))
HEX = Kind("64 hex digits", is_hex_digest)
OBJECT = Kind("an object", lambda v: isinstance(v, dict))


def list_of(item: Kind, length: int | None = None) -> Kind:
    size = "" if length is None else f"{length} "
    return Kind(f"a list of {size}{item.says}",
                lambda v: isinstance(v, list) and (length is None or len(v) == length) and all(item.check(x) for x in v))


def maybe(kind: Kind) -> Kind:
    return Kind(f"{kind.says} or null", lambda v: v is None or kind.check(v))


def one_of(*values: str) -> Kind:
    return Kind("one of " + ", ".join(values), lambda v: v in values)


def text_map() -> Kind:
    return Kind("an object of text values", lambda v: isinstance(v, dict) and all(isinstance(x, str) for x in v.values()))


def shaped(fields: Mapping[str, Kind]) -> Kind:
    return Kind("an object with " + ", ".join(fields),
                lambda v: isinstance(v, dict) and all(k in v and kind.check(v[k]) for k, kind in fields.items()))


LAYER = one_of("top", "bottom")
PAYMENTS = list_of(INT, 4)
START = {"ruleset": TEXT, "options": text_map(), "dealer": COUNT, "sides": list_of(COUNT),
         "stacks_per_side": list_of(COUNT), "dice": list_of(list_of(INT)),
         "break": shaped({"wall": INT, "skip": INT}), "ring_stacks": COUNT, "wall_hash": HEX, "prev": HEX}
INDICATOR = {"kind": TEXT, "timing": one_of("after_deal", "on_ready", "after_win", "fixed"), "ring": list_of(COUNT),
             "layer": list_of(LAYER), "tile": maybe(list_of(TEXT)), "wilds": maybe(list_of(TEXT)), "effect": TEXT,
             "public": FLAG}

ENVELOPE = {"event": TEXT, "t": NUMBER, "hand": COUNT}
EVENTS: dict[str, dict[str, Kind]] = {
    "recorder_start": {"chain": HEX, "format": INT},
    "recorder_end": {"chain": HEX, "digest": HEX, "hands": COUNT, "open_hand": COUNT},
    "session_start": {"ruleset": TEXT, "options": text_map(), "session": INT},
    "hand_start": START,
    "resumed": START,
    "take": {"end": one_of("head", "tail"), "ring": COUNT, "layer": LAYER, "live": INT, "reserve": INT, "kongs": INT,
             "reason": TEXT, "in_order": FLAG},
    "put_back": {"end": one_of("head", "tail"), "ring": COUNT, "layer": LAYER, "reason": TEXT, "in_order": FLAG,
                 "live": INT},
    "indicator": {**INDICATOR, "dice": list_of(INT)},
    "ready": {"seat": COUNT},
    "first_dealer": {"roller": COUNT, "dice": list_of(INT), "dealer": COUNT},
    "kong_declared": {"seat": COUNT, "concealed": FLAG},
    "kong_lapsed": {"seat": COUNT},
    "kong_credited": {"seat": COUNT, "concealed": FLAG, "ring": COUNT, "layer": LAYER},
    "win": {"seat": COUNT, "from": maybe(COUNT), "tiles": list_of(TEXT), "melds": list_of(TEXT),
            "flowers": list_of(TEXT), "win_tile": maybe(TEXT),
            "items": list_of(shaped({"name": TEXT, "value": NUMBER, "unit": TEXT})), "payments": PAYMENTS,
            "context": OBJECT},
    "false_win": {"seat": COUNT},
    "win_withdrawn": {"seat": COUNT},
    "win_cut_off": {"seat": COUNT, "by": COUNT, "discarder": COUNT},
    "exhausted": {"remaining": INT, "live": INT, "reserve": INT, "kongs": INT},
    "kong_from": {"seat": COUNT, "kind": one_of("ming", "zhuanwan"), "from": maybe(COUNT)},
    "special_kong": {"seat": COUNT, "name": TEXT, "tiles": list_of(TEXT), "accepted": FLAG, "kongs": COUNT,
                     "replacements": COUNT, "reserve_kongs": COUNT},
    "follow_dealer": {"seat": COUNT, "round": COUNT, "followed": FLAG, "payments": PAYMENTS},
    "liang_pai": {"seat": COUNT, "name": maybe(TEXT), "tiles": list_of(TEXT), "accepted": FLAG, "replacements": COUNT},
    "la_zhuang": {"winner": COUNT, "asked": list_of(COUNT), "asking": list_of(COUNT)},
    "cai_piao": {"seat": COUNT, "count": COUNT},
    "chengbao": {"seat": COUNT, "side": maybe(COUNT)},
    "san_chi": {"seat": COUNT, "side": maybe(COUNT)},
    "first_yaoji": {"seat": COUNT, "discarder": maybe(COUNT), "claimer": maybe(COUNT), "won_on": FLAG,
                    "timed_out": FLAG},
    "opening_win": {"seat": COUNT, "tiles": list_of(TEXT), "accepted": FLAG, "items": list_of(OBJECT),
                    "payments": PAYMENTS},
    "settlement": {"seats": list_of(COUNT), "ready": maybe(list_of(COUNT)), "flipped": list_of(TEXT),
                   "hands": list_of(shaped({"seat": COUNT, "shown": FLAG, "timed_out": FLAG, "tiles": list_of(TEXT),
                                            "melds": list_of(TEXT), "flowers": list_of(TEXT)})),
                   "items": list_of(shaped({"name": TEXT, "value": NUMBER, "unit": TEXT})), "payments": PAYMENTS},
    "hand_end": {"result": one_of("win", "draw", "void"), "winners": list_of(COUNT), "payments": PAYMENTS, "totals": PAYMENTS,
                 "next_dealer": COUNT, "ring": list_of(list_of(TEXT, 2)), "salt": TEXT,
                 "indicators": list_of(shaped(INDICATOR)), "digest": HEX},
}


def shape_problem(event: Any) -> str | None:
    """What is wrong with the shape of one parsed line, or None if the audit can read it."""
    if not isinstance(event, dict):
        return "not an event (a JSON object)"
    return _fields_problem(event, ENVELOPE) or _fields_problem(event, EVENTS.get(event["event"], {}))


def _fields_problem(event: dict, fields: Mapping[str, Kind]) -> str | None:
    for name, kind in fields.items():
        if name not in event:
            return f"{_name(event)} has no field `{name}`"
        if not kind.check(event[name]):
            return f"{_name(event)}: `{name}` should be {kind.says}, not {_short(event[name])}"
    return None


def _name(event: dict) -> str:
    name = event.get("event")
    return name if isinstance(name, str) else "the event"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"
