"""Staying connected to a broker: the reconnect loop with back-off, shared by the table's publisher
and the parlour's watcher (aiomqtt 2.x; docs/fleet.md says why this client).

`keep_connected` enters a fresh `aiomqtt.Client` (a client whose last exit failed is never
reused), runs `serve(client)` until it returns (asked to stop) or the connection fails, then
waits — 1 s, 2 s, 4 s … up to the longest, with some jitter so a parlour of tables does not come
back in step — and tries again.  A failure is one log line, never an exception out of the loop.
"""

from __future__ import annotations

import asyncio
import logging
import random
import ssl
from typing import Any, Awaitable, Callable, Sequence

import aiomqtt

from ..service import NETWORK_CLOSED, network_closed
from .settings import BrokerSettings

log = logging.getLogger("firmware.fleet")


class Backoff:
    """The waits between attempts: doubling from `first` to `longest`, ±20 % jitter."""

    def __init__(self, first: float, longest: float, rng: random.Random | None = None) -> None:
        self.first, self.longest = first, longest
        self._next = first
        self._rng = rng or random.Random()

    def next(self) -> float:
        wait = self._next
        self._next = min(self.longest, self._next * 2)
        return wait * self._rng.uniform(0.8, 1.2)

    def reset(self) -> None:
        self._next = self.first


def tls_context(broker: BrokerSettings) -> ssl.SSLContext | None:
    """The TLS context for the broker (blocking: it reads certificates; run it off the loop)."""
    if not broker.tls:
        return None
    return ssl.create_default_context(cafile=broker.ca_file)


class GuardedClient(aiomqtt.Client):
    """aiomqtt 2.x's client, except that a write interest for a socket that closed before the
    event loop got to it is dropped.  aiomqtt schedules `add_writer(fd)` when paho has bytes to
    send; a broker that goes away in between leaves the fd closed, and the loop raised EBADF in
    that callback ("Exception in callback … add_writer", once in a loaded test run while a broker
    restarted) — or, with the fd number reused, would watch another socket."""

    def _on_socket_register_write(self, client: Any, userdata: Any, sock: Any) -> None:
        fileno = sock.fileno()

        def write() -> None:
            try:
                client.loop_write()
            except Exception as error:            # a broken pipe: the connection is gone
                if not self._disconnected.done():
                    self._disconnected.set_exception(error)

        def register() -> None:
            if fileno >= 0 and sock.fileno() == fileno:   # still open: a closed socket says -1
                self._loop.add_writer(fileno, write)

        self._loop.call_soon_threadsafe(register)   # paho may call this from the connecting thread


def new_client(broker: BrokerSettings, identifier: str, *, tls: ssl.SSLContext | None, timeout: float,
               keepalive: int, will: aiomqtt.Will | None = None, clean_session: bool = True,
               in_flight: int = 20) -> aiomqtt.Client:
    client = GuardedClient(broker.host, broker.port, username=broker.user, password=broker.password,
                            identifier=identifier, will=will, tls_context=tls, timeout=timeout, keepalive=keepalive,
                            clean_session=clean_session, max_queued_incoming_messages=10000,
                            max_inflight_messages=in_flight)
    client.pending_calls_threshold = in_flight + 5      # our own window: not worth a warning
    return client


SHORT_LIVED = 5.0            # a connection the broker ends sooner than this (s) counts towards a clash
CLASH_AFTER = 3              # short-lived connections in a row before the likely cause is named


class LinkTrouble:
    """What the log says about a connection's failures: each failure once, the likely cause of a
    connection the broker keeps dropping as soon as it accepts it (another client with the same id:
    MQTT 3.1.1 lets one connection hold an id, and the broker closes the older without a word), once,
    and a return after failures once; never a line every second while two clients knock each other
    off."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failures = 0              # failed attempts since the last connection
        self.dropped_soon = 0          # connections in a row the broker ended within SHORT_LIVED
        self.clash_said = False

    def connected(self) -> None:
        if self.failures and not self.clash_said:
            log.info("%s: connected to the broker again after %d failed attempt(s)", self.name, self.failures)
        self.failures = 0

    def failed(self, error: BaseException, wait: float, lasted: float | None, identifier: str) -> None:
        """`lasted`: how long the connection held (None: it never got connected)."""
        self.failures += 1
        if lasted is not None and lasted < SHORT_LIVED:
            self.dropped_soon += 1
        elif lasted is not None:
            self.dropped_soon, self.clash_said = 0, False
        if self.dropped_soon >= CLASH_AFTER and not self.clash_said:
            self.clash_said = True
            log.warning("%s: the broker ended the connection right after accepting it %d times in a row: most likely "
                        "another client uses the same client id %r (two tables with one --table name, or a parlour's "
                        "--client-id mjt-<table>), and each connection knocks the other off; give each its own",
                        self.name, self.dropped_soon, identifier)
            return
        if self.clash_said:             # said once: not a line a second while it goes on
            log.debug("%s: dropped again (%s); trying again in %.1f s", self.name, error, wait)
            return
        log.warning("%s: the broker is unreachable or went away (%s); trying again in %.1f s%s", self.name, error, wait,
                    f"; {NETWORK_CLOSED}" if network_closed(error) else "")


async def keep_connected(connect: Callable[[], aiomqtt.Client], serve: Callable[[aiomqtt.Client], Awaitable[None]],
                         stopping: asyncio.Event, backoff: Backoff, *, name: str,
                         on_link: Callable[[bool], None] = lambda up: None) -> None:
    """Connect, serve, and after any failure wait and connect again, until `stopping` is set and
    `serve` has returned."""
    trouble = LinkTrouble(name)
    loop = asyncio.get_running_loop()
    while not stopping.is_set():
        client = connect()
        since: float | None = None
        try:
            async with client:
                since = loop.time()
                on_link(True)
                trouble.connected()
                backoff.reset()
                await serve(client)
                return
        except aiomqtt.MqttError as error:
            wait = backoff.next()
            trouble.failed(error, wait, None if since is None else loop.time() - since, client.identifier)
        except Exception:                       # a bug must not end the reporting: say it, and go on
            wait = backoff.next()
            log.exception("%s: unexpected failure; trying again in %.1f s", name, wait)
        finally:
            on_link(False)
            close_half_open(client)
        try:
            async with asyncio.timeout(wait):      # not wait_for: on 3.11 it can swallow a cancel
                await stopping.wait()
        except asyncio.TimeoutError:
            pass


def close_half_open(client: aiomqtt.Client) -> None:
    """aiomqtt 2.x leaves the socket of a connection that failed before the broker's CONNACK (a
    broker that accepts TCP but does not answer) open, with its keepalive task running: close it."""
    paho = getattr(client, "_client", None)
    if paho is not None and paho.socket() is not None:
        paho.disconnect()


async def first_done(*coroutines: Awaitable[None]) -> None:
    """Run the coroutines side by side until one ends; cancel the others; raise the first error."""
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    _raise_first(tasks)


async def all_done(coroutines: Sequence[Awaitable[None]]) -> None:
    """Run the coroutines side by side (each bounded by its own timeout) until all end; raise the
    first error.  Cancelled from outside, it cancels them all first: nothing is left running."""
    tasks = [asyncio.ensure_future(c) for c in coroutines]
    try:
        if tasks:
            await asyncio.wait(tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    _raise_first(tasks)


def _raise_first(tasks: list[asyncio.Future]) -> None:
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]


__all__ = ["Backoff", "LinkTrouble", "all_done", "first_done", "keep_connected", "new_client", "tls_context"]
