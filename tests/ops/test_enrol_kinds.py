"""`enroll --kinds`: a lost or damaged tile replaced by one with a new tag is enrolled at one prompt
(that kind's copies, old and new), not by enrolling the whole set again (34–42 prompts, and the set
rejected at every build until then).  Exactly that kind's tags change; a refused or stopped one
changes nothing."""

from __future__ import annotations

import sqlite3

import pytest

from firmware.build.registry import Registered, TileRegistry
from firmware.build.wall_map import WallMap
from rulesets.tiles import Tile
from rulesets.tilesets import NAMED_SETS
from simulator import SimulatedTable
from tests.ops.support import cli, one_line_error

TILES = NAMED_SETS["84"]
ENROL = ["enroll", "--simulate", "--tiles", "84", "--registry", "reg.db"]
LOST = b"\xe0\x04lost01"            # the tag of the 一筒 that was lost (the simulator's one is its replacement)
ONE_PIN = Tile.parse("1p")


def simulated_set_1() -> dict[bytes, Registered]:
    """The tags of the simulated table's loose set (set 1), as `enroll --simulate` meets them."""
    table = SimulatedTable(seed=0, speed=0, tile_sets=(TILES, TILES))
    return {uid: Registered(uid, tile.kind, 1, tile.copy) for uid, tile in table.registry().items()
            if tile.set_index == 1}


def registry_before_the_loss(path) -> tuple[bytes, list[Registered]]:
    """Set 1 enrolled with the lost 一筒's tag in place of the new tile's: the tag the table now
    holds and the registry does not know."""
    tags = simulated_set_1()
    (new,) = [uid for uid, entry in tags.items() if entry.kind == ONE_PIN and entry.copy == 2]
    entries = [Registered(LOST, ONE_PIN, 1, 2) if uid == new else entry for uid, entry in tags.items()]
    registry = TileRegistry(path)
    try:
        registry.enroll(entries)
    finally:
        registry.close()
    return new, entries


def rows(path) -> list[tuple]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT uid, kind, tile_set, copy FROM tiles"))


def set_check(path, uids) -> list[str]:
    """The set check of a build holding exactly these tags (set 1): its problems' messages."""
    registry = TileRegistry(path)
    try:
        wall = WallMap(None, (11, 10, 11, 10), registry)
        for position, uid in zip(wall.positions(), uids, strict=True):
            wall.reads[position], wall.uids[position] = (uid,), (uid if registry.lookup(uid) else None)
        return [problem.message for problem in wall.check(TILES, 1)]
    finally:
        registry.close()


def test_a_replaced_tile_is_enrolled_at_one_prompt_and_the_set_passes_its_check(tmp_path):
    new, entries = registry_before_the_loss(tmp_path / "reg.db")
    on_the_table = list(simulated_set_1())
    assert set_check(tmp_path / "reg.db", on_the_table) != []          # rejected at every build, until…
    before = rows(tmp_path / "reg.db")
    proc = cli([*ENROL, "--kinds", "1p"], tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("lay 4 × 一筒") == 1 and "lay 4 × 二筒" not in proc.stdout
    assert ("enrolled 一筒 (1p) of set 1 anew in reg.db: 1 new tag(s), 1 forgotten; its other 80 tags unchanged"
            in proc.stdout)
    after = rows(tmp_path / "reg.db")
    assert [row for row in before if row not in after] == [(LOST, "1p", 1, 2)]    # the old tag forgotten
    assert [row for row in after if row not in before] == [(new, "1p", 1, 2)]     # the new one in its place
    assert set_check(tmp_path / "reg.db", on_the_table) == []


@pytest.mark.parametrize("flags, words", [
    (["--kinds", "1p", "--replace"], "--replace does not go with --kinds"),
    (["--kinds", "1p,5z,1p"], "--kinds names 1p 2 times: name each kind once"),
    (["--kinds", " , "], "--kinds ' , ' names no tile; name the kinds to enrol anew"),
    (["--kinds", "1m"], "--kinds: 1m (一万) is no tile of the 84 (筒条 + 中发白) set"),
    (["--kinds", "1q"], "--kinds: not a tile: '1q'"),
    (["--kinds", "1p", "--tiles", "136"], "set 1 in reg.db is enrolled as the 84-tile set, not 136: give --tiles 84"),
])
def test_a_wrong_kind_enrolment_is_refused_in_one_line_and_changes_nothing(tmp_path, flags, words):
    registry_before_the_loss(tmp_path / "reg.db")
    before = rows(tmp_path / "reg.db")
    args = [*ENROL, *flags] if "--tiles" not in flags else [*ENROL[:2], "--registry", "reg.db", *flags]
    proc = cli(args, tmp_path, timeout=60)
    one_line_error(proc, words)
    assert "lay 4" not in proc.stdout                   # refused before anything was asked
    assert rows(tmp_path / "reg.db") == before


def test_kinds_of_a_set_not_enrolled_and_with_an_import_are_refused(tmp_path):
    proc = cli([*ENROL, "--kinds", "1p"], tmp_path, timeout=60)
    one_line_error(proc, "set 1 is not enrolled in reg.db: enrol it whole first (leave --kinds out)")
    assert rows(tmp_path / "reg.db") == []
    (tmp_path / "tags.json").write_text("{}", encoding="utf-8")
    proc = cli(["enroll", "--registry", "reg.db", "--import", "tags.json", "--kinds", "1p"], tmp_path, timeout=60)
    one_line_error(proc, "--kinds does not go with --import")


def test_a_kind_enrolment_stopped_leaves_the_registry_as_it_was(tmp_path):
    """一筒 is read (the new tile among them), then the 白板 laid are set 0's by a wrong export: refused
    three times, the simulated enrolment stops, and the 一筒 read before is not saved either."""
    white = Tile.parse("5z")
    tags = simulated_set_1()
    registry = TileRegistry(tmp_path / "reg.db")
    registry.enroll([Registered(bytes((0xE0, 0x05, copy)), white, 1, copy) if entry.kind == white else entry
                     for copy, entry in ((entry.copy, entry) for entry in tags.values())])
    registry.enroll([Registered(uid, white, 0, entry.copy) for uid, entry in tags.items() if entry.kind == white])
    registry.close()
    before = rows(tmp_path / "reg.db")
    proc = cli([*ENROL, "--kinds", "1p,5z"], tmp_path, timeout=60)
    one_line_error(proc, "enrolment stopped, nothing was saved: the simulated table's 白板 were refused 3 times "
                         "(these 4 tags are enrolled already (set 0)")
    assert proc.stdout.count("lay 4 × 一筒") == 1
    assert rows(tmp_path / "reg.db") == before
