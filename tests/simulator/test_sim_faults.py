"""Every fault of the `--fault` vocabulary has its effect, seen from the controller's side over
ptys: the mechanism, tile and read faults here (one `test_fault_<name>_…` each), the wire,
silence and reset faults in test_sim_wire_faults.py."""

import importlib

import pytest

from drivers.errors import BoardReset, CommandRejected, ProtocolVersionMismatch
from drivers.messages import FaultCleared, FaultCode, FaultRaised, SnapshotDone, Status
from drivers.motor import MotorBoard
from drivers.motor_protocol import (BuildDone, BuildStop, BuildStopped, DiceRolled, HatchChanged, Key, KeyAction,
                                    KeyPressed, LiftPosition, Motor, SafeStop, ShuffleDone)
from drivers.rfid_protocol import HeadRead
from simulator import FAULT_HELP, SimulatedTable, TableFaults, parse_fault, parse_faults
from simulator.faults import FAULT_NAMES
from tests.asyncio_support import run
from tests.simulator.conftest import collect_count, collect_until, connected

pytestmark = pytest.mark.timeout(60)
FULL = (17, 17, 17, 17)


async def build(motor, rfid, stacks=FULL, last=BuildDone):
    await rfid.start_build(stacks)
    await motor.build(stacks)
    return await collect_until(motor, last, timeout=20)


async def build_reads(table_faults: str, seed: int) -> tuple[SimulatedTable, list[HeadRead]]:
    """Build a full set with one fault on; return the table (stopped) and the 136 head reads."""
    table = SimulatedTable(seed=seed, speed=0, faults=parse_faults([table_faults]))
    async with connected(table) as (motor, rfid):
        await build(motor, rfid)
        reads = await collect_count(rfid, HeadRead, 136)
    return table, reads


def test_every_fault_of_the_vocabulary_has_a_test_and_is_in_the_help():
    modules = [importlib.import_module(__name__),
               importlib.import_module("tests.simulator.test_sim_wire_faults")]
    tests = [name for module in modules for name in vars(module) if name.startswith("test_fault_")]
    for fault in FAULT_NAMES:
        assert any(name.startswith(f"test_fault_{fault}_") for name in tests), fault
        assert fault in FAULT_HELP, fault


# -- the mechanism -----------------------------------------------------------------------------

def test_fault_jam_latches_then_clears_and_the_build_resumes():
    async def main():
        table = SimulatedTable(seed=4, speed=0, faults=parse_faults(["jam=2:6"]))
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
            table.clear_fault("jam=2")
            await motor.clear_faults()
            await collect_until(motor, FaultCleared)
            await motor.build(FULL, resume=True)
            done = await collect_until(motor, BuildDone, timeout=20)
            assert done[-1].counts == (34, 34, 34, 34)
            reads = await collect_count(rfid, HeadRead, 136)
            assert sorted(r.push_index for r in reads if r.lane == 2) == list(range(34))
    run(main(), timeout=30)


def test_the_dice_roll_through_a_lane_s_jam_but_not_through_a_fault_of_their_own():
    """A jam in the next set's build stops that build, not the hand being played on the raised
    walls: RollDice is refused only for a fault of the dice motor or one that stops every motor
    (a probe: a 宝 roll waited for the jam to be cleared, and the hand with it)."""
    async def main():
        table = SimulatedTable(seed=4, speed=0, faults=parse_faults(["jam=2:6", "dice_stall"]))
        async with connected(table) as (motor, rfid):
            await build(motor, rfid, last=BuildStopped)
            assert (FaultCode.PUSH_JAM, 2) in table.motor.latched
            await motor.roll_dice()                 # the jam latched: the dice roll, and stall (E05)
            await collect_until(motor, SafeStop)
            with pytest.raises(CommandRejected, match="FAULT_LATCHED"):
                await motor.roll_dice()             # their own fault latched: refused
            table.clear_fault("dice_stall")
            await motor.clear_faults()
            assert (FaultCode.PUSH_JAM, 2) in table.motor.latched
            await motor.roll_dice()
            assert (await collect_until(motor, DiceRolled))[-1]
    run(main(), timeout=30)


