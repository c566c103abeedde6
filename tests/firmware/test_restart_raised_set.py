"""A kill after the walls rose, once the players took the deal: which set is standing, and which is
in the mixer, must be what the journal says, or the restarted controller has the dealt walls pushed
in onto the other set and builds both mixed (found by the fault campaign: 长春, a kill in 请配牌,
E07/E10 for a whole set, the players' walls empty, a stall)."""

import threading
import time as clock

from drivers.motor_protocol import LiftPosition
from firmware.records.ledger import Ledger
from firmware.between_hands import RAISED_SET_KEY
from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart


def test_walls_dealt_before_a_slow_disk_wrote_that_they_rose_are_not_taken_for_the_set_below(tmp_path, monkeypatch):
    """The journal's note that the set below rose (and is the one on the table) sits behind a slow
    write (an SD card) when the kill comes, just after the first tile of the deal is taken; nothing
    written after the kill reaches the disk, as with SIGKILL.  The restarted controller must build
    the set in the mixer, then have the dealt walls pushed in: every set check after it passes."""
    down = threading.Event()                        # the first controller is gone: its writes are lost
    lose_writes_while(down, monkeypatch)
    swap = Ledger.journal_swap

    def slow_swap(ledger, put, drop=()):
        if RAISED_SET_KEY in put and not down.is_set():
            clock.sleep(0.5)                        # in the store's thread, as a slow card would
        swap(ledger, put, drop)

    monkeypatch.setattr(Ledger, "journal_swap", slow_swap)

    def a_tile_of_the_deal_was_taken(table) -> bool:
        world = table.world
        return all(s.position == LiftPosition.UP for s in world.sides) and \
            any(n < 2 for side in range(4) for n in table.wall(side)) and \
            any(n == 2 for side in range(4) for n in table.wall(side))

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("changchun", 4, db, crash_when=a_tile_of_the_deal_was_taken,
                                                  **stop_options(down, killed=True)),
                                timeout=60)
    checks = [e for e in after if e["event"] == "set_check"]
    assert checks and all(e["ok"] for e in checks), checks
    assert not any(e["event"] == "fault" and e.get("code") in ("E07", "E10") for e in after)
    assert result.hands == 2
