"""Scripted table crews for controller tests: they move tiles and press keys the way the flow asks.

They play no mahjong (no discards): a `WallWalker` deals and draws to the end and confirms 荒庄,
so the wall tracking, the reserve and 荒庄 can be tested alone; a `DealerWins` deals and has the
dealer declare a self-drawn win at once, entering a given hand when the read zone cannot read
it.  Whatever else the table asks (a 长春 特殊杠, a 长沙 起手小和, the settlement round's hands) they
answer with nothing: 确认.  Both read the same screens as the real simulated players and wait on the table's change
notifications (`table.changed`), never on a timer.
"""

from __future__ import annotations

from drivers.motor_protocol import Key, LiftPosition
from drivers.table_ui import (ENTRY, FOLLOW_DEALER, LAY_HAND, LAY_MELDS, OPENING_ASK, ROLL_DICE, SHOW_HAND, SHOW_MELDS,
                              SPECIAL_KONG, WIN_FROM, Phase)
from rulesets.reserve import wall_count
from rulesets.tiles import Tile, parse_tiles


class Crew:
    def __init__(self, table, ruleset, seed: int = 0) -> None:
        self.table = table
        self.ruleset = ruleset
        self._declined: dict[int, str] = {}

    def msg(self) -> str:
        return self.table.display.text("main", "t_msg")

    def line(self, seat: int, index: int) -> str:
        return self.table.world.seat_displays[seat][index]

    def dealer(self) -> int:
        return next(s for s in self.ruleset.players if self.line(s, 0).startswith("庄"))

    async def until(self, predicate) -> None:
        """Wait for the screens (or lifts) to show what `predicate` looks for."""
        while not predicate():
            seen = self.table.changes.version
            self.decline()
            await self.table.changed(seen)

    def decline(self) -> None:
        """Answer the table's other questions with nothing (确认), once per question shown."""
        asks = (SPECIAL_KONG + ":", FOLLOW_DEALER, OPENING_ASK, SHOW_MELDS, SHOW_HAND)
        for seat in self.ruleset.players:
            line = self.line(seat, 1)
            if line.startswith(asks) and self._declined.get(seat) != line:
                self._declined[seat] = line
                self.table.press(seat, Key.CONFIRM)
            elif not line.startswith(asks):
                self._declined.pop(seat, None)

    async def press_and_see(self, seat, key: Key, line: int = 1) -> None:
        """Press a key and wait until that seat's line changes (the controller took it)."""
        before = self.line(seat, line)
        self.table.press(seat, key)
        await self.until(lambda: self.line(seat, line) != before)

    async def run(self) -> None:
        handled = ""
        while True:
            seen = self.table.changes.version
            self.decline()
            msg = self.msg()
            for seat in self.ruleset.players:
                if self.line(seat, 1).startswith(ROLL_DICE):
                    await self.press_and_see(seat, Key.DICE)
            if handled == "push" and not msg.startswith(Phase.PUSH_IN.value):
                handled = ""                    # another push-in may follow (a rejected set's walls rose)
            if msg.startswith(Phase.PUSH_IN.value) and handled != "push":
                handled = "push"
                await self.push_in()
            elif msg.startswith(Phase.DEAL.value) and handled != "deal":
                handled = "deal"
                await self.deal()
                await self.after_deal()
            await self.table.changed(seen)

    async def push_in(self) -> None:
        """请推牌入池后按确认: once the centre is open, every tile on the table top goes in; 确认."""
        await self.until(lambda: self.table.world.centre == LiftPosition.DOWN)
        self.table.sweep()
        self.table.press(self.ruleset.players[0], Key.CONFIRM)

    def ring(self):
        rolls = [tuple(int(v) for v in part.split("+")) for part in self.table.display.text("main", "t_dice").split(" / ")]
        result = self.ruleset.dice.break_for(self.dealer(), self.ruleset.players, rolls[:self.ruleset.dice.rolls_needed])
        return self.ruleset.layout.ring(result.brk)

    async def deal(self) -> int:
        ring = self.ring()
        plan = self.ruleset.dealing.plan(self.dealer(), self.ruleset.players)
        for position in range(plan.next_head):
            pos = ring[position // 2]
            self.table.take(pos.wall, pos.stack)
        await self.until(lambda: self.msg().startswith(Phase.PLAY.value))
        return plan.next_head

    async def after_deal(self) -> None:
        raise NotImplementedError


class WallWalker(Crew):
    """Draws every live tile from the head, then confirms 荒庄."""

    async def after_deal(self) -> None:
        ring = self.ring()
        head = self.ruleset.dealing.plan(self.dealer(), self.ruleset.players).next_head
        while wall_count(self.ruleset.reserve, ring.tile_count, head, 0, 0).live > 0:
            pos = ring[head // 2]
            self.table.take(pos.wall, pos.stack)
            head += 1
        await self.until(lambda: self.msg().startswith(Phase.LAST_TILE.value))
        self.table.press(self.ruleset.players[0], Key.CONFIRM)


class DealerWins(Crew):
    """The dealer declares a self-drawn win right after the deal (天和) and, when the read zone
    cannot read the hand, enters `HAND` on the seat panel tile by tile."""

    HAND = "123m456m789m123p55p"

    async def after_deal(self) -> None:
        dealer = self.dealer()
        await self.press_and_see(dealer, Key.HU)
        if self.line(dealer, 1).startswith(WIN_FROM):
            await self.press_and_see(dealer, Key.CONFIRM)             # the first choice: 自摸
        await self.until(lambda: self.line(dealer, 1) == LAY_MELDS)
        await self.press_and_see(dealer, Key.CONFIRM)
        await self.until(lambda: self.line(dealer, 1) == LAY_HAND)
        await self.press_and_see(dealer, Key.CONFIRM)
        await self.until(lambda: self.line(dealer, 1).startswith(ENTRY))
        await self.enter(dealer, parse_tiles(self.HAND))
        await self.until(lambda: self.msg().startswith((Phase.HAND_OVER.value, Phase.PUSH_IN.value)))   # the next may follow at once

    async def enter(self, seat: int, tiles: list[Tile]) -> None:
        kinds = [k for k in self.ruleset.tiles.kinds if not k.is_flower]
        index = 0
        for tile in tiles:
            while kinds[index] != tile:
                await self.press_and_see(seat, Key.RIGHT)
                index += 1
            await self.press_and_see(seat, Key.CONFIRM)
        self.table.press(seat, Key.HU)
