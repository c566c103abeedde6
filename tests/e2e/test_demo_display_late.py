"""`run --simulate` (the built-in simulator in its own process) and the tests' in-process table open the
display as `run` opens a real table's: a display that does not answer at start is E22 until it
answers, and the hand is played.

Found by a sweep of wire faults (贵州 seed 925, display:corrupt=0.05 and display:drop=0.03): the
three pings of the display's opening were all spoiled, and the demo stopped at once with "no answer
from the display".  A real table (`run --config`) already went on without it; a board that does not
answer still stops the demo with one line (tests/firmware/test_cli_misc.py).
"""

from __future__ import annotations

import asyncio

from firmware.simulated import run_in_process, run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run


def test_a_display_silent_at_the_demo_s_start_is_e22_and_the_hand_is_played_once_it_answers():
    faults: list[dict] = []
    e22 = asyncio.Event()
    helpers: list[asyncio.Task] = []

    def on_event(event: dict) -> None:
        if event["event"] == "fault":
            faults.append(event)
            if event["code"] == "E22":
                e22.set()

    async def display_back(sim) -> None:
        await e22.wait()                       # the table went on without it …
        await sim.control.clear("display:silent")   # … and the cable is plugged back

    async def go():
        try:
            return await run_in_process(get_region("sichuan").resolve(), hands=1, seed=4, speed=0.0,
                                        faults=("display:silent",), on_event=on_event,
                                        on_simulator=lambda sim: helpers.append(asyncio.ensure_future(display_back(sim))))
        finally:
            for helper in helpers:
                helper.cancel()

    result = run(go(), timeout=180)
    assert result.hands == 1
    assert [f["source"] for f in faults if f["code"] == "E22"] == ["display"]


def test_a_display_silent_at_the_start_of_the_in_process_table_is_e22_and_the_hand_is_played():
    ruleset = get_region("sichuan").resolve()
    codes: list[str] = []

    async def go():
        table = SimulatedTable(seed=4, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        table.go_silent("display")

        def on_event(event: dict) -> None:
            if event["event"] == "fault":
                codes.append(event["code"])
                if event["code"] == "E22":
                    table.go_silent("display", False)      # the cable plugged back once the table went on
        try:
            return await run_simulated(ruleset, hands=1, seed=4, table=table, on_event=on_event)
        finally:
            await table.stop()

    assert run(go(), timeout=180).hands == 1
    assert "E22" in codes
