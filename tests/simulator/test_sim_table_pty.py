"""The controller's side against the simulated table over real ptys, with faults on the wires:
handshake → shuffle and build → raise → a stream of wall and key events."""

import asyncio
import random

import pytest

from drivers.motor_protocol import (BuildDone, KeyPressed, Key, LiftMoved, LiftPosition, PushCounted,
                                    ShuffleDone, WallChanged, WallSnapshot)
from drivers.rfid_protocol import HeadRead, push_slot
from simulator import SimulatedTable, TableFaults
from tests.asyncio_support import run
from tests.simulator.conftest import collect_count, collect_until, connected

pytestmark = pytest.mark.timeout(60)


def faulty(p: float) -> TableFaults:
    faults = TableFaults()
    for device in ("motor", "rfid"):
        wire = faults.wire[device]
        wire.corrupt = wire.drop = wire.duplicate = p
        wire.delay, wire.delay_ms = p, 20
    return faults


async def build_and_raise(table, motor, rfid, stacks=(17, 17, 17, 17)):
    await motor.shuffle(3000)
    await collect_until(motor, ShuffleDone)
    await rfid.start_build(stacks)
    await motor.build(stacks)
    events = await collect_until(motor, BuildDone, timeout=20)
    reads = await collect_count(rfid, HeadRead, 2 * sum(stacks), timeout=20)
    await motor.side_lifts(LiftPosition.UP)
    raised = await collect_count(motor, WallSnapshot, 4)
    return events, reads, raised


def test_handshake_build_raise_and_event_stream_with_faults_on():
    async def main():
        table = SimulatedTable(seed=3, speed=0, faults=faulty(0.03))
        async with connected(table) as (motor, rfid):
            assert motor.identity.boot_counter == 1 and motor.stack_capacity == 20
            events, reads, raised = await build_and_raise(table, motor, rfid)
            assert not [e for e in events if isinstance(e, PushCounted)]   # (no longer sent: HeadRead says it)
            for lane in range(4):   # every push read once, in order
                assert [r.push_index for r in reads if r.lane == lane] == list(range(34))
            assert events[-1] == BuildDone((34, 34, 34, 34))
            assert {s.side: s.tiles for s in raised} == {side: (2,) * 17 for side in range(4)}
            # Each read lands exactly where push_slot says the tile now lies.
            for read in reads:
                slot = push_slot(read.lane, read.push_index)
                stack = table.world.wall_tiles(slot.side)[slot.stack]
                assert read.uids == (stack[1 if slot.layer == "top" else 0].uid,)
            assert {table.identify(r.uids[0]).set_index for r in reads} == {0}
            # Players draw and press keys: the controller sees every change, in order.
            rng = random.Random(5)
            expected = []
            for step in range(60):
                if step % 5 == 4:
                    seat, key = rng.randrange(4), rng.choice([Key.TING, Key.HU, Key.KONG, Key.DICE])
                    table.press(seat, key)
                    expected.append(KeyPressed(seat, key))
                else:
                    side, stack = rng.randrange(4), rng.randrange(17)
                    if table.wall(side)[stack]:
                        table.take(side, stack)
                        expected.append(WallChanged(side, stack, table.wall(side)[stack]))
            got = []
            while len(got) < len(expected):
                event = await motor.next_event(10)
                if isinstance(event, (KeyPressed, WallChanged)):
                    got.append(event)
            assert got == expected
            # the faults really were on: some damage seen on either wire.  The motor's wire alone carries
            # about 80 frames, and its heartbeats (their number follows the machine's pace) shift which
            # frames the seeded faults hit: no CRC error on it at all came about once in ten runs
            seen = [motor.statistics(), rfid.statistics()]
            assert sum(s.crc_errors + s.framing_errors + s.duplicate_events + s.retransmits + s.naks for s in seen) > 0
    run(main(), timeout=45)


def test_two_tables_in_one_process_are_independent_and_seeded():
    async def build_walls(seed):
        table = SimulatedTable(seed=seed, speed=0)
        async with connected(table) as (motor, rfid):
            await build_and_raise(table, motor, rfid, (14, 13, 14, 13))
            return [[t.uid for stack in table.world.wall_tiles(side) for t in stack] for side in range(4)]

    async def main():
        a, b, c = await asyncio.gather(build_walls(11), build_walls(11), build_walls(12))
        assert a == b and a != c
        assert [len(side) for side in a] == [28, 26, 28, 26]
    run(main(), timeout=45)


def test_lifts_report_positions_and_snapshots():
    async def main():
        table = SimulatedTable(seed=1, speed=0)
        async with connected(table) as (motor, rfid):
            await motor.centre_lift(LiftPosition.DOWN)
            moved = await collect_until(motor, LiftMoved)
            assert moved[-1] == LiftMoved(4, LiftPosition.DOWN)
            assert table.sweep() == 136   # set 1 was loose on the table top
            assert len(table.world.mixer) == 272
    run(main())
