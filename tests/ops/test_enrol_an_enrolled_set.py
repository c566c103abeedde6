"""`enroll` of a set the registry holds already (a probe: `enroll --simulate --tiles 84 --registry
reg.db` a second time answered every 确认 with "0 new" and, under --simulate, asked again for ever,
20,813 lines in a minute): refused in one line before any board is opened or any tile asked for,
unless --replace; and a simulated enrolment whose tiles are refused stops, in one line."""


from firmware.build.registry import Registered, TileRegistry
from rulesets.tilesets import NAMED_SETS
from simulator import SimulatedTable
from tests.ops.support import cli, one_line_error

ENROL = ["enroll", "--simulate", "--tiles", "84", "--registry", "reg.db"]


def registry_sets(path) -> dict[int, int]:
    registry = TileRegistry(path)
    try:
        return registry.sets()
    finally:
        registry.close()


def test_a_set_enrolled_already_is_refused_at_once_and_enrolled_anew_with_replace(tmp_path):
    first = cli(ENROL, tmp_path, timeout=60)
    assert first.returncode == 0, first.stderr
    assert registry_sets(tmp_path / "reg.db") == {1: 84}
    again = cli(ENROL, tmp_path, timeout=60)
    one_line_error(again, "set 1 is enrolled already in reg.db (84 tags): run with --replace to enrol it anew")
    assert "lay 4" not in again.stdout                  # refused before anything was asked
    assert registry_sets(tmp_path / "reg.db") == {1: 84}
    anew = cli([*ENROL, "--replace"], tmp_path, timeout=60)
    assert anew.returncode == 0, anew.stderr
    assert registry_sets(tmp_path / "reg.db") == {1: 84}


def test_a_simulated_enrolment_of_tiles_enrolled_to_the_other_set_stops(tmp_path):
    """The simulator's set 1 一筒 enrolled (by a wrong export) as set 0: the simulated technician can lay
    no others, so the third refusal stops the enrolment (it asked again for ever)."""
    tiles = NAMED_SETS["84"]
    table = SimulatedTable(seed=0, speed=0, tile_sets=(tiles, tiles))
    registry = TileRegistry(tmp_path / "reg.db")
    registry.enroll([Registered(uid, tile.kind, 0, tile.copy) for uid, tile in table.registry().items()
                     if tile.set_index == 1 and str(tile.kind) == "1p"])
    registry.close()
    proc = cli(ENROL, tmp_path, timeout=60)
    one_line_error(proc, "enrolment stopped, nothing was saved: the simulated table's 一筒 were refused 3 times "
                         "(these 4 tags are enrolled already (set 0): lay the 4 一筒 of set 1, the set being enrolled)")
    assert proc.stdout.count("these 4 tags are enrolled already (set 0)") == 3
    assert registry_sets(tmp_path / "reg.db") == {0: 4}
