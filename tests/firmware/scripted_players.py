"""A minimal scripted table crew for controller tests: deals, draws to the end, confirms 荒庄.

It plays no mahjong (no discards, no wins): it only moves tiles the way the flow asks, so the
controller's wall tracking, reserve and 荒庄 can be tested alone.  It reads the same screens as
the real simulated players.
"""

from __future__ import annotations

import asyncio

from drivers.motor_protocol import Key
from drivers.table_ui import ROLL_DICE, Phase
from rulesets.reserve import wall_count

POLL = 0.005


class WallWalker:
    def __init__(self, table, ruleset, seed: int = 0) -> None:
        self.table = table
        self.ruleset = ruleset

    def msg(self) -> str:
        return self.table.display.text("main", "t_msg")

    def line(self, seat: int, index: int) -> str:
        return self.table.world.seat_displays[seat][index]

    def dealer(self) -> int:
        return next(s for s in self.ruleset.players if self.line(s, 0).startswith("庄"))

    async def run(self) -> None:
        handled: set[str] = set()
        while True:
            await asyncio.sleep(POLL)
            msg = self.msg()
            for seat in self.ruleset.players:
                prompt = self.line(seat, 1)
                if prompt.startswith(ROLL_DICE):
                    self.table.press(seat, Key.DICE)
                    await self.until(lambda: self.line(seat, 1) != prompt)
            if msg.startswith(Phase.PUSH_IN.value) and "push" not in handled:
                handled = {"push"}
                self.table.sweep()
                self.table.press(self.ruleset.players[0], Key.CONFIRM)
            elif msg.startswith(Phase.DEAL.value) and "deal" not in handled:
                handled = {"deal"}
                await self.deal_and_draw()

    async def until(self, predicate) -> None:
        while not predicate():
            await asyncio.sleep(POLL)

    def ring(self):
        rolls = [tuple(int(v) for v in part.split("+")) for part in self.table.display.text("main", "t_dice").split(" / ")]
        result = self.ruleset.dice.break_for(self.dealer(), self.ruleset.players, rolls[:self.ruleset.dice.rolls_needed])
        return self.ruleset.layout.ring(result.brk)

    async def deal_and_draw(self) -> None:
        ring = self.ring()
        plan = self.ruleset.dealing.plan(self.dealer(), self.ruleset.players)
        for position in range(plan.next_head):
            pos = ring[position // 2]
            self.table.take(pos.wall, pos.stack)
        await self.until(lambda: self.msg().startswith(Phase.PLAY.value))
        head = plan.next_head
        while wall_count(self.ruleset.reserve, ring.tile_count, head, 0, 0).live > 0:
            pos = ring[head // 2]
            self.table.take(pos.wall, pos.stack)
            head += 1
        await self.until(lambda: self.msg().startswith(Phase.LAST_TILE.value))
        self.table.press(self.ruleset.players[0], Key.CONFIRM)
