"""What a person at the table presses beyond the hand: the front panel's keys and the display's buttons.

确认 on the front panel answers a latched fault; 菜单 opens the rules menu (firmware/panel.py), a
long 菜单 the technician's page (firmware/service_page.py), and while either shows its keys are its
own.  A fault shown covers both: their keys pressed meanwhile do nothing (recorded as dropped,
`fault_shown`) and the page waits behind the fault (`page_behind`).  The display's buttons do what
the keys do; a touch from a page the table is not showing never reaches here (DisplayWatch).

A menu or the service page left open goes back to the main page after `IDLE_S` without a key or a
touch (the menu's unsaved changes forgotten, as 返回 forgets them): a page left up by someone who
walked away would hide the hand and the scores from the players for hours.  The clock waits while a
fault covers the page, and starts again when the page comes back.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from drivers.display import Touched
from drivers.table_ui import Key

from .hand.ports import Press, record_dropped
from .panel import Emitter, FrontPanel
from .service_page import ServicePage

Rules = tuple[str, dict[str, str]]      # the ruleset in play and its options (where the menu opens)
IDLE_S = 60.0       # our choice: long enough to read the service page or weigh an option, short enough
                    # that the players get their scores back within a minute of the owner walking away

log = logging.getLogger(__name__)


class TableFront:
    def __init__(self, panel: FrontPanel, service: ServicePage, recorder: Emitter, *,
                 faults_active: Callable[[], bool], acknowledge: Callable[[], None],
                 rules: Callable[[], Rules], idle_s: float | None = None) -> None:
        self.panel = panel
        self.service = service
        self._recorder = recorder
        self._faults_active = faults_active
        self._acknowledge = acknowledge        # a person's 确认 on a fault (the controller clears the boards')
        self._rules = rules
        self._idle_s = IDLE_S if idle_s is None else idle_s
        self._input = asyncio.Event()         # a key or touch answered, or a fault that covered the page gone
        self._covered = False                 # a fault page was up at the last look (`faults_changed`)

    def key(self, press: Press) -> bool:
        """A key this part answers (True); else it is the hand's or the queue's (False)."""
        if not press.front:
            return False
        if press.key == Key.CONFIRM and self._faults_active():
            self._acknowledge()
            return True
        service = self.service.wants(press.key, press.long, self.panel.menu_open)
        if not (service or self.panel.wants(press.key)):
            return False
        self._input.set()
        if self._faults_active():           # the fault page stays up until 确认 clears it: the menus wait behind it
            record_dropped(self._recorder, (press,), "fault_shown")
        elif not (service and self.service.press(press.key, press.long)):
            self.panel.press(press.key, self._rules())
        return True

    def touch(self, event: Touched) -> None:
        """A button touched on the page showing (acted on as it is pressed, not as it is let go)."""
        if not event.pressed:
            return
        self._input.set()
        if (event.page, event.component) == ("fault", "b_ack"):
            self._acknowledge()
        elif self._faults_active():
            return      # a fault on the main page's line (the hand goes on): 确认 answers it first, as the keys
        elif self.panel.wants_touch(event.page, event.component):
            self.panel.touch(event.page, event.component, self._rules())
        elif event.page == "service":
            self.service.touch(event.component)

    def page_behind(self) -> str:
        """The page a fault covers: the rules menu or the service page left open, else the main page."""
        return "menu" if self.panel.menu_open else "service" if self.service.is_open else "main"

    def faults_changed(self) -> None:
        """After every change the table sees: a fault page gone shows the page behind it again, whose
        idle clock starts then."""
        covered = self._faults_active()
        if self._covered and not covered:
            self._input.set()
        self._covered = covered

    async def run(self) -> None:
        """Put the main page back once a menu or the service page has had no key or touch for
        `idle_s` (never under a fault page: that waits for 确认, and the page behind with it)."""
        while True:
            await self._input.wait()
            self._input.clear()
            while self._page_open():
                try:
                    async with asyncio.timeout(self._idle_s):     # (not wait_for: on 3.11 it can swallow a cancel)
                        await self._input.wait()
                except TimeoutError:
                    if not self._faults_active():
                        self._leave_idle()
                else:
                    self._input.clear()

    def _page_open(self) -> bool:
        return self.panel.menu_open or self.service.is_open

    def _leave_idle(self) -> None:
        if self.panel.menu_open:
            log.info("the rules menu closed after %.0f s without a key; its unsaved changes are forgotten", self._idle_s)
            self.panel.leave()
        elif self.service.is_open:
            log.info("the service page closed after %.0f s without a key", self._idle_s)
            self.service.close()


__all__ = ["IDLE_S", "TableFront"]
