"""长沙 扎鸟 when the wall has run out: the last tile is the bird (RESEARCH.md §3.11, 「if 海底 is
exhausted, the bird = the last tile」).

Before, a win on the wall's last tile (海底捞月, or a win on its discard) flipped no bird at all: with
no dead wall (the default) nothing was left at the front, and the winner's bird money was lost.
Birds from tiles still standing are as before, and fewer than asked when fewer stand.

Each situation is built on purpose: a 长沙 hand on `FakePorts` with a real flight recorder, its wall
the set in order, drawn from the head.
"""

from __future__ import annotations

from rulesets.indicators import Timing
from rulesets.regions import get_region
from rulesets.walls import Slot
from tests.firmware.hand_in_order import RecordedHand, hand_in_order


class Table(RecordedHand):
    def __init__(self) -> None:
        super().__init__(hand_in_order(get_region("changsha").resolve()))
        self.bird_rule = next(r for r in self.hand.ruleset.indicators if r.timing is Timing.AFTER_WIN)

    def draw_until(self, remaining: int) -> Slot | None:
        last = None
        while self.hand.tracker.count().remaining > remaining:
            last = self.draw()
        return last

    def birds(self):
        reveal = self.hand.reveal(self.bird_rule)
        self.ports.recorder.emit("indicator", **reveal.event_fields())
        return reveal


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
