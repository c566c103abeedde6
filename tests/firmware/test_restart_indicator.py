"""河北's 混儿 across a stop: the dealer takes the indicator out as soon as it shows, so it shows only
once the journal knows which tile it is.  Shown before, a SIGKILL left the restarted controller
taking the tile out for a kong's replacement from the tail and rolling for another 混儿 (a stall:
the fault campaign, 河北 seed 6059).  And a restarted controller that knows the 混儿 shows its dice
again with it, or the dealer, who reads them to find the tile, waits."""

import threading

import pytest

from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart


@pytest.mark.parametrize("journal_kept_it", [False, True])
def test_a_hun_revealed_as_the_controller_stops_is_taken_out_once_and_played(tmp_path, monkeypatch, journal_kept_it):
    down = threading.Event()
    lose_writes_while(down, monkeypatch)

    def revealed(event: dict) -> bool:
        return event["hand"] >= 2 and event["event"] == "indicator" and event["kind"] == "hun"

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("hebei", 1, db, revealed,
                                                  **stop_options(down, killed=not journal_kept_it)), timeout=60)
    resumed = next(e for e in after if e["event"] == "resumed")
    assert not any(e["event"] == "warning" and "out of order" in e.get("message", "") for e in after
                   if e["hand"] == resumed["hand"]), "the 混儿 taken out was taken for another take"
    assert result.hands == 2
