"""The simulated table across lost links: a cable cut for seconds, a port that vanishes and
comes back at the same address, a controller restarted while a player presses a key.  The board
keeps its session and its events meanwhile; the host resumes it (protocol.md §3.1, §3.6)."""

from __future__ import annotations

import asyncio

import pytest

from drivers.errors import LinkLost
from drivers.messages import FaultCode, FaultRaised
from drivers.motor import MotorBoard
from drivers.motor_protocol import BuildStopped, Key, KeyPressed, SafeStop, ShuffleDone
from drivers.reconnect import reconnect
from drivers.rfid import RfidBoard
from simulator import SimulatedTable, SimulatorError
from simulator.control import ControlError
from simulator.spawn import SimulatorProcess
from tests.asyncio_support import run
from tests.simulator.conftest import collect_until, connected

pytestmark = pytest.mark.timeout(90)


async def lost(client) -> None:
    """Read events until the link is reported lost."""
    with pytest.raises(LinkLost):
        while True:
            await client.next_event(10)


@pytest.mark.parametrize("listen", ["socket://127.0.0.1:0", "pty:{tmp}"])
def test_a_port_that_vanishes_and_comes_back_is_reopened_and_the_session_resumed(listen, tmp_path):
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        async with connected(table, listen.format(tmp=tmp_path / "by-id")) as (motor, rfid):
            where = table.endpoints
            await table.unplug("motor", seconds=0.5)       # a USB adapter re-enumerating
            await lost(motor)
            assert motor.link.stream_lost
            table.press(1, "确认")                          # pressed while the port is gone
            shown = asyncio.ensure_future(motor.seat_text(1, 0, "连接中断 重连中"))
            attempts = []
            outcome = await reconnect(motor, on_attempt=attempts.append)
            assert outcome.resumed and not outcome.rebooted and attempts[0].reopened
            await shown
            assert await motor.next_event(5) == KeyPressed(1, Key.CONFIRM)
            assert table.world.seat_displays[1][0] == "连接中断 重连中"
            assert table.endpoints.motor == where.motor     # the same address as before
    run(main(), timeout=60)


def test_a_plain_pty_cannot_be_unplugged_because_it_would_come_back_under_another_name():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        await table.start("pty")
        try:
            with pytest.raises(SimulatorError, match="pty:DIR"):
                await table.unplug("motor", 1.0)
            with pytest.raises(SimulatorError, match="no device 'toaster'"):
                table.cut_link("toaster", 1.0)
        finally:
            await table.stop()
    run(main())


def test_a_host_reopening_the_same_pty_resumes_its_session():
    """The controller's side of the port is closed and opened again: the pty stays, and the
    session goes on over the reopened port."""
    async def main():
        table = SimulatedTable(seed=2, speed=0)
        async with connected(table) as (motor, rfid):
            await motor.reopen()                          # closes the host's port, opens it again
            table.press(0, "胡")
            assert (await motor.reconnect()).resumed
            assert await motor.next_event(5) == KeyPressed(0, Key.HU)
            await motor.shuffle(100)
            await collect_until(motor, ShuffleDone)
    run(main(), timeout=60)


def test_a_cable_cut_for_a_second_during_a_shuffle_safe_stops_the_board_and_loses_no_event():
    async def main():
        table = SimulatedTable(seed=3, speed=1)
        async with connected(table) as (motor, rfid):
            await motor.shuffle(20000)
            table.cut_link("motor", 1.2)                   # real time: the links run in real time
            await lost(motor)
            while not table.motor.safe_stopped:            # the board noticed the host went quiet
                await asyncio.sleep(0.02)
            table.press(3, "听")
            outcome = await reconnect(motor)
            assert outcome.resumed and rfid.link.connected  # the other board's link never noticed
            events = []
            while not (events and events[-1] == KeyPressed(3, Key.TING)):
                events.append(await motor.next_event(5))
            assert SafeStop(FaultCode.HOST_LOST) in events and FaultRaised(FaultCode.HOST_LOST, 0, 0) in events
            assert not any(isinstance(e, ShuffleDone) for e in events)   # the shuffle was stopped
            assert not any(isinstance(e, BuildStopped) for e in events)  # no build was running
            assert (FaultCode.HOST_LOST, 0) in table.motor.latched      # latched until cleared
    run(main(), timeout=60)


