"""Some kinds of an enrolled set enrolled anew (`enroll --kinds`, a lost or damaged tile replaced): only
those kinds are asked for; an old tag counts as new for its own kind only; the old tags keep their
copy numbers; the registry replaces exactly those kinds, each whole, in one transaction; and a set
built on the old tags is never dealt."""

from __future__ import annotations

import pytest

from firmware.build.enrollment import enroll_set
from firmware.build.registry import Registered, RegistryError, TileRegistry
from rulesets.tiles import Tile
from tests.asyncio_support import run
from tests.firmware.test_enrollment_prompts import FOUR_WINDS, Ports
from tests.firmware.test_set_enrolled_anew import played_with_a_checked_set_enrolled_anew

EAST, SOUTH = Tile.parse("1z"), Tile.parse("2z")


def four_winds(tile_set: int) -> TileRegistry:
    """FOUR_WINDS enrolled as `tile_set`, each kind's tags (kind index, copy) as `Ports` lays them."""
    registry = TileRegistry()
    registry.enroll([Registered(bytes((index, copy)), kind, tile_set, copy)
                     for index, (kind, _) in enumerate(FOUR_WINDS.counts) for copy in range(4)])
    return registry


class Laid(Ports):
    """The technician lays these tags at every 确认."""

    def __init__(self, *reads: tuple[bytes, ...]) -> None:
        super().__init__()
        self.laid = list(reads)

    async def read_zone(self, seat):
        self.reads += 1
        return self.laid[min(self.reads, len(self.laid)) - 1]


def rows(registry: TileRegistry) -> list[Registered]:
    return sorted(registry.tags(0) + registry.tags(1), key=lambda e: e.uid)


def test_only_the_kind_named_is_asked_for_and_only_its_lost_tile_changes():
    registry = four_winds(1)
    before = rows(registry)
    ports = Laid((bytes((0, 3)), b"new", bytes((0, 0)), bytes((0, 2))))       # 东风 copy 1 lost, a new one laid
    assert run(enroll_set(ports, registry, FOUR_WINDS, 1, kinds=(EAST,)), timeout=30) == 4
    assert ports.shown == ["登记:东风 ×4 座位0 确认", "登记完成"]
    after = rows(registry)
    assert [e for e in before if e not in after] == [Registered(bytes((0, 1)), EAST, 1, 1)]
    assert [e for e in after if e not in before] == [Registered(b"new", EAST, 1, 1)]


def test_another_kinds_tiles_of_the_set_are_not_taken_for_the_kind_asked():
    """南风 laid at the 东风 prompt: their tags are the set's, but another tile's; taken, they would be
    registered as 东风 (and 南风 lost)."""
    registry = four_winds(1)
    before = rows(registry)
    souths = tuple(bytes((1, copy)) for copy in range(4))
    said: list[str] = []

    class Stop(Exception):
        pass

    def on_step(step):
        if step.problem:
            said.append(step.problem)
            raise Stop
    with pytest.raises(Stop):
        run(enroll_set(Laid(souths), registry, FOUR_WINDS, 1, kinds=(EAST,), on_step=on_step), timeout=30)
    assert said == ["these 4 tags are enrolled already (set 1) as other tiles: lay the 4 东风 of set 1, "
                    "then press 确认 again"]
    assert rows(registry) == before


def test_a_new_tag_of_the_other_set_is_refused():
    registry = four_winds(1)
    registry.enroll([Registered(b"set 0", EAST, 0, 0)])
    said: list[str] = []

    def on_step(step):
        if step.problem:
            said.append(step.problem)
    ports = Laid((bytes((0, 0)), bytes((0, 1)), bytes((0, 2)), b"set 0"),
                 (bytes((0, 0)), bytes((0, 1)), bytes((0, 2)), b"new"))
    run(enroll_set(ports, registry, FOUR_WINDS, 1, kinds=(EAST,), on_step=on_step), timeout=30)
    assert said == ["read 4 tag(s), 3 new: lay exactly the 4 东风 of this set and nothing else, then press 确认 again"]
    assert registry.lookup(b"set 0") == Registered(b"set 0", EAST, 0, 0)
    assert registry.lookup(b"new") == Registered(b"new", EAST, 1, 3)


def test_a_kind_given_back_short_of_a_copy_is_refused_and_kept():
    registry = four_winds(1)
    before = rows(registry)
    with pytest.raises(RegistryError, match="set 1 held 4 1z, 3 were given; enrol every copy of the kind"):
        registry.enroll([Registered(bytes((9, copy)), EAST, 1, copy) for copy in range(3)],
                        replacing_kinds=[(1, EAST)])
    assert rows(registry) == before


def test_a_set_checked_before_a_kind_of_it_was_enrolled_anew_is_not_dealt():
    """As for a set enrolled anew whole (test_set_enrolled_anew.py): one tile's tag replaced in the set
    built below during hand 1 leaves one tag of its walls unknown, and it is never dealt."""
    def one_tag_replaced(registry: TileRegistry, tile_set: int) -> None:
        kind = registry.tags(tile_set)[0].kind
        old = [e for e in registry.tags(tile_set) if e.kind == kind]
        registry.enroll([Registered(b"new tag", kind, tile_set, 0), *old[1:]], replacing_kinds=[(tile_set, kind)])

    _, unread = played_with_a_checked_set_enrolled_anew(one_tag_replaced)
    assert "holds 1 tag(s)" in unread["message"]


def test_kinds_enrolment_stopped_at_its_second_kind_saves_not_even_the_first():
    registry = four_winds(1)
    before = rows(registry)

    class Stopped(Laid):
        async def read_zone(self, seat):
            if self.reads == 1:
                raise KeyboardInterrupt                  # Ctrl-C at 南风, 东风 read with a new tile
            return await super().read_zone(seat)
    with pytest.raises(KeyboardInterrupt):
        run(enroll_set(Stopped((bytes((0, 0)), bytes((0, 1)), bytes((0, 2)), b"new")), registry, FOUR_WINDS, 1,
                       kinds=(EAST, SOUTH)), timeout=30)
    assert rows(registry) == before
