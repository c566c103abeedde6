"""A winner who pressed 胡 again for a claim the table had already judged (the fault campaign's
宜昌 stalls, seeds 70053 and 80022): the table tells his `胡 +N` again and he takes it as his
verdict, as he would have taken the first telling.  A line only painted again after a board's
reboot is not taken for the verdict of a check it does not end, and a verdict already taken is
not answered again.

The test plays the controller's part on the winner's line and the message line (docs/table-flow.md
§4, §6a) and waits on what the player does: the keys he presses, or his having looked at a line.
"""

from __future__ import annotations

import asyncio

import pytest

from drivers.motor_protocol import Key
from drivers.table_ui import (LAY_HAND, LAY_MELDS, NOT_A_WIN, RESTARTED, SELF_DRAWN, WIN_DONE, WIN_FROM, Phase,
                              choice_text)
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator import SimulatedTable
from simulator.players import SimulatedPlayers
from simulator.players.prompts import WinClaim, answer_win
from simulator.players.screen import Eyes, Screen
from simulator.world import WorldObserver
from tests.asyncio_support import run

pytestmark = pytest.mark.timeout(60)

REGION = get_region("yichang").resolve()      # 血流成河: a winner plays on; his `胡 +N` stays on his line
SEAT = 3
OTHER = 0
WON = f"{WIN_DONE} +3"
EARLIER_WIN = f"{WIN_DONE} +1"                # his line after a win earlier in the hand
NOTE = f"{Phase.PLAY.value} {RESTARTED}"
ASKS_FROM = choice_text(WIN_FROM, SELF_DRAWN)   # 点炮:自摸 — a self-drawn winner confirms it at once
STEP_S = 5.0                                  # the player answers at once (speed 0): this only bounds a failure
C, HU = Key.CONFIRM, Key.HU


class Keys(WorldObserver):
    """The keys pressed at the table, per seat, awaited by count."""

    def __init__(self) -> None:
        self.pressed: dict[int, list[Key]] = {}
        self._new = asyncio.Event()

    def key_pressed(self, panel: int, key: Key, long: bool) -> None:
        self.pressed.setdefault(int(panel), []).append(key)
        self._new.set()

    async def until(self, seat: int, count: int) -> list[Key]:
        while len(self.pressed.get(seat, [])) < count:
            self._new.clear()
            await asyncio.wait_for(self._new.wait(), STEP_S)
        return list(self.pressed[seat])


class SeenEyes(Eyes):
    """The players' eyes, saying when they have looked at the screens as they now stand."""

    def __init__(self, table: SimulatedTable) -> None:
        super().__init__(table)
        self.seen = -1                          # the version of the screens he last looked at
        self._looked = asyncio.Event()

    def look(self) -> Screen:
        screen = super().look()
        self.seen = screen.version
        self._looked.set()
        return screen

    async def looked(self) -> None:
        """Until the player has looked at what is shown now, and so acted on it (he looks, acts,
        then waits for a change, all in one turn of his task)."""
        while self.seen != self.table.changes.version:
            self._looked.clear()
            await asyncio.wait_for(self._looked.wait(), STEP_S)


class Stage:
    """The controller's part: the message line and the winners' lines, written as it writes them."""

    def __init__(self) -> None:
        self.table = SimulatedTable(seed=5, speed=0)
        self.keys = Keys()
        self.table.world.observers.append(self.keys)
        self.crew = SimulatedPlayers(self.table, REGION, seed=5).crew
        self.eyes = SeenEyes(self.table)
        self.crew.eyes = self.eyes

    def show(self, msg: str) -> None:
        self.table.display.set_text("main", "t_msg", msg)

    def line(self, text: str, seat: int = SEAT) -> None:
        self.table.world.set_seat_text(seat, 1, text)

    def answering(self, *seats: int) -> asyncio.Task:
        """The winners pressed 胡 (as HandPlay.declare_wins does): now they answer their lines."""
        claims = [WinClaim(seat, None, Tile.parse("7s"), (), (), ()) for seat in seats or (SEAT,)]
        return asyncio.create_task(answer_win(self.crew, claims))

    async def laid(self, seat: int = SEAT) -> list[Key]:
        """The check up to the laid hand: 点炮:自摸 确认, 摆副露后确认 确认, 摆手牌后确认 确认."""
        before = len(self.keys.pressed.get(seat, []))
        for count, text in enumerate((ASKS_FROM, LAY_MELDS, LAY_HAND), start=before + 1):
            self.line(text, seat)
            await self.keys.until(seat, count)
        return self.keys.pressed[seat]


