"""A hand built on purpose for a situation at the wall's end: its break follows its dice (the audit
checks it), its wall the set in order (or tiles in a chosen order), and — for a test that audits —
the hand flow on `FakePorts` with a real flight recorder, so every take is recorded as at the table."""

from __future__ import annotations

import io
from typing import Callable, Sequence

from firmware.hand.flow import HandFlow, start_fields
from firmware.hand.state import HandState
from firmware.records.audit import audit_events, read_events
from firmware.records.recorder import FlightRecorder
from rulesets.tiles import Tile
from rulesets.walls import Layer, Slot
from tests.firmware.fake_ports import FakePorts


def hand_in_order(ruleset, tiles: Sequence[Tile] | None = None) -> HandState:
    """Dealer side 0, dice (1, 2); the wall holds `tiles` (default: the set sorted) in ring order."""
    rolls = [(1, 2)]
    brk = ruleset.dice.break_for(0, ruleset.players, rolls).brk
    ring = ruleset.layout.ring(brk)
    order = iter(sorted(ruleset.tiles.tiles()) if tiles is None else tiles)
    wall = {Slot(index, layer): next(order) for index in range(len(ring)) for layer in (Layer.TOP, Layer.BOTTOM)}
    return HandState(ruleset, 1, 0, rolls, brk, wall, ruleset.dealing.plan(0, ruleset.players).next_head, salt="s")


class RecordedHand:
    """`hand` followed by the flow, every event written by a flight recorder."""

    def __init__(self, hand: HandState) -> None:
        self.hand = hand
        self.sink = io.StringIO()
        self.ports = FakePorts(hand.ruleset)
        self.ports.recorder = FlightRecorder(self.sink, clock=lambda: 0.0)
        self.flow = HandFlow(self.ports)
        self.flow.hand = hand
        self.ports.recorder.open_hand(1)
        self.ports.recorder.emit("hand_start", **start_fields(hand), tile_set=0)

    def take(self, slot: Slot) -> list[dict]:
        """A person lifts the tile at `slot` off its stack; the take events it made."""
        stack = self.hand.ring[slot.ring]
        before = len(self.recorded("take"))
        self.flow.on_wall_change(stack, self.hand.tracker.stack_tiles(stack) - 1)
        return self.recorded("take")[before:]

    def draw(self) -> Slot:
        """The next head draw; its slot."""
        slot = self.hand.tracker.next_head()
        self.take(slot)
        return slot

    def events(self) -> list[dict]:
        return read_events(self.sink.getvalue().splitlines())

    def recorded(self, name: str) -> list[dict]:
        return [e for e in self.events() if e["event"] == name]

    def end_as_a_draw(self) -> None:
        """The hand ends as 荒庄 with nobody paid; the recorder closes cleanly."""
        recorder = self.ports.recorder
        recorder.emit("hand_end", result="draw", winners=[], payments=[0, 0, 0, 0], totals=[0, 0, 0, 0],
                      next_dealer=0, **self.hand.hand_end_fields())
        recorder.close_hand()
        recorder.close_cleanly()

    def audit(self, change: Callable[[dict], dict] = lambda event: event) -> list[str]:
        """The hand ends as 荒庄 with nobody paid: the audit's findings (on the events as `change` leaves them)."""
        self.end_as_a_draw()
        return audit_events([change(e) for e in self.events()])
