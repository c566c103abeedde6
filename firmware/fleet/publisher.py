"""The table's publisher: one task that tells the broker what the table shows, off the play path.

    publisher = FleetPublisher(settings, outbox_path, ledger_path)
    await publisher.start()
    publisher.attach(session.public_feed())       # once the session is composed
    …
    await publisher.stop()                         # a clean "offline", hands flushed if the broker is there

What goes out (topics.py, payloads.py; every payload through the public filter in `encode`):
- the retained status, the latest state only (at most every `status_interval`, and every
  `heartbeat` even when nothing changed), QoS 1; `offline` as the last will and on a clean stop;
- every public event of the recorder, numbered, QoS 1 in windows of 20, from a bounded queue;
- each settled hand, QoS 1, from the on-disk outbox: written there first by its own task, and
  removed only once the broker acknowledged it, so a hand survives a broker that is down, a
  broker restarted, and a table restarted;
- Home Assistant's device discovery, retained, on every connect and when HA says it is online.

The table never waits for any of it: its listeners append and flag (report.py); the disk work
runs on the publisher's own writer thread; a broker that stops answering is left after
`ack_timeout` and tried again with back-off (connection.py).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

import aiomqtt

from ..records.history import History, HistoryError
from ..records.store import Store
from ..version import package_version
from ..web.public_filter import SecretLeak
from ..web.live import TableFeed
from .connection import Backoff, all_done, first_done, keep_connected, new_client, tls_context
from .outbox import Outbox
from .payloads import discovery_config, encode, event_envelope, offline_payload, status_payload
from .report import TableReport
from .settings import FleetSettings, table_client_id
from .topics import Topics

log = logging.getLogger("firmware.fleet")

WINDOW = 20                  # QoS 1 messages in flight at once (paho's own default)
FACTS_EVERY = 300.0          # the ledger's hours of today are read again at least this often (s)
FACTS_NEWS = ("session_start", "session_resumed")   # events after which the ledger's facts are read


@dataclass
class PublisherStats:
    connections: int = 0
    published: int = 0
    hands_sent: int = 0
    refused: int = 0             # payloads the public filter stopped (never sent)


def ledger_facts(history: History | None, session: int | None, now: float) -> dict[str, Any]:
    """Today's hands and hours played, and when the session began, from the ledger (blocking)."""
    if history is None:
        return {}
    today = datetime.fromtimestamp(now).date()
    days = history.day_hours(today)
    facts: dict[str, Any] = {"hands_today": days[0].hands if days else 0,
                             "hours_today": round(days[0].played_s / 3600, 3) if days else 0.0}
    if session is not None:
        try:
            facts["session_started"] = round(history.session_started(session), 3)
        except HistoryError:
            pass
    return facts


