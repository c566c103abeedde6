"""The table now, as anyone may see it: state objects, their changes, and the clients that follow them.

`LiveTable` reads the table only through a `TableFeed` (firmware.session.TableSession.public_feed):
the presenter's public mirror, the session state, the lifecycle, the latched faults, and the
recorder's events (already public: `check_public` ran on each).  It keeps the state as named
objects, Moonraker's way: `table`, `display`, `faults` and, against the simulator only, `sim`.

Changes are coalesced: whatever happens in one turn of the loop is one `notify_status_update`
carrying only the attributes that changed.  Each client has a bounded queue; a client that falls
behind is dropped (its socket closed with code 4000) and resynchronises by subscribing again or
reading /api/state, so a slow browser never holds the table up.  With no client, nothing is built.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from drivers.display_layout import LAYOUT
from drivers.nextion import ENCODING
from rulesets.definition import Ruleset
from rulesets.walls import Break

from ..faults import LatchedFault
from ..presenter import DisplayMirror
from ..state import SessionState
from .public_filter import SecretLeak, check_event, check_status
from .sim import SimulatorPort, panel_keys

log = logging.getLogger("firmware.web")

QUEUE_LIMIT = 256          # messages a client may have waiting before it is dropped
OBJECTS = ("table", "display", "faults", "sim")


class TableFeed(Protocol):
    """What the web may read of a running table (firmware.session.SessionFeed implements it)."""

    def mirror(self) -> DisplayMirror: ...
    def session_state(self) -> SessionState | None: ...
    def ruleset(self) -> Ruleset: ...
    def lifecycle(self) -> str: ...
    def faults(self) -> tuple[LatchedFault, ...]: ...
    def listen(self, on_event: Callable[[dict[str, Any]], None], on_change: Callable[[], None]) -> None: ...


@dataclass
class HandView:
    """The public facts of the hand in play (or the last one), gathered from the recorder's events."""

    number: int = 0
    dealer: int | None = None
    dice: list[list[int]] = field(default_factory=list)
    brk: tuple[int, int] | None = None
    indicators: list[dict[str, Any]] = field(default_factory=list)
    wins: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    result: dict[str, Any] | None = None
    set_aside: set[tuple[int, str]] = field(default_factory=set)     # (ring, layer) taken out of play

    def on_event(self, event: dict[str, Any]) -> None:
        name = event["event"]
        if name in ("hand_start", "resumed"):
            self.number, self.dealer = event["hand"], event["dealer"]
            self.dice = [list(r) for r in event["dice"]]
            self.brk = (event["break"]["wall"], event["break"]["skip"])
            self.indicators, self.wins, self.over, self.result = [], [], False, None
            self.set_aside = set()
            if name == "resumed":        # a restarted controller: what the hand had shown, as its journal kept it
                self.indicators = [_indicator(i) for i in event.get("indicators", ())]
                self.wins = [_win(w) for w in event.get("wins", ())]
                self.set_aside = {(ring, layer) for ring, layer, _end, reason in event.get("taken", ())
                                  if reason == "set_aside"}
        elif name == "take" and event.get("reason") == "set_aside" and event["hand"] == self.number:
            self.set_aside.add((event["ring"], event["layer"]))
        elif name == "indicator" and event["hand"] == self.number:
            self.indicators.append(_indicator(event))
        elif name == "win" and event["hand"] == self.number:
            self.wins.append(_win(event))
        elif name == "hand_end" and event["hand"] == self.number:
            self.over = True
            self.result = {key: event[key] for key in ("result", "winners", "payments", "totals", "next_dealer")}
            self.indicators = [_indicator(i) for i in event["indicators"]]

    def public_indicators(self) -> list[dict[str, Any]]:
        """The indicators anyone may know now: public ones, and private ones without their tile
        until the hand is over."""
        return [i if i["public"] or self.over else {**i, "tile": None, "wilds": None} for i in self.indicators]


def _indicator(event: dict[str, Any]) -> dict[str, Any]:
    return {key: event.get(key) for key in ("kind", "name", "public", "tile", "wilds", "ring", "layer", "dice", "seat")}


