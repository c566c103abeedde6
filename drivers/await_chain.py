"""Where a task waits: its coroutines' await chain, for the one line that tells a stalled table's
story (the controller's tasks when it is stopped, the simulated players' in a stall report)."""

from __future__ import annotations

import asyncio
from typing import Any

MOST_FRAMES = 40


def awaiting(task: asyncio.Task) -> list[str]:
    """The task's await chain, outermost first ("file:line function"); it ends where a coroutine
    waits on a future or another task.  An `async with` on a generator-made context manager is
    followed into the generator (its `asend` names no frame of its own)."""
    chain: list[str] = []
    step: Any = task.get_coro()
    while step is not None and len(chain) < MOST_FRAMES:
        frame, awaited = _frame_of(step)
        if frame is None:
            break
        chain.append(f"{frame.f_code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno} {frame.f_code.co_name}")
        if awaited is not None and _frame_of(awaited)[0] is None:
            awaited = getattr(frame.f_locals.get("self"), "gen", awaited)   # contextlib's __aenter__/__aexit__
        step = awaited
    return chain


def _frame_of(step: Any) -> tuple[Any, Any]:
    """A coroutine's or an async generator's running frame and what it awaits (None, None: neither)."""
    for frame_name, await_name in (("cr_frame", "cr_await"), ("ag_frame", "ag_await")):
        frame = getattr(step, frame_name, None)
        if frame is not None:
            return frame, getattr(step, await_name, None)
    return None, None


def tasks_waiting(loop: asyncio.AbstractEventLoop | None = None) -> list[str]:
    """One line per unfinished task of the loop: its name and where it waits (sorted by name)."""
    lines = []
    for task in asyncio.all_tasks(loop):
        if not task.done():
            lines.append(f"{task.get_name()}: {' → '.join(awaiting(task)) or 'not started'}")
    return sorted(lines)


__all__ = ["awaiting", "tasks_waiting"]
