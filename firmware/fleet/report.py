"""What one table tells the fleet, gathered on the play path at the cost of an append.

`TableReport` follows the table only through its public feed (firmware.session.SessionFeed), as
the web view does, and reuses the web view's state objects (`LiveTable`, with no client of its
own) for the status.  Its listeners only append and flag: every event is kept (numbered) in a
bounded queue whose oldest entry goes when it is full, each `hand_end` becomes a settled-hand
payload, and a change only marks the status stale.  The publisher (publisher.py) does the rest
in its own task, so a broker that is slow or gone never reaches the table.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Callable

from ..web.live import LiveTable, TableFeed
from .payloads import hand_payload

Envelope = tuple[int, float, dict[str, Any]]          # (seq, wall time, the recorder's event)
OPENINGS = ("hand_start", "resumed")


class TableReport:
    def __init__(self, table: str, clock: Callable[[], float] = time.time, event_limit: int = 1000) -> None:
        self.table = table
        self.clock = clock
        self.run = clock()                               # this run's events are numbered from here
        self.live = LiveTable(clock=clock)
        self.feed: TableFeed | None = None
        self.events: deque[Envelope] = deque()
        self.event_limit = event_limit
        self.events_dropped = 0
        self.seq = 0
        self.hands: list[dict[str, Any]] = []           # settled, not yet on disk
        self._opening: dict[str, Any] = {}
        self._started: float | None = None
        self._wins: list[dict[str, Any]] = []
        self._listeners: list[Callable[[str | None], None]] = []

    def attach(self, feed: TableFeed) -> None:
        self.feed = feed
        self.live.attach(feed)
        feed.listen(self._on_event, self._on_change)

    def on_news(self, listener: Callable[[str | None], None]) -> None:
        """`listener(name)` after each event (its name) and each change of what is shown (None);
        it must not block."""
        self._listeners.append(listener)

    # -- on the play path: append and flag ----------------------------------------------------------

    def _on_event(self, event: dict[str, Any]) -> None:
        now = self.clock()
        self.seq += 1
        if len(self.events) >= self.event_limit:
            self.events.popleft()
            self.events_dropped += 1
        self.events.append((self.seq, now, event))
        name = event["event"]
        if name in OPENINGS:
            self._opening, self._wins = event, list(event.get("wins", ()))    # a resumed hand's wins so far
            self._started = now if name == "hand_start" else None      # a resumed hand began in an earlier run
        elif name == "win":
            self._wins.append(event)
        elif name == "hand_end":
            self.hands.append(self._settled(event, now))
        self._tell(name)

    def _on_change(self) -> None:
        self._tell(None)

    def _tell(self, name: str | None) -> None:
        for listener in self._listeners:
            listener(name)

    def _settled(self, end: dict[str, Any], now: float) -> dict[str, Any]:
        state = self.feed.session_state() if self.feed is not None else None
        session = state.to_json() if state is not None else {}
        ours = self._opening.get("hand") == end["hand"]
        return hand_payload(self.table, end, self._opening if ours else {}, session,
                            self._wins if ours else [], self._started if ours else None, now)

    # -- for the publisher -------------------------------------------------------------------------

    def take_events(self, limit: int) -> list[Envelope]:
        return [self.events.popleft() for _ in range(min(limit, len(self.events)))]

    def put_back(self, batch: list[Envelope]) -> None:
        """Events that did not reach the broker go back in front, as far as the queue has room."""
        room = self.event_limit - len(self.events)
        keep = batch[-room:] if room > 0 else []
        self.events_dropped += len(batch) - len(keep)
        self.events.extendleft(reversed(keep))

    def objects(self) -> dict[str, dict[str, Any]]:
        """The web view's `table` and `faults` objects, now, without the stop the controller asked
        for: a clean stop's E16 is the controller stopping the motors, not a fault of the table, and
        published it turned every stopped table red on the parlour's page (docs/controller.md)."""
        objects = self.live.status({"table", "faults"})
        asked = {(f.label, f.unit, f.source) for f in self.feed.faults() if f.stop_asked} if self.feed is not None else set()
        if asked and "faults" in objects:
            objects["faults"] = without_asked_stops(objects["faults"], asked)
        return objects

    def session_id(self) -> int | None:
        state = self.feed.session_state() if self.feed is not None else None
        return state.session_id if state is not None else None


def without_asked_stops(faults: dict[str, Any], asked: set[tuple[str, int, str]]) -> dict[str, Any]:
    """The web view's `faults` object less the latched faults named (label, unit, source) in `asked`."""
    latched = [f for f in faults.get("latched", []) if (f.get("code"), f.get("unit"), f.get("source")) not in asked]
    return {**faults, "active": bool(latched), "latched": latched}


__all__ = ["Envelope", "TableReport", "without_asked_stops"]
