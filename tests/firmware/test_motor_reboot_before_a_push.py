"""A motor board that reboots after it accepted a build but before it pushed a tile holds no build to
go on with: it refuses to resume (NOT_READY) and the set builder asks for the build anew.  Before,
that refusal stopped the table with status 1 (campaign with read faults, seed 340018, 八枝: a motor
reboot as the next set's build began)."""

from __future__ import annotations

import asyncio

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.motor_board import MotorBoardSim
from tests.asyncio_support import run


def test_a_motor_board_rebooted_before_its_first_push_builds_the_set_anew(monkeypatch):
    run_build = MotorBoardSim._run_build
    builds: list[int] = []
    rebooted: list[int] = []

    async def reboot_before_the_second_build_s_first_push(self: MotorBoardSim) -> None:
        builds.append(1)
        if len(builds) == 2 and not rebooted:
            rebooted.append(1)
            asyncio.get_running_loop().call_soon(self.reboot)     # it cancels this build's task
            await asyncio.sleep(0)
            await asyncio.sleep(0)
        await run_build(self)

    monkeypatch.setattr(MotorBoardSim, "_run_build", reboot_before_the_second_build_s_first_push)
    result = run(run_simulated(get_region("changchun").resolve(), hands=3, seed=2), timeout=120)
    assert rebooted
    assert result.hands == 3
