"""Take the screenshots in docs/screenshots/ (run by hand: `python -m tests.web.screenshots docs/screenshots`).

Plays a few hands of 云南 (its 尾牌 are public indicators turned face up in the wall) into a ledger,
then runs the table with the simulated players and photographs each page in Debian's chromium.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.web.browser import browser_page, idle_table, serving

REGION = "yunnan"


async def shoot(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp())
    db, events = work / "table.db", work / "events.jsonl"
    with open(events, "w", encoding="utf-8") as sink:
        await run_simulated(get_region(REGION).resolve(), hands=4, seed=5, events=sink, ledger_path=str(db),
                            events_path=str(events))
    async with idle_table(REGION, str(db), players=True, speed=2.0, seed=6) as (live, table), \
            serving(live, str(db)) as base, browser_page(1280, 860) as page:
        while not (live.hand.number and live.status()["sim"]["shown"] and live.status()["table"]["message"] == "请出牌"
                   and any(live.status()["table"]["scores"])):
            await asyncio.sleep(0.2)                         # a person waits for the moment worth showing
        for path, name in (("/", "table"), ("/sim", "simulator")):
            await page.goto(base + path)
            await page.locator("#link.up").wait_for()
            await page.wait_for_timeout(400)
            await page.screenshot(path=str(out / f"{name}.png"), full_page=True)
        for path, name in (("/history", "history"), ("/hand?id=1", "hand"), ("/hours", "hours")):
            await page.goto(base + path)
            await page.wait_for_load_state("networkidle")
            await page.wait_for_timeout(400)
            await page.screenshot(path=str(out / f"{name}.png"), full_page=name != "hand")
    print(f"screenshots written to {out}")


if __name__ == "__main__":
    asyncio.run(shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")))
