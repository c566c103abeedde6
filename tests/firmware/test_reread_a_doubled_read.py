"""A stacking head that missed its tile but still saw the previous tile's tag (a doubled read with a
missed one) reads like a duplicated tag.  The set builder reads both slots again: the slot gives its
own tile, the set is whole and is played — a person is asked only for a tag that reads twice again
(tests/firmware/test_set_check.py).  Found by the fault campaign with read faults (seed 280029, 云南:
the table stood at 牌组有误, E07 + E08, waiting for a person to mend a whole set)."""

from __future__ import annotations

import asyncio
import io

from drivers.rfid_protocol import HeadRead
from firmware.simulated import new_table, run_simulated
from rulesets.regions import get_region
from simulator.rfid_board import RfidBoardSim
from tests.asyncio_support import run

LANE, PUSH = 1, 7           # the head's eighth push on lane 1: it reads only the seventh tile's tag


def test_a_missed_read_that_saw_the_previous_tag_is_read_again_and_the_set_is_played(monkeypatch):
    pushed = RfidBoardSim.tile_pushed
    doubled: list[bytes] = []

    def missed_but_saw_the_previous(self: RfidBoardSim, lane: int, tile) -> None:
        if lane == LANE and self.pushes[lane] == PUSH and not doubled:
            previous = self._last[lane]
            self.pushes[lane] += 1
            self._built[lane].append(tile)
            self._last[lane] = tile
            doubled.append(previous.uid)
            self.emit(HeadRead(lane, PUSH, (previous.uid,)))
            return
        pushed(self, lane, tile)

    monkeypatch.setattr(RfidBoardSim, "tile_pushed", missed_but_saw_the_previous)
    ruleset = get_region("yunnan").resolve()

    async def first_check() -> tuple[list[dict], dict]:
        table = new_table(ruleset, seed=2, speed=0)
        await table.start("pty")
        events: list[dict] = []
        checked: asyncio.Future[dict] = asyncio.get_running_loop().create_future()

        def on_event(event: dict) -> None:
            events.append(event)
            if event["event"] == "set_check" and not checked.done():
                checked.set_result(event)
        playing = asyncio.create_task(run_simulated(ruleset, hands=1, seed=2, table=table, events=io.StringIO(),
                                                    on_event=on_event))
        try:
            return events, await checked
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
            await table.stop()

    events, check = run(first_check(), timeout=120)
    assert doubled, "the head never made its doubled read"
    assert check["ok"], check["problems"]
    assert any(e["event"] == "reread" and e["slots"] >= 2 for e in events)      # both slots holding the tag
