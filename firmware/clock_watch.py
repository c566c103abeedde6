"""Steps of the wall clock, seen against the monotonic clock.

A Pi without a clock of its own boots at the time it last saved (or at 1970), and a time server
or a person then sets it: the wall clock jumps while the monotonic clock runs on.  Hours played are
wall-clock differences, so the controller looks at wall − monotonic now and then; when it moved by
more than a few seconds, the clock was stepped, and the ledger keeps the step (Ledger.clock_stepped)
so the history does not count it as played (firmware/records/history.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

STEP_S = 5.0        # more than a time server's slewing or a slow look ever moves it


@dataclass(frozen=True)
class WallStep:
    before: float       # what the wall clock would read now without the step
    after: float        # what it reads

    @property
    def size(self) -> float:
        return self.after - self.before

    def words(self) -> str:
        """One log line: which way, how far, and what it does to the hours."""
        if self.size > 0:
            return (f"the wall clock jumped forward by {duration(self.size)} (a time server set it?): hours played "
                    "do not count the jump")
        return (f"the wall clock jumped back by {duration(-self.size)} (a time server set it?): hours played keep "
                "the time played before the jump")


class ClockWatch:
    """Each `look` compares wall − monotonic with the last look's (cheap: two clock reads)."""

    def __init__(self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.wall = wall
        self.monotonic = monotonic
        self._offset = self._now_offset()

    def _now_offset(self) -> float:
        return self.wall() - self.monotonic()

    def look(self) -> WallStep | None:
        mono = self.monotonic()
        offset = self.wall() - mono
        moved, before = offset - self._offset, self._offset + mono
        self._offset = offset
        return WallStep(before, offset + mono) if abs(moved) > STEP_S else None


def duration(seconds: float) -> str:
    """A length as a person says it: its largest unit, a step measured a moment short of it counted in
    it (an hour's step read 3599.8 s: "60 minutes"), and a half under ten said (2.5 hours, not 3): 56
    years, 1 day, 2.5 hours, 40 seconds."""
    for unit, size in (("year", 365.25 * 86400), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= 0.99 * size:
            return _counted(seconds / size, unit)
    return _counted(seconds, "second")


def _counted(value: float, unit: str) -> str:
    halves = round(value * 2) / 2
    text = f"{halves:g}" if value < 10 and halves != round(value) else f"{round(value)}"
    return f"{text} {unit}{'' if text == '1' else 's'}"
