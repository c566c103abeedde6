"""`SimulatedPlayers`: three or four people sitting at a simulated table, hand after hand.

    players = SimulatedPlayers(table, ruleset, seed=7)
    task = asyncio.create_task(players.run())     # plays until cancelled
    …
    task.cancel()

They read the screens (docs/table-flow.md) and act on the physical table: push tiles in, roll
when prompted, take the deal and play, press 杠 / 听 / 胡 / 确认, lay winning hands.  Nothing
is shared between instances: two tables can be played in one process.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from drivers.motor_protocol import Key
from drivers.table_ui import Phase
from rulesets.definition import Ruleset
from rulesets.tiles import Tile

from .crew import Action, Crew, HandEnded, PlayersError, Stats
from .deal import after_deal, take_deal
from .hand_play import HandPlay
from .mistakes import Mistakes
from .style import PlayStyle
from .wall import WallMismatch
from ..technician import SetMender
from ..world import SimulatorError

if TYPE_CHECKING:
    from ..table import SimulatedTable

RESET = (Phase.PUSH_IN, Phase.DICE, Phase.BUILDING, Phase.IDLE, Phase.HAND_OVER)


class SimulatedPlayers:
    def __init__(self, table: "SimulatedTable", ruleset: Ruleset, *, seed: int,
                 style: PlayStyle = PlayStyle()) -> None:
        self.table = table
        self.ruleset = ruleset
        self.crew = Crew(table, ruleset, seed, style)
        self.mistakes = Mistakes(self.crew, seed)

    # -- what tests look at ------------------------------------------------------------------

    @property
    def stats(self) -> Stats:
        return self.crew.stats

    @property
    def journal(self) -> list[Action]:
        return list(self.crew.journal)

    @property
    def errors(self) -> list[str]:
        """Things the players could not make sense of (a wall not as counted …); [] normally."""
        return list(self.crew.errors)

    def hand_of(self, seat: int) -> tuple[Tile, ...]:
        return tuple(sorted(self.crew.players[seat].kinds()))

    # -- the table, hand after hand ------------------------------------------------------------

    async def run(self) -> None:
        """Play until cancelled; one of the people at the table mends a set the table rejects
        (technician.SetMender), as the fault page asks."""
        mender = asyncio.get_running_loop().create_task(SetMender(self.table).run(), name="set-mender")
        try:
            await self._play()
        finally:
            mender.cancel()
            await asyncio.gather(mender, return_exceptions=True)

    async def _play(self) -> None:
        crew = self.crew
        pushed: int | None = None          # pushed in (and 确认 pressed) with this many restarts seen
        drawn_again: int | None = None     # the restarts seen as the last hand's play ended (or 荒庄 confirmed again)
        dealt = False
        while True:
            screen = crew.eyes.look()
            crew.service(screen)
            phase = screen.phase
            if phase is not Phase.PUSH_IN:
                pushed = None
            if phase in RESET:
                dealt = False
            if phase is Phase.PUSH_IN and pushed != crew.restarts and screen.centre_down:
                pushed = crew.restarts          # a restart since may have lost the 确认: push and press again
                await self._push_in(screen.dealer(crew.sides))
                continue
            if phase is Phase.LAST_TILE and crew.restarts and drawn_again != crew.restarts:
                drawn_again = crew.restarts
                await self._confirm_draw_again(screen)
                continue
            if phase is Phase.DEAL and not dealt:
                dealt = True
                await self._hand()
                drawn_again = crew.restarts     # only a restart after the hand's play asks for its 确认 again
                continue
            await crew.eyes.changed(screen.version)

    async def _confirm_draw_again(self, screen) -> None:
        """最后一张 shown again after a restart, once this hand's play was over for the players: the
        table resumed the hand from its journal, which the 确认 for 荒庄 never reached (a kill as the
        settlement round began: 云南 campaign seed 7154), and its note asks for the keys not answered.
        A seat with no question on its line presses 确认 again, as a person reading the note does."""
        crew = self.crew
        await self.table.clock.sleep(crew.style.think)
        seat = next((s for s in crew.sides if screen.question(s) is None), None)
        if seat is not None:
            crew.press(seat, Key.CONFIRM)
            crew.log(seat, "confirm", "荒庄 again")

    async def _push_in(self, dealer: int | None) -> None:
        """请推牌入池后按确认: everything on the table top goes into the centre; 确认."""
        crew = self.crew
        await self.table.clock.sleep(crew.style.think)
        moved = self.table.sweep()
        for player in crew.players.values():
            player.new_hand()
        crew.forget_prompts()
        seat = dealer if dealer is not None else crew.sides[0]
        crew.log(seat, "sweep", f"{moved} tiles")
        crew.press(seat, Key.CONFIRM)

    async def _hand(self) -> None:
        crew = self.crew
        play: HandPlay | None = None
        try:
            wall, view = await take_deal(crew, self.mistakes)
            await after_deal(crew, wall, view)
            play = HandPlay(crew, wall, view, self.mistakes)
            await play.run()
        except HandEnded as ended:
            crew.log(-1, "hand_ended", str(ended))
        except (WallMismatch, PlayersError, SimulatorError) as error:
            crew.errors.append(f"{type(error).__name__}: {error}")
            crew.log(-1, "error", str(error))
        if play is not None:
            crew.stats.hands += 1
            crew.stats.per_hand.append("win" if play.won else "draw" if play.drawn else "?")
