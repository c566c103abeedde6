"""A fault the controller holds for a board that no longer holds it (the board rebooted before its
FaultCleared went out) is cleared when the board's snapshot does not list it.

Found by the fault campaign (690012, 钻牌): the controller froze between hands, the motor board
latched E13 (host lost) and was cleared, and a brown-out rebooted it before its FaultCleared was
sent.  The controller kept E13 latched for ever: every move waited for it, a person's 确认 asked the
board to clear a fault it no longer had, and the next set was never built.
"""

from __future__ import annotations

import asyncio

from simulator.motor_board import MotorBoardSim
from tests.asyncio_support import run
from tests.firmware.host_lost import played_losing_the_host


def test_a_host_lost_fault_whose_clearing_a_reboot_swallowed_does_not_hold_the_table(monkeypatch):
    clear_faults = MotorBoardSim._clear_faults
    swallowed: list[int] = []

    def reboot_instead(self: MotorBoardSim, message) -> int:
        if self.latched and not swallowed:           # the clearing is taken, then the power dips
            swallowed.append(1)
            asyncio.get_running_loop().call_soon(self.reboot)
            return 0
        return clear_faults(self, message)

    monkeypatch.setattr(MotorBoardSim, "_clear_faults", reboot_instead)

    hands, events = run(played_losing_the_host("zuanpai", 4, 3, after=(1,)), timeout=60)
    assert swallowed
    assert hands == 3
    assert any(e["event"] == "faults_forgotten" and e["board"] == "motor" and e["codes"] == ["E13"] for e in events)
