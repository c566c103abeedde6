"""The simulator in its own process: real boards' clients on its endpoints, the control channel,
and a clean end however it is asked to end (or its parent dies)."""

from __future__ import annotations

import asyncio
import os
import select
import signal
import subprocess
import sys
import textwrap

import pytest

from drivers.display import Display, Touched
from drivers.errors import BoardReset
from drivers.motor import MotorBoard
from drivers.motor_protocol import KeyPressed, LiftMoved, LiftPosition, ShuffleDone, WallSnapshot
from drivers.rfid import RfidBoard
from drivers.rfid_protocol import HeadRead
from simulator.control import ControlClient, ControlError
from simulator.spawn import SimulatorProcess
from simulator.world import SimulatorError
from tests.asyncio_support import run
from tests.simulator.conftest import collect_count, collect_until

pytestmark = pytest.mark.timeout(90)


def test_boards_and_display_are_served_from_the_process_and_the_control_channel_acts():
    async def main():
        async with SimulatorProcess("--seed", "4", "--speed", "0") as sim:
            motor = await MotorBoard.open(sim.endpoints.motor)
            rfid = await RfidBoard.open(sim.endpoints.rfid)
            display = await Display.open(sim.endpoints.display)
            try:
                await motor.shuffle(100)
                await collect_until(motor, ShuffleDone)
                await sim.control.press(2, "胡")
                assert (await collect_until(motor, KeyPressed))[-1] == KeyPressed(2, 2, 1)
                await sim.control.touch("main", "b_menu")                # a finger on the display's 菜单
                assert await display.next_event(5) == Touched("main", "b_menu", True)
                await motor.seat_text(1, 0, "宝: 五万")
                await motor.leds(4, 0x10)                                # the front panel's fault lamp
                await motor.buzzer()
                display.set_text("main", "t_msg", "请推牌入池")
                await display.ping()
                view = await sim.control.table()
                assert view.seats[1] == ("宝: 五万", "") and view.text("main.t_msg") == "请推牌入池"
                assert view.lamps == (0, 0, 0, 0, 0x10) and view.buzzer[-1] == (1, 200)
                assert view.walls == ((), (), (), ()) and view.lifts["centre"] == "up"
                assert not view.hatch_open and view.boots == {"motor": 1, "rfid": 1, "display": 1}
                assert len(await sim.control.registry()) == 272
                # build a wall, raise it, take two tiles and lay them in a read zone
                await rfid.start_build((2, 2, 2, 2))
                await motor.build((2, 2, 2, 2))
                await collect_count(rfid, HeadRead, 16)
                await motor.side_lifts(LiftPosition.UP)
                await collect_count(motor, WallSnapshot, 4)
                taken = [await sim.control.take(0, 1), await sim.control.take(0, 1)]
                await sim.control.lay(3, [t.uid for t in taken])
                view = await sim.control.table()
                assert view.walls[0] == (2, 0) and sorted(view.zones[3]) == sorted(t.tile for t in taken)
                # faults: a board reboot, and one injected into the wire
                await sim.control.reset("motor")
                with pytest.raises(BoardReset):
                    await collect_until(motor, ShuffleDone, timeout=5)
                assert (await sim.control.table()).boots["motor"] == 2
                await motor.connect()
                await sim.control.fault("motor:drop=0.3")
                for _ in range(10):
                    await motor.buzzer()
                assert motor.statistics().retransmits > 0
                await sim.control.clear("all")
            finally:
                for device in (motor, rfid, display):
                    await device.close()
        assert sim.returncode == 0
    run(main(), timeout=60)


