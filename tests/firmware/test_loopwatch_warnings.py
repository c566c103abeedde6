"""A Pi slow all the time held the loop over 100 ms at every tick: one warning five times a second,
hundreds in a minute, and the other warnings drowned in them (a probe).  The first is said at once,
then at most one every `quiet_s`, counting the ones not said and the worst of them."""

from __future__ import annotations

import asyncio
import logging
import time

from firmware.loopwatch import LoopWatch
from tests.asyncio_support import run


def test_a_loop_held_again_and_again_is_warned_of_once_a_period_with_a_count(caplog):
    async def held_again_and_again() -> LoopWatch:
        watch = LoopWatch(interval=0.001, warn_ms=5.0, quiet_s=3600.0)
        watch.start()
        lags: list[float] = []
        watch.on_tick = lags.append
        while sum(lag > 5.0 for lag in lags) < 5:       # five ticks late by over 5 ms
            time.sleep(0.01)                            # (holds the loop: the point of the test)
            await asyncio.sleep(0)
        watch.warnings.quiet_s = 0.0                    # the quiet period is over: the next one is said
        while sum(lag > 5.0 for lag in lags) < 6:
            time.sleep(0.01)
            await asyncio.sleep(0)
        watch.stop()
        return watch

    with caplog.at_level(logging.WARNING, logger="firmware.loop"):
        run(held_again_and_again(), timeout=30)
    said = [r.getMessage() for r in caplog.records if r.name == "firmware.loop"]
    assert len(said) == 2, said
    assert "more since" not in said[0]
    assert "; 4 more since the last such warning, the worst" in said[1]
