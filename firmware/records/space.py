"""Room left on the card that holds the ledger and the flight recorders.

A full card stops the table: a write that does not land latches E24 and play waits until one does
(firmware/session.py).  The flight recorders grow by about 19 KB a hand and are never deleted by the
table (they are the audit's evidence: deleting them is the owner's call), so a card fills slowly and
then all at once.  The watch asks the card after each hand how much room is left and says so once
when it falls under a floor, long before it is full, and once when there is room again."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

MB = 1 << 20
LOW_SPACE_BYTES = 512 * MB      # ≈ 27,000 hands of flight recorder: at 200 hands a day, four months' notice


@dataclass(frozen=True)
class Space:
    free: int           # bytes this process may still write
    total: int

    @property
    def free_mb(self) -> int:
        return self.free // MB

    @property
    def total_mb(self) -> int:
        return self.total // MB


def space_left(paths: Iterable[Path]) -> Space | None:
    """The least room of the file systems holding `paths` (None: none of them could be asked)."""
    least: Space | None = None
    for path in paths:
        try:
            stat = os.statvfs(path)
        except OSError:
            continue
        if not stat.f_blocks:
            continue            # no card: a file system of no size (/proc, /sys) has no room to run out of
        space = Space(stat.f_bavail * stat.f_frsize, stat.f_blocks * stat.f_frsize)
        if least is None or space.free < least.free:
            least = space
    return least


class SpaceWatch:
    """Whether the card is under its floor, as last asked; `change()` asks again."""

    def __init__(self, paths: Iterable[Path], floor: int = LOW_SPACE_BYTES,
                 probe: Callable[[tuple[Path, ...]], Space | None] = space_left) -> None:
        self.paths = tuple(paths)
        self.floor = floor
        self.low = False
        self.last: Space | None = None      # the room found at the last ask
        self._probe = probe

    async def change(self) -> Space | None:
        """Ask the card (off the loop: a struggling card can be slow to answer); the room left when
        it crossed the floor since the last ask, either way (`low` says which), else None."""
        if not self.paths:
            return None
        space = await asyncio.to_thread(self._probe, self.paths)
        self.last = space if space is not None else self.last
        if space is None or (space.free < self.floor) == self.low:
            return None
        self.low = not self.low
        return space


__all__ = ["LOW_SPACE_BYTES", "Space", "SpaceWatch", "space_left"]
