"""A restart after the host was lost: the motor board had stopped and latched E13 while no controller
spoke to it, and the new controller clears it as its own doing.  The recorder (and the log) said so
two or three times for the one clearing — for the E13 the board had queued, again for its snapshot's
listing of it, and again at the self test — whenever the board's FaultCleared came back after them
(a real board's does, over its own link), as if the host had been lost again and again."""

import asyncio

from simulator.motor_board import MotorBoardSim
from tests.asyncio_support import run
from tests.firmware.host_lost import played_losing_the_host
from tests.firmware.test_restart import crash_and_restart, nth_take_of_hand_2

FAULT_CLEARED_AFTER_S = 0.3     # the board answers the clearing at once; its FaultCleared follows


def test_a_restart_after_the_host_was_lost_records_its_clearing_once(tmp_path, monkeypatch):
    clear_faults = MotorBoardSim._clear_faults

    def answered_now_cleared_later(self: MotorBoardSim, message) -> int:
        asyncio.get_running_loop().call_later(FAULT_CLEARED_AFTER_S, clear_faults, self, message)
        return 0

    def host_lost_meanwhile(table, ruleset, events) -> None:
        monkeypatch.setattr(MotorBoardSim, "_clear_faults", answered_now_cleared_later)
        table.motor._host_lost()            # nothing heard for the link's timeout: every motor stops, E13

    result, before, after = run(crash_and_restart("changchun", 3, str(tmp_path / "table.db"), nth_take_of_hand_2(3),
                                                  meanwhile=host_lost_meanwhile), timeout=90)
    cleared = [e for e in after if e["event"] == "host_lost_cleared"]
    assert [e["boards"] for e in cleared] == [["motor"]], cleared
    assert result.hands == 2
    assert not any(e["event"] == "host_lost_cleared" for e in before)


def test_each_latching_is_cleared_and_recorded_again():
    """Once per latching, not once per run: the board losing the host again later is cleared (and
    said) as the first time, or the table would wait on it for ever."""
    hands, events = run(played_losing_the_host("changchun", 5, 3, after=(1, 2)), timeout=90)
    assert hands == 3
    assert [e["boards"] for e in events if e["event"] == "host_lost_cleared"] == [["motor"], ["motor"]]
