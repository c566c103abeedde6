"""The panels' lamps and the buzzer: what is lit follows the table, the latest mask only is written,
every panel once at start and again after the motor board restarted."""

import asyncio
import contextlib
from typing import AsyncIterator

from drivers.errors import CommandRejected
from drivers.messages import FaultCode
from drivers.motor_protocol import Led
from drivers.table_ui import Panel
from firmware.faults import LatchedFault
from firmware.lamps import Lamps
from tests.asyncio_support import run


class Board:
    """The motor board's end: the lamps as written, the alarms sounded; each write waits for `go`."""

    def __init__(self) -> None:
        self.leds: dict[int, int] = {}
        self.writes: list[tuple[int, int]] = []
        self.alarms = 0
        self.go = asyncio.Event()
        self.go.set()
        self.refuse = False

    async def write(self, panel: int, mask: int) -> None:
        await self.go.wait()
        if self.refuse:
            raise CommandRejected("motor", f"SetLeds(panel={panel}, mask={mask})", 2, "BAD_ARGUMENT")
        self.leds[panel] = mask
        self.writes.append((panel, mask))

    async def alarm(self) -> None:
        self.alarms += 1


@contextlib.asynccontextmanager
async def running(lamps: Lamps) -> AsyncIterator[None]:
    task = asyncio.create_task(lamps.run())
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def settled(lamps: Lamps, board: Board, want: dict[int, int]) -> None:
    while {p: board.leds.get(p) for p in want} != want:      # (None: never written)
        await asyncio.sleep(0)


def test_the_dealer_a_ready_seat_and_a_fault_are_lit_and_put_out():
    async def main():
        board, warnings = Board(), []
        lamps = Lamps(board.write, board.alarm, warnings.append)
        async with running(lamps):
            await settled(lamps, board, {p: 0 for p in Panel})
            assert sorted(board.writes) == [(p, 0) for p in Panel]          # every panel once, at start
            lamps.seat(2, dealer=True, ready=False)
            lamps.seat(1, dealer=False, ready=True)
            lamps.fault(True)
            await settled(lamps, board, {2: Led.DEALER, 1: Led.TING, Panel.FRONT: Led.FAULT})
            lamps.seat(2, dealer=False, ready=False)                         # the next hand's dealer …
            lamps.seat(3, dealer=True, ready=False)
            lamps.fault(False)
            await settled(lamps, board, {2: 0, 3: Led.DEALER, Panel.FRONT: 0})
            assert warnings == []
    run(main())


def test_a_burst_of_changes_is_one_write_of_the_latest_and_a_restart_writes_every_panel_again():
    async def main():
        board = Board()
        lamps = Lamps(board.write, board.alarm, lambda message: None)
        async with running(lamps):
            await settled(lamps, board, {p: 0 for p in Panel})
            board.writes.clear()
            board.go.clear()                                  # the board is slow: changes pile up
            lamps.seat(0, dealer=True, ready=False)
            await asyncio.sleep(0)
            for ready in (True, False, True):
                lamps.seat(0, dealer=True, ready=ready)
            board.go.set()
            await settled(lamps, board, {0: Led.DEALER | Led.TING})
            assert board.writes == [(0, Led.DEALER), (0, Led.DEALER | Led.TING)]
            board.writes.clear()
            board.leds.clear()                                # the board restarted: dark
            lamps.relight()
            await settled(lamps, board, {0: Led.DEALER | Led.TING})
            assert sorted(board.writes) == [(p, lamps.lit(p)) for p in Panel]
    run(main())


def test_alarms_asked_together_sound_once_and_a_refused_write_is_a_warning():
    async def main():
        board, warnings = Board(), []
        lamps = Lamps(board.write, board.alarm, warnings.append)
        board.refuse = True
        async with running(lamps):
            lamps.alarm()
            lamps.alarm()
            while len(warnings) < len(Panel):
                await asyncio.sleep(0)
            assert board.alarms == 1 and "motor refused SetLeds(panel=0, mask=0): BAD_ARGUMENT" in warnings[0]
    run(main())


def test_only_a_fault_that_waits_for_a_person_calls_one():
    for loud in (LatchedFault(FaultCode.PUSH_JAM, 1, "push jam (unit 1, detail 3)", "motor"),
                 LatchedFault(FaultCode.HATCH_OPEN, 0, "hatch opened while running (unit 0, detail 0)", "motor"),
                 LatchedFault(FaultCode.DISPLAY, 0, "the display does not answer", "display"),
                 LatchedFault(FaultCode.STORAGE, 0, "a disk write failed: [Errno 28] No space left", "storage"),
                 LatchedFault(FaultCode.SET_MISMATCH, 0, "missing 1 × 一万 (1m)", "controller")):
        assert loud.calls_a_person, loud
    for quiet in (LatchedFault(FaultCode.HATCH_OPEN, 0, "the service hatch is open", "interlock"),
                  LatchedFault(FaultCode.LINK_LOST, 0, "motor link down", "controller"),
                  LatchedFault(FaultCode.HOST_LOST, 0, "host lost (unit 0, detail 0)", "motor"),
                  LatchedFault(FaultCode.EMERGENCY_STOP, 0, "emergency stop (unit 0, detail 0)", "motor")):
        assert not quiet.calls_a_person, quiet
    assert LatchedFault(FaultCode.EMERGENCY_STOP, 1, "emergency stop (unit 1, detail 0)", "motor").calls_a_person


def test_a_board_that_does_not_know_the_lamps_is_told_once_and_not_asked_again():
    async def main():
        board, warnings = Board(), []

        async def unknown(panel, mask):
            board.writes.append((panel, mask))
            raise CommandRejected("motor", f"SetLeds(panel={panel}, mask={mask})", 1, "UNKNOWN_COMMAND")
        lamps = Lamps(unknown, board.alarm, warnings.append)
        async with running(lamps):
            while not warnings:
                await asyncio.sleep(0)
            lamps.seat(1, dealer=True, ready=True)
            lamps.alarm()
            while board.alarms == 0:
                await asyncio.sleep(0)
            assert board.writes == [(0, 0)] and len(warnings) == 1
            assert "UNKNOWN_COMMAND" in warnings[0] and "has no lamps" in warnings[0]
    run(main())


def test_the_alarm_sounds_again_while_a_fault_waits_for_a_person_and_stops_once_acknowledged():
    async def main():
        board = Board()
        lamps = Lamps(board.write, board.alarm, lambda message: None, remind_s=0.01)
        async with running(lamps):
            lamps.fault(True, waiting=False)                  # the hatch's interlock: shown, not sounded
            await settled(lamps, board, {Panel.FRONT: Led.FAULT})
            assert board.alarms == 0
            lamps.alarm()                                     # a jam latches …
            lamps.fault(True, waiting=True)
            while board.alarms < 3:                           # … and nobody comes
                await asyncio.sleep(0.005)
            lamps.fault(False, waiting=False)                 # acknowledged
            await settled(lamps, board, {Panel.FRONT: 0})
            count = board.alarms
            lamps.seat(0, dealer=True, ready=False)
            await settled(lamps, board, {0: Led.DEALER})
            assert board.alarms == count                      # no reminder rides on later writes
    run(main())
