"""长沙 扎鸟 when the wall has run out: the last tile is the bird (RESEARCH.md §3.11, 「if 海底 is
exhausted, the bird = the last tile」).

Before, a win on the wall's last tile (海底捞月, or a win on its discard) flipped no bird at all: with
no dead wall (the default) nothing was left at the front, and the winner's bird money was lost.
Birds from tiles still standing are as before, and fewer than asked when fewer stand.

Each situation is built on purpose: a 长沙 hand on `FakePorts` with a real flight recorder, its wall
the set in order, drawn from the head.
"""

from __future__ import annotations

import io

from firmware.hand.flow import HandFlow, start_fields
from firmware.hand.state import HandState
from firmware.records.audit import audit_events, read_events
from firmware.records.recorder import FlightRecorder
from rulesets.indicators import Timing
from rulesets.regions import get_region
from rulesets.walls import Layer, Slot
from tests.firmware.fake_ports import FakePorts


class Table:
    def __init__(self) -> None:
        ruleset = get_region("changsha").resolve()
        rolls = [(1, 2)]
        brk = ruleset.dice.break_for(0, ruleset.players, rolls).brk
        ring = ruleset.layout.ring(brk)
        tiles = iter(sorted(ruleset.tiles.tiles()))
        wall = {Slot(index, layer): next(tiles) for index in range(len(ring)) for layer in (Layer.TOP, Layer.BOTTOM)}
        self.hand = HandState(ruleset, 1, 0, rolls, brk, wall, ruleset.dealing.plan(0, ruleset.players).next_head,
                              salt="s")
        self.sink = io.StringIO()
        self.ports = FakePorts(ruleset)
        self.ports.recorder = FlightRecorder(self.sink, clock=lambda: 0.0)
        self.flow = HandFlow(self.ports)
        self.flow.hand = self.hand
        self.ports.recorder.open_hand(1)
        self.ports.recorder.emit("hand_start", **start_fields(self.hand), tile_set=0)
        self.bird_rule = next(r for r in ruleset.indicators if r.timing is Timing.AFTER_WIN)

    def draw_until(self, remaining: int) -> Slot:
        last = None
        while self.hand.tracker.count().remaining > remaining:
            last = self.hand.tracker.next_head()
            stack = self.hand.ring[last.ring]
            self.flow.on_wall_change(stack, self.hand.tracker.stack_tiles(stack) - 1)
        return last

    def birds(self):
        reveal = self.hand.reveal(self.bird_rule)
        self.ports.recorder.emit("indicator", **reveal.event_fields())
        return reveal

    def audit(self, change=lambda event: event) -> list[str]:
        recorder = self.ports.recorder
        recorder.emit("hand_end", result="draw", winners=[], payments=[0, 0, 0, 0], totals=[0, 0, 0, 0],
                      next_dealer=0, **self.hand.hand_end_fields())
        recorder.close_hand()
        recorder.close_cleanly()
        return audit_events([change(e) for e in read_events(self.sink.getvalue().splitlines())])


def test_a_win_on_the_wall_s_last_tile_has_that_tile_for_its_bird():
    table = Table()
    last = table.draw_until(0)
    reveal = table.birds()
    assert reveal.slots == (last,) and reveal.tiles == (table.hand.wall[last],)
    assert table.audit() == []


def test_birds_still_come_from_the_front_while_tiles_stand_and_fewer_when_fewer_stand():
    table = Table()
    table.draw_until(1)
    (standing,) = table.birds().slots                    # two asked, one stands: that one
    assert standing not in table.hand.tracker.taken
    assert table.audit() == []


def test_a_bird_naming_another_tile_gone_is_still_found():
    table = Table()
    last = table.draw_until(0)
    table.birds()
    other = next(slot for slot in table.hand.tracker.taken if slot != last)

    def elsewhere(event: dict) -> dict:
        if event["event"] == "indicator":
            return dict(event, ring=[other.ring], layer=[other.layer.value])
        return event
    problems = table.audit(elsewhere)
    assert any("has already left the wall" in p for p in problems), problems
