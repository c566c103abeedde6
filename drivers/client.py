"""What every board client shares: a HostLink, typed commands, and a typed event queue."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import ClassVar, TypeVar

from .errors import CommandRejected, LinkError
from .link import EventMark, HostLink, LinkConfig, LinkStatistics, SessionRef
from .messages import BoardIdentity, BoardKind, Catalog, ClearFaults, Message, RequestSnapshot, Status
from .serial_transport import DEFAULT_BAUDRATE, open_serial, reopen_serial
from .stream import ByteStream

C = TypeVar("C", bound="BoardClient")


_Item = tuple[Message, EventMark | None, int] | LinkError   # an event as queued, or the failure


class _Inbox:
    """The client's event queue: asyncio.Queue's put and get, waking its getters the same way,
    without the bookkeeping of `task_done`/`join` and a bound (one put for every event received)."""

    def __init__(self) -> None:
        self._items: deque[_Item] = deque()
        self._getters: deque[asyncio.Future[None]] = deque()

    def empty(self) -> bool:
        return not self._items

    def put_nowait(self, item: _Item) -> None:
        self._items.append(item)
        self._wake_next()

    def get_nowait(self) -> _Item:
        return self._items.popleft()

    async def get(self) -> _Item:
        while not self._items:
            getter = asyncio.get_running_loop().create_future()
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()
                with contextlib.suppress(ValueError):
                    self._getters.remove(getter)
                if self._items and not getter.cancelled():
                    self._wake_next()
                raise
        return self._items.popleft()

    def _wake_next(self) -> None:
        while self._getters:
            getter = self._getters.popleft()
            if not getter.done():
                getter.set_result(None)
                break


class BoardClient:
    """A typed client over one board's link.

    Events arrive in order in an internal queue; read them with `next_event()` (it waits), and
    those already received with `received()` (it does not).  When the link fails, queued events are
    still handed out first, then `next_event()` raises the failure (LinkLost, BoardReset,
    EventUndecodable, …; LinkClosed after `close()`).  An event that does not decode is never
    queued: the link asks the board for it again (its count is `statistics().undecodable_events`).

    A LinkLost is an episode: `reconnect()` resumes the session (after `reopen()` if the port
    vanished), and the events continue, in order, from where they stood.

    `last_mark` is where the event last handed out stands (its session and seq): a
    client holding acks (`LinkConfig.hold_acks`) gives it back to `link.release` once the event's
    effects are durable.  `last_heard` is its place among every event this client received (0, 1,
    …): it was sent before the board got a command for which `send_heard` returned a number above it.
    """

    KIND: ClassVar[BoardKind]
    NAME: ClassVar[str]
    COMMANDS: ClassVar[Catalog]
    EVENTS: ClassVar[Catalog]

    def __init__(self, stream: ByteStream, *, config: LinkConfig = LinkConfig(),
                 url: str | None = None, baudrate: int = DEFAULT_BAUDRATE) -> None:
        self.link = HostLink(stream, device=f"{self.NAME} at {stream.description}",
                             expected_kind=self.KIND, config=config)
        self.url = url                  # where reopen() finds the port again (None: not reopenable)
        self.baudrate = baudrate
        self._queue = _Inbox()
        self.last_mark: EventMark | None = None
        self.last_heard = -1
        self.link.set_handlers(self._on_event, self._on_failure)

    @classmethod
    async def open(cls: type[C], url: str, *, baudrate: int = DEFAULT_BAUDRATE,
                   config: LinkConfig = LinkConfig(), session: SessionRef | int | None = None) -> C:
        """Open the port and handshake (resuming `session` if given and the board still holds
        it: see `connect`); raises PortError or a LinkError with one clear line."""
        client = cls(await open_serial(url, baudrate=baudrate), config=config, url=url, baudrate=baudrate)
        try:
            await client.connect(session)
        except BaseException:
            await client.close()
            raise
        return client

    async def __aenter__(self: C) -> C:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def device(self) -> str:
        return self.link.device

    @property
    def identity(self) -> BoardIdentity:
        if self.link.identity is None:
            raise LinkError(f"{self.device}: not connected (handshake first)")
        return self.link.identity

    async def connect(self, session: SessionRef | int | None = None) -> BoardIdentity:
        """Handshake: a new session, or resume `session` (`identity.resumed` says whether it was)."""
        return await self.link.connect(session)

    async def reconnect(self) -> BoardIdentity:
        """Resume this client's session after a LinkLost (HostLink.reconnect says what happens to
        the commands awaited meanwhile, and when a new session is opened instead)."""
        return await self.link.reconnect()

    async def reopen(self, url: str | None = None) -> None:
        """Open the port again at `url` (default its own URL: it vanished, a USB adapter re-enumerated,
        a socket closed) and run the link on it; then reconnect().  PortError if it is not back yet.
        The old port is closed first (a device is opened exclusively, and one whose board did not
        answer is still open); the open is cancel-safe (`reopen_serial`)."""
        url = url if url is not None else self.url
        if url is None:
            raise LinkError(f"{self.device}: opened from a stream, not a URL: cannot reopen it")
        await self.link.release_stream()
        await self.reattach(await reopen_serial(url, baudrate=self.baudrate))

    async def reattach(self, stream: ByteStream) -> None:
        """Run the link on a new stream (the old one is closed); then reconnect()."""
        await self.link.reattach(stream)

    async def send(self, command: Message) -> None:
        """Send one command; return once the board accepted it, raise CommandRejected if refused."""
        await self.send_heard(command)

    async def send_heard(self, command: Message) -> int:
        """`send`; returns how many events had been received when it was sent (see `last_heard`)."""
        status, heard = await self.link.command_heard(command.ID, command.encode_payload())
        if status != Status.OK:
            raise CommandRejected(self.device, command, status, Status.name_of(status))
        return heard

    async def clear_faults(self) -> None:
        await self.send(ClearFaults())

    async def request_snapshot(self) -> None:
        """Ask for the board's whole state as events, ending with SnapshotDone."""
        await self.send(RequestSnapshot())

    def statistics(self) -> LinkStatistics:
        return self.link.statistics()

    def trouble(self) -> int:
        """The link's trouble so far (`HostLink.trouble`): unchanged means no new trouble."""
        return self.link.trouble()

    async def close(self) -> None:
        await self.link.close()

    # -- events ----------------------------------------------------------------------------------

    def _on_event(self, msg: int, payload: bytes) -> None:
        # A MessageError goes back to the link, which does not count the event as delivered.
        self._queue.put_nowait((self.EVENTS.decode(msg, payload), self.link.last_mark, self.link.events_delivered))

    def _on_failure(self, error: LinkError) -> None:
        self._queue.put_nowait(error)

    async def next_event(self, timeout: float | None = None) -> Message:
        """The next event; raises TimeoutError, or the link's failure once the queue is empty."""
        while True:
            if self._queue.empty() and self.link.failure is not None:
                raise self.link.failure
            if timeout is None:
                item = await self._queue.get()
            else:
                async with asyncio.timeout(timeout):  # not wait_for: on 3.11 it may swallow a cancel
                    item = await self._queue.get()
            out = self._hand_out(item)
            if isinstance(out, LinkError):
                raise out
            if out is not None:
                return out

    def received(self) -> Message | None:
        """The next event already received, without waiting; None if there is none (or only the
        link's failure, which `next_event` raises)."""
        while not self._queue.empty():
            out = self._hand_out(self._queue.get_nowait())
            if isinstance(out, LinkError):
                return None
            if out is not None:
                return out
        return None

    def _hand_out(self, item: tuple | LinkError) -> Message | LinkError | None:
        """One item taken off the queue: its event (now `last_mark` and `last_heard`); the link's
        failure, put back so that it stays failed for the next reader too; or None, a failure from
        before a reconnect, dropped."""
        if isinstance(item, LinkError):
            if item is self.link.failure:
                self._queue.put_nowait(item)
                return item
            return None
        message, self.last_mark, self.last_heard = item
        return message

    def pending_events(self) -> list[Message]:
        """Every event already received, without waiting."""
        out = []
        while (message := self.received()) is not None:
            out.append(message)
        return out

