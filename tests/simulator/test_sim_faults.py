"""Fault injection, each switched by API or option, seen from the controller's side over ptys."""

import asyncio

import pytest

from drivers.errors import BoardReset, CommandRejected, LinkLost, ProtocolVersionMismatch
from drivers.messages import FaultCleared, FaultCode, FaultRaised, SnapshotDone, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import (BuildDone, BuildStop, BuildStopped, DiceRolled, HatchChanged,
                                    LiftMoved, LiftPosition, Motor, SafeStop, ShuffleDone)
from drivers.rfid_protocol import HeadRead
from simulator import SimulatedTable, TableFaults, parse_fault
from tests.asyncio_support import run
from tests.simulator.conftest import collect_count, collect_until, connected

pytestmark = pytest.mark.timeout(60)
FULL = (17, 17, 17, 17)


def with_faults(*items: str) -> TableFaults:
    faults = TableFaults()
    for item in items:
        parse_fault(item, faults)
    return faults


async def build(motor, rfid, stacks=FULL, last=BuildDone):
    await rfid.start_build(stacks)
    await motor.build(stacks)
    return await collect_until(motor, last, timeout=20)


def test_board_reset_mid_session_is_detected_over_a_pty():
    async def main():
        table = SimulatedTable(seed=2, speed=0)
        async with connected(table) as (motor, rfid):
            await motor.shuffle(100)
            await collect_until(motor, ShuffleDone)
            table.reset_board("motor")
            with pytest.raises(BoardReset, match=r"boot counter 1 -> 2"):
                await collect_until(motor, ShuffleDone, timeout=2)
            assert (await motor.connect()).boot_counter == 2
            await motor.shuffle(100)
            await collect_until(motor, ShuffleDone)
    run(main())


def test_silent_board_is_lost_within_a_second_and_the_board_stops_its_motors():
    async def main():
        table = SimulatedTable(seed=2, speed=1)
        async with connected(table) as (motor, rfid):
            await motor.shuffle(20000)
            await asyncio.sleep(0.2)
            assert table.motor.busy
            loop = asyncio.get_running_loop()
            table.go_silent("motor")
            started = loop.time()
            with pytest.raises(LinkLost, match="link lost"):
                while True:
                    await motor.next_event(2)
            assert loop.time() - started < 1.0
            await asyncio.sleep(0.3)
            assert not table.motor.busy and table.motor.safe_stopped   # motors to a safe stop
            table.go_silent("motor", False)
            await motor.connect()
            await motor.request_snapshot()
            snapshot = await collect_until(motor, SnapshotDone)
            assert FaultRaised(FaultCode.HOST_LOST, 0, 0) in snapshot
            with pytest.raises(CommandRejected, match="FAULT_LATCHED"):
                await motor.shuffle(100)
            await motor.clear_faults()
            assert FaultCleared(FaultCode.HOST_LOST, 0) in await collect_until(motor, FaultCleared)
            await motor.shuffle(100)
    run(main())


def test_wrong_protocol_version_over_a_pty():
    async def main():
        table = SimulatedTable(speed=0, motor_version=1)
        where = await table.start()
        try:
            with pytest.raises(ProtocolVersionMismatch, match="speaks protocol version 1, this "
                               "controller speaks version 2: update the board firmware"):
                await MotorBoard.open(where.motor)
        finally:
            await table.stop()
    run(main())


def test_lane_jam_latches_then_clears_and_the_build_resumes():
    async def main():
        table = SimulatedTable(seed=4, speed=0, faults=with_faults("jam=2:6"))
        async with connected(table) as (motor, rfid):
            events = await build(motor, rfid, last=BuildStopped)
            assert events[-1].counts[2] == 6 and events[-1].reason == BuildStop.FAULT
            fault = await collect_until(motor, FaultRaised)
            assert fault[-1] == FaultRaised(FaultCode.PUSH_JAM, 2, 6)
            with pytest.raises(CommandRejected) as caught:
                await motor.shuffle(100)
            assert caught.value.status == Status.FAULT_LATCHED
            await motor.clear_faults()            # the jam is still there: nothing clears
            assert table.motor.latched
            table.clear_jam(2)
            await motor.clear_faults()
            await collect_until(motor, FaultCleared)
            await motor.build(FULL, resume=True)
            done = await collect_until(motor, BuildDone, timeout=20)
            assert done[-1].counts == (34, 34, 34, 34)
            reads = await collect_count(rfid, HeadRead, 136)
            assert sorted(r.push_index for r in reads if r.lane == 2) == list(range(34))
    run(main(), timeout=30)


