"""The push-in's 确认 says every tile is in the centre: only one pressed once the centre opened says so.

A 确认 pressed twice at 荒庄 (or one a board sent again to a restarted controller as the player
pressed it again) stayed queued, and the push-in took it at once: the plates went down and the next
set rose with the last hand's tiles still lying on the table top. With no dead wall the emptied walls
left nothing for the motor board to refuse (NOT_READY), so nothing stopped it; the set then built
under the table found the mixer empty (E06 on every lane) and the table waited for a person for a set
that was whole (campaign 470018, 八枝)."""

import asyncio
import io
import json

from drivers.motor_protocol import Key, LiftPosition
from firmware.simulated import run_simulated
from simulator.motor_board import MotorBoardSim
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.firmware.scripted_players import WallWalker


# A 确认 pressed in play that answered nothing is dropped as its hand ends (`in_play`); one pressed
# between the hand's end and the push-in's request, as the push-in is asked (`before_push_in`).
STALE = ("in_play", "before_push_in")


class DoubleConfirm(WallWalker):
    """Confirms the first hand's 荒庄 twice; at the push-in after it, pushes the tiles in only once
    the table has shown what it made of that second 确认 (`dropped`: recorded as dropped), or has
    lowered the plates without anyone's 确认 (`decided` is set either way)."""

    def __init__(self, table, ruleset, dropped: asyncio.Event, decided: asyncio.Event) -> None:
        super().__init__(table, ruleset)
        self.dropped = dropped
        self.decided = decided
        self.pressed_twice = False
        self.lowered_unconfirmed = False
        self.pushed_in = 0

    async def after_deal(self) -> None:
        await super().after_deal()
        if not self.pressed_twice:
            self.table.press(self.ruleset.players[0], Key.CONFIRM)        # the double press
            self.pressed_twice = True

    async def push_in(self) -> None:
        if not self.pressed_twice or self.decided.is_set():
            return await super().push_in()          # the session's first push-in (before any hand), or a later one
        await self.until(lambda: self.table.world.centre == LiftPosition.DOWN)
        await self._wait_for_verdict()
        self.decided.set()
        if not self.lowered_unconfirmed:            # else the old tiles stay on the table top: the test has seen it
            self.pushed_in = self.table.sweep()
            self.table.press(self.ruleset.players[0], Key.CONFIRM)

    async def _wait_for_verdict(self) -> None:
        sides = self.table.world.sides
        while not self.dropped.is_set():
            if any(sides[s].position != LiftPosition.UP for s in self.ruleset.players):
                self.lowered_unconfirmed = True
                return
            seen = self.table.changes.version
            waits = [asyncio.ensure_future(self.table.changed(seen)), asyncio.ensure_future(self.dropped.wait())]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)


def two_hands_at_bazhi(make_crew, whys: tuple[str, ...]) -> tuple[DoubleConfirm, list[dict]]:
    """Two hands of 八枝 (no dead wall by default: the walls end empty) played by the crew
    `make_crew(table, ruleset, dropped, decided)` makes; stopped at the push-in if the plates went down
    with nobody's 确认.  `dropped` is set once keys are dropped for one of `whys`.  The crew and the log."""
    ruleset = get_region("bazhi").resolve()
    events = io.StringIO()
    crews: list[DoubleConfirm] = []

    async def play() -> None:
        dropped, decided = asyncio.Event(), asyncio.Event()

        def players(table, ruleset, seed):
            crews.append(make_crew(table, ruleset, dropped, decided))
            return crews[-1]

        def heard(event):
            if event["event"] == "keys_dropped" and event["why"] in whys:
                dropped.set()

        table = asyncio.ensure_future(run_simulated(ruleset, hands=2, seed=3, events=events, players=players,
                                                    on_event=heard))
        verdict = asyncio.ensure_future(decided.wait())
        await asyncio.wait([table, verdict], return_when=asyncio.FIRST_COMPLETED)
        verdict.cancel()
        if crews and crews[0].lowered_unconfirmed:
            table.cancel()                                  # nobody deals the next hand: stop here
        await asyncio.gather(table, return_exceptions=True)

    run(play(), timeout=120)
    (crew,) = crews
    return crew, [json.loads(line) for line in events.getvalue().splitlines()]


