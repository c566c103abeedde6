"""A bug in a task the table cannot do without stops the table loudly (as a bug in the event pump
does: the service starts it again and the hand resumes), never a silent wait.  Before, a journal
writer that died left every board event unacknowledged: the boards' windows filled and the table
waited for ever, its event loop alive (so the systemd watchdog was content) and nothing said."""

from __future__ import annotations

import pytest

from firmware.controller import TableController
from firmware.faults import ControllerFailure
from firmware.journal import HandJournal
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def failing_after(calls: int, real):
    count = [0]

    async def method(self, *args, **kwargs):
        count[0] += 1
        if count[0] == calls:
            raise RuntimeError("a bug")
        return await real(self, *args, **kwargs)
    return method


@pytest.mark.parametrize("owner, method, calls, task", [(HandJournal, "_commit", 30, "journal"),
                                                        (TableController, "_write_seat_line", 20, "seat-writer")])
def test_a_task_the_table_needs_that_fails_stops_the_table_loudly(owner, method, calls, task, monkeypatch):
    monkeypatch.setattr(owner, method, failing_after(calls, getattr(owner, method)))
    with pytest.raises(ControllerFailure, match=f"{task} failed: RuntimeError\\('a bug'\\)"):
        run(run_simulated(get_region("hainan").resolve(), hands=3, seed=1), timeout=60)


def test_a_failure_while_a_rebooted_board_is_caught_up_stops_the_table_loudly(monkeypatch):
    """The board's state read again after its reboot runs in a task beside the pump: a failure there
    left E23 up and the walls unread, with nothing said."""
    from simulator.table import SimulatedTable

    async def broken(self, source, rebooted):
        raise RuntimeError("a bug")
    monkeypatch.setattr(TableController, "_resync", broken)
    rebooted = []

    async def play():
        ruleset = get_region("guangshui").resolve()
        table = SimulatedTable(seed=4, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")

        def blow(event):
            if not rebooted and event["event"] == "take" and event["hand"] == 1 and event["reason"] == "draw":
                rebooted.append(event)
                table.reset_board("motor")
        try:
            return await run_simulated(ruleset, hands=2, seed=4, table=table, on_event=blow)
        finally:
            await table.stop()

    with pytest.raises(ControllerFailure, match="motor link back failed: RuntimeError\\('a bug'\\)"):
        run(play(), timeout=60)
    assert rebooted