def test_a_silence_of_some_table_seconds_and_waiting_for_a_change():
    async def main():
        async with SimulatorProcess("--seed", "5", "--speed", "0") as sim:
            motor = await MotorBoard.open(sim.endpoints.motor)
            try:
                version = (await sim.control.table()).version
                changed = asyncio.ensure_future(sim.control.changed(version))
                await sim.control.silent("display", 3.0)                  # meanwhile: requests overlap
                await motor.centre_lift(LiftPosition.DOWN)
                await collect_until(motor, LiftMoved)
                assert await changed > version                            # the lift moved
                view = await sim.control.table()
                assert view.lifts["centre"] == "down" and view.time == pytest.approx(1.5)
            finally:
                await motor.close()
    run(main(), timeout=60)


def test_control_mistakes_are_answered_with_one_line():
    async def main():
        async with SimulatorProcess("--speed", "0") as sim:
            for request, words in [
                (sim.control.press(9, "hu"), "no panel 9"),
                (sim.control.press(0, "banana"), "no key 'banana'"),
                (sim.control.take(0, 0), "side 0's wall is not up"),
                (sim.control.fault("gremlins"), "unknown fault 'gremlins'"),
                (sim.control.clear("missing_tile"), "cannot be cleared"),
                (sim.control.reset("toaster"), "cannot reset 'toaster'"),
                (sim.control.request("dance"), "unknown operation 'dance'"),
                (sim.control.request("lay", seat=0, uids=["zz"]), "'uids' must be hex"),
                (sim.control.touch("menu", "b_ok"), "page 'menu' is not showing"),
                (sim.control.touch("main", "t_msg"), "t_msg is a text, not a button; the buttons of main: b_menu"),
                (sim.control.touch("main", "b_nope"), "page 'main' has no component 'b_nope'"),
                (sim.control.touch("attic", "b_ok"), "the display has no page 'attic'"),
            ]:
                with pytest.raises(ControlError) as caught:
                    await request
                assert words in str(caught.value) and "\n" not in str(caught.value)
            assert (await sim.control.players()).error.startswith("no simulated players")
    run(main(), timeout=60)


def test_the_players_play_in_the_simulators_own_loop():
    async def main():
        async with SimulatorProcess("--seed", "6", "--speed", "0", "--ruleset", "changchun") as sim:
            info = await sim.control.info()
            assert info["ruleset"] == "changchun" and info["tile_sets"] == [136, 136]
            players = await sim.control.players()
            assert players.running and players.error is None and players.hands == 0
            # where they wait (for a table that stalls, the report says it): no controller, no screens
            assert players.waiting_in[0].endswith(" run") and any(" _play" in f for f in players.waiting_in)
    run(main(), timeout=60)


def test_stop_request_sigterm_and_bad_arguments():
    async def main():
        sim = SimulatorProcess("--speed", "0")
        await sim.start()
        await sim.control.stop()
        assert await sim.wait(10) == 0
        await sim.stop()
        sim = SimulatorProcess("--speed", "0")
        await sim.start()
        os.kill(sim.pid, signal.SIGTERM)
        assert await sim.wait(10) == 0
        assert await sim.stop() == 0
        with pytest.raises(ControlError, match="is the simulator process running"):
            await ControlClient.connect(sim.control_address)
        with pytest.raises(SimulatorError, match="exited with status 2: --fault unknown fault 'gremlins'"):
            async with SimulatorProcess("--fault", "gremlins"):
                pass
    run(main(), timeout=60)


PARENT = textwrap.dedent("""
    import asyncio, sys
    from simulator.spawn import SimulatorProcess

    async def main():
        sim = SimulatorProcess("--speed", "0")
        await sim.start()
        print(sim.pid, flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main())
""")


def test_the_simulator_stops_when_its_parent_dies():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        pidfd = os.pidfd_open(child)
        try:
            parent.kill()                                  # SIGKILL: no cleanup in the parent
            assert parent.wait(10) == -signal.SIGKILL
            ready, _, _ = select.select([pidfd], [], [], 15)
            assert ready == [pidfd], "the simulator outlived its parent"
        finally:
            os.close(pidfd)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        parent.stdout.close()
