"""最后一张 shown again by a restarted table after the players' hand was over (the option campaign's
云南 stall, seed 7154): the controller was killed as the settlement round of a 荒庄 began, before its
journal held the 确认; the restarted table resumed the hand at 最后一张 with its note asking for the
keys not answered, and the simulated players, who had moved on, waited for ever.  A person reads the
note and presses 确认 again; so do they now — once per restart, never without one.

The test plays the controller's part on the message line and waits on the keys pressed.
"""

from __future__ import annotations

import asyncio

import pytest

from drivers.motor_protocol import Key
from drivers.table_ui import RESTARTED, Phase, choice_text
from rulesets.regions import get_region
from simulator import SimulatedTable
from simulator.players import SimulatedPlayers
from simulator.world import WorldObserver
from tests.asyncio_support import run
from tests.simulator.test_players_win_again import SeenEyes

pytestmark = pytest.mark.timeout(60)

LAST_TILE_AGAIN = f"{Phase.LAST_TILE.value} {RESTARTED}"
STEP_S = 5.0                        # the players answer at once (speed 0): this only bounds a failure


class Confirms(WorldObserver):
    """The 确认 keys pressed at the seats, awaited by count."""

    def __init__(self) -> None:
        self.seats: list[int] = []
        self._new = asyncio.Event()

    def key_pressed(self, panel: int, key: Key, long: bool) -> None:
        if key is Key.CONFIRM:
            self.seats.append(int(panel))
            self._new.set()

    async def until(self, count: int) -> list[int]:
        while len(self.seats) < count:
            self._new.clear()
            await asyncio.wait_for(self._new.wait(), STEP_S)
        return list(self.seats)


def test_last_tile_shown_again_after_a_restart_gets_its_confirm_again_once_per_restart():
    async def main():
        table = SimulatedTable(seed=5, speed=0)
        confirms = Confirms()
        table.world.observers.append(confirms)
        crew = SimulatedPlayers(table, get_region("yunnan").resolve(), seed=5)
        eyes = crew.crew.eyes = SeenEyes(table)
        players = asyncio.create_task(crew.run())
        show = lambda text: table.display.set_text("main", "t_msg", text)      # noqa: E731
        try:
            show(Phase.SETTLE.value)                 # the hand's play is over: its settlement round
            show(LAST_TILE_AGAIN)                    # the table restarted and resumed the hand at 最后一张
            assert len(await confirms.until(1)) == 1
            table.world.set_seat_text(0, 1, choice_text("第1杠来自", "上家"))   # a question on seat 0's line
            show(Phase.SETTLE.value)
            show(LAST_TILE_AGAIN)                    # a second restart: 确认 again, by a seat with no question
            seats = await confirms.until(2)
            assert seats[1] != 0
            show(Phase.LAST_TILE.value)              # the note goes, 最后一张 stays: nothing more is pressed
            await eyes.looked()
            table.world.set_seat_text(3, 1, "")        # one more change, looked at only once any action
            await eyes.looked()                        # on the one before is done (the task acts, then looks)
            assert len(confirms.seats) == 2
        finally:
            players.cancel()
            await asyncio.gather(players, return_exceptions=True)
    run(main())
