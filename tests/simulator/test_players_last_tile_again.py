"""最后一张 shown again after a check or a fault it gave way to: the seat that pressed 确认 for the draw
presses it again.  A campaign (上海, every disruption kind, key bounce) stalled at 最后一张: the 确认
went to a stray 胡's check begun as he pressed (and to the motor fault E11 it acknowledged), the table
came back to 最后一张 waiting for a 确认, and he waited for the hand to end."""

from __future__ import annotations

import asyncio

import pytest

from drivers.table_ui import Phase
from rulesets.regions import get_region
from simulator import SimulatedTable
from simulator.players import SimulatedPlayers
from simulator.players.hand_play import HandPlay
from simulator.players.knowledge import TableView
from tests.asyncio_support import run
from tests.simulator.test_players_parts import crew_pressed


async def seen_by(crew, phase: Phase) -> None:
    """Until the players have looked at the screen showing `phase` (a check or a fault lasts long
    enough to be seen: a worker's answer, a motor cooling)."""
    async def seen() -> None:
        while (screen := crew.eyes.last_seen) is None or screen.phase is not phase:
            await asyncio.sleep(0)
    await asyncio.wait_for(seen(), 5)


async def confirmed_then(shown: Phase):
    """Seat 2 at 最后一张 presses 确认 for the draw; then the screen shows `shown`, and the players see it.
    The table, the crew and the seat's wait for the hand's end."""
    table = SimulatedTable(seed=1, speed=0)
    crew = SimulatedPlayers(table, get_region("shanghai").resolve(), seed=1).crew
    table.display.set_text("main", "t_msg", Phase.LAST_TILE.value)
    ending = asyncio.create_task(HandPlay(crew, None, TableView(crew.sides, 0)).exhausted(2))
    await crew_pressed(crew, 2, lambda a: a.what == "confirm")
    table.display.set_text("main", "t_msg", shown.value)
    await seen_by(crew, shown)
    return table, crew, ending


def confirms(crew) -> list[str]:
    return [a.detail for a in crew.journal if a.seat == 2 and a.what == "confirm"]


@pytest.mark.parametrize("between", [Phase.WIN_CHECK, Phase.FAULT])
def test_the_draw_is_confirmed_again_when_the_last_tile_comes_back(between):
    async def main():
        table, crew, ending = await confirmed_then(between)              # his 确认 went to this
        table.display.set_text("main", "t_msg", Phase.LAST_TILE.value)   # …and the draw is still asked
        await crew_pressed(crew, 2, lambda a: a.what == "confirm")
        assert confirms(crew) == ["荒庄", "荒庄"]
        table.display.set_text("main", "t_msg", Phase.HAND_OVER.value)
        await asyncio.wait_for(ending, 5)
    run(main())


def test_a_win_checked_after_the_last_tile_that_ends_the_hand_is_not_confirmed_again():
    async def main():
        table, crew, ending = await confirmed_then(Phase.WIN_CHECK)
        table.display.set_text("main", "t_msg", Phase.HAND_OVER.value)   # another seat won on it
        await asyncio.wait_for(ending, 5)
        assert confirms(crew) == ["荒庄"]
    run(main())