def test_a_restarted_controller_gets_the_key_a_player_pressed_while_it_was_down():
    """The reproduction from the issue: 确认 pressed during a controller restart was lost, and
    both sides waited.  The restarted controller resumes its journaled session and gets it."""
    async def main():
        table = SimulatedTable(seed=4, speed=0)
        where = await table.start("pty")
        first = await MotorBoard.open(where.motor)
        journal = first.link.session_ref
        await first.close()                               # the controller is down
        table.press(0, "确认")
        table.press(2, "确认")
        second = await MotorBoard.open(where.motor, session=journal)
        try:
            assert second.identity.resumed
            assert [await second.next_event(5), await second.next_event(5)] == [
                KeyPressed(0, Key.CONFIRM), KeyPressed(2, Key.CONFIRM)]
        finally:
            await second.close()
            await table.stop()
    run(main(), timeout=60)


def test_cut_and_unplug_on_the_simulator_process_control_channel(tmp_path):
    async def main():
        async with SimulatorProcess("--speed", "0", "--listen", f"pty:{tmp_path}") as sim:
            motor = await MotorBoard.open(sim.endpoints.motor)
            rfid = await RfidBoard.open(sim.endpoints.rfid)
            try:
                assert sim.endpoints.motor == str(tmp_path / "motor")
                await sim.control.unplug("motor", 0.3)
                await lost(motor)
                await sim.control.press(1, "hu")
                assert (await reconnect(motor)).resumed
                assert await motor.next_event(5) == KeyPressed(1, Key.HU)
                await sim.control.cut("rfid", 1.0)
                await lost(rfid)
                assert (await reconnect(rfid)).resumed
                for request, words in [(sim.control.cut("toaster", 1), "no device 'toaster'"),
                                       (sim.control.unplug("motor", 0), "seconds must be > 0")]:
                    with pytest.raises(ControlError, match=words):
                        await request
            finally:
                await motor.close()
                await rfid.close()
        assert sim.returncode == 0
    run(main(), timeout=60)


def test_a_board_port_is_held_exclusively_and_a_second_controller_is_refused_in_one_line():
    """Two controllers on one table's boards (a second `run` under another state folder, or by hand
    beside the service) would each read half of every board's bytes.  The table lock covers one state
    folder only; the ports themselves are opened exclusively, so the second is refused at once."""
    from drivers.errors import PortBusy

    async def main():
        table = SimulatedTable(seed=5, speed=0)
        async with connected(table) as (motor, rfid):
            with pytest.raises(PortBusy, match="held open by another program.*stop it first"):
                await MotorBoard.open(table.endpoints.motor)
            await motor.shuffle(100)                       # the first one goes on undisturbed
            await collect_until(motor, ShuffleDone)
    run(main(), timeout=60)


def test_a_board_that_did_not_answer_is_reopened_over_its_own_exclusive_port():
    """A reconnect whose HELLO went unanswered opens the port again (a board still starting, an
    adapter that hung): its own port, still open, must be closed first, or the exclusive open would
    find it holding the device for ever."""
    from drivers.errors import PortBusy

    async def main():
        table = SimulatedTable(seed=6, speed=1)
        async with connected(table) as (motor, rfid):
            table.cut_link("motor", 4.0)                   # real time: silent long enough to go unanswered
            await lost(motor)
            attempts = []
            outcome = await reconnect(motor, on_attempt=attempts.append)
            assert outcome.resumed
            reopened = [a for a in attempts if a.reopened]
            assert reopened and not [a for a in reopened if isinstance(a.error, PortBusy)], attempts
    run(main(), timeout=60)
