"""The display client: page changes, text/number/visibility setters, touch events (protocol.md §7).

Writes are fire-and-forget, as the Nextion protocol has no acknowledgement worth waiting for at
115200 baud; the client asks the display to report failed instructions only (bkcmd=2) and
counts them.

What a supervisor (the controller's display watch) builds on:

- `await next_event()` hands out, in order, `Touched` (a named touch), `Rebooted` (the display
  restarted by itself: its screen is blank and on page 0, so repaint everything; the client has
  already sent its own start-up setting again) and the other returns (`Result` for a failed
  instruction, …).  Once the port died it raises `LinkLost` (after the events already
  received), and keeps raising it.
- `await ping(timeout)` is the liveness check (`sendme`): the page showing, `NoResponse` if the
  display does not answer within `timeout`, `LinkLost` at once if the port died, `LinkClosed`
  after `close()`.  A ping leaves nothing behind: its waiter goes whether it was answered, timed
  out, failed or was cancelled, and one answer serves every ping waiting.
- `failure` is the LinkLost once the port died (else None); `statistics()` counts instructions,
  bytes, returns, failures, resyncs and reboots.
- `drop_touches()` forgets the touches not handed out yet (made while the caller offered nothing on
  the screen), the other events kept in order.
- `await reopen()` opens the port again at its URL once it died (a USB adapter pulled and put
  back): the events, pings and drawing go on over the new port, and `failure` is None again.
- Drawing (`set_text`, …) never raises for a dead port: the bytes are dropped, as on a cut
  cable, and the loss is reported through `next_event`, `ping` and `failure`, so a drawing
  caller is never the one to crash.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .errors import LinkClosed, LinkError, LinkLost, NoResponse, PortError
from .display_layout import LAYOUT, DisplayLayout
from .nextion import (DisplayReturn, NextionError, PageShown, Ready, Result, ReturnDecoder, Started,
                      Touch, encode_instruction, set_number, set_text, set_visible, show_page)
from .serial_transport import DEFAULT_BAUDRATE, open_serial, reopen_serial
from .stream import ByteStream, _ignore_data, _ignore_lost


@dataclass(frozen=True)
class Touched:
    """A touch on a named component (names from the layout; '#id' when unknown)."""

    page: str
    component: str
    pressed: bool


@dataclass(frozen=True)
class Rebooted:
    """The display restarted on its own (its start-up `00 00 00 FF FF FF` or ready `88 FF FF FF`
    return): it shows page 0 with every component at its default.  Repaint everything."""


class _NoPort:
    """The stream of a display whose port is not there yet: writes are dropped, as on a cut cable."""

    def __init__(self, url: str) -> None:
        self.description = url

    def set_receiver(self, on_data: object, on_lost: object) -> None:
        pass

    def write(self, data: bytes) -> None:
        pass

    async def close(self) -> None:
        pass


DisplayEvent = Touched | Rebooted | DisplayReturn
STARTUP_SETTING = "bkcmd=2"     # report failed instructions only


@dataclass(frozen=True)
class DisplayStatistics:
    instructions: int
    bytes_sent: int
    returns: int
    failures: int
    resyncs: int
    reboots: int


class Display:
    """The public display.  Create inside a running loop; `start()` before use."""

    def __init__(self, stream: ByteStream, *, layout: DisplayLayout = LAYOUT) -> None:
        self.device = f"display at {stream.description}"
        self.layout = layout
        self.url: str | None = None           # where reopen() finds the port again (set by open())
        self.baudrate = DEFAULT_BAUDRATE
        self.last_failure: int | None = None
        self._stream = stream
        self._decoder = ReturnDecoder()
        self._queue: asyncio.Queue[DisplayEvent | LinkLost] = asyncio.Queue()
        self._page_waiters: list[asyncio.Future[int]] = []
        self._instructions = 0
        self._bytes = 0
        self._failures = 0
        self._reboots = 0
        self._starting = False        # a start-up return came; its ready return is the same reboot
        self._closed = False
        self._lost: LinkLost | None = None
        stream.set_receiver(self._on_bytes, self._on_lost)

    @classmethod
    async def open(cls, url: str, *, baudrate: int = DEFAULT_BAUDRATE, layout: DisplayLayout = LAYOUT,
                   tries: int = 3, must_answer: bool = True, may_be_absent: bool = False) -> "Display":
        """Open the port and check a display answers (`tries` pings: a noisy wire can lose one).
        With `must_answer` False, a display that does not answer (or whose port dies meanwhile) is
        returned all the same: the caller watches it, reopens its port if it died, and paints it
        once it answers.  With `may_be_absent`, so is a display whose port is not there at all (its
        adapter not plugged in yet): it starts as a dead port, for the caller to reopen."""
        try:
            stream = await open_serial(url, baudrate=baudrate)
        except PortError as error:
            if not may_be_absent:
                raise
            display = cls(_NoPort(url), layout=layout)
            display.url, display.baudrate = url, baudrate
            display._gone(f"the port is not there ({error})")
            return display
        display = cls(stream, layout=layout)
        display.url, display.baudrate = url, baudrate
        try:
            for attempt in range(tries):
                try:
                    await display.start()
                    break
                except NoResponse:
                    if attempt == tries - 1 and must_answer:
                        raise
                except LinkLost:
                    if must_answer:
                        raise
                    break
        except BaseException:
            await display.close()
            raise
        return display

    @property
    def failure(self) -> LinkLost | None:
        """The LinkLost once the port died; None while it lives."""
        return self._lost

    async def start(self, timeout: float = 1.0) -> int:
        """Ask for failure reports only, and check a display answers; return its current page id."""
        self.send(STARTUP_SETTING)
        return await self.ping(timeout)

    async def ping(self, timeout: float = 1.0) -> int:
        """`sendme`: the id of the page showing.  NoResponse if the display does not answer in
        `timeout`, LinkLost at once if the port died, LinkClosed after close().

        A lone terminator goes first: it ends any instruction a damaged or lost byte left
        half-received on the display, which would otherwise swallow the `sendme`."""
        if self._lost is not None:
            raise self._lost
        waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._page_waiters.append(waiter)
        try:
            self.send("")
            self.send("sendme")
            async with asyncio.timeout(timeout):     # not wait_for: on 3.11 it swallows a cancel
                return await waiter                 # that lands as the answer arrives (the watch never stops)
        except TimeoutError:
            if waiter.done() and not waiter.cancelled():
                return waiter.result()      # answered in time, read in the same turn as the timeout: a loop
                #                             held past it (a slow Pi) made a good display miss (a probe)
            raise NoResponse(f"no answer from the {self.device} within {timeout:.1f} s: check its "
                             "cable, power and baud rate") from None
        finally:
            if waiter in self._page_waiters:
                self._page_waiters.remove(waiter)

    async def reopen(self) -> None:
        """Open the port again at its URL (it died: an adapter pulled and put back) and go on over
        it; PortError while it is not back.  The display's answers are then awaited as at start:
        `ping()` says whether one is there."""
        if self._closed:
            raise LinkClosed(f"{self.device}: closed")
        if self.url is None:
            raise LinkError(f"{self.device}: opened from a stream, not a URL: cannot reopen it")
        self._stream.set_receiver(_ignore_data, _ignore_lost)
        try:
            await self._stream.close()         # first: a device is opened exclusively
        except OSError:
            pass                               # the dead port's close may fail too: it is gone either way
        stream = await reopen_serial(self.url, baudrate=self.baudrate)
        if self._closed:                      # closed while the port was opening
            await stream.close()
            raise LinkClosed(f"{self.device}: closed")
        self._stream = stream
        self._decoder = ReturnDecoder()
        self._starting = False
        self._lost = None
        self._forget_lost()
        stream.set_receiver(self._on_bytes, self._on_lost)
        self.send(STARTUP_SETTING)             # a display powered from the adapter started afresh

    def _forget_lost(self) -> None:
        """Drop the LinkLost that `next_event` kept raising; keep the events around it, in order."""
        self._drop(LinkLost)

    def drop_touches(self) -> int:
        """Forget the touches received and not handed out yet; the other events stay, in order.  For
        a caller that offered nothing on the screen meanwhile (a controller waiting for its boards):
        handed out later, such a touch would be taken for a choice.  Returns how many went."""
        return self._drop(Touched)

    def _drop(self, kind: type) -> int:
        items = [self._queue.get_nowait() for _ in range(self._queue.qsize())]
        for item in items:
            if not isinstance(item, kind):
                self._queue.put_nowait(item)
        return len(items) - self._queue.qsize()

    # -- drawing ---------------------------------------------------------------------------------

    def send(self, instruction: str) -> None:
        if self._closed:
            raise LinkClosed(f"{self.device}: closed")
        wire = encode_instruction(instruction)
        self._instructions += 1
        self._bytes += len(wire)
        self._stream.write(wire)

    def _ref(self, page: str, component: str, kind: tuple[str, ...]) -> str:
        found = self.layout.page(page).component(component)
        if found.kind not in kind:
            raise ValueError(f"{page}.{component} is a {found.kind}, not one of {kind}")
        return f"{page}.{component}"

    def show_page(self, page: str) -> None:
        self.layout.page(page)
        self.send(show_page(page))

    def set_text(self, page: str, component: str, text: str) -> None:
        self.send(set_text(self._ref(page, component, ("text", "button")), text))

    def set_number(self, page: str, component: str, value: int) -> None:
        self.send(set_number(self._ref(page, component, ("number",)), value))

    def set_visible(self, page: str, component: str, visible: bool) -> None:
        self.send(set_visible(self._ref(page, component, ("text", "number", "button")), visible))

    # -- returns ---------------------------------------------------------------------------------

    def _on_lost(self, exc: Exception | None) -> None:
        if self._closed or self._lost is not None:
            return
        self._gone("the port closed" + (f" ({exc})" if exc else ""))

    def _gone(self, why: str) -> None:
        self._lost = LinkLost(f"{self.device}: {why}; check the cable")
        for waiter in self._page_waiters:
            if not waiter.done():
                waiter.set_exception(self._lost)
        self._page_waiters.clear()
        self._queue.put_nowait(self._lost)

    def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, NextionError):
                continue
            if isinstance(item, (Started, Ready)):
                self._restarted(item)
                continue
            self._starting = False
            if isinstance(item, PageShown) and self._page_waiters:
                for waiter in self._page_waiters:
                    if not waiter.done():
                        waiter.set_result(item.page_id)
                self._page_waiters.clear()
                continue  # the answer to our own sendme, not news
            if isinstance(item, Result) and not item.ok:
                self._failures += 1
                self.last_failure = item.code
            if isinstance(item, Touch):
                self._queue.put_nowait(self._name_touch(item))
            else:
                self._queue.put_nowait(item)

    def _restarted(self, item: Started | Ready) -> None:
        """A display sends its start-up return, then its ready return, when it (re)starts: one
        reboot.  A ready return alone (the start-up one lost) is a reboot too."""
        if isinstance(item, Ready) and self._starting:
            self._starting = False
            return
        self._starting = isinstance(item, Started)
        self._reboots += 1
        if not self._closed:
            self.send(STARTUP_SETTING)   # a restarted display forgot it
        self._queue.put_nowait(Rebooted())

    def _name_touch(self, touch: Touch) -> Touched:
        page = self.layout.page_by_id(touch.page_id)
        component = page.component_by_id(touch.component_id) if page else None
        return Touched(page.name if page else f"#{touch.page_id}",
                       component.name if component else f"#{touch.component_id}", touch.pressed)

    async def next_event(self, timeout: float | None = None) -> DisplayEvent:
        """The next touch, reboot or return; raises LinkLost after the port died (once the events
        received before are handed out), TimeoutError on timeout."""
        async with asyncio.timeout(timeout):         # a cancel is never swallowed (see ping)
            item = await self._queue.get()
        if isinstance(item, Exception):
            self._queue.put_nowait(item)
            raise item
        return item

    def pending_events(self) -> list[DisplayEvent]:
        """Everything already received (Rebooted: repaint), without waiting."""
        out = []
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if isinstance(item, Exception):
                self._queue.put_nowait(item)
                break
            out.append(item)
        return out

    def statistics(self) -> DisplayStatistics:
        return DisplayStatistics(self._instructions, self._bytes, self._decoder.returns,
                                 self._failures, self._decoder.resyncs, self._reboots)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for waiter in self._page_waiters:
            if not waiter.done():
                waiter.set_exception(LinkClosed(f"{self.device}: closed"))
        self._page_waiters.clear()
        await self._stream.close()


