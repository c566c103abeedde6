"""The public display, supervised like the boards: alive, repainted after any gap, a fault when silent.

The display protocol has no acknowledgement (protocol.md §7), so a lost instruction is never
reported: the watch pings the display every `PING_S` (`sendme`), and after every answer it repaints
the page showing (anti-entropy: whatever a noisy wire lost is sent again within a second).  A display
that misses `SILENT_AFTER` pings in a row is a fault (shown, logged, recorded) that clears itself when
it answers again; it is then repainted whole, as after its own reboot.  A port that dies (the display's
USB adapter pulled) is the same fault, and is opened again, with back-off, until it is back.  The
watch never stops the table: the boards and the seat displays go on without the public display.

An instruction the display refuses (it reports failures: bkcmd=2) is one whose text did not land as
sent (a byte spoiled on the wire, or a display whose program does not match this controller's
layout): the page showing is painted again at once, at most once per `PING_S`, and the refusal is
said in the log and the recorder (the first at once, then a count at most every `SAY_REFUSED_S`),
so a display that refuses everything is never silent.

A touch from a page the table is not showing (the instruction that left it was lost on the wire, or
the finger crossed the page change) is not passed on: a button there is not what the table offers
now, and the page showing is painted again at once, so the person sees where the table is.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from drivers.display import Display, Rebooted, Touched
from drivers.errors import LinkClosed, LinkError, LinkLost, NoResponse, PortError
from drivers.nextion import Result
from drivers.reconnect import Backoff

from .presenter import Presenter

PING_S = 1.0
PING_TIMEOUT_S = 0.5
SILENT_AFTER = 2
REOPEN_BACKOFF = Backoff(first=0.5, most=5.0)   # a port gone is looked for again this often
SAY_REFUSED_S = 60.0        # refused instructions after the first are said as a count, this often at most

log = logging.getLogger("firmware.display")


class DisplayWatch:
    def __init__(self, display: Display, presenter: Presenter, *, on_touch: Callable[[Touched], None],
                 on_silent: Callable[[str], None], on_back: Callable[[], None],
                 on_warning: Callable[[str], None], clock: Callable[[], float] | None = None) -> None:
        self.display = display
        self.presenter = presenter
        self._on_touch = on_touch
        self._on_silent = on_silent
        self._on_back = on_back
        self._on_warning = on_warning          # the hub: recorded, and so logged
        self._clock = clock or (lambda: asyncio.get_running_loop().time())
        self.missed = 0
        self.repaints = 0
        self.refused = 0
        self._refused_said = 0                 # of `refused`, those the warnings have counted
        self._refused_said_at: float | None = None
        self._refused_repaint_at: float | None = None

    async def events(self) -> None:
        """Touches go to the hub; a reboot is repainted at once; a dead port is said once and opened
        again until it is back (a USB adapter pulled and put back), then pinged and repainted."""
        while True:
            try:
                event = await self.display.next_event()
            except LinkLost as error:
                self.missed = max(self.missed, SILENT_AFTER)   # the next answer clears E22 and repaints
                self._silent(f"the display's port is gone ({error})")
                if not await self._reopened():
                    return
                continue
            except LinkClosed:
                return
            if isinstance(event, Rebooted):
                log.warning("the display restarted by itself: repainting it")
                self._repaint()
            elif isinstance(event, Touched):
                self._touched(event)
            elif isinstance(event, Result) and not event.ok:
                self._refused(event)

    def _touched(self, touch: Touched) -> None:
        if touch.page == self.presenter.page:
            self._on_touch(touch)
        elif touch.pressed:         # (once a touch: not again as the finger lets go)
            self.presenter.repaint((self.presenter.page,))

    async def _reopened(self) -> bool:
        """Open the dead port again, with back-off, until it is there; False if it never can be."""
        attempt = 0
        while True:
            attempt += 1
            try:
                await self.display.reopen()
            except PortError:
                await asyncio.sleep(REOPEN_BACKOFF.delay(attempt))
                continue
            except (LinkError, LinkClosed) as error:       # no URL to reopen (a test's stream), or closed
                log.error("the display cannot be opened again: %s", error)
                return False
            log.warning("the display's port is back (attempt %d): waiting for it to answer", attempt)
            return True

    async def pings(self) -> None:
        self.presenter.repaint()        # at once: the display may hold what another run left (E24, E25)
        while True:
            await asyncio.sleep(PING_S)
            try:
                await self.display.ping(PING_TIMEOUT_S)
            except NoResponse:
                self.missed += 1
                if self.missed == SILENT_AFTER:
                    self._silent(f"the display did not answer {SILENT_AFTER} pings in a row")
                continue
            except LinkLost:
                self.missed = max(self.missed, SILENT_AFTER)   # `events` says it and opens the port again
                continue
            except LinkClosed:
                return
            if self.missed >= SILENT_AFTER:
                log.warning("the display answers again: repainting it")
                self._on_back()
                self._repaint()
            else:
                self.presenter.repaint((self.presenter.page,))
            self.missed = 0

    def _refused(self, result: Result) -> None:
        """The display refused an instruction: what it shows is not what was sent."""
        self.refused += 1
        now = self._clock()
        if self._refused_repaint_at is None or now - self._refused_repaint_at >= PING_S:
            self._refused_repaint_at = now          # (a repaint refused again waits for the next ping's)
            self.presenter.repaint((self.presenter.page,))
        if self._refused_said_at is None or now - self._refused_said_at >= SAY_REFUSED_S:
            more = "" if self._refused_said_at is None else " more"
            count, self._refused_said, self._refused_said_at = self.refused - self._refused_said, self.refused, now
            self._on_warning(f"the display refused {count}{more} instruction(s) (the last: {result}): its page is "
                             "painted again; if this goes on, check its cable, and that its program matches this "
                             "controller")

    def _repaint(self) -> None:
        self.repaints += 1
        self.presenter.repaint()

    def _silent(self, why: str) -> None:
        log.error("%s; the table goes on without it", why)
        self._on_silent(why)