def test_fault_hatch_open_refuses_motion_until_the_hatch_is_closed():
    async def main():
        table = SimulatedTable(seed=5, speed=0, faults=parse_faults(["hatch_open"]))
        async with connected(table) as (motor, rfid):
            await motor.request_snapshot()
            assert HatchChanged(True, False) in await collect_until(motor, SnapshotDone)
            with pytest.raises(CommandRejected, match="INTERLOCK"):
                await motor.shuffle(100)
            table.clear_fault("hatch_open")
            assert HatchChanged(False, False) in await collect_until(motor, HatchChanged)
            await motor.shuffle(100)
            await collect_until(motor, ShuffleDone)
    run(main())


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


def test_fault_overcurrent_trips_the_motor_when_it_next_runs():
    async def main():
        table = SimulatedTable(seed=8, speed=0, faults=parse_faults(["overcurrent=mixer"]))
        async with connected(table) as (motor, rfid):
            await motor.shuffle(1000)
            events = await collect_until(motor, SafeStop)
            assert FaultRaised(FaultCode.OVER_CURRENT, Motor.MIXER, 0) in events
            await motor.clear_faults()
            await motor.shuffle(100)               # it tripped once: the motor runs again
            await collect_until(motor, ShuffleDone)
    run(main())


def test_fault_overtemp_is_latched_from_boot_and_clears_only_once_cool():
    async def main():
        table = SimulatedTable(seed=8, speed=0, faults=parse_faults(["overtemp"]))
        async with connected(table) as (motor, rfid):
            await motor.request_snapshot()
            snapshot = await collect_until(motor, SnapshotDone)
            assert FaultRaised(FaultCode.OVER_TEMPERATURE, Motor.MIXER, 0) in snapshot
            with pytest.raises(CommandRejected, match="FAULT_LATCHED"):
                await motor.shuffle(100)
            await motor.clear_faults()             # still hot: stays latched
            assert table.motor.latched
            table.clear_fault("overtemp")
            await motor.clear_faults()
            assert FaultCleared(FaultCode.OVER_TEMPERATURE, Motor.MIXER) in await collect_until(motor, FaultCleared)
            await motor.shuffle(100)
    run(main())


def test_fault_dice_stall_latches_a_dice_motor_fault_instead_of_a_roll():
    async def main():
        table = SimulatedTable(seed=8, speed=0, faults=parse_faults(["dice_stall"]))
        async with connected(table) as (motor, rfid):
            await motor.roll_dice()
            events = await collect_until(motor, SafeStop)
            assert FaultRaised(FaultCode.DICE_MOTOR, 0, 0) in events
            assert not any(isinstance(e, DiceRolled) for e in events)
    run(main())


def test_dice_are_seeded_or_forced():
    async def main():
        table = SimulatedTable(seed=8, speed=0)
        async with connected(table) as (motor, rfid):
            table.force_dice(3, 5)
            await motor.roll_dice()
            assert (await collect_until(motor, DiceRolled))[-1] == DiceRolled((3, 5))
            await motor.roll_dice()
            rolled = (await collect_until(motor, DiceRolled))[-1].values
            assert all(1 <= v <= 6 for v in rolled)
    run(main())


def test_fault_key_bounce_reports_a_press_twice_until_cleared():
    """A chattering switch (or a finger that pressed twice): the board reports the same press twice."""
    async def main():
        table = SimulatedTable(seed=8, speed=0, faults=parse_faults(["key_bounce=1"]))
        async with connected(table) as (motor, rfid):
            table.press(2, Key.CONFIRM)
            assert await collect_count(motor, KeyPressed, 2) == [KeyPressed(2, Key.CONFIRM, KeyAction.PRESS)] * 2
            table.clear_fault("key_bounce")
            table.press(2, Key.HU)
            table.press(3, Key.HU)
            assert [(e.panel, e.key) for e in await collect_count(motor, KeyPressed, 2)] == [(2, Key.HU), (3, Key.HU)]
    run(main())


def test_fault_wrong_stack_is_a_chance_the_console_can_switch_off():
    faults = parse_faults(["wrong_stack"])
    assert faults.wrong_stack == 0.05
    assert parse_faults(["wrong_stack=0.3"]).wrong_stack == 0.3
    table = SimulatedTable(seed=8, speed=0, faults=faults)
    table.clear_fault("wrong_stack")
    assert table.faults.wrong_stack == 0.0
    with pytest.raises(ValueError, match="wrong_stack"):
        parse_faults(["motor:wrong_stack=0.1"])


# -- the tiles and their reads -------------------------------------------------------------------

