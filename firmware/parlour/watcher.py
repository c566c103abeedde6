"""The parlour's side of the broker: every table's status, events and settled hands.

`ParlourWatcher` subscribes to `mahjong/+/hands` (QoS 1), `…/status` and `…/events` (QoS 0)
with a persistent session (`clean_session=False`, a fixed client id), so a broker that keeps
sessions queues the hands sent while the parlour is away, and nothing else.  The retained
statuses give the whole parlour the moment it (re)subscribes.  It keeps each table's latest status in memory
(written to its store every few seconds: the latest wins), each hand in the store at once (kept
once however often it arrives), and a line in the store whenever a table comes, goes, is lost
or latches a fault.  Anything malformed from the network is counted and skipped, never fatal.

A table is `online`, `offline` (its status says so: a clean stop, or the last will the broker
sent when the table vanished), or `lost` (online, but nothing heard for three heartbeats).  A last
will is written to the changes only once the table has stayed away as long as silence takes to
count as lost: a broker that restarts sends every table's will (and keeps it) though the tables play
on and are back within a minute, and fifty false "lost" lines would bury a real one.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import aiomqtt

from ..fleet.connection import Backoff, keep_connected, new_client, tls_context
from ..fleet.settings import PARLOUR_CLIENT_ID, BrokerSettings
from ..fleet.topics import PARLOUR_SUBSCRIPTIONS, split_topic
from ..records.store import Store
from .checks import checked_event, checked_hand, checked_status, is_time, loads
from .store import ParlourStore, day_of

log = logging.getLogger("firmware.parlour")

LOST_AFTER = 3               # heartbeats without a word before a table counts as lost
RECENT = 30                  # hands shown on the page
SAVE_EVERY = 2.0             # seconds between writes of the changed statuses
EventListener = Callable[[str, dict[str, Any], float], None]


@dataclass
class TableSeen:
    name: str
    status: dict[str, Any] = field(default_factory=dict)
    last_seen: float = 0.0
    run: float | None = None          # the publisher run its events are numbered in
    last_seq: int = 0
    events: int = 0
    missed: int = 0                   # events never received (gaps in the numbering)
    repeated: int = 0                 # events received twice (sent again after a reconnect)
    noted: str | None = None          # the state last written to the store's changes
    will_at: float | None = None      # when its last will (offline, "lost") arrived, while it stands
    heard_unknown: bool = False       # found gone as the parlour started: when it was last heard is unknown

    def state(self, now: float) -> str:
        if self.status.get("status") == "offline":
            return "offline"
        return "lost" if now - self.last_seen > self.patience() else "online"

    def patience(self) -> float:
        """How long a table may go unheard before it counts as lost: three heartbeats."""
        heartbeat = self.status.get("heartbeat_s")
        heartbeat = heartbeat if isinstance(heartbeat, (int, float)) and heartbeat > 0 else 60.0
        return LOST_AFTER * heartbeat

    def clock_offset(self) -> float:
        """The parlour's clock less the table's, as its last status showed them (when the parlour heard
        it, by its `updated`); 0 when not known.  A Pi with no clock and no time server runs hours
        behind, and its retained status, read at the parlour's start, said it was heard hours ago:
        "lost" at every start of the parlour, then "online" again at its next status."""
        updated = self.status.get("updated")
        if self.last_seen > 0 and isinstance(updated, (int, float)) and not isinstance(updated, bool):
            return self.last_seen - float(updated)
        return 0.0

    def will_standing(self, now: float) -> bool:
        """Its last will arrived, and it has not yet been away long enough to write down."""
        return self.will_at is not None and now - self.will_at < self.patience()

    def fault_codes(self) -> set[str]:
        return {str(f.get("code")) for f in self.status.get("faults") or [] if isinstance(f, dict)}


@dataclass
class WatcherStats:
    messages: int = 0
    hands: int = 0
    duplicates: int = 0               # hands received again and kept once
    malformed: int = 0


class ParlourWatcher:
    def __init__(self, broker: BrokerSettings, store_path: str | Path, *, client_id: str = PARLOUR_CLIENT_ID,
                 clock: Callable[[], float] = time.time, ack_timeout: float = 10.0, keepalive: int = 30,
                 backoff: tuple[float, float] = (1.0, 30.0)) -> None:
        self.broker = broker
        self.store_path = store_path
        self.client_id = client_id
        self.clock = clock
        self.ack_timeout, self.keepalive, self.backoff = ack_timeout, keepalive, backoff
        self.tables: dict[str, TableSeen] = {}
        self.recent: deque[dict[str, Any]] = deque(maxlen=RECENT)
        self.stats = WatcherStats()
        self.connected = asyncio.Event()
        self._today: Counter = Counter()          # (day, table) → hands stored
        self._dirty: set[str] = set()
        self._store: Store | None = None
        self._db: ParlourStore | None = None
        self._tls: Any = None
        self._stopping = asyncio.Event()
        self._changed = asyncio.Event()
        self._listeners: list[Callable[[], None]] = []
        self._event_listeners: list[EventListener] = []
        self._tasks: list[asyncio.Task] = []

    # -- life --------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Open the store (sqlite3.Error if it cannot be used), load what it knows, start watching."""
        self._store = Store("parlour-store")
        try:
            self._db = await self._store.run(ParlourStore, self.store_path)
            await self._store.run(self._load)
            self._tls = await self._store.run(tls_context, self.broker)
        except BaseException:
            await asyncio.get_running_loop().run_in_executor(None, self._store.close)
            raise
        self._tasks = [asyncio.create_task(self._connection(), name="parlour-connection"),
                       asyncio.create_task(self._save_loop(), name="parlour-save")]

    async def stop(self) -> None:
        if self._store is None:
            return
        self._stopping.set()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        store, self._store = self._store, None
        try:
            await store.run(self._save_now)
            await store.run(self._db.close)  # type: ignore[union-attr]
        finally:
            await asyncio.get_running_loop().run_in_executor(None, store.close)

    def _load(self) -> None:
        assert self._db is not None
        today = day_of(self.clock())
        written = self._db.last_states()
        for name, status, seen in self._db.tables():
            if self._readable(f"the stored status of {name}", lambda: checked_status(status) and is_time(seen)):
                self.tables[name] = self._reloaded(name, status, seen, written.get(name))
        for hand in reversed(self._db.hands(limit=RECENT)):
            if self._readable(f"a stored hand of {hand.get('table')}", lambda: checked_hand(hand, str(hand.get("table")))):
                self.recent.appendleft(hand)
        for name, count in self._db.hands_per_table(today).items():
            self._today[(today, name)] = count

    @staticmethod
    def _reloaded(name: str, status: dict[str, Any], seen: float, written: str | None) -> TableSeen:
        """A table as the last run left it: its changes say what was already written down (not its state
        now: a table lost while the parlour was away was then never written), and a last will not yet
        written stands from when it came (its last_seen), to be written once it has stood long enough."""
        table = TableSeen(name, status, seen, noted=written)
        if status.get("status") == "offline" and status.get("reason") == "lost" and written != "offline":
            table.will_at = seen
        return table

    def _readable(self, what: str, check: Callable[[], Any]) -> bool:
        """A row of a store written before the checks: one that fails them is counted and left out
        (a table comes back with its next status), so the page still opens."""
        try:
            if check():
                return True
            error: Exception = ValueError("its time is not seconds since 1970")
        except (ValueError, KeyError, TypeError) as failed:
            error = failed
        self.stats.malformed += 1
        log.warning("parlour: left out %s, which is malformed: %s", what, error)
        return False

    # -- who wants to know -------------------------------------------------------------------------

    def listen(self, listener: Callable[[], None]) -> None:
        """`listener()` after every change (it must not block)."""
        self._listeners.append(listener)

    def unlisten(self, listener: Callable[[], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def listen_events(self, listener: EventListener) -> Callable[[], None]:
        """`listener(table, envelope, received_at)` for every new public event (not a repeat);
        returns what stops it."""
        self._event_listeners.append(listener)
        return lambda: self._event_listeners.remove(listener)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float) -> None:
        """Return once `predicate()` holds (checked after every change); TimeoutError otherwise."""
        async def until() -> None:
            while not predicate():
                changed = self._changed
                await changed.wait()
        async with asyncio.timeout(timeout):      # not wait_for: on 3.11 it can swallow a cancel
            await until()

    def _tell(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        for listener in self._listeners:
            listener()

    async def hands(self, *, table: str | None = None, day: Any = None, limit: int = 50) -> list[dict[str, Any]]:
        """Hands from the store, newest first (read on the writer thread)."""
        assert self._store is not None and self._db is not None
        return await self._store.run(lambda: self._db.hands(table=table, day=day, limit=limit))  # type: ignore[union-attr]

    async def changes(self, limit: int = 50) -> list[dict[str, Any]]:
        assert self._store is not None and self._db is not None
        return await self._store.run(self._db.changes, limit)

    # -- the broker ---------------------------------------------------------------------------------

    async def _connection(self) -> None:
        await keep_connected(self._client, self._serve, self._stopping, Backoff(*self.backoff),
                             name=f"parlour, MQTT {self.broker.url()}", on_link=self._link)

    def _client(self) -> aiomqtt.Client:
        return new_client(self.broker, self.client_id, tls=self._tls, timeout=self.ack_timeout,
                          keepalive=self.keepalive, clean_session=False)

    def _link(self, up: bool) -> None:
        (self.connected.set if up else self.connected.clear)()
        self._tell()

    async def _serve(self, client: aiomqtt.Client) -> None:
        await client.subscribe(list(PARLOUR_SUBSCRIPTIONS))
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, (bytes, bytearray)) else b""
            await self.receive(str(message.topic), bytes(payload), message.retain)

    async def receive(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """One message from the broker."""
        where = split_topic(topic)
        if where is None:
            return
        table, kind = where
        now = self.clock()
        self.stats.messages += 1
        try:
            data = loads(payload)
            if kind == "status":
                self._on_status(table, data, retain, now)
            elif kind == "events":
                self._on_event(table, data, now)
            else:
                await self._on_hand(table, data, now)
        except (ValueError, KeyError, TypeError) as error:
            self.stats.malformed += 1
            log.warning("parlour: skipped a malformed message on %s: %s", topic, error)
            return
        self._tell()

    # -- what arrived -------------------------------------------------------------------------------

    def _seen(self, table: str) -> TableSeen:
        if table not in self.tables:
            self.tables[table] = TableSeen(table)
        return self.tables[table]

    def _on_status(self, table: str, data: dict[str, Any], retain: bool, now: float) -> None:
        checked_status(data)
        seen = self._seen(table)
        faults_before = seen.fault_codes()
        seen.last_seen = self._heard(seen, data, retain, now)
        if data["status"] == "online" or data.get("reason") != "lost":
            seen.will_at = None
        elif seen.will_at is None:
            seen.will_at = seen.last_seen         # a will kept by the broker: it stands from when the table was last heard
        seen.status = {**seen.status, **data} if data["status"] == "offline" else data
        self._dirty.add(table)
        self._check(seen, now)
        faults_after = seen.fault_codes()
        if faults_after - faults_before:
            self._note(table, now, "fault", " ".join(sorted(faults_after - faults_before)))
        if faults_before - faults_after:
            self._note(table, now, "clear", " ".join(sorted(faults_before - faults_after)))

    @staticmethod
    def _heard(seen: TableSeen, data: dict[str, Any], retain: bool, now: float) -> float:
        """When the table was last heard, by this status.  A retained one may be old: an online
        status says when it was sent, by the table's clock, which the parlour reads through the
        difference of the clocks its last status showed (`clock_offset`; never later than now); a
        last will says nothing, so the time known before stays (a parlour restarted around a loss
        shows when the table went, not its own restart), and only a table the parlour never heard
        of is taken as heard now (`heard_unknown`)."""
        seen.heard_unknown = False
        if not retain:
            return now
        if is_time(data.get("updated")):
            return min(now, float(data["updated"]) + seen.clock_offset())
        if seen.last_seen > 0:
            return seen.last_seen
        seen.heard_unknown = True
        return now

    def _on_event(self, table: str, data: dict[str, Any], now: float) -> None:
        run, seq = checked_event(data)["run"], data["seq"]
        seen = self._seen(table)
        if run != seen.run:
            seen.run, seen.last_seq = run, 0
        if seq <= seen.last_seq:
            seen.repeated += 1
            return
        seen.missed += seq - seen.last_seq - 1
        seen.last_seq = seq
        seen.events += 1
        if seen.status.get("status") == "online":
            seen.last_seen = max(seen.last_seen, now)
        for listener in self._event_listeners:
            listener(table, data, now)

    async def _on_hand(self, table: str, data: dict[str, Any], now: float) -> None:
        checked_hand(data, table)
        assert self._store is not None and self._db is not None
        if await self._store.run(self._db.add_hand, data, now):
            self.stats.hands += 1
            self.recent.appendleft(data)
            self._today[(day_of(data["finished"]), table)] += 1
        else:
            self.stats.duplicates += 1

    def _check(self, seen: TableSeen, now: float) -> bool:
        """Write down a table that came, went or was lost; True when its state changed."""
        state = seen.state(now)
        if state == seen.noted or (seen.will_standing(now) and seen.noted is not None):
            return False
        seen.noted = state
        at = seen.will_at if state == "offline" and seen.will_at is not None else now     # a will: when it came
        reason = str(seen.status.get("reason") or "")
        if state == "offline" and seen.heard_unknown:
            reason += " (gone before the parlour started; when it was last heard is unknown)"
        self._note(seen.name, at, state, reason)
        return True

    def _note(self, table: str, at: float, what: str, detail: str) -> None:
        if self._store is not None and self._db is not None:
            self._store.submit(self._db.note, table, at, what, detail)

    # -- the store ----------------------------------------------------------------------------------

    async def _save_loop(self) -> None:
        assert self._store is not None
        while True:
            await asyncio.sleep(SAVE_EVERY)
            now = self.clock()
            if [seen for seen in list(self.tables.values()) if self._check(seen, now)]:
                self._tell()                      # a table went quiet: the page shows it lost
            if self._dirty:
                await self._store.run(self._save_now)

    def _save_now(self) -> None:
        """The changed statuses, in one transaction (on the writer thread)."""
        dirty, self._dirty = self._dirty, set()
        if dirty and self._db is not None:
            self._db.save_statuses([(name, self.tables[name].status, self.tables[name].last_seen) for name in dirty])

    # -- the page's view ----------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        now = self.clock()
        today = day_of(now)
        tables = []
        for name in sorted(self.tables):
            seen = self.tables[name]
            status = seen.status
            current = day_of(float(status.get("updated") or seen.last_seen or now)) == today
            tables.append({
                "name": name, "state": seen.state(now), "reason": status.get("reason"),
                **{key: status.get(key) for key in ("phase", "message", "ruleset", "ruleset_name", "session",
                                                    "session_started", "hand", "hand_over", "dealer", "totals",
                                                    "fault", "faults", "storage_low", "version")},
                "hours_today": status.get("hours_today") if current else 0.0,
                "hands_today": status.get("hands_today") if current else 0,
                "hands_received_today": self._today[(today, name)],
                "last_seen": round(seen.last_seen, 3), "events": seen.events, "missed": seen.missed,
            })
        recent = sorted(self.recent, key=lambda hand: hand["finished"], reverse=True)
        return {"now": round(now, 3), "broker": {"url": self.broker.url(), "connected": self.connected.is_set()},
                "tables": tables, "recent": recent,
                "totals": {"tables": len(tables), "online": sum(t["state"] == "online" for t in tables),
                           "faults": sum(bool(t["fault"]) for t in tables if t["state"] == "online"),
                           "hands_today": sum(t["hands_received_today"] for t in tables)}}


__all__ = ["LOST_AFTER", "ParlourWatcher", "TableSeen", "WatcherStats"]