async def verdict_taken(task: asyncio.Task) -> dict[int, bool | None]:
    done, _ = await asyncio.wait({task}, timeout=STEP_S)
    assert task in done, "the winner never took the verdict on his line: the table would wait for him forever"
    return task.result()


def _killed_as_it_judged(stage: Stage) -> None:
    """80022: the controller is killed once the win is journaled; the restarted one says so and
    clears every seat's line (his verdict never showed)."""
    stage.show(NOTE)
    stage.line("")


async def _board_rebooted_as_it_judged(stage: Stage) -> None:
    """70053: the motor board reboots as the verdict goes out (its lines go blank, the verdict with
    them) and play is shown: the check looks interrupted, he presses 胡 again; then the board's
    restart note asks for every key not answered: 胡 again."""
    stage.line("")
    stage.show(Phase.PLAY.value)
    assert await stage.keys.until(SEAT, 4) == [C, C, C, HU]
    stage.show(NOTE)


@pytest.mark.parametrize("disruption", ["kill", "motor_reboot"])
def test_a_verdict_told_again_after_hu_pressed_again_ends_the_wait(disruption):
    async def main():
        stage = Stage()
        stage.show(Phase.WIN_CHECK.value)
        task = stage.answering()
        await stage.laid()
        if disruption == "kill":
            _killed_as_it_judged(stage)
        else:
            await _board_rebooted_as_it_judged(stage)
        pressed = await stage.keys.until(SEAT, 5 if disruption == "motor_reboot" else 4)
        assert pressed[3:] == [HU] * len(pressed[3:])            # nothing asked of him: 胡 again
        stage.line("")                       # a seat that won already pressed 胡: told again (the line blinks)
        stage.line(WON)
        assert await verdict_taken(task) == {SEAT: True}
        assert stage.keys.pressed[SEAT] == pressed               # and nothing pressed for it
    run(main())


def test_an_earlier_wins_verdict_painted_again_is_not_taken_for_a_new_claim():
    async def main():
        stage = Stage()
        stage.line(EARLIER_WIN)                 # he won earlier in the hand and plays on
        stage.show(Phase.PLAY.value)
        task = stage.answering()                # a new 胡 the table has not heard yet
        await stage.eyes.looked()
        stage.line("")                          # the motor board reboots, the 胡 lost with it
        stage.show(NOTE)
        assert await stage.keys.until(SEAT, 1) == [HU]
        stage.line(EARLIER_WIN)                 # its lines painted again: his earlier win's
        await stage.eyes.looked()
        assert not task.done()
        stage.show(Phase.WIN_CHECK.value)       # the 胡 pressed again is heard: the check begins
        assert await stage.laid() == [HU, C, C, C]
        stage.line(WON)
        assert await verdict_taken(task) == {SEAT: True}
    run(main())


def test_a_false_win_painted_again_after_hu_pressed_again_waits_for_the_new_check():
    async def main():
        stage = Stage()
        stage.show(Phase.WIN_CHECK.value)
        task = stage.answering()
        await stage.laid()
        await _board_rebooted_as_it_judged(stage)     # 诈胡 goes out as the board reboots
        assert await stage.keys.until(SEAT, 5) == [C, C, C, HU, HU]
        stage.line(NOT_A_WIN)                   # painted again; never told again: his 胡 starts a new check
        await stage.eyes.looked()
        assert not task.done()
        stage.show(Phase.WIN_CHECK.value)
        assert await stage.laid() == [C, C, C, HU, HU, C, C, C]
        stage.line(NOT_A_WIN)
        assert await verdict_taken(task) == {SEAT: False}
    run(main())


