"""A person at the simulated table beside the simulated players, for the tests of what people see
and press beyond the hand (the display's buttons, the service page, the lamps)."""

from __future__ import annotations

import asyncio
import io
from typing import Any, Awaitable, Callable

from firmware.records.audit import read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import parse_faults
from simulator.table import SimulatedTable


async def until(table: SimulatedTable, condition: Callable[[], Any]) -> None:
    """Until `condition()` holds, looked at after each change a person would see."""
    while not condition():
        await table.changed(table.changes.version)


async def until_the_table(table: SimulatedTable, condition: Callable[[], bool], what: str,
                          seconds: float = 60.0) -> None:
    """`until` with a limit, and a look every half second too (a change on the controller's side
    shows nothing at the table): gives up with `what` after `seconds`."""
    try:
        async with asyncio.timeout(seconds):
            while not condition():
                try:
                    await asyncio.wait_for(table.changed(table.changes.version), 0.5)
                except TimeoutError:
                    pass                # look again
    except TimeoutError:
        raise AssertionError(f"gave up waiting for {what}") from None


async def play(region_id: str, seed: int, hands: int, person: Callable[[SimulatedTable], Awaitable[None]],
               faults: tuple[str, ...] = (), **run_args: Any) -> list[dict]:
    """`hands` hands of the region with `person` at the table meanwhile; the recorder's events."""
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles), faults=parse_faults(faults))
    await table.start("pty")
    events = io.StringIO()
    task = asyncio.create_task(person(table))
    try:
        await run_simulated(ruleset, hands=hands, seed=seed, events=events, table=table, **run_args)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await table.stop()
    return read_events(events.getvalue().splitlines())
