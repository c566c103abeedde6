"""The seats' displays, written in order by one task, and when each seat's last line was shown.

A question asked on a seat counts only the keys pressed once it was on that seat's display.  A ▶
pressed before it — on a question a killed controller never answered, sent again by the board to
the restarted one — would move the new question a step past what the player sees, and his 确认
then chooses what he did not (长春 亮特殊杠, a kill after the dealer's first ▶: the set he laid was
refused and the table stalled).  An event the link delivered before the line was sent to the board
was pressed before the line was shown: `MotorBoard.seat_text` returns how many events the link had
delivered when it sent the line, and each key carries its own place in that count (`Press.heard`).
Keys on the wire while the line travels count (never one pressed after it was shown dropped: not
even when the board's acknowledgement is lost and comes late).
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from drivers.errors import CommandRejected

NOT_HEARD = -1          # no line written yet on that seat: no key is older than it


class SeatLines:
    """Seat lines queued by the presenter, written one at a time by `run()`."""

    def __init__(self, write: Callable[[int, int, str], Awaitable[int]], warn: Callable[[str], None]) -> None:
        self._write = write             # writes one line; returns the events heard before it was sent
        self._warn = warn               # a line the board refused (a warning, never a stop)
        self._queue: asyncio.Queue[tuple[int, int, str, int]] = asyncio.Queue()
        self._queued: dict[int, int] = {}       # per side: lines queued so far
        self._written: dict[int, int] = {}      # per side: lines written (or refused) so far
        self._heard: dict[int, int] = {}        # per side: events heard before its last line was sent
        self._waiters: list[tuple[int, int, asyncio.Future[None]]] = []
        self._stopped: BaseException | None = None     # why the writer ended, once it has

    def put(self, side: int, line: int, text: str) -> None:
        number = self._queued[side] = self._queued.get(side, 0) + 1
        self._queue.put_nowait((side, line, text, number))

    async def run(self) -> None:
        try:
            while True:
                side, line, text, number = await self._queue.get()
                try:
                    self._heard[side] = await self._write(side, line, text)
                except CommandRejected as error:
                    self._warn(str(error))
                self._written[side] = number
                self._wake(side)
        except BaseException as error:
            self._give_up(error)
            raise

    def _give_up(self, error: BaseException) -> None:
        """The writer ended (the table stops: a board it cannot work with, a bug, a stop): whoever
        waits for a line to be shown is told, never left waiting for ever (a board whose events did
        not decode left the hand waiting here in silence, the table never stopping)."""
        self._stopped = error
        for _, _, waiter in self._waiters:
            if not waiter.done():
                if isinstance(error, Exception):
                    waiter.set_exception(error)
                else:
                    waiter.cancel()
        self._waiters.clear()

    async def shown(self, side: int) -> int:
        """Until every line put on `side` so far is on its display; then the events heard before
        the last of them was sent (a key with `heard` below it was pressed before it was shown)."""
        target = self._queued.get(side, 0)
        if self._written.get(side, 0) < target:
            if isinstance(self._stopped, Exception):
                raise self._stopped
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append((side, target, waiter))
            await waiter
        return self._heard.get(side, NOT_HEARD)

    def _wake(self, side: int) -> None:
        written = self._written[side]
        for entry in [w for w in self._waiters if w[0] == side and w[1] <= written]:
            self._waiters.remove(entry)
            if not entry[2].done():
                entry[2].set_result(None)