def _win(event: dict[str, Any]) -> dict[str, Any]:
    return {key: event.get(key) for key in ("seat", "from", "tiles", "melds", "win_tile", "items", "payments")}


class Client:
    """One follower of the live state: a bounded queue of encoded messages."""

    def __init__(self, objects: dict[str, list[str] | None] | None = None, limit: int = QUEUE_LIMIT) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limit)
        self.objects: dict[str, list[str] | None] = objects or {}
        self.dropped = False

    def offer(self, message: str) -> bool:
        try:
            self.queue.put_nowait(message)
            return True
        except asyncio.QueueFull:
            return False

    def close(self, dropped: bool = False) -> None:
        """Stop the client's writer: empty its queue and leave the end mark."""
        self.dropped = self.dropped or dropped
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)

    def select(self, status: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """The part of `status` this client subscribed to (None: every attribute of an object)."""
        out = {}
        for name, attrs in self.objects.items():
            if name in status:
                obj = status[name]
                picked = obj if attrs is None else {k: v for k, v in obj.items() if k in attrs}
                if picked:
                    out[name] = picked
        return out


def notification(method: str, *params: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "method": method, "params": list(params)}, ensure_ascii=False)


class LiveTable:
    def __init__(self, sim: SimulatorPort | None = None, clock: Callable[[], float] = time.time) -> None:
        self.feed: TableFeed | None = None
        self.sim = sim
        self.clock = clock
        self.hand = HandView()
        self.clients: set[Client] = set()
        self.refused = 0                 # messages the public filter stopped
        self.dropped = 0                 # clients dropped for falling behind
        self._fault_since: dict[tuple[int, int, str], float] = {}
        self._last: dict[str, dict[str, Any]] = {}
        self._events: list[dict[str, Any]] = []
        self._scheduled = False
        self.storage_low: dict[str, Any] | None = None    # the card nearly full: its room, as last said

    def attach(self, feed: TableFeed) -> None:
        self.feed = feed
        feed.listen(self._on_event, self._on_change)
        self._on_change()

    # -- what happened ------------------------------------------------------------------------------

    def _on_event(self, event: dict[str, Any]) -> None:
        self.hand.on_event(event)
        if event["event"] == "warning" and event.get("storage") == "low":
            self.storage_low = {"free_mb": event.get("free_mb"), "total_mb": event.get("total_mb")}
        elif event["event"] == "storage_room":
            self.storage_low = None
        if self.clients:
            self._events.append(event)
        self._on_change()

    def _on_change(self) -> None:
        if self._scheduled or not self.clients:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return                                   # not in the loop: the next query builds the state
        self._scheduled = True
        loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Send what changed since the last flush to every client (never blocks, never raises)."""
        self._scheduled = False
        events, self._events = self._events, []
        try:
            status = self.status(self._followed())
            changes = diff(self._last, status)
            self._last.update(status)
            lines = [line for event in events for line in self._event_message(event)]
            updates: dict[str, str | None] = {}            # one check and one encoding per kind of subscription
            for client in list(self.clients):
                key = json.dumps(client.objects, sort_keys=True)
                if key not in updates:
                    updates[key] = self._status_message(client.select(changes))
                self._send(client, lines, updates[key])
        except Exception:                              # a bug here must not stop the table
            log.exception("the web view failed to publish a change")

    def _followed(self) -> set[str]:
        return {name for client in self.clients for name in client.objects}

    def _event_message(self, event: dict[str, Any]) -> list[str]:
        try:
            check_event(event)
        except SecretLeak as error:
            self.refused += 1
            log.error("the web's public filter refused an event: %s", error)
            return []
        out = [notification("notify_table_event", event)]
        if event["event"] == "hand_end":
            session = self.feed.session_state() if self.feed else None
            out.append(notification("notify_history_changed", {"action": "finished", "hand": event["hand"],
                                                               "session": session.session_id if session else None}))
        return out

    def _status_message(self, changes: dict[str, Any]) -> str | None:
        if not changes:
            return None
        try:
            check_status(changes)
        except SecretLeak as error:
            self.refused += 1
            log.error("the web's public filter refused a state change: %s", error)
            return None
        return notification("notify_status_update", changes, round(self.clock(), 3))

    def _send(self, client: Client, lines: list[str], update: str | None) -> None:
        for message in lines + ([update] if update is not None else []):
            if not client.offer(message):
                self.drop(client)
                return

    # -- clients ------------------------------------------------------------------------------------

    def subscribe(self, client: Client, objects: dict[str, list[str] | None]) -> dict[str, Any]:
        """(Re)subscribe `client` to `objects`; returns their full current state (checked)."""
        client.objects = {name: attrs for name, attrs in objects.items() if name in OBJECTS}
        if client.objects:
            if self._scheduled:
                self._flush()                      # the others get this turn's changes first
            self._last.update(self.status(set(client.objects)))   # its changes count from the state it gets
            self.clients.add(client)
        else:
            self.clients.discard(client)
        return self.query(client.objects)

    def unsubscribe(self, client: Client) -> None:
        self.clients.discard(client)

    def drop(self, client: Client) -> None:
        """A client fell behind: stop sending to it; it must resubscribe (or read /api/state)."""
        if client in self.clients:
            self.clients.discard(client)
            self.dropped += 1
            client.close(dropped=True)

    def query(self, objects: dict[str, list[str] | None]) -> dict[str, Any]:
        """{"eventtime", "status": {object: {attribute: value}}} for the named objects (unknown
        names left out); raises SecretLeak rather than return anything the filter refuses."""
        selector = Client(objects)
        status = selector.select(self.status(set(objects)))
        try:
            check_status(status)
        except SecretLeak:
            self.refused += 1
            raise
        return {"eventtime": round(self.clock(), 3), "status": status}

    # -- the objects --------------------------------------------------------------------------------

    def status(self, names: set[str] | None = None) -> dict[str, dict[str, Any]]:
        """The objects named (all when None); `sim` only against the simulator."""
        wanted = set(OBJECTS) if names is None else names
        feed = self.feed
        out: dict[str, dict[str, Any]] = {}
        if feed is None:
            out = {"table": {"lifecycle": "starting"}, "display": {}, "faults": {"active": False, "latched": []}}
        else:
            mirror = feed.mirror()
            if wanted & {"table", "sim"}:
                out["table"] = self._table(feed, mirror)
            if "display" in wanted:
                out["display"] = _display(mirror)
            if "faults" in wanted:
                out["faults"] = self._faults(feed)
        if self.sim is not None and "sim" in wanted:
            out["sim"] = self._sim(out)
        return {name: value for name, value in out.items() if name in wanted}

    def _table(self, feed: TableFeed, mirror: DisplayMirror) -> dict[str, Any]:
        ruleset = feed.ruleset()
        state = feed.session_state()
        main = mirror.pages.get("main", {})
        hand = self.hand
        indicators = hand.public_indicators()
        return {
            "lifecycle": feed.lifecycle(),
            "ruleset": ruleset.id, "ruleset_name": ruleset.region.name, "options": dict(ruleset.options),
            "session": state.session_id if state else None,
            "message": main.get("t_msg", ""), "round": main.get("t_round", ""),
            "hand": hand.number, "hand_over": hand.over,
            "dealer": self._dealer_now(state), "dealer_repeats": state.dealer_repeats if state else 0,
            "hand_dealer": hand.dealer,
            "dice": hand.dice,
            "indicators": indicators,
            "wilds": sorted({w for i in indicators if i["wilds"] for w in i["wilds"]}),
            "stacks_left": main.get("n_left"),
            "scores": list(state.totals) if state else [0, 0, 0, 0],
            "players": list(ruleset.players),
            "seats": [{"seat": side, "status": line0, "prompt": line1, "private": line1 is None}
                      for side, (line0, line1) in enumerate(mirror.seats)],
            "wins": hand.wins,
            "result": hand.result,
            "storage_low": self.storage_low,
        }

    def _dealer_now(self, state: SessionState | None) -> int | None:
        """The dealer of the hand in play, else the session's next: they differ only in a session's
        first hand when dice chose its dealer (house option first_dealer), which the session takes
        on as its dealer only once that hand is settled."""
        if self.hand.dealer is not None and not self.hand.over:
            return self.hand.dealer
        return state.dealer if state else None

    def _faults(self, feed: TableFeed) -> dict[str, Any]:
        latched = feed.faults()
        now = self.clock()
        keys = {f.key for f in latched}
        self._fault_since = {k: t for k, t in self._fault_since.items() if k in keys}
        for fault in latched:
            self._fault_since.setdefault(fault.key, now)
        return {"active": bool(latched), "latched": [
            {"code": f.label, "unit": f.unit, "source": f.source, "message": f.message, "name_zh": f.hint.name_zh,
             "todo_zh": f.hint.todo_zh, "name_en": f.hint.name_en, "todo_en": f.hint.todo_en,
             "interlock": f.interlock, "since": round(self._fault_since[f.key], 3)} for f in latched]}

    def _sim(self, status: dict[str, dict[str, Any]]) -> dict[str, Any]:
        assert self.sim is not None
        physical = self.sim.physical_state()
        table = status["table"]
        seats = table.get("seats") or [{"status": "", "prompt": "", "private": False}] * 4
        physical["seat_displays"] = [_redact(lines, seat) for lines, seat in zip(physical["seat_displays"], seats)]
        physical["shown"], physical["aside"] = self._face_up(table, physical)
        physical["keys"] = panel_keys()
        return physical

    def _face_up(self, table: dict[str, Any], physical: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
        """The tiles lying face up: public indicators still standing in the wall (placed by the
        hand's ring), and those the dealer took out of play.  Only faces the table made public."""
        if self.feed is None or self.hand.brk is None or self.hand.over:
            return [], []
        ring = self._ring(self.feed.ruleset(), self.hand.brk)
        shown, aside = [], []
        for indicator in table["indicators"]:
            if not indicator["public"] or not indicator["tile"]:
                continue
            for index, layer, tile in zip(indicator["ring"] or [], indicator["layer"] or [], indicator["tile"]):
                if (index, layer) in self.hand.set_aside:
                    aside.append(tile)
                elif 0 <= index < len(ring):
                    pos = ring[index]
                    stacks = physical["sides"][pos.wall]["stacks"]
                    count = stacks[pos.stack] if pos.stack < len(stacks) else 0
                    if count == 2 or (count == 1 and layer == "bottom"):
                        shown.append({"side": pos.wall, "stack": pos.stack, "layer": layer, "tile": tile})
        return shown, aside

    @functools.lru_cache(maxsize=4)
    def _ring(self, ruleset: Ruleset, brk: tuple[int, int]) -> Any:
        """The hand's ring (computed once per break, not at every change)."""
        return ruleset.layout.ring(Break(*brk))


LAYOUT_JSON = {page.name: [[c.name, c.kind] for c in page.components] for page in LAYOUT.pages}


def as_shown(value: str | int) -> str | int:
    """A text as the display draws it: sent as GB2312, a character outside it arrives as '?'."""
    return value.encode(ENCODING, "replace").decode(ENCODING) if isinstance(value, str) else value


def _display(mirror: DisplayMirror) -> dict[str, Any]:
    """The public display: the page showing, every page's components as drawn, the seat lines
    anyone may read, and the layout (drivers/display_layout.py) the page draws them in."""
    pages = {page: {name: as_shown(value) for name, value in components.items()}
             for page, components in mirror.pages.items()}
    return {"page": mirror.page, "pages": pages, "seats": [list(s) for s in mirror.seats], "layout": LAYOUT_JSON}


def _redact(lines: list[str], seat: dict[str, Any]) -> list[str | None]:
    """A seat display as the simulator shows it, line 1 as the public mirror has it: left out
    (None) while it is private, and never the simulator's own line 1, which may still show a
    private line the controller has just replaced."""
    return [(lines + [""])[0], seat.get("prompt")]


def diff(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The attributes of each object that changed (new objects whole)."""
    out: dict[str, dict[str, Any]] = {}
    for name, attrs in new.items():
        before = old.get(name)
        if before is None:
            out[name] = attrs
            continue
        changed = {k: v for k, v in attrs.items() if before.get(k) != v}
        if changed:
            out[name] = changed
    return out


__all__ = ["Client", "HandView", "LiveTable", "OBJECTS", "QUEUE_LIMIT", "TableFeed", "diff", "notification"]