def test_a_verdict_already_taken_and_painted_again_gets_no_key():
    async def main():
        stage = Stage()
        stage.show(Phase.WIN_CHECK.value)
        task = stage.answering(SEAT, OTHER)     # two winners of one discard (一炮多响), side by side
        await stage.laid(SEAT)
        stage.line(WON)                         # his verdict: taken
        stage.line(ASKS_FROM, OTHER)
        assert await stage.keys.until(OTHER, 1) == [C]
        stage.show(f"{Phase.WIN_CHECK.value} {RESTARTED}")   # the motor board reboots during the other's check
        stage.line("")
        stage.line("", OTHER)
        await stage.eyes.looked()
        stage.line(WON)                         # painted again, with the other's question
        stage.line(ASKS_FROM, OTHER)
        assert await stage.keys.until(OTHER, 2) == [C, C]       # the question shown again is answered again
        stage.line(LAY_MELDS, OTHER)
        await stage.keys.until(OTHER, 3)
        stage.line(LAY_HAND, OTHER)
        await stage.keys.until(OTHER, 4)
        stage.line(WON, OTHER)
        assert await verdict_taken(task) == {SEAT: True, OTHER: True}
        assert stage.keys.pressed[SEAT] == [C, C, C]            # nothing for the verdict, nor for its repaint
    run(main())


def test_hu_pressed_again_for_an_interrupted_check_is_not_pressed_once_more_for_an_old_note():
    async def main():
        stage = Stage()
        stage.show(NOTE)                        # a restart earlier in the session, long answered
        stage.show(Phase.WIN_CHECK.value)
        task = stage.answering()
        await stage.laid()
        stage.line("")                          # the board reboots as the verdict goes out
        stage.show(Phase.PLAY.value)
        assert await stage.keys.until(SEAT, 4) == [C, C, C, HU]
        stage.table.world.set_seat_text(OTHER, 0, "闲 +1")     # something else changes before the board's note
        await stage.eyes.looked()
        assert stage.keys.pressed[SEAT] == [C, C, C, HU]        # no note since his 胡: nothing more to press
        stage.show(NOTE)
        assert await stage.keys.until(SEAT, 5) == [C, C, C, HU, HU]
        stage.line(WON)
        assert await verdict_taken(task) == {SEAT: True}
    run(main())


def test_a_question_shown_with_the_restart_note_is_the_restarted_tables_and_is_answered():
    """Campaign 350000 (长春): 胡 pressed as the controller was killed; the board kept the key and gave
    it to the restarted controller, which draws every seat's lines again, says so, then hears the 胡
    and asks 点炮:自摸.  The winner saw the note and the question in one look, took the question for
    the killed controller's (to be cleared) and waited for ever: a stall at 验牌中."""
    async def main():
        stage = Stage()
        stage.show(Phase.PLAY.value)
        task = stage.answering()                # 胡 pressed; the controller dies before it hears it
        await stage.eyes.looked()
        stage.show(NOTE)                        # the restarted controller, its seat lines drawn again
        stage.show(Phase.WIN_CHECK.value)       # the kept 胡 heard: its check asks at once
        stage.line(ASKS_FROM)
        assert await stage.keys.until(SEAT, 1) == [C]
        stage.line(LAY_MELDS)
        await stage.keys.until(SEAT, 2)
        stage.line(LAY_HAND)
        assert await stage.keys.until(SEAT, 3) == [C, C, C]
        stage.line(WON)
        assert await verdict_taken(task) == {SEAT: True}
    run(main())


@pytest.mark.parametrize("verdict", [NOT_A_WIN, f"{NOT_A_WIN} -4"])
def test_a_false_win_ends_the_wait_whether_or_not_it_pays(verdict):
    """大包's 诈胡 pays (「诈胡等同于输给其他三家」): the line reads 诈胡 -4.  A player who knew only 诈胡
    took it for an interrupted check and pressed 胡 again and again: a campaign run stalled."""
    async def main():
        stage = Stage()
        stage.show(Phase.WIN_CHECK.value)
        task = stage.answering()
        pressed = await stage.laid()
        stage.line(verdict)
        assert await verdict_taken(task) == {SEAT: False}
        assert stage.keys.pressed[SEAT] == pressed                # nothing pressed after it
    run(main())
