"""A key mashed while nothing asks for it (a bored player's ◀, a chattering switch) never grows the
controller's key queue: of one key on one panel the newest 8 wait (`SAME_KEY_LIMIT`), each older one
is dropped and recorded (`keys_dropped`, why `repeated`), and play goes on."""

from __future__ import annotations

import io
import json

from drivers.table_ui import Key, Phase
from firmware.hand.ports import SAME_KEY_LIMIT, KeyQueue, Press
from firmware.simulated import new_table, run_simulated
from rulesets.regions import get_region
from simulator.players.screen import phase_of
from simulator.table import SimulatedTable
from simulator.world import WorldObserver
from tests.asyncio_support import run

MASHED = 30


def test_of_one_key_on_one_panel_the_newest_presses_wait_and_the_others_keep_theirs():
    keys = KeyQueue()
    hu = Press(2, Key.HU, heard=0)
    keys.put(hu)
    pushed_out = [keys.put(Press(1, Key.DICE, heard=n)) for n in range(1, 21)]
    assert [p.heard for p in pushed_out if p is not None] == list(range(1, 21 - SAME_KEY_LIMIT))     # oldest first
    assert len(keys) == SAME_KEY_LIMIT + 1
    assert keys.peek(lambda p: p.key == Key.HU) is hu                          # another key keeps its press
    assert [p.heard for p in keys.peek_all(lambda p: p.key == Key.DICE)] == list(range(21 - SAME_KEY_LIMIT, 21))
    assert keys.put(Press(3, Key.DICE)) is None                                 # another panel is another key


class PressesAtTheFifthDraw(WorldObserver):
    """Seat 1 presses `key` `times` times as the fifth tile is drawn after the public screen first says
    请出牌, in the world: the presses go down the board's wire before anything later in the hand, so a
    controller running behind the players (a busy machine: the ptys' bytes come late while the players
    draw on) still hears them in play, before the 胡 that ends it.  (Pressed when the controller
    recorded its fifth take instead, a controller that far behind heard them after the hand.)"""

    def __init__(self, table: SimulatedTable, key: Key, times: int) -> None:
        self.table, self.key, self.times = table, key, times
        self.counts: dict[tuple[int, int], int] = {}
        self.draws = 0
        self.pressed = False

    def wall_changed(self, side: int, stack: int, tiles: int) -> None:
        before = self.counts.get((side, stack), 0)
        self.counts[side, stack] = tiles
        if self.pressed or tiles >= before or phase_of(self.table.display.text("main", "t_msg")) is not Phase.PLAY:
            return
        self.draws += 1
        if self.draws == 5:
            for _ in range(self.times):
                self.table.press(1, self.key)
            self.pressed = True


def pressed_in_play(key: Key, times: int, seed: int = 4, hands: int = 2) -> list[dict]:
    """`hands` hands of 海南 (no 宝); seat 1 presses `key` `times` times at the fifth draw of the first
    hand's play: the recorder's events."""
    ruleset = get_region("hainan").resolve()

    async def play() -> list[dict]:
        table = new_table(ruleset, seed=seed, speed=0)
        presses = PressesAtTheFifthDraw(table, key, times)
        table.world.observers.append(presses)
        await table.start("pty")
        events = io.StringIO()
        try:
            result = await run_simulated(ruleset, hands=hands, seed=seed, table=table, events=events)
        finally:
            await table.stop()
        assert result.hands == hands and presses.pressed
        return [json.loads(line) for line in events.getvalue().splitlines()]

    return run(play(), timeout=120)


def dropped(events: list[dict], key: Key) -> list[tuple[str, int]]:
    """Each press of `key` on seat 1 the recorder says was dropped: (why, hand)."""
    return [(e["why"], e["hand"]) for e in events if e["event"] == "keys_dropped"
            for p in e["presses"] if (p["panel"], p["key"]) == (1, key.name)]


def test_a_seat_mashing_a_key_in_play_is_recorded_and_the_hands_go_on():
    left = dropped(pressed_in_play(Key.LEFT, MASHED), Key.LEFT)
    assert len(left) == MASHED, left                               # every press answered or recorded, none lost
    assert left.count(("repeated", 1)) == MASHED - SAME_KEY_LIMIT, left


def test_dice_pressed_in_play_with_no_bao_to_change_is_recorded_not_taken_silently():
    """In 海南 there is no 宝: a 骰子 in play is taken by the play loop and answers nothing, which the
    recorder says (before: taken without a word)."""
    assert dropped(pressed_in_play(Key.DICE, 3), Key.DICE) == [("in_play", 1)] * 3


def test_a_confirm_pressed_in_play_does_not_end_the_hand_when_the_last_tile_is_drawn():
    """A probe at the table: a seat's stray 确认 in play (a question answered twice, say) waited in
    the queue, and the moment the last live tile was drawn it ended the hand as 荒庄, before the
    drawer could press 胡.  Now it is dropped as 最后一张 shows, and the hand waits for a 确认 pressed
    after it.  (海南 seed 9: the first hand goes to the wall's end.)"""
    events = pressed_in_play(Key.CONFIRM, 1, seed=9, hands=1)
    assert dropped(events, Key.CONFIRM) == [("before_last_tile", 1)]
    names = [e["event"] for e in events]
    assert names.index("keys_dropped") < names.index("exhausted") < names.index("hand_end")
