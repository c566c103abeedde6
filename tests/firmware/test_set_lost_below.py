"""The checked set the journal names below is gone when the plates rise (a probe at the table: the
controller stopped at the push-in, the boards came back with their mechanism reset).  A hand was
begun on the empty plates: 请配牌 stayed up, nothing more was said, and the table waited for ever.
The walls that rise are compared with the set built for them now: said, recorded, built anew."""

from __future__ import annotations

from drivers.table_ui import Phase
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart


def at_the_push_in(table) -> bool:
    return table.display.text("main", "t_msg").startswith(Phase.PUSH_IN.value)


def set_below_taken_out(table, ruleset, events) -> None:
    """While no controller runs, a person takes the set below out through the hatch and leaves its
    tiles on the table top (the players push them in with the rest)."""
    world = table.world
    for side in world.sides:
        for stack in side.channel:
            for tile in stack:
                world.out[tile.serial] = tile
        side.channel = []


def test_a_set_lost_from_below_while_the_controller_was_stopped_is_said_and_built_anew(tmp_path):
    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("sichuan", 3, db, crash_when=at_the_push_in,
                                                  meanwhile=set_below_taken_out), timeout=120)
    lost = [e for e in after if e["event"] == "warning" and "not the set built for them" in e["message"]]
    assert len(lost) == 1, [e for e in after if e["event"] == "warning"]
    first_start = next(i for i, e in enumerate(after) if e["event"] == "hand_start")
    assert after.index(lost[0]) < first_start          # no hand begun on the empty plates
    assert result.hands == 2                            # the table plays on, on sets built anew

