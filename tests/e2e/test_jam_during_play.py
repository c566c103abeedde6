"""A lane that jams in the next set's build while a hand is played on the raised walls (a probe at
the table, 长春): the board refused every motion while the jam was latched, the dice included, so
the ready seat's 宝 roll waited for a person to clear the jam, and the hand with it.  The dice roll
through a fault that is not theirs (protocol.md §4.1): the hand plays to its end, the jam waits for
the person, and the build goes on once it is cleared.  Meanwhile the jam is said on the main page's
fault line, and its page waits for the hand's end (it covered the scores, the stacks left and the
indicators for the rest of the hand)."""

import asyncio
import io

from drivers.motor_protocol import Key
from firmware.fault_desk import HAND_PHASES
from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run

SEED = 4


async def jam_while_playing() -> tuple[list[dict], list[str]]:
    ruleset = get_region("changchun").resolve()
    table = SimulatedTable(seed=SEED, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    events, seen = io.StringIO(), []
    first_hand_over = asyncio.Event()

    def on_event(event: dict) -> None:
        if event["event"] == "hand_end" and event["hand"] == 1:
            table.inject_fault("jam=1:30")          # lane 1 jams at its 30th push of hand 1's set, rebuilt
        if event["event"] == "fault" and event["code"] == "E01":
            seen.append("E01")
        if event["event"] == "indicator" and event.get("dice") and seen:
            seen.append("dice rolled")
        if event["event"] == "hand_end" and event["hand"] == 2:
            seen.append("hand over")
            first_hand_over.set()

    async def technician() -> None:
        await first_hand_over.wait()                # the person comes once the hand is over
        table.clear_jam(1)
        seen.append("jam cleared")
        while table.display.page != "fault":
            await table.changed(table.changes.version)
        table.press("front", Key.CONFIRM)

    async def onlooker() -> None:
        """What the players see on the public display while the jam is latched."""
        while True:
            version = table.changes.version
            display = table.display
            message = display.text("main", "t_msg")
            if display.page == "fault" and "fault page" not in seen:
                seen.append("fault page")
                in_hand = [p.value for p in HAND_PHASES if message.startswith(p.value)]
                if in_hand:
                    seen.append(f"fault page in play: {message}")
            if (display.page == "main" and display.text("main", "t_fault").startswith("E01")
                    and "fault line" not in seen):
                seen.append("fault line")
            await table.changed(version)

    person = asyncio.create_task(technician())
    watcher = asyncio.create_task(onlooker())
    try:
        await run_simulated(ruleset, hands=3, seed=SEED, events=events, table=table, on_event=on_event)
    finally:
        person.cancel()
        watcher.cancel()
        await asyncio.gather(person, watcher, return_exceptions=True)
        await table.stop()
    return read_events(events.getvalue().splitlines()), seen


def test_a_lane_jammed_under_the_table_does_not_hold_the_hand_being_played():
    log, seen = run(jam_while_playing(), timeout=60)
    assert seen[0] == "E01" and seen.index("hand over") < seen.index("jam cleared")
    assert "dice rolled" in seen[:seen.index("hand over")]      # the 宝 rolled with the jam latched
    # the players kept the main page (the jam on its fault line); the jam's page came at the hand's end
    assert "fault line" in seen and "fault page" in seen
    assert not [s for s in seen if s.startswith("fault page in play")], seen
    assert sum(e["event"] == "hand_end" for e in log) == 3     # the third on the set built once cleared
    assert audit_events(log) == []
