"""换宝: a ready seat that asked for a new 宝 plays on with it only once his line shows it.  The table
rolls, then paints each ready seat's line; a seat that read its line in between played on with the
dead 宝, so under load 长春 and 吉林 played a hand differently from the same seed.

Here the test is the table: it paints the new 宝 only once the 骰子 is seen, at the worst moment for a
player who reads on at once.  Seat 0 is ready (111m 13m 456p 789s 99s) and draws 北; his 宝 七饼 is dead
(three in the others' discards), and the new 宝 is 北: drawn, it stands for his 二万 (摸宝)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from drivers.motor_protocol import Key
from drivers.table_ui import BAO, CHANGE_BAO_HINT, RESTARTED, ROLL_BAO, Phase
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator.players import SimulatedPlayers
from simulator.players.crew import HandEnded
from simulator.players.hand_play import HandPlay
from simulator.players.knowledge import TableView
from tests.asyncio_support import run
from tests.simulator.test_players_parts import player_with
from tests.simulator.test_players_referee import table_for

DEAD, NEW = Tile.P7, Tile.NORTH
HAND = "111m13m456p789s99s4z"          # the last tile, 北, just drawn


@dataclass(frozen=True)
class FarFromItsEnd:
    """The live wall as the turn asks about it: far from its end, no kong to make."""

    live: int = 40

    def live_after_kong(self) -> int:
        return self.live - 1

    def replacement(self):
        return None


def bao_line(tile: Tile) -> str:
    return f"{BAO}:{tile.zh} {CHANGE_BAO_HINT}"


def seat_0_draws_north(ready_seats=(0,)):
    """The table at 请出牌, the ready seats showing the dead 宝, and seat 0's turn under way."""
    ruleset = get_region("changchun").resolve()
    table = table_for(ruleset, 1)
    crew = SimulatedPlayers(table, ruleset, seed=1).crew
    crew.players[0] = player = player_with(HAND)
    view = TableView(ruleset.players, 1)
    for seat in ready_seats:
        crew.players[seat].ready = view.seats[seat].ready = True
        table.world.set_seat_text(seat, 0, "闲 +0 听")
        table.world.set_seat_text(seat, 1, bao_line(DEAD))
    for seat in (1, 2, 3):
        view.seats[seat].discards.append(DEAD)           # the 宝 is dead: three in sight
    table.display.set_text("main", "t_msg", Phase.PLAY.value)
    drawn = next(uid for uid, kind in player.hand.items() if kind == NEW)
    turn = asyncio.create_task(HandPlay(crew, FarFromItsEnd(), view).turn(0, drawn, False))
    return table, crew, turn


async def logged(crew, seat: int, whats: tuple[str, ...], within: float = 5.0) -> str:
    """Until seat's journal holds one of `whats` (from the start): the first such."""
    async def seen() -> str:
        while True:
            found = [a.what for a in list(crew.journal) if a.seat == seat and a.what in whats]
            if found:
                return found[0]
            await asyncio.sleep(0)
    return await asyncio.wait_for(seen(), within)


async def looked_at(crew, shown, within: float = 5.0) -> None:
    """Until the players have looked at screens for which `shown` holds."""
    async def seen() -> None:
        while (screen := crew.eyes.last_seen) is None or not shown(screen):
            await asyncio.sleep(0)
    await asyncio.wait_for(seen(), within)


def change_bao_presses(crew, seat: int = 0) -> int:
    return sum(1 for a in crew.journal if a.seat == seat and a.what == "change_bao")


def test_a_ready_seat_plays_on_with_the_new_bao_once_it_shows():
    async def main():
        table, crew, turn = seat_0_draws_north()
        await logged(crew, 0, ("change_bao",))
        table.world.set_seat_text(0, 1, bao_line(NEW))        # the table painted the new 宝
        assert await logged(crew, 0, ("hu", "discard")) == "hu", "played on with the dead 宝"
        turn.cancel()
    run(main())


def test_every_ready_seat_waits_for_its_own_line():
    """The table paints the ready seats one after another: seat 2's 宝 counts only once it shows."""
    async def main():
        table, crew, turn = seat_0_draws_north(ready_seats=(0, 2))
        await logged(crew, 0, ("change_bao",))
        table.world.set_seat_text(0, 1, bao_line(NEW))
        await looked_at(crew, lambda s: s.bao(0) == NEW)      # seat 0's new 宝 seen; seat 2's not painted yet
        table.world.set_seat_text(2, 1, bao_line(NEW))
        assert await logged(crew, 0, ("hu", "discard")) == "hu"
        assert crew.players[2].bao == NEW, "seat 2 played on with the dead 宝"
        turn.cancel()
    run(main())


def test_a_restart_that_lost_the_change_has_it_pressed_again():
    """A restarted table draws the lines again before it says so: the dead 宝 still showing, the
    骰子 was lost and is pressed again; then the new 宝 is waited for as before."""
    async def main():
        table, crew, turn = seat_0_draws_north()
        await logged(crew, 0, ("change_bao",))
        table.display.set_text("main", "t_msg", f"{Phase.PLAY.value} {RESTARTED}")
        while change_bao_presses(crew) < 2:
            await asyncio.sleep(0)
        dice = [a for a in crew.journal if a.seat == 0 and a.what == "press" and a.detail == Key.DICE.name]
        assert len(dice) == 2
        table.world.set_seat_text(0, 1, bao_line(NEW))
        assert await logged(crew, 0, ("hu", "discard")) == "hu"
        turn.cancel()
    run(main())


def test_the_hand_ending_ends_the_wait():
    async def main():
        table, crew, turn = seat_0_draws_north()
        await logged(crew, 0, ("change_bao",))
        table.display.set_text("main", "t_msg", Phase.HAND_OVER.value)
        try:
            await asyncio.wait_for(turn, 5)
        except HandEnded:
            pass
        assert not [a for a in crew.journal if a.what in ("hu", "discard")]
    run(main())


def test_a_bao_that_died_meanwhile_ends_the_wait():
    """Its tile taken by a kong's replacement just before, the 宝 is gone: the table clears the lines
    and asks the roller for a new one (which may be of the dead kind: the wait for another is over)."""
    async def main():
        table, crew, turn = seat_0_draws_north()
        await logged(crew, 0, ("change_bao",))
        table.world.set_seat_text(0, 1, ROLL_BAO)
        assert await logged(crew, 0, ("hu", "discard")) == "discard"
        turn.cancel()
    run(main())


def test_a_motor_board_reboot_is_waited_out_until_the_lines_come_back():
    """The board's reboot blanks the seat displays (and may lose the 骰子): the ready seat looks again
    once its lines are sent again, and presses 骰子 again on the dead 宝."""
    async def main():
        table, crew, turn = seat_0_draws_north()
        await logged(crew, 0, ("change_bao",))
        table.world.set_seat_text(0, 0, "")
        table.world.set_seat_text(0, 1, "")
        table.display.set_text("main", "t_msg", f"{Phase.PLAY.value} {RESTARTED}")
        await looked_at(crew, lambda s: RESTARTED in s.msg and s.status(0) == "")
        table.world.set_seat_text(0, 0, "闲 +0 听")
        table.world.set_seat_text(0, 1, bao_line(DEAD))
        while change_bao_presses(crew) < 2 and not [a for a in crew.journal if a.what in ("hu", "discard")]:
            await asyncio.sleep(0)
        assert change_bao_presses(crew) == 2
        table.world.set_seat_text(0, 1, bao_line(NEW))
        assert await logged(crew, 0, ("hu", "discard")) == "hu"
        turn.cancel()
    run(main())
