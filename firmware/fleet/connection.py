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


async def keep_connected(connect: Callable[[], aiomqtt.Client], serve: Callable[[aiomqtt.Client], Awaitable[None]],
                         stopping: asyncio.Event, backoff: Backoff, *, name: str,
                         on_link: Callable[[bool], None] = lambda up: None) -> None:
    """Connect, serve, and after any failure wait and connect again, until `stopping` is set and
    `serve` has returned."""
    while not stopping.is_set():
        client = connect()
        try:
            async with client:
                on_link(True)
                backoff.reset()
                await serve(client)
                return
        except aiomqtt.MqttError as error:
            wait = backoff.next()
            log.warning("%s: the broker is unreachable or went away (%s); trying again in %.1f s%s", name, error, wait,
                        f"; {NETWORK_CLOSED}" if network_closed(error) else "")
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


__all__ = ["Backoff", "all_done", "first_done", "keep_connected", "new_client", "tls_context"]
