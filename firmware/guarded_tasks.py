"""Tasks the table cannot do without, and the jobs event handling starts without waiting.

A guarded task that ends by an error (a bug) stops the table loudly, as a bug in the event pump
does, and the service starts it again (the hand resumes), instead of the table waiting for ever
on what the task would have done: a journal writer that died left every event unacknowledged,
a silent stall.  The link closed by a stop ends such a task quietly: it is the table stopping.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Coroutine

from drivers.errors import LinkClosed


class GuardedTasks:
    def __init__(self, on_failure: Callable[[str, BaseException], None]) -> None:
        self._on_failure = on_failure        # the hub: the table stops, and its waiters are told
        self._background: set[asyncio.Task] = set()

    def guard(self, task: asyncio.Task) -> asyncio.Task:
        task.add_done_callback(self._ended)
        return task

    def start(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """A job event handling starts and does not wait for (a person's 确认, a board's state read
        again): kept until it ends, ended at the stop, guarded (campaign 750014: such a job ended by
        the stop's closed link used to leave "Task exception was never retrieved" in the log)."""
        task = self.guard(asyncio.get_running_loop().create_task(work, name=name))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def background(self) -> tuple[asyncio.Task, ...]:
        return tuple(self._background)

    def _ended(self, task: asyncio.Task) -> None:
        error = None if task.cancelled() else task.exception()
        if error is None or isinstance(error, LinkClosed):
            return                                  # (LinkClosed: the table is stopping)
        self._on_failure(f"{task.get_name()} failed: {error!r}", error)


__all__ = ["GuardedTasks"]
