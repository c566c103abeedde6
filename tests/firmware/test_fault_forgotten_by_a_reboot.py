"""A fault the controller holds for a board that no longer holds it (the board rebooted before its
FaultCleared went out) is cleared when the board's snapshot does not list it.

Found by the fault campaign (690012, 钻牌): the controller froze between hands, the motor board
latched E13 (host lost) and was cleared, and a brown-out rebooted it before its FaultCleared was
sent.  The controller kept E13 latched for ever: every move waited for it, a person's 确认 asked the
board to clear a fault it no longer had, and the next set was never built.
"""

from __future__ import annotations

import asyncio

from drivers.messages import FaultCode
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import SimulatedTable
from simulator.motor_board import MotorBoardSim
from tests.asyncio_support import run


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

    async def play() -> tuple[int, list[dict]]:
        ruleset = get_region("zuanpai").resolve()
        table = SimulatedTable(seed=4, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        events: list[dict] = []
        tripped: list[int] = []

        def on_event(event: dict) -> None:
            events.append(event)
            if event["event"] == "hand_end" and event["hand"] == 1 and not tripped:
                tripped.append(1)                     # between hands: the board heard no host for too long
                table.motor.trip(FaultCode.HOST_LOST, 0)
        await table.start("pty")
        try:
            result = await run_simulated(ruleset, hands=3, seed=4, table=table, on_event=on_event)
        finally:
            await table.stop()
        return result.hands, events

    hands, events = run(play(), timeout=60)
    assert swallowed
    assert hands == 3
    assert any(e["event"] == "faults_forgotten" and e["board"] == "motor" and e["codes"] == ["E13"] for e in events)
