"""The controller stopped abruptly just as a player lifted a tile off the wrong stack (simulator fault
`wrong_stack`, in the deal or in play); the player puts it back while it is down.  The board holds
the sensor's changes the controller had not made durable and sends them again: the restarted
controller sees the takes and the tiles put back, undoes them, and settles the hand as played (never
voided, no take left standing, the audit sound).  A take already journaled
before the stop, put back after it: tests/firmware/test_tile_put_back.py."""

from __future__ import annotations

from firmware.records.audit import audit_one_hand
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart


def test_a_tile_put_back_while_the_controller_was_down_is_taken_back_and_the_hand_goes_on(tmp_path):
    def out_of_order_in_hand_2(event: dict) -> bool:
        return event["event"] == "take" and event["hand"] >= 2 and event["in_order"] is False

    def careless(players, stop) -> None:
        players.table.inject_fault("wrong_stack=0.3")

    result, before, after = run(crash_and_restart("hebei", 5, str(tmp_path / "table.db"), out_of_order_in_hand_2,
                                                  players_hook=careless), timeout=180)
    stopped_in = next(e["hand"] for e in before if out_of_order_in_hand_2(e))
    assert not any(e["event"] == "hand_void" for e in after)
    # the tiles lifted by mistake are taken back — or, put back and then dealt in their turn while the
    # controller was down, stand as the takes of those slots the sensors show them to be
    assert any(e["event"] == "put_back" and e["hand"] == stopped_in for e in before + after)
    ends = [e["hand"] for e in after if e["event"] == "hand_end"]
    assert ends[0] == stopped_in and result.hands == 2
    assert not [e for e in after if e["event"] == "warning" and "stands" in e["message"]]
    assert audit_one_hand([e for e in before + after if e["hand"] == stopped_in]) == []
