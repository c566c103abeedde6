"""The flight recorder: one JSON object a line for every event of the table.

Each line has `event`, `t` (seconds on the table clock) and `hand` (0 outside a hand).  The stream
is written live, so it must never reveal a hidden tile: `take` events carry no tile, a private
indicator's tile stays null until `hand_end`, and the whole wall (with the salt that proves
`wall_hash`) appears only in `hand_end`.  `check_public` enforces this on every event before it
is written, so a bug elsewhere cannot leak the wall.
"""

from __future__ import annotations

import json
from typing import Any, Callable, TextIO

PUBLIC_TILE_EVENTS = {"hand_end", "hand_void", "win", "indicator", "fault", "enroll", "set_check"}
HAND_ENDS = {"hand_end", "hand_void"}      # the hand is over (settled, or voided): its wall may be shown


class SecretLeak(Exception):
    """An event would have revealed a hidden tile before the hand ended."""


def check_public(event: dict[str, Any]) -> None:
    """Refuse an event that carries hidden tiles in the live stream."""
    name = event["event"]
    if name == "take" and ("tile" in event or "uid" in event):
        raise SecretLeak("a take event must not name the tile taken")
    if name == "indicator" and not event.get("public", True) and (event.get("tile") is not None or event.get("wilds") is not None):
        raise SecretLeak("a private indicator's tile and wilds stay hidden until hand_end")
    if name not in HAND_ENDS and ("salt" in event or _is_wall(event.get("ring"))):
        raise SecretLeak(f"the wall and its salt appear only at the hand's end, not in {name}")


def _is_wall(value: Any) -> bool:
    """The whole wall is a list of [top, bottom] pairs; a ring *index* (or list of them) is not."""
    return isinstance(value, list) and any(isinstance(item, list) for item in value)


class FlightRecorder:
    """Writes events to a text stream (a file opened by the caller) and to live listeners.

    Every event carries the number of the hand open at the time (`open_hand` … `close_hand`),
    0 outside a hand: one place decides it, whoever emits.
    """

    def __init__(self, sink: TextIO | None, clock: Callable[[], float]) -> None:
        self._sink = sink
        self._clock = clock
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self.events_written = 0
        self.hand = 0

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self._listeners.append(listener)

    def open_hand(self, number: int) -> None:
        self.hand = number

    def close_hand(self) -> None:
        self.hand = 0

    def emit(self, event: str, *, hand: int | None = None, **fields: Any) -> dict[str, Any]:
        """Write one event; `hand` overrides the open hand (0 for table-level events in a hand)."""
        record = {"event": event, "t": round(self._clock(), 3), "hand": self.hand if hand is None else hand, **fields}
        check_public(record)
        if self._sink is not None:
            self._sink.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
            self._sink.flush()
        self.events_written += 1
        for listener in self._listeners:
            listener(record)
        return record
