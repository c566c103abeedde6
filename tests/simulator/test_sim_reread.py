"""A missed read is read again on request: RereadSlot → SlotRead (protocol.md §6)."""

import pytest

from drivers.errors import CommandRejected
from drivers.motor_protocol import LiftPosition, WallSnapshot
from drivers.rfid_protocol import HeadRead, SlotRead, WallSlot
from simulator import SimulatedTable, parse_faults
from tests.asyncio_support import run
from tests.simulator.conftest import collect_count, collect_until, connected
from tests.simulator.test_sim_faults import build

pytestmark = pytest.mark.timeout(60)


def tile_at(table: SimulatedTable, slot: WallSlot):
    stack = table.world.sides[slot.side].plate[slot.stack]        # [bottom, top]
    return stack[-1] if slot.layer == "top" else stack[0]


def test_a_missed_slot_is_read_again_and_a_reread_can_miss_too():
    async def main():
        table = SimulatedTable(seed=11, speed=0, faults=parse_faults(["missed_read=1"]))
        async with connected(table) as (motor, rfid):
            await build(motor, rfid)
            reads = await collect_count(rfid, HeadRead, 136)
            assert all(r.uids == () for r in reads)
            slot = WallSlot(2, 5, "bottom")
            await rfid.reread(slot)                                  # the head misses again
            assert (await collect_until(rfid, SlotRead))[-1] == SlotRead(2, 11, ())
            table.clear_fault("missed_read")
            for slot in (WallSlot(2, 5, "bottom"), WallSlot(0, 0, "top"), WallSlot(3, 16, "top")):
                await rfid.reread(slot)
                answer = (await collect_until(rfid, SlotRead))[-1]
                assert answer.slot == slot and answer.uids == (tile_at(table, slot).uid,)
    run(main(), timeout=30)


def test_a_reread_of_a_slot_not_built_is_refused_and_a_taken_tile_is_not_read():
    async def main():
        table = SimulatedTable(seed=12, speed=0)
        async with connected(table) as (motor, rfid):
            await build(motor, rfid, stacks=(2, 2, 2, 2))
            with pytest.raises(CommandRejected, match="BAD_ARGUMENT"):
                await rfid.reread(WallSlot(1, 2, "top"))             # only stacks 0-1 were built
            await motor.side_lifts(LiftPosition.UP)
            await collect_count(motor, WallSnapshot, 4)
            table.take(1, 1)                                        # a player takes the top tile
            await rfid.reread(WallSlot(1, 1, "top"))
            assert (await collect_until(rfid, SlotRead))[-1] == SlotRead(1, 2, ())
            await rfid.reread(WallSlot(1, 1, "bottom"))
            assert (await collect_until(rfid, SlotRead))[-1].uids == (tile_at(table, WallSlot(1, 1, "bottom")).uid,)
    run(main(), timeout=30)


def test_a_reread_of_a_stack_taken_whole_answers_no_tag():
    """Both tiles of a raised stack taken: its bottom is read as empty (it answered INTERNAL, an
    IndexError in the board, which a controller re-reading every slot after a reboot took as fatal)."""
    async def main():
        table = SimulatedTable(seed=12, speed=0)
        async with connected(table) as (motor, rfid):
            await build(motor, rfid, stacks=(2, 2, 2, 2))
            await motor.side_lifts(LiftPosition.UP)
            await collect_count(motor, WallSnapshot, 4)
            table.take(1, 1)
            table.take(1, 1)                                        # the top, then the bottom
            await rfid.reread(WallSlot(1, 1, "bottom"))
            assert (await collect_until(rfid, SlotRead))[-1] == SlotRead(1, 3, ())
    run(main(), timeout=30)
