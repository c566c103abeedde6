"""The panels' lamps and the buzzer (protocol.md §4.1: SetLeds, Buzzer).

What is lit: the dealer's 庄 lamp and a ready seat's 听 lamp on the seat panels (the presenter says
so with each seat's status line), the front panel's fault lamp while a fault is latched, and its
set-ready lamp while the next set waits below, built and checked (the session says so).  The
buzzer sounds the alarm when a fault latches that a person must mend (a jam, a rejected set, the
STOP key, a silent display, a full card: `LatchedFault.calls_a_person`), and again every two minutes
while it is latched (a 确认 before its cause is mended leaves it latched), so an owner across the room hears what the display shows (or, the
display silent, cannot); the hatch's interlock and a
link episode are shown, not sounded.  The turn lamp is not driven: the table does not see whose turn
it is (it sees the wall's takes, not who took).

`Lamps` keeps the mask wanted on each panel and writes a panel when its mask changed, one command
at a time from `run()` (through the controller, across link episodes, as the seat lines), the
latest mask only: a burst of changes is one write.  Every panel is written once at start (a
restarted controller does not know what the board shows), and again after the motor board
restarted (its lamps went dark with its RAM).
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from drivers.errors import CommandRejected
from drivers.messages import Status
from drivers.motor_protocol import Buzz, Led
from drivers.table_ui import Panel

PANELS = tuple(Panel)
ALARM = Buzz.ALARM             # the buzzer's pattern for a fault that waits for a person …
ALARM_MS = 1500                # … and how long it sounds
REMIND_S = 120.0               # sounded again this often while such a fault still waits


class Lamps:
    def __init__(self, write: Callable[[int, int], Awaitable[None]], alarm: Callable[[], Awaitable[None]],
                 warn: Callable[[str], None], remind_s: float = REMIND_S) -> None:
        self._write = write             # one panel's mask onto the board
        self._sound = alarm             # the buzzer's alarm
        self._warn = warn               # a command the board refused (a warning, never a stop)
        self._wanted = {panel: 0 for panel in PANELS}
        self._written: dict[int, int] = {}      # what the board shows, as far as this process knows
        self._alarms = 0
        self._waiting = False                   # a fault latched that a person must mend
        self._sounded_at = float("-inf")        # (the loop's clock)
        self._remind_s = remind_s
        self._unknown: set[str] = set()         # "lamps", "alarm": a board whose firmware lacks the command
        self._wake = asyncio.Event()
        self._wake.set()                        # every panel once, at start

    def seat(self, side: int, dealer: bool, ready: bool) -> None:
        """A seat's status: 庄 lit on the dealer's panel, 听 on a ready seat's."""
        self._set(side, Led.DEALER, dealer)
        self._set(side, Led.TING, ready)

    def fault(self, latched: bool, waiting: bool = False) -> None:
        """The front panel's fault lamp: any fault latched; `waiting`: one a person must mend (the
        alarm sounds again every `remind_s` until it is acknowledged)."""
        self._set(Panel.FRONT, Led.FAULT, latched)
        if waiting != self._waiting:
            self._waiting = waiting
            self._wake.set()

    def set_ready(self, waiting: bool) -> None:
        """The front panel's set-ready lamp: the next set is built, checked and waiting below."""
        self._set(Panel.FRONT, Led.READY, waiting)

    def alarm(self) -> None:
        """Sound the alarm once (alarms asked while one is being sent sound once more, not each)."""
        self._alarms += 1
        self._wake.set()

    def relight(self) -> None:
        """The motor board restarted: its lamps are dark; write every panel again."""
        self._written.clear()
        self._wake.set()

    def lit(self, panel: int) -> int:
        """The mask wanted on `panel`."""
        return self._wanted[panel]

    def _set(self, panel: int, bit: int, on: bool) -> None:
        mask = self._wanted[panel]
        wanted = mask | bit if on else mask & ~bit
        if wanted != mask:
            self._wanted[panel] = wanted
            self._wake.set()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                await asyncio.wait_for(self._wake.wait(), self._reminder_in(loop.time()))
            except asyncio.TimeoutError:
                self._alarms += 1               # nobody came yet: again
            self._wake.clear()
            if self._alarms:
                self._alarms = 0
                self._sounded_at = loop.time()
                await self._sent("alarm", self._sound)
            for panel, mask in self._wanted.items():
                if self._written.get(panel) != mask:
                    await self._sent("lamps", lambda: self._write(panel, mask))
                    self._written[panel] = mask

    def _reminder_in(self, now: float) -> float | None:
        """Seconds until the alarm sounds again, while a fault waits for a person (None: it will not)."""
        return max(0.0, self._sounded_at + self._remind_s - now) if self._waiting else None

    async def _sent(self, what: str, command: Callable[[], Awaitable[None]]) -> None:
        """One command; a refusal is a warning.  A board whose firmware does not know the command
        (an older board, or one without lamps) is told once and not asked again."""
        if what in self._unknown:
            return
        try:
            await command()
        except CommandRejected as error:
            if error.status == Status.UNKNOWN_COMMAND:
                self._unknown.add(what)
                self._warn(f"{error}: the motor board's firmware has no {what}; they are left off from now on")
            else:
                self._warn(str(error))


__all__ = ["ALARM", "ALARM_MS", "Lamps", "REMIND_S"]
