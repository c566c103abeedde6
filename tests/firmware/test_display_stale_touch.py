"""A touch from a page the table has left is not acted on: the page showing is painted again at once.

The display protocol has no acknowledgement, so the instruction that left a page can be lost on the
wire (the ping's repaint puts it right within a second); a finger can also cross a page change.  A
button touched there is not what the table offers now: before, the controller acted on it as if the
page were showing (an 确认 on a stale menu page would have saved a choice the owner had left)."""

import asyncio

import pytest

from drivers.display import Touched
from tests.asyncio_support import run
from tests.firmware.watched_display import watched_display

pytestmark = pytest.mark.timeout(60)


def test_a_touch_on_a_page_the_table_left_repaints_the_page_showing_and_is_not_passed_on():
    async def main():
        touches: list[Touched] = []
        heard = asyncio.Event()

        def on_touch(touch: Touched) -> None:
            touches.append(touch)
            heard.set()

        async def until_heard(count: int) -> None:
            while len(touches) < count:
                heard.clear()
                await asyncio.wait_for(heard.wait(), 10)

        async with watched_display(on_touch=on_touch) as (table, display, presenter, watch):
            presenter.menu({"t_title": "规则选择"}, True)
            while table.display.page != "menu":
                await table.changed(table.changes.version)
            presenter.menu({}, False)                      # the table leaves the menu …
            while table.display.page != "main":
                await table.changed(table.changes.version)
            table.display.page = "menu"                    # … and the display shows it still (lost on the wire)
            table.touch("menu", "b_ok")
            while table.display.page != "main":            # painted again by the touch alone (nothing pings)
                await table.changed(table.changes.version)
            table.touch("main", "b_menu")                  # a page the table shows: passed on, pressed and let go
            await until_heard(2)
            assert touches == [Touched("main", "b_menu", True), Touched("main", "b_menu", False)]
    run(main())
