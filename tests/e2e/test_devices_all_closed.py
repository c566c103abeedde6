"""Every board is closed at the end, whatever the closing of the one before did.  A run stopped as it
ended (a cancellation that came while the motor board closed) left the RFID board's link open: its port
held, and the commands a lost link held waiting for a reconnection that never came (a test's leak
check found the link's hold timer still running, 1 run in about 70)."""

from __future__ import annotations

import asyncio

import pytest

from drivers.errors import LinkClosed
from drivers.motor import MotorBoard
from firmware.devices import open_devices
from simulator import SimulatedTable, parse_faults
from tests.asyncio_support import run


def test_a_cancellation_while_the_motor_board_closes_still_closes_the_rfid_board(monkeypatch):
    closing_motor = MotorBoard.close

    async def cancelled_as_it_closes(self) -> None:
        await closing_motor(self)
        raise asyncio.CancelledError          # the run's stop arriving just then

    monkeypatch.setattr(MotorBoard, "close", cancelled_as_it_closes)

    async def go():
        table = SimulatedTable(seed=3, speed=0, faults=parse_faults(()))
        endpoints = await table.start("pty")
        try:
            with pytest.raises(asyncio.CancelledError):      # the stop goes on once all are closed
                async with open_devices(endpoints.motor, endpoints.rfid) as devices:
                    rfid = devices.rfid
            with pytest.raises(LinkClosed):
                await rfid.read_zone(0)
        finally:
            await table.stop()

    run(go(), timeout=60)