def test_hatch_opened_while_motors_run_trips_the_interlock():
    async def main():
        table = SimulatedTable(seed=5, speed=1)
        async with connected(table) as (motor, rfid):
            await motor.hatch_lock(False)
            await motor.shuffle(20000)
            table.open_hatch()
            events = await collect_until(motor, SafeStop)
            assert HatchChanged(True, False) in events
            assert FaultRaised(FaultCode.HATCH_OPEN, 0, 0) in events
            with pytest.raises(CommandRejected, match="FAULT_LATCHED"):
                await motor.shuffle(100)
            await motor.clear_faults()            # still open: stays latched
            assert table.motor.latched
            table.close_hatch()
            await motor.clear_faults()
            with pytest.raises(CommandRejected, match="INTERLOCK"):
                table.open_hatch()
                await motor.centre_lift(LiftPosition.DOWN)
    run(main())


def test_missing_tile_leaves_a_lane_short():
    async def main():
        table = SimulatedTable(seed=6, speed=0, faults=with_faults("missing_tile=1"))
        async with connected(table) as (motor, rfid):
            events = await build(motor, rfid, last=BuildStopped)
            assert sum(events[-1].counts) == 135
            fault = (await collect_until(motor, FaultRaised))[-1]
            assert fault.code == FaultCode.LANE_SHORT
    run(main(), timeout=30)


def test_extra_tile_duplicated_tag_and_bad_reads_reach_the_controller():
    async def main():
        faults = with_faults("extra_tile=1", "duplicate_tag=1", "missed_read=0.1",
                             "doubled_read=0.1", "foreign_tag=0.1")
        table = SimulatedTable(seed=7, speed=0, faults=faults)
        registry = table.registry()
        async with connected(table) as (motor, rfid):
            await build(motor, rfid)
            reads = await collect_count(rfid, HeadRead, 136)
            assert len(table.world.mixer) == 1                  # the extra tile is left over
            assert any(not r.uids for r in reads)               # missed
            assert any(len(r.uids) > 1 for r in reads)          # doubled or foreign
            assert any(uid not in registry for r in reads for uid in r.uids)   # foreign tags
            first_reads = [r.uids[0] for r in reads if r.uids]
            tiles_uids = [t.uid for side in range(4) for stack in table.world.wall_tiles(side)
                          for t in stack]
            assert len(set(tiles_uids)) < len(tiles_uids)      # two tiles answer with one UID
            assert set(first_reads) <= set(tiles_uids) | {u for r in reads for u in r.uids}
    run(main(), timeout=30)


def test_overcurrent_trips_and_the_dice_are_seeded_or_forced():
    async def main():
        table = SimulatedTable(seed=8, speed=0)
        async with connected(table) as (motor, rfid):
            table.force_dice(3, 5)
            await motor.roll_dice()
            assert (await collect_until(motor, DiceRolled))[-1] == DiceRolled((3, 5))
            await motor.roll_dice()
            rolled = (await collect_until(motor, DiceRolled))[-1].values
            assert all(1 <= v <= 6 for v in rolled)
            table.trip_overcurrent(Motor.MIXER)
            await motor.shuffle(1000)
            events = await collect_until(motor, SafeStop)
            assert FaultRaised(FaultCode.OVER_CURRENT, Motor.MIXER, 0) in events
            await motor.clear_faults()
            await motor.shuffle(100)
            await collect_until(motor, ShuffleDone)
    run(main())


def test_fault_options_parse_and_reject_with_one_line():
    faults = with_faults("corrupt", "motor:drop=0.2", "display:silent", "jam=1", "overcurrent=dice")
    assert faults.wire["motor"].corrupt == 0.05 and faults.wire["rfid"].corrupt == 0.05
    assert faults.wire["motor"].drop == 0.2 and faults.wire["rfid"].drop == 0.0
    assert faults.wire["display"].silent and faults.jams == {1: 0} and faults.overcurrent == {10}
    for bad in ("gremlins", "drop=7", "jam=9", "printer:drop", "overcurrent=toaster"):
        with pytest.raises(ValueError) as caught:
            parse_fault(bad, TableFaults())
        assert repr(bad) in str(caught.value) and "\n" not in str(caught.value)


def test_scheduled_reset_option_and_the_clock_speed():
    async def main():
        table = SimulatedTable(seed=3, speed=10, faults=with_faults("motor:reset=0.4"))
        async with connected(table) as (motor, rfid):
            loop = asyncio.get_running_loop()
            started = loop.time()
            await motor.centre_lift(LiftPosition.DOWN)       # 1.5 virtual s at speed 10
            await collect_until(motor, LiftMoved)
            assert 0.1 < loop.time() - started < 0.4
            with pytest.raises(BoardReset):
                while True:
                    await motor.next_event(2)
            assert table.motor.boot_counter == 2 and rfid.link.failure is None
    run(main())
