"""云南 尾牌 at the end of the wall (RULES.md §29.3, ambiguity (c); house option `weipai_wall_end`).

「必须杠上开花才可以拿翻开的尾牌，不能杠上开花的从最后面未翻开的取牌」 says nothing of the moment no
face-down tail tile is left.  Each situation is built on purpose: a 云南 hand on `FakePorts` (with a
real flight recorder, so the hand can be audited) whose wall is drawn from the head until only the
two shown tiles and the tiles under them are left, and a seat then presses 杠.
"""

from __future__ import annotations

from drivers.table_ui import TAIL_ONLY_ON_KONG_WIN, Key, Phase
from firmware.hand.ports import Press
from rulesets.regions import get_region
from rulesets.walls import Slot
from tests.firmware.hand_in_order import RecordedHand, hand_in_order


class Table(RecordedHand):
    """A 云南 hand followed by the flow, every event written by a flight recorder."""

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(hand_in_order(get_region("yunnan").resolve(options)))
        for _ in range(self.hand.deal_size):
            self.draw()
        self.hand.phase = "playing"
        reveal = self.hand.reveal(self.hand.ruleset.indicators[0])   # the two 尾牌, turned up after the deal
        self.ports.recorder.emit("indicator", **reveal.event_fields())

    @property
    def tracker(self):
        return self.hand.tracker

    def draw_until(self, remaining: int) -> None:
        while self.tracker.count().remaining > remaining:
            self.draw()

    def kong(self, seat: int, slot: Slot) -> dict:
        """`seat` presses 杠 (long: concealed) and takes `slot` as the replacement."""
        assert self.flow.on_key(Press(seat, Key.KONG, long=True))
        (take,) = self.take(slot)
        return take


def weipai_warnings(table: Table) -> list[dict]:
    return [e for e in table.recorded("warning") if e.get("rule") == "weipai"]


def test_by_default_a_kong_with_no_face_down_tile_left_takes_the_last_shown_tile_and_play_goes_on():
    """weipai_wall_end=drawn_last: the two shown tops and the tiles under them are all that is left and
    still live (no dead wall); seat 2 makes a kong and takes the last shown tile — the table counts it
    as the kong's replacement at once, without a warning, and the wall is played out to 荒庄."""
    table = Table({})
    tracker = table.tracker
    table.draw_until(4)
    assert tracker.live == 4 and tracker.next_tail() is None          # nothing face down at the tail
    last_shown = tracker.next_tail(include_shown=True)
    take = table.kong(2, last_shown)
    assert (take["end"], take["reason"], take["ring"], take["layer"]) == ("tail", "kong", last_shown.ring, "top")
    assert take["at_wall_end"] is True and table.hand.kongs == {2: [True]} and take["kongs"] == 1
    table.draw()                                                       # the next seat draws on: no warning
    assert weipai_warnings(table) == [] and not any(TAIL_ONLY_ON_KONG_WIN in p for p in table.ports.screens.phases)
    table.draw_until(0)
    assert tracker.exhausted and Phase.LAST_TILE.value in table.ports.screens.phases
    assert table.audit() == []


def test_by_default_a_kong_may_take_the_shown_tile_the_head_has_reached():
    """At the very end the head stands at a shown tile's stack too: taken right after a 杠, that shown
    tile is the kong's replacement (the tail's), not the next seat's draw."""
    table = Table({})
    table.draw_until(4)
    head = table.tracker.next_head()
    assert head in table.tracker.shown
    take = table.kong(1, head)
    assert (take["end"], take["reason"], take["at_wall_end"]) == ("tail", "kong", True)
    assert table.hand.kongs == {1: [True]} and table.hand.pending_kong == {}


def test_with_the_shown_tiles_kept_the_hand_is_drawn_when_only_they_are_left():
    """weipai_wall_end=kept: the shown tiles and those under them are never drawn but by a 杠上开花;
    最后一张 comes with them still standing, and 荒庄 audits sound with 4 tiles left."""
    table = Table({"weipai_wall_end": "kept"})
    tracker = table.tracker
    while not tracker.exhausted:
        table.draw()
    assert tracker.count().remaining == 4 and tracker.next_tail() is None
    assert all(slot not in tracker.taken for slot in tracker.shown)
    assert Phase.LAST_TILE.value in table.ports.screens.phases
    assert table.audit() == []


def test_with_the_shown_tiles_kept_a_shown_tile_taken_for_a_kong_without_a_win_is_warned_about():
    """Kept, a kong made on the last live tile (against the table's rule) that takes a shown tile and
    is not followed by a win is the 尾牌 warning, as anywhere in the hand."""
    table = Table({"weipai_wall_end": "kept"})
    while not table.tracker.exhausted:
        table.draw()
    take = table.kong(3, table.tracker.next_tail(include_shown=True))
    assert take["end"] == "tail" and take["at_wall_end"] is True
    table.draw()                                           # another take, no 杠上开花 first
    assert len(weipai_warnings(table)) == 1
    assert TAIL_ONLY_ON_KONG_WIN in table.ports.screens.phases[-1]


def test_the_audit_finds_a_wall_end_take_the_wall_does_not_bear_out():
    """A take marked `at_wall_end` while a face-down tile was still left is a finding: the mark is
    what lets a shown tile go without a 杠上开花."""
    table = Table({})
    table.draw_until(6)
    table.kong(2, table.tracker.next_tail(include_shown=True))  # a face-down tile is left: not at the wall end
    table.draw_until(0)
    (tail,) = [e for e in table.recorded("take") if e["end"] == "tail"]
    assert "at_wall_end" not in tail and len(weipai_warnings(table)) == 1

    def forged(event):
        return dict(event, at_wall_end=True) if event["event"] == "take" and event["end"] == "tail" else event
    problems = table.audit(forged)
    assert any("says it took a shown tail tile with no face-down one left" in p for p in problems), problems


def test_a_shown_tile_taken_with_no_kong_is_out_of_order_and_put_back_owes_nothing():
    """A probe at the table: a shown 尾牌 taken with no 杠 pressed counted as an in-order kong, said
    nothing until the next take, and — put back — still set off the 尾牌 warning at the next draw, so
    the audit failed a hand played right ("0 taken …, 1 warned about").  It is out of order at once;
    put back, it is undone and owes no 杠上开花."""
    table = Table({})
    shown = table.tracker.next_tail(include_shown=True)
    (take,) = table.take(shown)
    assert (take["end"], take["in_order"]) == ("tail", False)
    assert table.ports.screens.phases[-1] == "请出牌 ！请按顺序取牌"
    stack = table.hand.ring[shown.ring]
    table.flow.on_wall_change(stack, table.tracker.stack_tiles(stack) + 1)      # put back where it lay
    assert shown not in table.tracker.taken and table.hand.facts.shown_take is None
    table.draw()
    assert not weipai_warnings(table)
    assert table.audit() == []
