"""The fault desk: every latched fault shown, recorded and cleared in one place.

`FaultLatch` (firmware.faults) is the pure state; the desk is its face.  A fault that latches is
recorded and shown on its page; one that clears shows the next still latched, or the page the
fault covered; a person's acknowledgement and a board's own clear are counted, so a motion
refused by a latched fault knows when to try again (`clears`).  The boards' clear commands
stay with the controller, which owns the links: the desk never sends.
"""

from __future__ import annotations

from typing import Callable

from drivers.messages import FaultCode
from drivers.table_ui import Phase

from .faults import STORAGE_DAMAGED_SOURCE, STORAGE_HINTS, FaultLatch, LatchedFault, storage_source
from .presenter import Presenter
from .records.recorder import FlightRecorder


# The phases of a hand played on the raised walls: a fault under the table (the next set's build)
# waits on the main page's fault line meanwhile, and its page comes when the hand is over.
HAND_PHASES = frozenset({Phase.DICE, Phase.DEAL, Phase.EXCHANGE, Phase.OPENING, Phase.SPECIAL_KONGS, Phase.PLAY,
                         Phase.LAST_TILE, Phase.WIN_CHECK, Phase.SETTLE})


class FaultDesk:
    def __init__(self, latch: FaultLatch, recorder: FlightRecorder, presenter: Presenter, *,
                 page_behind: Callable[[], str], on_change: Callable[[], None],
                 alarm: Callable[[], None] = lambda: None) -> None:
        self._latch = latch
        self._recorder = recorder
        self._presenter = presenter
        self._page_behind = page_behind      # the page a fault covers (the owner's menu waits behind it)
        self._on_change = on_change          # the hub's watchers (fault hours, the web view, the lamps)
        self._alarm = alarm                  # the buzzer, for a fault that waits for a person
        self.hatch_open = False
        self.clears = 0                      # board clears and acknowledgements so far
        self._in_hand = False                # a hand is played on the raised walls (`phase`)

    def latch(self, fault: LatchedFault) -> None:
        """A fault latches: shown with its code until a person acknowledges it; one that waits for a
        person sounds the alarm as it latches (not again when a board lists it once more)."""
        before = next((f for f in self._latch.latched() if f.key == fault.key), None)
        self._latch.latch(fault)
        if before is None and fault.calls_a_person:
            self._alarm()
        if before is None or before.message != fault.message:
            self.record(fault)          # (listed once more with the same words: E13 was logged twice at every restart)
        self.show()
        self._on_change()

    def phase(self, phase: Phase) -> None:
        """The message line moved to `phase`: a hand's end shows the page of a fault under the table
        that waited on the fault line (a probe: the page covered the scores, the wall's count and the
        indicators for the rest of the hand, the jam waiting for its end anyway)."""
        in_hand = phase in HAND_PHASES
        if in_hand != self._in_hand:
            self._in_hand = in_hand
            self.show()

    def record(self, fault: LatchedFault) -> None:
        self._recorder.emit("fault", code=fault.label, message=fault.message, latched=True, source=fault.source)

    def clear(self, code: int, unit: int, source: str) -> None:
        self._latch.clear(code, unit, source)
        self.show()

    def board_cleared(self, code: int, unit: int, source: str) -> None:
        """The board says its fault cleared (FaultCleared)."""
        self.clears += 1
        self.clear(code, unit, source)

    def forgotten(self, source: str, gone: tuple[LatchedFault, ...]) -> None:
        """Faults the board no longer holds (its snapshot did not list them): cleared here too."""
        if not gone:
            return
        self.clears += 1
        self._recorder.emit("faults_forgotten", board=source, codes=[f.label for f in gone])
        self.show()

    def acknowledged(self) -> None:
        """A person pressed 确认 on the fault page: the boards' faults clear once their clear commands
        are heard (the controller sends them); the controller's own faults clear now when the page
        showed one of them.  A 确认 on a board's page (an emergency stop over a rejected set) no longer
        acknowledges a set nobody mended: the set's page shows next and asks for its own."""
        self.clears += 1
        shown = self._latch.latched()       # the page shows the fault latched last (`latch`, `show`)
        if not shown or shown[-1].source == "controller":
            self._latch.acknowledge_controller_faults()

    def interlock(self, open_: bool) -> None:
        """The service hatch: shown while open; motion waits; it clears itself when closed."""
        if open_ == self.hatch_open:
            return
        self.hatch_open = open_
        if open_:
            self.latch(LatchedFault(FaultCode.HATCH_OPEN, 0, "the service hatch is open", "interlock"))
        else:
            self.clear(FaultCode.HATCH_OPEN, 0, "interlock")

    def storage_failed(self, error: BaseException) -> None:
        """A disk write failed (the card full or failing): E24 shown and logged while the writes are
        retried; the boards' events wait unacknowledged meanwhile, so play waits with them."""
        from .records.store import disk_trouble
        source = storage_source(disk_trouble(error))    # damaged, read-only, held by another: not "free space"
        self.latch(LatchedFault(FaultCode.STORAGE, 0, f"a disk write failed: {error}", source))

    def storage_back(self) -> None:
        """A write landed again: E24 cleared — but not a damaged ledger's: a small write landing
        between the tries of the one the damage refuses cleared it, and it was raised again 4 s later,
        over and over (a verifying probe); no retry mends it."""
        for fault in self._latch.latched():     # (whichever words it was latched with)
            if fault.code == FaultCode.STORAGE and fault.source in ("storage", *STORAGE_HINTS) and \
                    fault.source != STORAGE_DAMAGED_SOURCE:
                self.clear(FaultCode.STORAGE, 0, fault.source)

    def display_silent(self, why: str) -> None:
        self.latch(LatchedFault(FaultCode.DISPLAY, 0, why, "display"))

    def display_back(self) -> None:
        self.clear(FaultCode.DISPLAY, 0, "display")

    def show(self) -> None:
        """After a fault latched or cleared: the one latched last of those still latched; when none is
        left, the page it covered (the front-panel menu the owner had open, the service page, else the
        main page).  While a hand is played and every fault latched is under the table, the main
        page's fault line shows the latest instead, and the page stays.
        The page used to stay on the fault that cleared: a jam behind a link fault still read 连接中断
        once the link was back, and a person's 确认 seemed to do nothing."""
        latched = self._latch.latched()
        waiting = (bool(latched) and self._in_hand and all(f.under_the_table for f in latched)
                   and self._page_behind() == "main")       # (a menu left open: its keys wait for 确认)
        self._presenter.fault_line(latched[-1] if waiting else None)
        if latched and not waiting:
            self._presenter.fault(latched[-1])
        elif self._presenter.page == "fault":
            self._presenter.show_page(self._page_behind())


__all__ = ["FaultDesk"]
