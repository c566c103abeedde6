"""The simulated players at a display that loses instructions (a noisy wire: `display:drop`).

The display protocol has no acknowledgement; the controller paints the page showing again every
second (firmware/display_watch.py).  Until then the display may still show the last hand's dice
and indicator.  The players used to count the break, and the 财神's place, from dice the display
still showed from the hand before: they dealt from the wrong stacks (the table said 请按顺序取牌 and
waited for ever) or set aside the wrong tile (campaign seeds 880033 and 880011).  A person reads the
dice on the table and waits for the display to agree; so do they now."""

import asyncio

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import parse_faults
from simulator.players import SimulatedPlayers
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def play_at_a_noisy_display(region_id: str, seed: int, hands: int, drop: float):
    ruleset = get_region(region_id).resolve({})
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles),
                           faults=parse_faults((f"display:drop={drop}",)))
    await table.start("pty")
    crews = []

    def players(table_, ruleset_, seed_):
        people = SimulatedPlayers(table_, ruleset_, seed=seed_)
        crews.append(people.crew)
        return people

    try:
        result = await run_simulated(ruleset, hands=hands, seed=seed, table=table, players=players)
    finally:
        await table.stop()
    return result, crews[0]


def test_the_players_count_the_break_from_the_dice_on_the_table_not_a_stale_display():
    """温州: two rolls for the break, a third for the 财神, which the dealer takes out of the wall;
    three instructions in ten to the display lost."""
    result, crew = run(play_at_a_noisy_display("wenzhou", 2, hands=3, drop=0.3), timeout=240)
    assert result.hands == 3
    assert crew.errors == []
