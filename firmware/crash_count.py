"""Stops by the controller's own fault, counted per hand in the journal.

A hand that stops the controller at every start (a bug its state brings back: the service starts
the table again, the hand is resumed, the fault comes back) would stop the table for ever.  Each
such stop is counted in the journal (`CRASHED_KEY`), and the session voids a hand that stopped it
`CRASHES_BEFORE_VOID` times as it is resumed the next time.  A kill, a power cut, a stop asked
for or a link that cannot be mended count nothing: they are not the hand's doing.
"""

from __future__ import annotations

import logging

from drivers.errors import LinkError

from .faults import ControllerFailure
from .records.ledger import Ledger
from .records.store import WRITE_ERRORS, Store

CRASHED_KEY = "crashed"            # {"session", "hand", "count"}: stops by a fault of its own in that hand
CRASHES_BEFORE_VOID = 2            # a hand that stopped the controller this often is voided as it is resumed
log = logging.getLogger("firmware.session")


def its_own(error: BaseException) -> bool:
    """A `ControllerFailure` (a bug in a pump or a guarded task), or any error no link explains."""
    return isinstance(error, ControllerFailure) or not isinstance(error, LinkError)


class CrashCount:
    def __init__(self, store: Store, ledger: Ledger) -> None:
        self._store = store
        self._ledger = ledger
        self._crashed: dict | None = None        # as the journal holds it

    def load(self, saved: dict[str, dict]) -> None:
        self._crashed = saved.get(CRASHED_KEY)

    def in_hand(self, session: int, number: int) -> int:
        """How often this session's hand `number` stopped the controller by a fault of its own."""
        crashed = self._crashed
        if crashed is None or (crashed.get("session"), crashed.get("hand")) != (session, number):
            return 0
        return int(crashed.get("count", 0))

    async def count(self, error: BaseException, session: int, number: int) -> None:
        """The controller stops by `error` with hand `number` in play: counted if it is its own."""
        if not its_own(error):
            return
        count = self.in_hand(session, number) + 1
        self._crashed = {"session": session, "hand": number, "count": count}
        log.error("hand %d stopped the controller (%d time(s)): %r", number, count, error)
        try:                                        # tried once: a card that refuses it must not hold the stop
            await self._store.run(self._ledger.journal_put, CRASHED_KEY, self._crashed)
        except WRITE_ERRORS as refused:             # (logged by the store) the stop goes on
            log.error("the count of stops in hand %d was not written (%s)", number, refused)


__all__ = ["CRASHED_KEY", "CRASHES_BEFORE_VOID", "CrashCount", "its_own"]
