"""A rules menu or a service page left open goes back to the main page by itself (firmware/front.py),
never from under a fault page, and without saving what the menu was changed to."""

import asyncio

from drivers.display import Touched
from drivers.table_ui import Key, Panel
from firmware.front import TableFront
from firmware.hand.ports import Press
from firmware.panel import FrontPanel, Settings
from firmware.service_page import ServicePage
from tests.asyncio_support import run
from tests.firmware.test_service_page import facts

IDLE_S = 0.05       # the tests wait on what the display shows, never on this clock


class Recorder:
    def __init__(self) -> None:
        self.events: list[dict] = []

    def emit(self, event: str, **fields) -> dict:
        self.events.append({"event": event, **fields})
        return self.events[-1]


class Front:
    """A TableFront with its menu and service page, the pages it shows and a fault switch."""

    def __init__(self) -> None:
        self.pages = ["main"]
        self.fault = False
        self.looks_under_fault = 0          # idle timeouts that found a fault page up
        self.settings = Settings()
        self.panel = FrontPanel(lambda view, open_: self.pages.append("menu" if open_ else "main"), Recorder(),
                                self.settings)
        self.service = ServicePage(facts, lambda lines: None,
                                   lambda shown: self.pages.append("service" if shown else "main"))
        self.front = TableFront(self.panel, self.service, Recorder(), faults_active=self._faults_active,
                                acknowledge=lambda: None, rules=lambda: ("changchun", {}), idle_s=IDLE_S)

    def _faults_active(self) -> bool:
        if self.fault:
            self.looks_under_fault += 1
        return self.fault

    def press(self, key: Key, long: bool = False) -> None:
        assert self.front.key(Press(Panel.FRONT, key, long))

    async def until(self, condition) -> None:
        while not condition():
            await asyncio.sleep(0.01)


def with_front(test):
    def body():
        async def main():
            table = Front()
            task = asyncio.create_task(table.front.run())
            try:
                await asyncio.wait_for(test(table), 10)
            finally:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        run(main())
    return body


@with_front
async def test_a_menu_left_open_goes_back_to_the_main_page_with_its_changes_unsaved(table):
    table.press(Key.MENU)
    table.press(Key.RIGHT)                  # another ruleset shown, not saved
    assert table.panel.menu_open and table.pages[-1] == "menu"
    await table.until(lambda: not table.panel.menu_open)
    assert table.pages[-1] == "main"
    assert table.panel.take_choice() is None and table.settings.get("ruleset") is None
    table.press(Key.MENU)                   # it opens again where the table is, as ever
    assert table.pages[-1] == "menu"


@with_front
async def test_a_service_page_left_open_goes_back_to_the_main_page(table):
    table.press(Key.MENU, long=True)
    assert table.service.is_open and table.pages[-1] == "service"
    await table.until(lambda: not table.service.is_open)
    assert table.pages[-1] == "main"


@with_front
async def test_a_touch_opens_the_menu_and_the_idle_close_follows(table):
    table.front.touch(Touched("main", "b_menu", True))
    assert table.panel.menu_open
    await table.until(lambda: not table.panel.menu_open)
    assert table.pages[-1] == "main"


@with_front
async def test_under_a_fault_page_the_menu_waits_and_closes_only_after_the_fault_is_gone(table):
    table.press(Key.MENU)
    table.fault = True
    table.front.faults_changed()
    await table.until(lambda: table.looks_under_fault >= 3)      # three idle spells passed under the fault
    assert table.panel.menu_open and table.pages[-1] == "menu"
    table.fault = False
    table.front.faults_changed()             # the fault page gone: the menu shows again, its clock anew
    await table.until(lambda: not table.panel.menu_open)
    assert table.pages[-1] == "main"
