"""What a person at the table notices change: the public screen, a seat display, a lift.

A `Changes` is a version counter that coroutines can await instead of polling:

    seen = table.changes.version
    ...look at the screens...
    await table.changes.wait(seen)      # returns once anything changed since `seen`

The display simulator, the seat displays and the lifts call `notify()` whenever what they show
changes.  Nothing here is shared between tables (each `World` owns one), and a waiter is a plain
future of the running loop, so waiting never spins, whatever the clock's speed.
"""

from __future__ import annotations

import asyncio


class Changes:
    def __init__(self) -> None:
        self.version = 0
        self._waiters: list[asyncio.Future[None]] = []

    def notify(self) -> None:
        """Something visible changed: wake every waiter."""
        self.version += 1
        waiters, self._waiters = self._waiters, []
        for future in waiters:
            if not future.done():
                future.set_result(None)

    async def wait(self, since: int) -> int:
        """Wait until the version differs from `since` (at once if it already does); return it."""
        while self.version == since:
            future = asyncio.get_running_loop().create_future()
            self._waiters.append(future)
            try:
                await future
            finally:
                if future in self._waiters:     # cancelled while waiting
                    self._waiters.remove(future)
        return self.version
