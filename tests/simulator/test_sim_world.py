"""The physical model without any I/O: tags, taking and putting back, sweeping, read zones."""

import pytest

from rulesets.tilesets import SET_108, SET_136, SET_144
from simulator import SimulatedTable, SimulatorError
from simulator.world import World
from drivers.motor_protocol import LiftPosition

pytestmark = pytest.mark.timeout(30)


def raised_world(stacks=3) -> tuple[World, list]:
    table = SimulatedTable(seed=1, speed=0)
    world = table.world
    tiles = world.mixer[:2 * stacks]
    world.sides[0].plate = [[tiles[2 * i + 1], tiles[2 * i]] for i in range(stacks)]
    world.sides[0].position = LiftPosition.UP
    del world.mixer[:2 * stacks]
    return world, tiles


def test_tags_are_deterministic_unique_and_enrolled():
    a, b, c = (SimulatedTable(seed=s, speed=0) for s in (5, 5, 6))
    assert a.registry() == b.registry() and a.registry() != c.registry()
    registry = a.registry()
    assert len(registry) == 272 == len({t.uid for t in a.tiles})
    assert all(uid[:2] == b"\xe0\x04" and len(uid) == 8 for uid in registry)
    assert sum(1 for ident in registry.values() if ident.set_index == 1) == 136
    assert {ident.copy for ident in registry.values()} == {0, 1, 2, 3}


def test_other_tile_sets_come_from_the_constructor():
    table = SimulatedTable(seed=1, speed=0, tile_sets=(SET_108, SET_144))
    assert len(table.world.mixer) == 108 and len(table.world.out) == 144
    table.load_tile_sets((SET_136, SET_136))
    assert len(table.registry()) == 272 and len(table.world.mixer) == 136


def test_take_takes_the_top_then_the_bottom_and_put_back_restores():
    world, tiles = raised_world()
    top, bottom = tiles[0], tiles[1]
    assert world.wall_counts(0) == (2, 2, 2)
    assert world.take(0, 0) is top
    assert world.take(0, 0) is bottom
    assert world.wall_counts(0) == (0, 2, 2)
    with pytest.raises(SimulatorError, match="empty"):
        world.take(0, 0)
    world.put_back(0, 0, bottom.uid)
    world.put_back(0, 0, top.uid)
    assert world.sides[0].plate[0] == [bottom, top]
    with pytest.raises(SimulatorError, match="already has two"):
        world.put_back(0, 0, top.uid)
    with pytest.raises(SimulatorError, match="not up"):
        world.take(1, 0)


def test_wall_sensors_report_every_change_to_observers():
    world, _ = raised_world()
    seen = []

    class Watch:
        def wall_changed(self, side, stack, tiles):
            seen.append((side, stack, tiles))

        def __getattr__(self, name):
            return lambda *args: None

    world.observers.append(Watch())
    uid = world.take(0, 2).uid
    world.put_back(0, 2, uid)
    assert seen == [(0, 2, 1), (0, 2, 2)]


def test_lay_needs_taken_tiles_and_sweep_needs_the_centre_down():
    world, tiles = raised_world()
    with pytest.raises(SimulatorError, match="only tiles taken"):
        world.lay(1, [tiles[0].uid])
    taken = [world.take(0, 1).uid, world.take(0, 1).uid]
    world.lay(1, taken)
    assert [t.uid for t in world.zones[1]] == taken
    with pytest.raises(SimulatorError, match="lower the centre"):
        world.sweep()
    world.centre = LiftPosition.DOWN
    before = len(world.all_tiles())
    moved = world.sweep()
    assert moved == 136 + 6 and world.zones[1] == [] and world.wall_counts(0) == (0, 0, 0)
    assert len(world.all_tiles()) == before    # nothing appears or vanishes
