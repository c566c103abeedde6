"""What goes out on each topic, and the one gate every payload passes (`encode`).

`encode` runs the web view's public filter (firmware/web/public_filter.py: the recorder's own
`check_public` and no private seat line) on every payload before it is turned into bytes; a
payload the filter refuses raises `SecretLeak` and is never sent.  The builders here are plain
functions of public data: the web view's state objects (firmware/web/live.py), the recorder's
events as the recorder made them public, and the ledger's figures.
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Mapping

from ..machines import TABLE_STATES
from ..web.public_filter import SecretLeak, check_event, check_status
from .topics import Topics

PHASES = ("starting",) + TABLE_STATES
FAULT_FIELDS = ("code", "unit", "source", "message", "name_zh", "todo_zh", "name_en", "todo_en", "interlock", "since")


def encode(kind: str, payload: Mapping[str, Any]) -> bytes:
    """The payload as UTF-8 JSON, once the public filter has passed it (SecretLeak otherwise).

    An event (inside its envelope) is checked as the recorder checks events; anything else as a
    state object."""
    if kind == "event":
        check_event(payload["event"])
    else:
        check_status({kind: dict(payload)})
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def status_payload(table: str, objects: Mapping[str, Mapping[str, Any]], facts: Mapping[str, Any], *,
                   now: float, heartbeat: float, version: str) -> dict[str, Any]:
    """The retained status of an online table: everything the parlour shows at a glance.

    `objects` are the web view's `table` and `faults` objects; `facts` the ledger's figures
    (`session_started`, `hands_today`, `hours_today`)."""
    shown = objects.get("table", {})
    faults = objects.get("faults", {})
    return {
        "status": "online", "table": table, "version": version,
        "phase": shown.get("lifecycle", "starting"), "message": shown.get("message", ""),
        "ruleset": shown.get("ruleset"), "ruleset_name": shown.get("ruleset_name"),
        "options": shown.get("options", {}),
        "session": shown.get("session"), "session_started": facts.get("session_started"),
        "hand": known(shown, "hand"), "hand_over": shown.get("hand_over", False),
        "dealer": shown.get("dealer"), "totals": known(shown, "scores"),
        "fault": bool(faults.get("active")), "storage_low": shown.get("storage_low"),
        "faults": [{key: f.get(key) for key in FAULT_FIELDS} for f in faults.get("latched", [])],
        "hands_today": facts.get("hands_today"), "hours_today": facts.get("hours_today"),
        "heartbeat_s": heartbeat, "updated": round(now, 3),
    }


def known(shown: Mapping[str, Any], key: str) -> Any:
    """The table's figure once its session is known, else null: while it starts, the web view's
    placeholders (hand 0, scores 0 0 0 0) would read as a session's real ones on the parlour's card."""
    return shown.get(key) if shown.get("session") is not None else None


def offline_payload(table: str, reason: str, last: Mapping[str, Any] | None = None,
                    now: float | None = None) -> dict[str, Any]:
    """The retained status of a table that is gone: `reason` "stopped" (a clean stop, with the
    last state it showed) or "lost" (the last will, sent by the broker)."""
    out = {**(last or {}), "status": "offline", "table": table, "reason": reason}
    if now is not None:
        out["updated"] = round(now, 3)
    return out


def event_envelope(table: str, run: float, seq: int, at: float, event: Mapping[str, Any]) -> dict[str, Any]:
    """One recorder event, numbered per run of the publisher (`run`: when it started; `seq` from 1)
    so a reader sees a gap or a repeat; `at` is the table's wall clock when the event happened."""
    return {"table": table, "run": round(run, 3), "seq": seq, "at": round(at, 3), "event": dict(event)}


def hand_payload(table: str, end: Mapping[str, Any], opening: Mapping[str, Any], session: Mapping[str, Any],
                 wins: Iterable[Mapping[str, Any]], started: float | None, finished: float) -> dict[str, Any]:
    """A settled hand, from its `hand_end` event, its opening event (`hand_start` or `resumed`),
    the session (`SessionState.to_json()`) and its `win` events.  `id` is the table and the hand's
    recorder digest: unique for every hand ever played, so a hand sent twice is stored once."""
    return {
        "id": f"{table}:{end['digest']}", "table": table,
        "session": session.get("session"), "hand": end["hand"],
        "ruleset": session.get("ruleset"), "options": session.get("options", {}),
        "dealer": opening.get("dealer"), "result": end["result"], "winners": list(end["winners"]),
        "payments": list(end["payments"]), "totals": list(end["totals"]), "next_dealer": end.get("next_dealer"),
        "wins": [{"seat": w.get("seat"), "from": w.get("from"), "win_tile": w.get("win_tile"),
                  "items": w.get("items", [])} for w in wins],
        "started": round(started, 3) if started is not None else None, "finished": round(finished, 3),
        "wall_hash": opening.get("wall_hash"), "digest": end["digest"],
    }


def discovery_config(topics: Topics, version: str) -> dict[str, Any]:
    """Home Assistant's device-based discovery: the table as one device with its status sensors,
    read from the retained status; available while the status says online."""
    device = topics.device_id
    state = topics.status

    def sensor(key: str, name: str, template: str, **extra: Any) -> dict[str, Any]:
        return {"p": "sensor", "unique_id": f"{device}_{key}", "name": name, "value_template": template, **extra}

    return {
        "dev": {"ids": [device], "name": f"Mahjong table {topics.table}", "mf": "mahjong-table",
                "mdl": "automatic mahjong table", "sw": version},
        "o": {"name": "mahjong-table", "sw": version},
        "availability": [{"topic": state, "value_template": "{{ value_json.status }}"}],
        "state_topic": state, "qos": 1,
        "cmps": {
            "phase": sensor("phase", "Phase", "{{ value_json.phase }}", device_class="enum", options=list(PHASES)),
            "ruleset": sensor("ruleset", "Ruleset", "{{ value_json.ruleset }}"),
            "hand": sensor("hand", "Hand", "{{ value_json.hand }}"),
            "hands_today": sensor("hands_today", "Hands today", "{{ value_json.hands_today }}",
                                  state_class="total_increasing"),
            "hours_today": sensor("hours_today", "Hours today", "{{ value_json.hours_today }}",
                                  device_class="duration", unit_of_measurement="h", state_class="total_increasing"),
            "session_started": sensor("session_started", "Session started",
                                      "{{ value_json.session_started | timestamp_local "
                                      "if value_json.session_started else None }}", device_class="timestamp"),
            "fault": {"p": "binary_sensor", "unique_id": f"{device}_fault", "name": "Fault", "device_class": "problem",
                      "entity_category": "diagnostic", "value_template": "{{ 'ON' if value_json.fault else 'OFF' }}",
                      "json_attributes_topic": state,
                      "json_attributes_template": "{{ {'faults': value_json.faults} | tojson }}"},
        },
    }


__all__ = ["PHASES", "SecretLeak", "discovery_config", "encode", "event_envelope", "hand_payload", "offline_payload",
           "status_payload"]
