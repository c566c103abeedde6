"""An enrolment stopped at a prompt (Ctrl-C) clears the prompt from the seat's display before its links
close: it stayed there, `登记:一万 ×4 座位0 确认`, under the next run too (a probe)."""

from __future__ import annotations

import argparse
import asyncio

import simulator.table
import simulator.technician
from firmware.build.registry import TileRegistry
from firmware.cli.cmd_enroll import _enroll
from firmware.config import TableConfig
from rulesets.tilesets import NAMED_SETS
from tests.asyncio_support import run
from tests.e2e.at_the_table import until


class Idle:
    """A technician who lays nothing: the enrolment waits at its first prompt."""

    def __init__(self, table, set_index) -> None:
        pass

    async def run(self) -> None:
        await asyncio.Event().wait()


def test_an_enrolment_stopped_at_its_prompt_leaves_the_seat_display_blank(monkeypatch):
    tables = []

    class Kept(simulator.table.SimulatedTable):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            tables.append(self)
    monkeypatch.setattr(simulator.table, "SimulatedTable", Kept)
    monkeypatch.setattr(simulator.technician, "SimulatedTechnician", Idle)
    args = argparse.Namespace(set_index=1, seat=0, replace=False)

    async def stopped_at_the_first_prompt() -> str:
        enrolling = asyncio.create_task(_enroll(TableConfig(None), TileRegistry(), NAMED_SETS["136"], args))
        while not tables:
            await asyncio.sleep(0)
        table = tables[0]
        await until(table, lambda: table.world.seat_displays[0][1].startswith("登记:"))
        enrolling.cancel()                                  # Ctrl-C
        await asyncio.gather(enrolling, return_exceptions=True)
        return table.world.seat_displays[0][1]

    assert run(stopped_at_the_first_prompt(), timeout=60) == ""