class FleetPublisher:
    def __init__(self, settings: FleetSettings, outbox_path: str | Path, ledger_path: str | Path | None = None, *,
                 clock: Callable[[], float] = time.time, version: str | None = None,
                 ticks: Callable[[], float] = time.monotonic) -> None:
        """`clock` stamps what is sent (wall-clock seconds); `ticks` paces the status and heartbeat:
        never the wall clock, which a time sync can set back by hours (no status meanwhile)."""
        self.settings = settings
        self.topics = Topics(settings.table, settings.discovery_prefix)
        self.clock = clock
        self.ticks = ticks
        self.version = version or package_version()
        self.report = TableReport(settings.table, clock, settings.event_limit)
        self.report.on_news(self._news)
        self.stats = PublisherStats()
        self.connected = asyncio.Event()
        self._outbox_path = outbox_path
        self._history = History(ledger_path, clock=clock) if ledger_path else None
        self._store: Store | None = None
        self._outbox: Outbox | None = None
        self._tls: Any = None
        self._waiting_hands = 0
        self._facts: dict[str, Any] = {}
        self._wake = asyncio.Event()             # something to send
        self._settled = asyncio.Event()          # a hand to write to the outbox
        self._facts_due = asyncio.Event()
        self._stopping = asyncio.Event()
        self._status_pending = True
        self._status_sent_at = -math.inf
        self._refresh = True                     # discovery and a full status on the next turn
        self._tasks: list[asyncio.Task] = []

    # -- life --------------------------------------------------------------------------------------

    def attach(self, feed: TableFeed) -> None:
        """Follow the table (firmware.session.TableSession.public_feed())."""
        self.report.attach(feed)
        self._facts_due.set()
        self._news(None)

    async def start(self) -> None:
        """Open the outbox (OutboxError if it cannot be used) and start reporting."""
        self._store = Store("fleet-store")
        try:
            self._outbox = await self._store.run(Outbox, self._outbox_path, self.settings.outbox_limit)
            self._waiting_hands = await self._store.run(self._outbox.count)
            self._tls = await self._store.run(tls_context, self.settings.broker)
        except BaseException:
            await asyncio.get_running_loop().run_in_executor(None, self._store.close)
            raise
        self._tasks = [asyncio.create_task(self._persist_loop(), name="fleet-outbox"),
                       asyncio.create_task(self._facts_loop(), name="fleet-facts"),
                       asyncio.create_task(self._connection(), name="fleet-connection")]

    async def stop(self, grace: float = 3.0) -> None:
        """Write the last hands to the outbox, then, within `grace` seconds, send what is waiting
        and a clean "offline"; whatever the broker did not take stays in the outbox for next time."""
        if self._store is None:
            return
        *helpers, connection = self._tasks
        try:
            for task in helpers:                 # a hand being written goes back to memory …
                task.cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            await self._persist()                # … and is written here, with any settled since
            self._stopping.set()
            self._wake.set()
            try:
                await asyncio.wait_for(asyncio.shield(connection), grace)
            except asyncio.TimeoutError:
                log.warning("MQTT: the broker did not take the last messages within %.0f s; leaving it "
                            "(it sends the table's last will)", grace)
        finally:
            for task in self._tasks:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            if self.waiting_hands:
                log.warning("MQTT: %d settled hand(s) wait in %s; they go out when a run reaches the broker",
                            self.waiting_hands, self._outbox_path)
            store, self._store = self._store, None
            if self._outbox is not None:
                await store.run(self._outbox.close)
            await asyncio.get_running_loop().run_in_executor(None, store.close)

    @property
    def waiting_hands(self) -> int:
        """Settled hands not yet acknowledged by the broker (in memory or in the outbox)."""
        return self._waiting_hands + len(self.report.hands)

    # -- news from the table (on the play path: flags only) ------------------------------------------

    def _news(self, name: str | None) -> None:
        if name is not None:
            self._wake.set()
            if name == "hand_end":
                self._settled.set()
                self._facts_due.set()
            elif name in FACTS_NEWS:        # a session begun or picked up: its day's figures at once
                self._facts_due.set()
        if not self._status_pending:            # one wake per status, however often the table changes
            self._status_pending = True
            self._wake.set()

    # -- disk ---------------------------------------------------------------------------------------

    async def _persist_loop(self) -> None:
        while True:
            await self._settled.wait()
            self._settled.clear()
            await self._persist()

    async def _persist(self) -> None:
        """Settled hands from memory to the outbox, through the public filter, oldest first.  A hand
        leaves memory only once written (the outbox keeps a hand once, however often it is written),
        so one interrupted or failed is written with the next."""
        assert self._store is not None and self._outbox is not None
        hands = self.report.hands
        while hands:
            hand = hands[0]
            data = self._encoded("hand", hand)
            if data is not None:
                try:
                    self._waiting_hands = await self._store.run(self._outbox.put, hand["id"], self.topics.hands, data)
                except Exception as error:
                    log.error("MQTT: cannot write a settled hand to the outbox %s: %s", self._outbox_path, error)
                    return
            hands.remove(hand)
        self._wake.set()

    async def _facts_loop(self) -> None:
        assert self._store is not None
        while True:
            try:
                async with asyncio.timeout(FACTS_EVERY):      # not wait_for: on 3.11 it can swallow a cancel
                    await self._facts_due.wait()
            except asyncio.TimeoutError:
                pass
            self._facts_due.clear()
            session = self.report.session_id()
            if session is None:                  # no session yet: the ledger may still be being made
                continue
            try:
                self._facts = await self._store.run(ledger_facts, self._history, session, self.clock())
            except Exception as error:           # an unreadable ledger costs the figures, not the reporting
                log.warning("MQTT: cannot read today's hours from the ledger: %s", error)
            self._news(None)

    # -- the broker ---------------------------------------------------------------------------------

    async def _connection(self) -> None:
        await keep_connected(self._client, self._serve, self._stopping, Backoff(*self.settings.backoff),
                             name=f"MQTT {self.settings.broker.url()}", on_link=self._link)

    def _client(self) -> aiomqtt.Client:
        will = aiomqtt.Will(self.topics.status, encode("status", offline_payload(self.settings.table, "lost")),
                            qos=1, retain=True)
        return new_client(self.settings.broker, table_client_id(self.settings.table), tls=self._tls,
                          timeout=self.settings.ack_timeout, keepalive=self.settings.keepalive, will=will,
                          in_flight=WINDOW)

    def _link(self, up: bool) -> None:
        if up:
            self.stats.connections += 1
            self.connected.set()
            self._refresh = True
        else:
            self.connected.clear()

    async def _serve(self, client: aiomqtt.Client) -> None:
        await client.subscribe(self.topics.home_assistant_status, qos=1)
        await first_done(self._listen(client), self._pump(client))

    async def _listen(self, client: aiomqtt.Client) -> None:
        """Home Assistant came (back) online: send the discovery and the status again.  Ends with
        MqttError when the connection drops, which ends the pump too."""
        async for message in client.messages:
            if message.payload == b"online":
                self._refresh = True
                self._wake.set()

    async def _pump(self, client: aiomqtt.Client) -> None:
        """Send what is waiting, then sleep until there is more; returns once asked to stop."""
        while True:
            self._wake.clear()
            if self._refresh:
                self._refresh = False
                await self._send(client, self.topics.discovery, "discovery",
                                 discovery_config(self.topics, self.version), retain=True)
                self._status_pending = True
                self._status_sent_at = -math.inf
            await self._send_hands(client)           # hands first: one window of events at a time
            await self._send_events(client)
            await self._send_status(client)
            if self.report.events or self._waiting_hands:
                continue
            if self._stopping.is_set():
                await self._send(client, self.topics.status, "status",
                                 offline_payload(self.settings.table, "stopped", self._status_now()), retain=True)
                return
            try:
                async with asyncio.timeout(self._status_due()):      # not wait_for: on 3.11 it can swallow a cancel
                    await self._wake.wait()
            except asyncio.TimeoutError:
                pass

    def _status_due(self) -> float:
        since = self.ticks() - self._status_sent_at
        wait = (self.settings.status_interval if self._status_pending else self.settings.heartbeat) - since
        return max(0.0, wait)

    def _status_now(self) -> dict[str, Any]:
        return status_payload(self.settings.table, self.report.objects(), self._facts, now=self.clock(),
                              heartbeat=self.settings.heartbeat, version=self.version)

    async def _send_status(self, client: aiomqtt.Client) -> None:
        if self._status_due() > 0 or self._stopping.is_set():
            return
        self._status_pending = False
        payload = self._status_now()
        await self._send(client, self.topics.status, "status", payload, retain=True)
        self._status_sent_at = self.ticks()

    async def _send_hands(self, client: aiomqtt.Client) -> None:
        assert self._store is not None and self._outbox is not None
        while self._waiting_hands:
            rows = await self._store.run(self._outbox.peek, WINDOW)
            if not rows:
                self._waiting_hands = 0
                return
            await all_done([self._publish(client, topic, payload, qos=1) for _, topic, payload in rows])
            self._waiting_hands = await self._store.run(self._outbox.remove, [row[0] for row in rows])
            self.stats.hands_sent += len(rows)

    async def _send_events(self, client: aiomqtt.Client) -> None:
        """One window of the waiting events."""
        report = self.report
        batch = report.take_events(WINDOW)
        messages = [self._encoded("event", event_envelope(self.settings.table, report.run, seq, at, event))
                    for seq, at, event in batch]
        try:
            await all_done([self._publish(client, self.topics.events, m, qos=1) for m in messages if m is not None])
        except BaseException:
            report.put_back(batch)                # sent again after the reconnect (a reader may see one twice)
            raise

    async def _send(self, client: aiomqtt.Client, topic: str, kind: str, payload: dict[str, Any],
                    retain: bool = False) -> None:
        data = self._encoded(kind, payload)
        if data is not None:
            await self._publish(client, topic, data, qos=1, retain=retain)

    def _encoded(self, kind: str, payload: dict[str, Any]) -> bytes | None:
        try:
            return encode(kind, payload)
        except SecretLeak as error:
            self.stats.refused += 1
            log.error("MQTT: the public filter refused a %s message: %s", kind, error)
            return None

    async def _publish(self, client: aiomqtt.Client, topic: str, payload: bytes, *, qos: int,
                       retain: bool = False) -> None:
        await client.publish(topic, payload, qos=qos, retain=retain, timeout=self.settings.ack_timeout)
        self.stats.published += 1


__all__ = ["FleetPublisher", "PublisherStats", "ledger_facts"]
