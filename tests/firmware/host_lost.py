"""A simulated table whose motor board stops hearing the host between hands (it latches E13)."""

from __future__ import annotations

from drivers.messages import FaultCode
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator import SimulatedTable


async def played_losing_the_host(region: str, seed: int, hands: int, after: tuple[int, ...]) -> tuple[int, list[dict]]:
    """`hands` hands of `region`, the motor board tripping E13 (host lost) once at the end of each hand
    numbered in `after`: the hands played and the recorder's events."""
    ruleset = get_region(region).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    events: list[dict] = []
    tripped: set[int] = set()

    def on_event(event: dict) -> None:
        events.append(event)
        if event["event"] == "hand_end" and event["hand"] in after and event["hand"] not in tripped:
            tripped.add(event["hand"])              # between hands: the board heard no host for too long
            table.motor.trip(FaultCode.HOST_LOST, 0)
    await table.start("pty")
    try:
        result = await run_simulated(ruleset, hands=hands, seed=seed, table=table, on_event=on_event)
    finally:
        await table.stop()
    return result.hands, events