def test_fault_missing_tile_leaves_a_lane_short():
    async def main():
        table = SimulatedTable(seed=6, speed=0, faults=parse_faults(["missing_tile=1"]))
        async with connected(table) as (motor, rfid):
            events = await build(motor, rfid, last=BuildStopped)
            assert sum(events[-1].counts) == 135
            fault = (await collect_until(motor, FaultRaised))[-1]
            assert fault.code == FaultCode.LANE_SHORT
    run(main(), timeout=30)


def test_fault_extra_tile_is_left_over_and_its_tag_is_not_enrolled():
    async def main():
        table, reads = await build_reads("extra_tile=1", seed=7)
        assert len(table.world.mixer) == 1 and table.world.mixer[0].uid not in table.registry()
        assert all(len(r.uids) == 1 and r.uids[0] in table.registry() for r in reads)
    run(main(), timeout=30)


def test_fault_duplicate_tag_gives_two_wall_tiles_one_uid():
    async def main():
        table, reads = await build_reads("duplicate_tag=1", seed=7)
        uids = [r.uids[0] for r in reads]
        assert len(set(uids)) == 135
        walls = [t.uid for side in range(4) for stack in table.world.sides[side].plate for t in stack]
        assert len(walls) == 136 and len(set(walls)) == 135
    run(main(), timeout=30)


def test_fault_missed_read_reports_slots_without_a_tag():
    async def main():
        table, reads = await build_reads("missed_read=1", seed=7)
        assert len(reads) == 136 and all(r.uids == () for r in reads)
    run(main(), timeout=30)


def test_fault_doubled_read_adds_the_previous_tiles_tag():
    async def main():
        table, reads = await build_reads("doubled_read=1", seed=7)
        for lane in range(4):
            mine = sorted((r for r in reads if r.lane == lane), key=lambda r: r.push_index)
            assert len(mine[0].uids) == 1
            assert all(r.uids[1] == before.uids[0] for before, r in zip(mine, mine[1:]))
    run(main(), timeout=30)


def test_fault_foreign_tag_joins_every_read():
    async def main():
        table, reads = await build_reads("foreign_tag=1", seed=7)
        registry = table.registry()
        assert all(len(r.uids) == 2 and r.uids[0] in registry and r.uids[1] not in registry
                   for r in reads)
    run(main(), timeout=30)


# -- the vocabulary and versions -----------------------------------------------------------------

def test_fault_options_parse_and_reject_with_one_line():
    faults = parse_faults(["corrupt", "motor:drop=0.2", "display:silent", "jam=1", "overcurrent=dice"])
    assert faults.wire["motor"].corrupt == 0.05 and faults.wire["rfid"].corrupt == 0.05
    assert faults.wire["motor"].drop == 0.2 and faults.wire["rfid"].drop == 0.0
    assert faults.wire["display"].silent and faults.jams == {1: 0} and faults.overcurrent == {10}
    for bad in ("gremlins", "drop=7", "jam=9", "printer:drop", "overcurrent=toaster", "reset=0", "reset=inf", "reset=1e309",
                "hatch_open=1", "missing_tile=-1"):
        with pytest.raises(ValueError) as caught:
            parse_fault(bad, TableFaults())
        assert repr(bad) in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("bad, said", [
    ("display:jam=1", "jam takes no DEVICE"),             # before: taken, the prefix ignored
    ("rfid:missed_read=0.1", "missed_read takes no DEVICE"),
    ("jam=1:x", "PUSHES is a whole number of 0 or more, not 'x'"),   # before: Python's int() message
    ("reset=abc", "SECONDS is a number, not 'abc'"),
    ("corrupt=lots", "P is a number, not 'lots'"),
    ("missing_tile=two", "N is a whole number of 0 or more, not 'two'"),
])
def test_a_bad_fault_item_is_named_in_the_vocabulary_s_words(bad, said):
    with pytest.raises(ValueError) as caught:
        parse_fault(bad, TableFaults())
    assert repr(bad) in str(caught.value) and said in str(caught.value) and "\n" not in str(caught.value)


def test_clearing_a_fault_that_changed_the_tiles_is_refused_with_one_line():
    table = SimulatedTable(seed=1, speed=0)
    with pytest.raises(ValueError, match="missing_tile cannot be cleared"):
        table.clear_fault("missing_tile")


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


def test_a_version_1_board_over_a_pty_is_refused_by_name():
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