def dropped_presses(log: list[dict], whys: tuple[str, ...]) -> list[tuple[int, str]]:
    return [(p["panel"], p["key"]) for e in log if e["event"] == "keys_dropped" and e["why"] in whys
            for p in e["presses"]]


def test_a_confirm_pressed_before_the_centre_opened_does_not_confirm_the_push_in():
    crew, log = two_hands_at_bazhi(DoubleConfirm, STALE)
    assert not crew.lowered_unconfirmed, "the plates went down on a 确认 pressed before the push-in was asked"
    assert crew.pushed_in == 144                           # every tile of the first hand, into the centre
    assert dropped_presses(log, STALE)[:1] == [(crew.ruleset.players[0], "CONFIRM")]
    assert [e["event"] for e in log].count("hand_end") == 2


class LiftKey(WallWalker):
    """Pushes the tiles in and presses 升降 (the panels' key for the next hand), never 确认."""

    async def push_in(self) -> None:
        await self.until(lambda: self.table.world.centre == LiftPosition.DOWN)
        self.table.sweep()
        self.table.press(self.ruleset.players[1], Key.LIFT)


def test_the_lift_key_answers_the_push_in_as_confirm_does():
    """升降 at 请推牌入池后按确认 raised nothing: it waited in the queue while the table waited for a
    确认.  Now the next hand's walls rise on either key."""
    events = io.StringIO()
    run(run_simulated(get_region("sichuan").resolve(), hands=2, seed=3, events=events, players=LiftKey), timeout=120)
    log = [json.loads(line) for line in events.getvalue().splitlines()]
    assert [e["event"] for e in log].count("hand_end") == 2
    assert not any(e["event"] == "keys_dropped" for e in log)


class HeldEvents:
    """The motor board's events held in its queue while `holding` (a window nearly full of events
    the controller has not yet made durable), all sent, in order, as the board is told to move the
    centre: they then reach the controller after it asked for the push-in, but before the board's
    report that the centre opened."""

    def __init__(self, monkeypatch) -> None:
        self.holding = False
        self.held: list = []
        self.released = 0
        real_emit, real_move = MotorBoardSim.emit, MotorBoardSim._move_centre

        def emit(board, message):
            if self.holding:
                self.held.append(message)
            else:
                real_emit(board, message)

        def move_centre(board, command):
            if self.holding:
                self.holding = False
                self.released = len(self.held)
                for message in self.held:
                    real_emit(board, message)
            return real_move(board, command)
        monkeypatch.setattr(MotorBoardSim, "emit", emit)
        monkeypatch.setattr(MotorBoardSim, "_move_centre", move_centre)


class LateConfirm(DoubleConfirm):
    """Confirms the first hand's 荒庄, then presses 确认 again at once; the board holds that second
    press until it is told to open the centre (`HeldEvents`)."""

    def __init__(self, table, ruleset, dropped, decided, held: HeldEvents) -> None:
        super().__init__(table, ruleset, dropped, decided)
        self.held = held

    async def after_deal(self) -> None:
        await WallWalker.after_deal(self)                   # ... and 确认 for 荒庄
        if not self.pressed_twice:
            self.held.holding = True
            self.table.press(self.ruleset.players[0], Key.CONFIRM)
            self.pressed_twice = True


def test_a_confirm_the_board_sent_after_the_push_in_was_asked_but_pressed_before_the_centre_opened_confirms_nothing(
        monkeypatch):
    """A 确认 pressed twice at 荒庄 while the motor board held a nearly full window of events waited
    behind them; it reached the controller after the push-in had dropped the stale keys, and was taken:
    the plates went down under the last hand's tiles (seen under load at speed 0).  The board's own
    order says the press came before its report that the centre opened: no tile could have gone in."""
    held = HeldEvents(monkeypatch)
    crew, log = two_hands_at_bazhi(lambda *args: LateConfirm(*args, held), ("centre_closed",))
    assert held.released >= 1, "the second 确认 was never held: the test did not build its case"
    assert not crew.lowered_unconfirmed, "the plates went down on a 确认 pressed before the centre opened"
    assert crew.pushed_in == 144
    assert dropped_presses(log, ("centre_closed",)) == [(crew.ruleset.players[0], "CONFIRM")]
    assert [e["event"] for e in log].count("hand_end") == 2
