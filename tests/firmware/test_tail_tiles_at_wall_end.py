"""云南 尾牌 at the end of the wall (RULES.md §29.3, ambiguity (c); house option `weipai_wall_end`).

「必须杠上开花才可以拿翻开的尾牌，不能杠上开花的从最后面未翻开的取牌」 says nothing of the moment no
face-down tail tile is left.  Each situation is built on purpose: a 云南 hand on `FakePorts` (with a
real flight recorder, so the hand can be audited) whose wall is drawn from the head until only the
two shown tiles and the tiles under them are left, and a seat then presses 杠.
"""

from __future__ import annotations

import io

from drivers.table_ui import TAIL_ONLY_ON_KONG_WIN, Key, Phase
from firmware.hand.flow import HandFlow, start_fields
from firmware.hand.ports import Press
from firmware.hand.state import HandState
from firmware.records.audit import audit_events, read_events
from firmware.records.recorder import FlightRecorder
from rulesets.regions import get_region
from rulesets.walls import Slot
from tests.firmware.fake_ports import FakePorts
from tests.firmware.hand_in_order import hand_in_order


class Table:
    """A 云南 hand followed by the flow, every event written by a flight recorder."""

    def __init__(self, options: dict[str, str]) -> None:
        ruleset = get_region("yunnan").resolve(options)
        self.hand: HandState = hand_in_order(ruleset)
        self.sink = io.StringIO()
        self.ports = FakePorts(ruleset)
        self.ports.recorder = FlightRecorder(self.sink, clock=lambda: 0.0)
        self.flow = HandFlow(self.ports)
        self.flow.hand = self.hand
        self.ports.recorder.open_hand(1)
        self.ports.recorder.emit("hand_start", **start_fields(self.hand), tile_set=0)
        self.draw(self.hand.deal_size)
        self.hand.phase = "playing"
        reveal = self.hand.reveal(ruleset.indicators[0])       # the two 尾牌, turned up after the deal
        self.ports.recorder.emit("indicator", **reveal.event_fields())

    @property
    def tracker(self):
        return self.hand.tracker

    def take(self, slot: Slot) -> list[dict]:
        """A person lifts the tile at `slot` off its stack; the take events it made."""
        stack = self.hand.ring[slot.ring]
        before = len(self.recorded("take"))
        self.flow.on_wall_change(stack, self.tracker.stack_tiles(stack) - 1)
        return self.recorded("take")[before:]

    def draw(self, count: int = 1) -> None:
        for _ in range(count):
            self.take(self.tracker.next_head())

    def draw_until(self, remaining: int) -> None:
        while self.tracker.count().remaining > remaining:
            self.draw()

    def kong(self, seat: int, slot: Slot) -> dict:
        """`seat` presses 杠 (long: concealed) and takes `slot` as the replacement."""
        assert self.flow.on_key(Press(seat, Key.KONG, long=True))
        (take,) = self.take(slot)
        return take

    def recorded(self, name: str) -> list[dict]:
        return [e for e in read_events(self.sink.getvalue().splitlines()) if e["event"] == name]

    def audit(self, change=lambda event: event) -> list[str]:
        """The hand ends as 荒庄 with nobody paid: the audit's findings (on the events as `change` leaves them)."""
        recorder = self.ports.recorder
        recorder.emit("hand_end", result="draw", winners=[], payments=[0, 0, 0, 0], totals=[0, 0, 0, 0],
                      next_dealer=0, **self.hand.hand_end_fields())
        recorder.close_hand()
        recorder.close_cleanly()
        return audit_events([change(e) for e in read_events(self.sink.getvalue().splitlines())])


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
