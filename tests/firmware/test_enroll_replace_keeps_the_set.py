"""`enroll --replace` forgets a set's old tags only as the new ones are saved, in one transaction.

It forgot them first: an enrolment that then failed (the boards' ports swapped, one not there, the
enrolment stopped at its first prompt) left the set with no tags, and the table dealt its next hand
on a set it could not read (长春 then stopped at every start; 海南 paid a win on unread tiles: a probe).
"""

import json

from firmware.build.enrollment import enroll_set
from firmware.build.registry import Registered, TileRegistry
from firmware.cli import main
from rulesets.tiles import Tile
from tests.asyncio_support import run
from tests.firmware.test_enrollment_prompts import FOUR_WINDS, Ports
from tests.ops.test_cli_promises import write_config
from tests.ops.test_enrol_an_enrolled_set import registry_sets

EAST = Tile.parse("1z")


def easts(tile_set: int, copies: int = 4, first: int = 0) -> list[Registered]:
    """`copies` 东风 of `tile_set`, tagged (first, copy)."""
    return [Registered(bytes((first, copy)), EAST, tile_set, copy) for copy in range(copies)]


def registry_with_set_1(path) -> list[Registered]:
    registry = TileRegistry(path)
    try:
        old = easts(1, first=9)
        registry.enroll(old)
        return old
    finally:
        registry.close()


def test_an_enrolment_with_replace_that_cannot_reach_the_boards_keeps_the_set(tmp_path, capsys):
    config = write_config(tmp_path, tmp_path / "state")          # ports that are not there
    (tmp_path / "state").mkdir()
    registry_with_set_1(tmp_path / "state" / "tiles.db")
    status = main(["enroll", "--config", str(config), "--set", "1", "--replace"])
    err = capsys.readouterr().err
    assert status != 0 and err.count("\n") == 1, err
    assert registry_sets(tmp_path / "state" / "tiles.db") == {1: 4}


def test_a_refused_import_with_replace_keeps_the_sets_it_would_replace(tmp_path, capsys):
    config = write_config(tmp_path, tmp_path / "state")
    (tmp_path / "state").mkdir()
    old = registry_with_set_1(tmp_path / "state" / "tiles.db")
    registry = TileRegistry(tmp_path / "state" / "tiles.db")
    registry.enroll([Registered(bytes((8, 0)), EAST, 0, 0)])      # set 0's 东 copy 0
    registry.close()
    export = {old[0].uid.hex(): {"tile": "2z", "set": 1, "copy": 0},        # set 1 anew: its own old tag, fine
              bytes((8, 0)).hex(): {"tile": "3z", "set": 1, "copy": 0}}     # set 0's tag: refused
    path = tmp_path / "tags.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    status = main(["enroll", "--config", str(config), "--import", str(path), "--replace"])
    err = capsys.readouterr().err
    assert status == 2 and "nothing was saved" in err, err
    assert registry_sets(tmp_path / "state" / "tiles.db") == {0: 1, 1: 4}


def test_a_set_enrolled_again_with_replace_takes_its_own_old_tags_as_new():
    """The technician lays the same physical tiles again: their tags were the set's, and count as new."""
    registry = TileRegistry()
    ports = Ports()
    first = run(enroll_set(ports, registry, FOUR_WINDS, 1), timeout=30)
    assert first == 16 and registry.sets() == {1: 16}
    assert run(enroll_set(Ports(), registry, FOUR_WINDS, 1, replacing=True), timeout=30) == 16
    assert registry.sets() == {1: 16}


def test_an_enrolment_with_replace_stopped_half_way_keeps_the_set():
    registry = TileRegistry()
    run(enroll_set(Ports(), registry, FOUR_WINDS, 1), timeout=30)

    class Stopped(Ports):
        async def read_zone(self, seat):
            if self.reads == 3:
                raise KeyboardInterrupt                          # Ctrl-C at the second kind
            return await super().read_zone(seat)
    try:
        run(enroll_set(Stopped(), registry, FOUR_WINDS, 1, replacing=True), timeout=30)
    except KeyboardInterrupt:
        pass
    assert registry.sets() == {1: 16}


class Stop(Exception):
    """The person stops the enrolment (Ctrl-C) once the terminal said why."""


class SameTilesAgain(Ports):
    """The technician lays the asked kind's four tiles at once, every time (the enrolled set's own)."""

    async def read_zone(self, seat):
        return tuple(bytes((0, copy)) for copy in range(4))


def problems_enrolling(registry, set_index: int, tries: int = 2) -> list[str]:
    """The problem lines of an enrolment of FOUR_WINDS as `set_index`, stopped after `tries` of them."""
    said: list[str] = []

    def on_step(step):
        if step.problem:
            said.append(step.problem)
            if len(said) == tries:
                raise Stop
    try:
        run(enroll_set(SameTilesAgain(), registry, FOUR_WINDS, set_index, on_step=on_step), timeout=30)
    except Stop:
        pass
    return said


def test_tiles_of_the_set_enrolled_already_are_said_so_not_just_none_new():
    """A probe: every 确认 said "read 4 tag(s), 0 new: lay exactly the 4 一筒 of this set", and laying
    them again could never help."""
    registry = TileRegistry()
    registry.enroll(easts(1))
    said = problems_enrolling(registry, 1)
    assert said == ["these 4 tags are enrolled already (set 1): to enrol set 1 again, stop (Ctrl-C) and run "
                    "with --replace"] * 2
    assert registry.sets() == {1: 4}


def test_the_other_sets_tiles_are_said_to_be_that_sets():
    registry = TileRegistry()
    registry.enroll(easts(0))
    assert problems_enrolling(registry, 1, tries=1) == [
        "these 4 tags are enrolled already (set 0): lay the 4 东风 of set 1, the set being enrolled, then press 确认 again"]
    assert registry.sets() == {0: 4}


def test_a_read_with_a_tag_not_enrolled_keeps_the_count_of_new_tags():
    registry = TileRegistry()
    registry.enroll(easts(1, 3))
    assert problems_enrolling(registry, 1, tries=1) == [
        "read 4 tag(s), 1 new: lay exactly the 4 东风 of this set and nothing else, then press 确认 again"]
