"""What a run that cannot start shows on the table's own display, where the people at the table and
the technician look first (the log says it in English; the unit's STATUS too while a full card is
waited for):

- a card too full to open the table's files: E24 until there is room (`shown_until_room`, which
  also waits so where there is no display), the run then starting by itself (cmd_run);
- anything else a person must fix before the table can start (nothing enrolled, a damaged ledger):
  E25 `无法启动`, shown as the run exits (`show_as_it_exits`) — not another controller holding the
  table, whose display is that controller's;
  systemd starts it again, and it shows it again, until the cause is gone;
- a board this controller cannot work with (another board on its port, another protocol version,
  events that do not decode), found at the start or during play: E26 `主板通信不兼容`, shown as the
  run exits (`show_as_it_exits`), as E25 is.

A display that cannot be opened, or does not answer, leaves the log to say it: nothing here waits
on it for more than a moment.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import AsyncIterator

from firmware.config import DeviceConfig
from firmware.faults import FaultCode, LatchedFault
from firmware.presenter import Presenter
from firmware.service import ServiceNotifier

from .files import card_has_room

CARD_LOOK_SECONDS = 2.0      # how often a run waiting for room on a full card looks again
ANSWER_SECONDS = 1.0         # how long a fault page shown on the way out waits for the display's answer


async def shown_until_room(folder: Path, devices: DeviceConfig | None, service: ServiceNotifier) -> None:
    """Until the card holding `folder` has room, pushing systemd's start timeout ahead meanwhile; E24
    on the table's display (if it has one), painted again at each look should it restart.  A
    SIGTERM ends the wait as any at start does (cmd_run's `_run_loop`)."""
    fault = LatchedFault(FaultCode.STORAGE, 0, f"the card is full ({folder})", "controller")
    async with _fault_shown(devices, fault) as screen:
        while not await asyncio.to_thread(card_has_room, folder):
            service.extend_start(3 * CARD_LOOK_SECONDS)
            await asyncio.sleep(CARD_LOOK_SECONDS)
            screen.repaint(("fault",))


async def show_as_it_exits(devices: DeviceConfig, fault: LatchedFault) -> None:
    """`fault` on the display, left there as the run exits (the display keeps its page): E25, or E26
    for a board this controller cannot work with (at the start, or later: the run's own display is
    closed by then)."""
    async with _fault_shown(devices, fault) as screen:
        await screen.answered(ANSWER_SECONDS)


class _Screen:
    """The fault page on a display that may be absent or silent."""

    def __init__(self, display, presenter: Presenter) -> None:
        self._display = display
        self._presenter = presenter

    def repaint(self, pages: tuple[str, ...]) -> None:
        self._presenter.repaint(pages)

    async def answered(self, timeout: float) -> bool:
        """Whether the display answered a ping sent after the page (so it has the page)."""
        from drivers.errors import DriverError
        if self._display is None:
            return False
        try:
            await self._display.ping(timeout)
        except DriverError:
            return False
        return True


@contextlib.asynccontextmanager
async def _fault_shown(devices: DeviceConfig | None, fault: LatchedFault) -> AsyncIterator[_Screen]:
    from drivers.display import Display
    from drivers.errors import DriverError

    display = None
    if devices is not None and devices.display is not None:
        with contextlib.suppress(DriverError):
            display = await Display.open(devices.display, baudrate=devices.baudrate, must_answer=False)
    try:
        presenter = Presenter(display, lambda side, line, text: None, 0)
        presenter.fault(fault)
        yield _Screen(display, presenter)
    finally:
        if display is not None:
            await display.close()
