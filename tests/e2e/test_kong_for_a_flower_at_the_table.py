"""杠 pressed while a flower's replacement is owed, played at the table (a probe: 上海 seed 13 and
广东 seed 13).  A seat that drew a flower pressed 杠 (补, as people press it) before taking the
replacement; or a stray 杠 came as 请出牌 first showed, while the dealt flowers were being replaced.
The tail tile taken went to the 杠, the flower stayed owed, and every later head draw of the hand
was out of order (16 and 29 takes flagged, `请出牌 ！请按顺序取牌` to the end).  Now the flower's
replacement is the flower's, the 杠 lapses at the next head draw, and play goes on in order."""

import asyncio
import io

from drivers.motor_protocol import Key
from drivers.table_ui import OUT_OF_ORDER
from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.players import crew as crew_mod
from simulator.table import SimulatedTable
from tests.asyncio_support import run


async def one_hand(region_id: str, seed: int, person=None) -> tuple[list[dict], list[str]]:
    """Hand 1 of `region_id` at `seed` on a simulated table; `person(table)`, if given, runs beside
    it.  The hand's events and every public line shown."""
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    events, lines = io.StringIO(), []

    async def watch() -> None:
        seen = 0
        while True:
            seen = await table.changed(seen)
            lines.append(table.display.text("main", "t_msg"))
    tasks = [asyncio.create_task(watch())] + ([asyncio.create_task(person(table))] if person else [])
    try:
        await run_simulated(ruleset, hands=1, seed=seed, events=events, table=table)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await table.stop()
    return read_events(events.getvalue().splitlines()), lines


def out_of_order(events: list[dict]) -> list[dict]:
    return [e for e in events if e["event"] == "take" and not e["in_order"]]


def test_a_seat_that_presses_kong_to_replace_a_drawn_flower_plays_on_in_order(monkeypatch):
    pressed: list[int] = []
    plain = crew_mod.Crew.log

    def log(self, seat, what, detail=""):
        plain(self, seat, what, detail)
        if what == "discard":
            pressed.append(-1)                  # (play has begun: the next flower is one drawn in play)
        elif what == "flower" and pressed and max(pressed) < 0:
            pressed.append(seat)
            self.press(seat, Key.KONG)          # before its replacement is taken
    monkeypatch.setattr(crew_mod.Crew, "log", log)
    events, lines = run(one_hand("shanghai", 13), timeout=120)
    seat = max(pressed)
    assert seat >= 0, "the seed's hand changed: no flower drawn in play"
    assert out_of_order(events) == [] and not any(OUT_OF_ORDER in line for line in lines)
    assert [e["seat"] for e in events if e["event"] == "kong_lapsed"] == [seat]
    assert not any(e["event"] == "take" and e["reason"] == "kong" for e in events)
    assert audit_events(events) == []


def test_a_stray_kong_as_play_opens_leaves_the_dealt_flowers_replacements_theirs():
    async def person(table) -> None:
        seen = 0
        while not table.display.text("main", "t_msg").startswith("请出牌"):
            seen = await table.changed(seen)
        table.press(1, Key.KONG)
    events, lines = run(one_hand("guangdong", 13, person), timeout=120)
    assert [e["seat"] for e in events if e["event"] == "kong_declared"] == [1]
    tails = [e["reason"] for e in events if e["event"] == "take" and e["end"] == "tail"]
    assert tails and set(tails) == {"flower"}
    assert out_of_order(events) == [] and not any(OUT_OF_ORDER in line for line in lines)
    assert [e["seat"] for e in events if e["event"] == "kong_lapsed"] == [1]
    assert audit_events(events) == []
