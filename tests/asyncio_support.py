"""Run a coroutine in a fresh event loop and fail the test if it leaves anything behind.

The project has no pytest-asyncio; every async test calls `run(some_coroutine(), timeout=…)`.
After the coroutine returns, `run` fails the test if any task is still pending, any timer
callback is still scheduled (a link or board not closed), any new thread is still alive, or the
loop's exception handler was called (an exception in a callback that nobody saw).
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any, Coroutine, TypeVar

T = TypeVar("T")


class LeakError(AssertionError):
    """A test left tasks, timers, threads or unseen callback exceptions behind."""


def _pending_timers(loop: asyncio.AbstractEventLoop) -> list[asyncio.TimerHandle]:
    # Best effort: BaseEventLoop keeps scheduled callbacks in `_scheduled`.
    return [h for h in getattr(loop, "_scheduled", []) if not h.cancelled()]


def _threads_still_running(before: set[threading.Thread], grace: float = 10.0) -> list[threading.Thread]:
    """Threads the test started that are still alive once each had `grace` seconds to end: a
    thread on its way out (asyncio's waitpid thread for a child that is exiting, which takes
    longer on a loaded machine) is not a leak; one still running after that is."""
    deadline = time.monotonic() + grace
    started = [t for t in threading.enumerate() if t not in before]
    for thread in started:
        thread.join(max(0.0, deadline - time.monotonic()))
    return [t for t in started if t.is_alive()]


def run(coro: Coroutine[Any, Any, T], timeout: float = 10.0) -> T:
    """Run `coro` with a timeout; raise LeakError if it leaked tasks, timers or threads."""
    threads_before = set(threading.enumerate())
    loop = asyncio.new_event_loop()
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    problems: list[str] = []
    try:
        result = loop.run_until_complete(asyncio.wait_for(coro, timeout))
        loop.run_until_complete(asyncio.sleep(0))  # let just-finished callbacks settle
        leftover = [t for t in asyncio.all_tasks(loop) if not t.done()]
        if leftover:
            problems.append(f"{len(leftover)} task(s) still pending: "
                            + ", ".join(repr(t.get_coro()) for t in leftover[:5]))
            for task in leftover:
                task.cancel()
            loop.run_until_complete(asyncio.gather(*leftover, return_exceptions=True))
        timers = _pending_timers(loop)
        if timers:
            problems.append(f"{len(timers)} timer callback(s) still scheduled: "
                            + ", ".join(repr(h) for h in timers[:5]))
    finally:
        stragglers = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in stragglers:  # only when the coroutine itself failed: clean up quietly
            task.cancel()
        if stragglers:
            loop.run_until_complete(asyncio.gather(*stragglers, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
    new_threads = _threads_still_running(threads_before)
    if new_threads:
        problems.append(f"thread(s) left running: {[t.name for t in new_threads]}")
    if errors:
        problems.append("exception(s) in callbacks: " + "; ".join(
            f"{e.get('message')}: {e.get('exception')!r}" for e in errors[:5]))
    if problems:
        raise LeakError("; ".join(problems))
    return result
