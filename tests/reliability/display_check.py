"""Does the public display follow the table at the end of a campaign region?

A display that went dark or froze (its adapter pulled and never opened again, E22 latched for good)
stops no hand, so the campaign's other checks never saw it.  At a region's end, once the last
disruption had time to end, the display must show scores the ledger recorded lately (hands go on
settling while it is looked at) and not stand at E22.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from simulator.spawn import SimulatorProcess

# the last disruption may have pulled the display's adapter: back within 5 s, its port opened again
# within 5 s more (the watch's back-off), then a ping and a repaint
DISPLAY_BACK_S = 20.0
RECENT_HANDS = 8         # the display may trail the ledger by a hand or two at --speed 0


def recent_totals(db: Path, last: int = RECENT_HANDS) -> list[tuple[str, ...]]:
    """The session's running totals after each of its last `last` settled hands, as the display
    writes them (+3, -1, …); the totals before any hand too, while it has fewer."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT h.number, p.side, p.amount FROM hands h JOIN payments p ON p.hand = h.id "
                           "WHERE h.session = (SELECT MAX(id) FROM sessions) ORDER BY h.number, p.side").fetchall()
    totals, after, current = [0, 0, 0, 0], [(0, 0, 0, 0)], None
    for number, side, amount in rows:
        if current is not None and number != current:
            after.append(tuple(totals))
        current = number
        totals[side] += amount
    if current is not None:
        after.append(tuple(totals))
    return [tuple(f"{t:+d}" for t in row) for row in after[-last:]]


async def display_follows(sim: SimulatorProcess, db: Path) -> str | None:
    """None once the display shows recent totals and no E22; else what it showed, in one line."""
    deadline = time.monotonic() + DISPLAY_BACK_S
    while True:
        view = await sim.control.table()
        shown = tuple(view.components[f"main.t_score{side}"].text for side in range(4))
        dark = view.page == "fault" and view.components["fault.t_code"].text == "E22"
        recent = recent_totals(db)
        if shown in recent and not dark:
            return None
        if time.monotonic() > deadline:
            return (f"after {DISPLAY_BACK_S:.0f} s the display shows scores {shown} on page {view.page}"
                    f"{' (E22)' if dark else ''}; the ledger's last totals are {recent[-1]}")
        await asyncio.sleep(0.2)
