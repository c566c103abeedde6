"""A person's mistakes at the wall (simulator fault `wrong_stack=P`): before a draw, a player lifts a
tile off the wrong stack, sees 请按顺序取牌 on the screen and puts it back where it lay, then draws
the right one.  The table must take the take back (firmware/hand/flow.py, "A tile put back").

Only where the table can undo it as a person would expect, so the players' count and the table's
stay one: a stack well inside the live wall a little ahead of the head (never the head's own, never
one with a shown tile), at least 16 live tiles left, and not where the table answers such a take
with more than its count (a 宝 hidden in the wall, 跟庄 asked at the fourth draw).
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING

from drivers.table_ui import Phase
from rulesets.walls import Layer, Slot

from .crew import OVER
from .wall import LiveWall

if TYPE_CHECKING:
    from .crew import Crew

ORDER_NOTE = "请按顺序取牌"
NOTE_WAIT_S = 5.0          # a person looks up at the screen this long at most before putting the tile back
MIN_LIVE = 16              # the mistake is made only while this many live tiles are left
AHEAD = (1, 2, 3)          # how many stacks past the head's the wrong one lies


class Mistakes:
    def __init__(self, crew: "Crew", seed: int) -> None:
        self.crew = crew
        self.rng = random.Random(f"{seed}/mistakes")   # its own: a table without the fault plays as before
        self.possible = crew.rules.bao_rule is None and not crew.ruleset.has_phase("follow_dealer")
        self.made = 0

    async def before_draw(self, seat: int, wall: LiveWall) -> None:
        """Maybe lift a tile off the wrong stack and put it back once the screen says so.  (The
        chance is read at each draw: the simulator's console may switch the fault on and off.)"""
        chance = self.crew.table.faults.wrong_stack
        if not chance or not self.possible or self.rng.random() >= chance:
            return
        slot = self._wrong_slot(wall)
        if slot is None:
            return
        table, pos = self.crew.table, wall.ring[slot.ring]
        uid = table.take(pos.wall, pos.stack)
        self.made += 1
        self.crew.log(seat, "mistake", f"lifted a tile off stack {pos.wall}/{pos.stack}")
        try:
            async with asyncio.timeout(NOTE_WAIT_S):
                await self.crew.until(lambda s: ORDER_NOTE in s.msg or s.phase is Phase.FAULT or s.phase in OVER)
        except TimeoutError:
            pass                    # (a display that lost the line: he puts it back anyway)
        table.put_back(pos.wall, pos.stack, uid)
        self.crew.log(seat, "mistake", "put it back")

    def _wrong_slot(self, wall: LiveWall) -> Slot | None:
        """The top of a full stack a little ahead of the head, inside the live wall."""
        head = wall.next_head()
        if head is None or wall.live < MIN_LIVE:
            return None
        ahead = self.rng.choice(AHEAD)
        ring = (head.ring + ahead) % len(wall.ring)
        top, bottom = Slot(ring, Layer.TOP), Slot(ring, Layer.BOTTOM)
        if top in wall.taken or bottom in wall.taken or wall.covered(top) or wall.covered(bottom):
            return None
        pos = wall.ring[ring]
        return top if self.crew.table.stack_tiles(pos.wall, pos.stack) == 2 else None
