"""A person's mistakes at the wall (simulator fault `wrong_stack=P`): before a draw, a player lifts a
tile off the wrong stack, sees 请按顺序取牌 on the screen and puts it back where it lay, then draws
the right one; before a grab of the deal, a player lifts the block two stacks further on and puts it
back stack by stack, the first stack first.  The table must take the takes back
(docs/controller.md, "A tile put back").

Only where the table can undo it as a person would expect, so the players' count and the table's
stay one: a stack well inside the live wall a little ahead of the head (never the head's own, never
one with a shown tile), at least 16 live tiles left, and not where the table answers such a take
with more than its count (a 宝 hidden in the wall, 跟庄 asked at the fourth draw).
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

from drivers.table_ui import OUT_OF_ORDER, Phase
from rulesets.walls import Layer, Slot

from .crew import OVER
from .wall import LiveWall

if TYPE_CHECKING:
    from .crew import Crew

NOTE_WAIT_S = 5.0          # a person looks up at the screen this long at most before putting the tile back
MIN_LIVE = 16              # the mistake is made only while this many live tiles are left
AHEAD = (1, 2, 3)          # how many stacks past the head's the wrong one lies
BLOCK_AHEAD = 4            # the deal: the wrong block (two stacks) begins this many stacks past the head's
BLOCK_TILES = 4


class Mistakes:
    def __init__(self, crew: "Crew", seed: int) -> None:
        self.crew = crew
        self.rng = random.Random(f"{seed}/mistakes")   # its own: a table without the fault plays as before
        self.possible = crew.rules.bao_rule is None and not crew.ruleset.has_phase("follow_dealer")

    async def before_draw(self, seat: int, wall: LiveWall) -> None:
        """Maybe lift a tile off the wrong stack and put it back once the screen says so.  (The
        chance is read at each draw: the simulator's console may switch the fault on and off.)"""
        if not self._now():
            return
        slot = self._wrong_slot(wall)
        if slot is not None:
            await self._lift_and_put_back(seat, wall, [slot.ring])

    async def before_grab(self, seat: int, wall: LiveWall, deal_left: int) -> None:
        """Maybe lift a block of the deal off the wrong two stacks and put it back; never where its
        takes would complete the deal (`deal_left` tiles are still to be dealt): they would stand."""
        if deal_left <= BLOCK_TILES or not self._now():
            return
        head = wall.next_head()
        if head is None:
            return
        rings = [(head.ring + BLOCK_AHEAD + k) % len(wall.ring) for k in (0, 1)]
        if all(self._full(wall, ring) for ring in rings):
            await self._lift_and_put_back(seat, wall, rings)

    def _now(self) -> bool:
        chance = self.crew.table.faults.wrong_stack
        return bool(chance) and self.possible and self.rng.random() < chance

    async def _lift_and_put_back(self, seat: int, wall: LiveWall, rings: list[int]) -> None:
        """Lift every tile of these stacks (top first), wait for the note, put them back stack by
        stack in the order lifted (each bottom first, as it lay)."""
        table = self.crew.table
        lifted = []
        for ring in rings:
            pos = wall.ring[ring]
            lifted.append((pos, [table.take(pos.wall, pos.stack) for _ in range(2 if len(rings) > 1 else 1)]))
        self.crew.log(seat, "mistake", "lifted tiles off " + " ".join(f"{p.wall}/{p.stack}" for p, _ in lifted))
        try:
            async with asyncio.timeout(NOTE_WAIT_S):
                await self.crew.until(lambda s: OUT_OF_ORDER in s.msg or s.phase is Phase.FAULT or s.phase in OVER)
        except TimeoutError:
            pass                    # (a display that lost the line: he puts them back anyway)
        for pos, uids in lifted:
            for uid in reversed(uids):
                table.put_back(pos.wall, pos.stack, uid)
        self.crew.log(seat, "mistake", "put them back")

    def _full(self, wall: LiveWall, ring: int) -> bool:
        """Both tiles of the stack still lie there, neither shown."""
        top, bottom = Slot(ring, Layer.TOP), Slot(ring, Layer.BOTTOM)
        if top in wall.taken or bottom in wall.taken or wall.covered(top) or wall.covered(bottom):
            return False
        pos = wall.ring[ring]
        return self.crew.table.stack_tiles(pos.wall, pos.stack) == 2

    def _wrong_slot(self, wall: LiveWall) -> Slot | None:
        """The top of a full stack a little ahead of the head, inside the live wall."""
        head = wall.next_head()
        if head is None or wall.live < MIN_LIVE:
            return None
        ring = (head.ring + self.rng.choice(AHEAD)) % len(wall.ring)
        return Slot(ring, Layer.TOP) if self._full(wall, ring) else None
