"""The seat displays' lines as the simulated motor board receives them, for tests to watch or lose."""

from __future__ import annotations

from typing import Callable

from drivers.motor_protocol import SeatText
from simulator.table import SimulatedTable


def hook_seat_text(monkeypatch, hook: Callable[[SeatText], int | None]) -> None:
    """Every SeatText a simulated motor board handles goes through `hook` first: a status to answer
    instead (the line never shown), or None to show it as usual."""
    start = SimulatedTable.start

    async def start_hooked(table, *args, **kwargs):
        endpoints = await start(table, *args, **kwargs)
        handlers = table.motor._handlers
        show = handlers[SeatText]

        def seat_text(command):
            status = hook(command)
            return show(command) if status is None else status
        handlers[SeatText] = seat_text
        return endpoints

    monkeypatch.setattr(SimulatedTable, "start", start_hooked)
