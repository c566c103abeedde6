"""A move the motor board refused for a latched fault the controller never heard of (its FaultRaised
still in the board's queue), after which the board rebooted and forgot that fault, is sent again.

Found by the fault campaign (螺山, seed 51001): the controller froze in a hand, the motor board latched
E13 (host lost); the link came back, the hand was won, and the board refused the push-in's centre
move with FAULT_LATCHED before its report of E13 went out — then a brown-out rebooted both boards.
The controller waited for a clearing of a fault it had never latched, which no one could give: the
centre never opened and the table waited for ever at 请推牌入池.
"""

from __future__ import annotations

import asyncio

from drivers.messages import FaultCode, Status
from drivers.motor_protocol import MoveCentreLift
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import SimulatedTable
from simulator.motor_board import MotorBoardSim
from tests.asyncio_support import run


def test_a_move_refused_for_a_fault_a_reboot_then_forgot_is_sent_again(monkeypatch):
    move_centre = MotorBoardSim._move_centre
    refused: list[int] = []

    def refuse_then_reboot(self: MotorBoardSim, command: MoveCentreLift) -> int:
        status = move_centre(self, command)
        if status == Status.FAULT_LATCHED and not refused:
            refused.append(status)                    # the refusal goes out, then the power dips
            asyncio.get_running_loop().call_soon(self.reboot)
        return status

    monkeypatch.setattr(MotorBoardSim, "_move_centre", refuse_then_reboot)

    async def play() -> int:
        ruleset = get_region("luoshan").resolve()
        table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        latched: list[int] = []

        def on_event(event: dict) -> None:
            if event["event"] == "hand_end" and event["hand"] == 1 and not latched:
                latched.append(1)
                # latched, its FaultRaised not yet sent: the controller cannot know of it
                table.motor.latched[(FaultCode.HOST_LOST, 0)] = 0
        await table.start("pty")
        try:
            result = await run_simulated(ruleset, hands=3, seed=3, table=table, on_event=on_event)
        finally:
            await table.stop()
        return result.hands

    hands = run(play(), timeout=90)
    assert refused, "the board never refused the centre's move: the test did not build its case"
    assert hands == 3
