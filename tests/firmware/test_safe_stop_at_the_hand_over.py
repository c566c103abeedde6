"""A controller paused for a second at the hand over (a probe: SIGSTOP 0.5–2 s after the push-in's
确认, 四川 seed 3 and 长春 seed 1 at speed 1): the motor board heard nothing for its LINK_TIMEOUT, stopped
its motors and latched E13 (protocol.md §3.6), the controller cleared it once back — and then said
`the walls that rose are not the set built for them … it was lost from under the table`, had the
players push everything in again and built a set anew (about 40 s) for a set nobody had touched.

The stop fell before the board took the plates' raise (refused BUSY while the plates still went down,
then FAULT_LATCHED for E13).  `move` counted that stop as a halt of the raise the board took after it:
it sent the raise again, was answered BUSY, and sent it once more when the plates were up — a second
raise took the walls off the table top just as the controller looked at them."""

from __future__ import annotations

import asyncio

from drivers.messages import Status
from drivers.motor_protocol import LiftPosition, MoveSideLifts
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from simulator.motor_board import MotorBoardSim
from simulator.table import SimulatedTable
from tests.asyncio_support import run

SPEED = 2.0         # the plates take real time to travel (a side lift 1 s, the centre 0.75 s), as at the table


def host_quiet_at_the_first_raise(monkeypatch, taken: bool) -> list[int]:
    """The motor board's own host-lost stop (§3.6) at the first raise of the plates: before the board
    takes it (the raise is refused for the E13 latched: the controller, back, sent it), or once it
    took it (the plates stop between their limits).  Returns the board's answer to every raise."""
    answers: list[int] = []
    move_sides = MotorBoardSim._move_sides

    def move(board: MotorBoardSim, command: MoveSideLifts) -> int:
        if command.position != LiftPosition.UP:
            return move_sides(board, command)
        if not answers and not taken:
            board._host_lost()              # nothing heard for LINK_TIMEOUT: every motor stops, E13
        answers.append(move_sides(board, command))
        if taken and answers[-1] == Status.OK and answers.count(Status.OK) == 1:
            asyncio.get_running_loop().call_soon(board._host_lost)     # the plates on their way up
        return answers[-1]

    monkeypatch.setattr(MotorBoardSim, "_move_sides", move)
    return answers


async def first_hand_over(region_id: str, seed: int) -> list[dict]:
    """Play up to the first hand's start (or the set said lost); the recorder's events."""
    ruleset = get_region(region_id).resolve()
    table = SimulatedTable(seed=seed, speed=SPEED, tile_sets=(ruleset.tiles, ruleset.tiles))
    events: list[dict] = []
    over = asyncio.Event()

    def on_event(event: dict) -> None:
        events.append(event)
        if event["event"] == "hand_start" or "not the set built for them" in event.get("message", ""):
            over.set()

    await table.start("pty")
    try:
        controller = asyncio.create_task(run_simulated(ruleset, hands=1, seed=seed, table=table, on_event=on_event))
        await asyncio.wait({controller, asyncio.ensure_future(over.wait())}, return_when=asyncio.FIRST_COMPLETED)
        controller.cancel()
        await asyncio.gather(controller, return_exceptions=True)
    finally:
        await table.stop()
    return events


def dealt_on_the_checked_set(events: list[dict]) -> None:
    assert any(e["event"] == "fault" and e["code"] == "E13" for e in events)
    lost = [e for e in events if e["event"] == "warning" and "not the set built for them" in e["message"]]
    assert lost == []
    checked = [e for e in events if e["event"] == "set_check"]
    dealt = [e for e in events if e["event"] == "hand_start"]
    assert len(checked) == 1 and checked[0]["ok"]                   # no set built anew
    assert len(dealt) == 1 and dealt[0]["tile_set"] == checked[0]["tile_set"]


def test_a_safe_stop_before_the_board_takes_the_raise_deals_the_checked_set(monkeypatch):
    answers = host_quiet_at_the_first_raise(monkeypatch, taken=False)
    events = run(first_hand_over("sichuan", 3), timeout=120)
    assert answers[0] == Status.FAULT_LATCHED                       # the stop came before the raise was taken
    dealt_on_the_checked_set(events)
    assert answers.count(Status.OK) == 1                            # the walls rose once


def test_plates_stopped_on_their_way_up_are_raised_again_and_the_checked_set_dealt(monkeypatch):
    answers = host_quiet_at_the_first_raise(monkeypatch, taken=True)
    events = run(first_hand_over("sichuan", 3), timeout=120)
    dealt_on_the_checked_set(events)
    assert answers.count(Status.OK) == 2                            # halted, then sent again
