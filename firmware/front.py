"""What a person at the table presses beyond the hand: the front panel's keys and the display's buttons.

确认 on the front panel answers a latched fault; 菜单 opens the rules menu (firmware/panel.py), a
long 菜单 the technician's page (firmware/service_page.py), and while either shows its keys are its
own.  A fault shown covers both: their keys pressed meanwhile do nothing (recorded as dropped,
`fault_shown`) and the page waits behind the fault (`page_behind`).  The display's buttons do what
the keys do; a touch from a page the table is not showing never reaches here (DisplayWatch).
"""

from __future__ import annotations

from typing import Callable

from drivers.display import Touched
from drivers.table_ui import Key

from .hand.ports import Press, record_dropped
from .panel import Emitter, FrontPanel
from .service_page import ServicePage

Rules = tuple[str, dict[str, str]]      # the ruleset in play and its options (where the menu opens)


class TableFront:
    def __init__(self, panel: FrontPanel, service: ServicePage, recorder: Emitter, *,
                 faults_active: Callable[[], bool], acknowledge: Callable[[], None],
                 rules: Callable[[], Rules]) -> None:
        self.panel = panel
        self.service = service
        self._recorder = recorder
        self._faults_active = faults_active
        self._acknowledge = acknowledge        # a person's 确认 on a fault (the controller clears the boards')
        self._rules = rules

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
        if self._faults_active():           # the fault page stays up until 确认 clears it: the menus wait behind it
            record_dropped(self._recorder, (press,), "fault_shown")
        elif not (service and self.service.press(press.key, press.long)):
            self.panel.press(press.key, self._rules())
        return True

    def touch(self, event: Touched) -> None:
        """A button touched on the page showing (acted on as it is pressed, not as it is let go)."""
        if not event.pressed:
            return
        if (event.page, event.component) == ("fault", "b_ack"):
            self._acknowledge()
        elif self.panel.wants_touch(event.page, event.component):
            self.panel.touch(event.page, event.component, self._rules())
        elif event.page == "service":
            self.service.touch(event.component)

    def page_behind(self) -> str:
        """The page a fault covers: the rules menu or the service page left open, else the main page."""
        return "menu" if self.panel.menu_open else "service" if self.service.is_open else "main"


__all__ = ["TableFront"]
