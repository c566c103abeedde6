"""A 听 or 杠 pressed while the deal's line is still up — here, while the hand's entry into play is
being journaled, before 请出牌 shows — answered in play: 听 declared a seat ready (长春 then asked it to
roll for the 宝 during the deal), 杠 took a flower's replacement as a kong's (a probe). table-flow.md
says a key pressed on a hand still being dealt answers nothing in play: it is dropped as play opens
and said with 请出牌."""

from __future__ import annotations

import asyncio

import pytest

from drivers.table_ui import Key, Phase
from firmware.journal import HandJournal
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.table import SimulatedTable
from tests.asyncio_support import run


@pytest.mark.parametrize("region_id, key", [("changchun", Key.TING), ("shenyang", Key.TING), ("changchun", Key.KONG)])
def test_a_key_pressed_as_play_is_journaled_is_dropped_before_play(monkeypatch, region_id, key):
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=3, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    events: list[dict] = []
    pressed: dict[str, int] = {}
    real_now = HandJournal.now

    async def now(journal: HandJournal) -> None:
        hand = journal._open_hand()
        if hand is not None and hand.phase == "playing" and not pressed and \
                not table.display.text("main", "t_msg").startswith(Phase.PLAY.value):
            seat = pressed["seat"] = (hand.dealer + 1) % 4
            table.press(seat, key)          # as the opening phase's line is still up
            keys = journal._hub.keys
            while not (keys.peek(lambda p: p.seat == seat and p.key == key) or
                       any(e["event"] in ("ready", "kong_declared") for e in events)):
                await asyncio.sleep(0.002)      # until the controller has the press, answered or queued
        await real_now(journal)
    monkeypatch.setattr(HandJournal, "now", now)

    async def go():
        await table.start("pty")
        try:
            await run_simulated(ruleset, hands=1, seed=3, table=table, on_event=events.append)
        finally:
            await table.stop()

    run(go(), timeout=120)
    seat = pressed["seat"]
    first_play = next(i for i, e in enumerate(events) if e["event"] == "take" and e["reason"] != "deal")
    opening = events[:first_play]
    assert not [e for e in opening if e["event"] in ("ready", "kong_declared") and e["seat"] == seat]
    dropped = [e for e in events if e["event"] == "keys_dropped" and e["why"] == "before_play"]
    assert any(p["panel"] == seat and p["key"] == key.name for e in dropped for p in e["presses"]), dropped
