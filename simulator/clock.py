"""The virtual clock: mechanism times scaled by a speed factor.

Only the mechanism (shuffle, pushes, lifts, dice) runs on virtual time; the serial link always
runs in real time, as on the real table.  speed 1 = real time, 10 = ten times faster,
0 = as fast as possible (every wait only yields to the event loop).  At speed 0 each wait adds
its length to the virtual time, so `now()` still orders happenings but concurrent mechanisms add
up instead of overlapping.
"""

from __future__ import annotations

import asyncio


class VirtualClock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed < 0:
            raise ValueError(f"speed must be >= 0 (0 = as fast as possible), got {speed}")
        self.speed = speed
        self._virtual = 0.0
        self._real_base: float | None = None

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
            self._virtual += seconds
            await asyncio.sleep(0)
        else:
            await asyncio.sleep(seconds / self.speed)
