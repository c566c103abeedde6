"""A simulated public display watched as the controller watches it, for the display watch's tests."""

from __future__ import annotations

import asyncio
import contextlib
from typing import AsyncIterator, Callable

from drivers.display import Display, Touched
from firmware.display_watch import DisplayWatch
from firmware.presenter import Presenter
from simulator import SimulatedTable


@contextlib.asynccontextmanager
async def watched_display(*, on_touch: Callable[[Touched], None] = lambda touch: None,
                          on_warning: Callable[[str], None] = lambda message: None,
                          clock: Callable[[], float] = lambda: 0.0
                          ) -> AsyncIterator[tuple[SimulatedTable, Display, Presenter, DisplayWatch]]:
    """The simulated table (its display), the display's client, a presenter drawing on it and a
    DisplayWatch reading its events.  Nothing pings it: nothing is painted again but what the watch
    does on an event."""
    table = SimulatedTable(speed=0)
    where = await table.start()
    display = await Display.open(where.display)
    presenter = Presenter(display, lambda side, line, text: None, 16)
    watch = DisplayWatch(display, presenter, on_touch=on_touch, on_silent=lambda why: None, on_back=lambda: None,
                         on_warning=on_warning, clock=clock)
    events = asyncio.create_task(watch.events())
    try:
        yield table, display, presenter, watch
    finally:
        events.cancel()
        await asyncio.gather(events, return_exceptions=True)
        await display.close()
        await table.stop()
