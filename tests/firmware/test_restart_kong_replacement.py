"""A 杠 and its replacement across a kill.  A seat presses 杠 and takes its replacement from the tail at
once; killed before the journal held either, the controller never acknowledged the 杠, so the board
sends it again, while the wall sensors already show the replacement taken.  The restarted controller
applied the takes the sensors show first, then the 杠: its replacement was counted as an unowed tail
take and the kong waited for another — in 云南 no 第N杠来自 was ever asked, and the seat that owed its
answer never pressed 确认 at 最后一张 (the table stalled there).  The keys the boards sent again are
applied first: a 杠 comes before its replacement."""

import threading

import pytest

from tests.asyncio_support import run
from tests.firmware.lost_writes import lose_writes_while, stop_options
from tests.firmware.test_restart import crash_and_restart


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_exposed_kong_declared_as_the_controller_is_killed_is_asked_about_and_counted(tmp_path, monkeypatch, seed):
    down = threading.Event()
    lose_writes_while(down, monkeypatch)

    def declared(event: dict) -> bool:
        return event["hand"] >= 2 and event["event"] == "kong_declared" and not event["concealed"]

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("yunnan", seed, db, declared, **stop_options(down, killed=True)),
                                timeout=90)
    kong = next(e for e in before if declared(e))
    resumed = next(e for e in after if e["event"] == "resumed")
    assert kong["seat"] not in dict(resumed["pending_kongs"])             # the journal never held it
    asked = [e["seat"] for e in after if e["event"] == "kong_from" and e["hand"] == resumed["hand"]]
    assert kong["seat"] in asked
    assert not any(e["event"] == "warning" for e in after if e["hand"] == resumed["hand"])
    assert result.hands == 2
