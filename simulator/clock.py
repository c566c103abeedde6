"""The virtual clock: mechanism times scaled by a speed factor, and timers in that time.

Only the mechanism (shuffle, pushes, lifts, dice), the players' pauses and the simulator's own
scheduled happenings (a board reboot at `reset=SECONDS`, the end of a silence) run on virtual
time; the serial link always runs in real time, as on the real table.  speed 1 = real time,
10 = ten times faster, 0 = as fast as possible (every wait only yields to the event loop).  At
speed 0 each wait adds its length to the virtual time, so `now()` still orders happenings but
concurrent mechanisms add up instead of overlapping; a timer then fires when the waits have
carried the virtual time past it — at its simulated moment, not when the run has ended.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from typing import Callable


class VirtualTimer:
    """A callback due at a virtual time; `cancel()` drops it."""

    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due = due
        self.callback = callback
        self.cancelled = False
        self.handle: asyncio.TimerHandle | None = None   # speed > 0: the loop's timer

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None


class VirtualClock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed < 0:
            raise ValueError(f"speed must be >= 0 (0 = as fast as possible), got {speed}")
        self.speed = speed
        self._virtual = 0.0
        self._real_base: float | None = None
        self._due: list[tuple[float, int, VirtualTimer]] = []      # speed 0: a heap by due time
        self._order = itertools.count()

    def now(self) -> float:
        """Virtual seconds since the clock started."""
        if self.speed == 0 or self._real_base is None:
            return self._virtual
        return self._virtual + (asyncio.get_running_loop().time() - self._real_base) * self.speed

    def start(self) -> None:
        self._real_base = asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        """Wait `seconds` of virtual time."""
        if self.speed == 0:
            self.advance(seconds)
            await asyncio.sleep(0)
        else:
            await asyncio.sleep(seconds / self.speed)

    def advance(self, seconds: float) -> None:
        """Speed 0 only: let `seconds` of virtual time pass without yielding (timers now due are
        scheduled on the loop, and run at its next turn)."""
        if self.speed != 0:
            raise ValueError("only a clock at speed 0 advances without waiting")
        self._virtual += seconds
        self._fire_due()

    def call_later(self, seconds: float, callback: Callable[[], None]) -> VirtualTimer:
        """Call `callback` (on the loop) once `seconds` of virtual time have passed."""
        timer = VirtualTimer(self.now() + seconds, callback)
        if self.speed == 0:
            heapq.heappush(self._due, (timer.due, next(self._order), timer))
        else:
            timer.handle = asyncio.get_running_loop().call_later(seconds / self.speed, self._run, timer)
        return timer

    def _fire_due(self) -> None:
        if not self._due:
            return
        loop = asyncio.get_running_loop()
        while self._due and self._due[0][0] <= self._virtual:
            _, _, timer = heapq.heappop(self._due)
            if not timer.cancelled:
                loop.call_soon(self._run, timer)

    @staticmethod
    def _run(timer: VirtualTimer) -> None:
        if not timer.cancelled:
            timer.cancelled = True
            timer.handle = None
            timer.callback()
