"""How late the event loop runs: the measure of "nothing blocks the loop".

A timer asks to be woken every `interval`; how much later than asked it wakes is the loop's lag at
that moment — whatever held the loop (a long computation, a disk write, a garbage collection) shows
up here.  The worst lag of each hand goes into its `hand_end` (`loop_lag_ms`); a lag over `warn_ms`
is logged as a warning at once, and then at most once every `quiet_s`, with how many more there were
and the worst of them: a Pi that is slow all the time warned five times a second, and the other
warnings drowned (a probe).  One timer callback, no task: nothing is left running after `stop`.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

from .logs import Repeats

log = logging.getLogger("firmware.loop")


class LoopWatch:
    def __init__(self, interval: float = 0.02, warn_ms: float = 100.0, quiet_s: float = 60.0) -> None:
        self.interval = interval
        self.warn_ms = warn_ms
        self.warnings = Repeats(quiet_s, lambda worst: f"the worst {worst:.0f} ms")   # (in loop time)
        self.worst_ms = 0.0              # since the last `take_worst`
        self.worst_ever_ms = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._due = 0.0
        self.on_tick: Callable[[float], None] | None = None    # hears every lag (ms): a benchmark's probe

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._arm()

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def take_worst(self) -> float:
        """The worst lag (ms) since the last call, rounded to 0.1 ms; starts a new period."""
        worst, self.worst_ms = self.worst_ms, 0.0
        return round(worst, 1)

    def _arm(self) -> None:
        assert self._loop is not None
        self._due = self._loop.time() + self.interval
        self._handle = self._loop.call_at(self._due, self._tick)

    def _tick(self) -> None:
        assert self._loop is not None
        lag_ms = max(0.0, (self._loop.time() - self._due) * 1000)
        self.worst_ms = max(self.worst_ms, lag_ms)
        self.worst_ever_ms = max(self.worst_ever_ms, lag_ms)
        if lag_ms > self.warn_ms and (more := self.warnings.say(lag_ms, self._loop.time())) is not None:
            log.warning("the event loop was held for %.0f ms (over %.0f ms): the boards wait meanwhile%s",
                        lag_ms, self.warn_ms, more)
        if self.on_tick is not None:
            self.on_tick(lag_ms)
        self._arm()
