"""A session's time on the wall clock, as the ledger's history reads it (firmware/records/history.py):
the times it wrote cut into stretches where the clock went back or a step of it was seen, each fault
interval given to the stretch it began in, and the seconds of a union of intervals within a day.
The reasons are history.py's docstring ("Hours").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Iterable


@dataclass(frozen=True)
class Stretch:
    """A part of a session over which the clock only went forward, and the faults begun in it."""

    start: float
    end: float
    faults: tuple[tuple[float, float], ...] = ()

    def wall(self, lo: float, hi: float) -> float:
        return clipped([(self.start, self.end)], lo, hi)

    def lost(self, lo: float, hi: float) -> float:
        return clipped([(max(a, self.start), min(b, self.end)) for a, b in self.faults], lo, hi)


@dataclass(frozen=True)
class SessionSpan:
    session: int                             # its id
    stretches: tuple[Stretch, ...]
    finishes: tuple[float, ...]              # its hands' finish times

    def days(self) -> list[date]:
        """Every day it has time or a hand on (a hand can finish in a step back of the clock)."""
        found = {d for part in self.stretches for d in days_between(part.start, part.end)}
        found.update(datetime.fromtimestamp(t).date() for t in self.finishes)
        return sorted(found)

    def on_day(self, lo: float, hi: float) -> bool:
        """Whether the day [lo, hi) is among `days()`, without working out every day (a session open
        for months finished tens of thousands of hands)."""
        return (any(part.start < hi and max(part.start, part.end) >= lo for part in self.stretches)
                or any(lo <= t < hi for t in self.finishes))


@dataclass(frozen=True)
class ClockStep:
    """A step of the wall clock the controller saw (against its monotonic clock): the clock read
    `before` just before it and `after` just after."""

    before: float
    after: float


def stretches(times: list[float | ClockStep]) -> list[tuple[float, float]]:
    """The times a session wrote, in the order written, cut where the clock went back or a step of
    the clock was seen: each piece runs forward, and the step counts nothing (a step forward is
    not time played; a step back seen keeps the time up to it)."""
    pieces, first, last = [], times[0], times[0]      # (a session's start comes first, never a step)
    for t in times[1:]:
        if isinstance(t, ClockStep):
            pieces.append((first, max(last, t.before)))
            first = last = t.after
            continue
        if t < last:
            pieces.append((first, last))
            first = t
        last = t
    pieces.append((first, last))
    return pieces


def with_steps(hand_times: list[tuple[float | None, float]],
               steps: list[tuple[float, ClockStep]]) -> list[float | ClockStep]:
    """A session's hands' times (start, finish) in the order settled, with its clock steps put where
    they were seen: `at` hands settled before it, and half a hand when one was in play."""
    out: list[float | ClockStep] = []
    pending = sorted(steps, key=lambda step: step[0])
    for index, (started, finished) in enumerate(hand_times):
        if started is not None:
            while pending and pending[0][0] < index + 1 and not _seen_in_hand(pending[0], index, started):
                out.append(pending.pop(0)[1])
            out.append(started)
        while pending and pending[0][0] < index + 1:
            out.append(pending.pop(0)[1])
        out.append(finished)
    out.extend(step for _, step in pending)
    return out


def _seen_in_hand(step: tuple[float, ClockStep], index: int, started: float) -> bool:
    """Whether a step was seen after the hand began.  A step forward says it by its times (a start
    before it is earlier than it); a step back by its place (the hand was in the journal)."""
    at, times = step
    if times.after > times.before:
        return started <= times.before
    return at > index


def with_faults(pieces: list[tuple[float, float]], faults: list[tuple[float, float]]) -> tuple[Stretch, ...]:
    """Each fault interval (in the order written) goes to the piece it began in, counted once: where
    the clock went back over its start, the first such piece not before the previous fault's.  One
    that did not end in that piece ran on across the step of the clock that ended it: the rest of
    that piece, and the next ones from their start up to where it ended (a jam up across a step was
    counted as played from the step on: a verifying probe)."""
    held: list[list[tuple[float, float]]] = [[] for _ in pieces]
    at = 0
    for a, b in faults:
        found = next((i for i in range(at, len(pieces)) if pieces[i][0] <= a <= pieces[i][1]), None)
        if found is None:
            continue
        at = found
        if a <= b <= pieces[found][1]:          # ended in the piece it began in
            held[found].append((a, b))
            continue
        held[found].append((a, pieces[found][1]))
        for later in range(found + 1, len(pieces)):
            lo, hi = pieces[later]
            ended = lo <= b <= hi
            held[later].append((lo, b if ended else hi))
            if ended:
                break
    return tuple(Stretch(lo, hi, tuple(f)) for (lo, hi), f in zip(pieces, held))


def days_between(start: float, end: float) -> list[date]:
    first, last = datetime.fromtimestamp(start).date(), datetime.fromtimestamp(max(start, end)).date()
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def clipped(intervals: Iterable[tuple[float, float]], lo: float, hi: float) -> float:
    """Seconds covered by the union of `intervals`, within [lo, hi)."""
    spans = sorted((max(a, lo), min(b, hi)) for a, b in intervals if min(b, hi) > max(a, lo))
    total, reach = 0.0, lo
    for a, b in spans:
        a = max(a, reach)
        if b > a:
            total += b - a
            reach = b
    return total
