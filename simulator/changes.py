"""What a person at the table notices change: the public screen, a seat display, a lift.

A `Changes` is a version counter that coroutines can await instead of polling:

    seen = table.changes.version
    ...look at the screens...
    await table.changes.wait(seen)      # returns once anything changed since `seen`

The display simulator, the seat displays and the lifts call `notify()` whenever what they show
changes.  Nothing here is shared between tables (each `World` owns one), and a waiter is a plain
future of the running loop, so waiting never spins, whatever the clock's speed.

A waiter that cares about one thing only (the set mender, about the fault page) gives `relevant`:
it is woken only by a change after which `relevant()` holds, and keeps its place among the waiters
meanwhile (a task woken at every change of the table, to find nothing to do, costs a loop turn).
"""

from __future__ import annotations

import asyncio
from typing import Callable


class Changes:
    def __init__(self) -> None:
        self.version = 0
        self._waiters: list[tuple[asyncio.Future[None], Callable[[], bool] | None]] = []

    def notify(self) -> None:
        """Something visible changed: wake every waiter it is relevant to."""
        self.version += 1
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            future, relevant = waiter
            if future.done():
                continue
            if relevant is None or relevant():
                future.set_result(None)
            else:
                self._waiters.append(waiter)

    async def wait(self, since: int, relevant: Callable[[], bool] | None = None) -> int:
        """Wait until the version differs from `since` (at once if it already does) — with
        `relevant`, until a change after which it holds; return the version."""
        while self.version == since:
            future = asyncio.get_running_loop().create_future()
            waiter = (future, relevant)
            self._waiters.append(waiter)
            try:
                await future
            finally:
                if waiter in self._waiters:     # cancelled while waiting
                    self._waiters.remove(waiter)
        return self.version
