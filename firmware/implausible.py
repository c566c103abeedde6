"""Board events whose fields no table has: a lift, a panel, a lane, a read zone or a wall that does
not exist, a stack of more than two tiles.  A board's firmware that sends one is wrong, not the people at the table: the event is
dropped with a warning naming it, never applied — applied, a lift 9 or a zone 9 left the table
waiting for ever in silence, and a lane 7 stopped it with a traceback (found by a payload fuzz, stop
44).  (A roll of other than the dice asked for is rolled again: TableController.roll_dice.)"""

from __future__ import annotations

from typing import Any

from drivers.motor_protocol import KeyPressed, Lift, LiftMoved, LiftPosition, WallChanged, WallSnapshot
from drivers.rfid_protocol import HeadRead, SlotRead, ZoneInventory
from drivers.table_ui import Panel

SIDES = 4                   # lanes, read zones, seats and walls
STACK_TILES = 2             # a wall sensor sees 0, 1 or 2 tiles
# made once: every key and lift event is looked at (a set of an enum made anew each time cost more
# than the rest of the look)
LIFTS = frozenset(Lift)
LIFT_POSITIONS = frozenset(LiftPosition)
PANELS = frozenset(Panel)


def implausible(event: Any) -> str | None:
    """Why no table could have sent `event` (None: it could)."""
    match event:
        case LiftMoved() if event.lift not in LIFTS or event.position not in LIFT_POSITIONS:
            return f"lift {event.lift} at position {event.position}: the table has lifts 0–4, positions 0–2"
        case KeyPressed() if event.panel not in PANELS:
            return f"a key on panel {event.panel}: the table has panels 0–4"
        case HeadRead() | SlotRead() if not 0 <= event.lane < SIDES:
            return f"a read on lane {event.lane}: the table has lanes 0–3"
        case ZoneInventory() if not 0 <= event.seat < SIDES:
            return f"read zone {event.seat}: the table has zones 0–3"
        case WallChanged() if not 0 <= event.side < SIDES or event.tiles > STACK_TILES:
            return f"wall {event.side} stack {event.stack} holding {event.tiles} tiles: the table has walls 0–3 of " \
                   f"stacks of at most {STACK_TILES}"
        case WallSnapshot() if not 0 <= event.side < SIDES or any(t > STACK_TILES for t in event.tiles):
            return f"a snapshot of wall {event.side} counting {list(event.tiles)}: the table has walls 0–3 of stacks " \
                   f"of at most {STACK_TILES}"
    return None


__all__ = ["implausible"]
