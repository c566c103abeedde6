"""A bug in a task the table cannot do without stops the table loudly (as a bug in the event pump
does: the service starts it again and the hand resumes), never a silent wait.  Before, a journal
writer that died left every board event unacknowledged: the boards' windows filled and the table
waited for ever, its event loop alive (so the systemd watchdog was content) and nothing said."""

from __future__ import annotations

import asyncio
import gc

import pytest

from drivers.errors import LinkClosed

from firmware.controller import TableController
from firmware.faults import ControllerFailure
from firmware.journal import HandJournal
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def failing_after(calls: int, real, task: str):
    """`real`, failing at its `calls`-th call made in the task named `task` (a journal commit the hand
    asks for itself runs in the hand's task: a bug there is the hand's, not the writer's)."""
    count = [0]

    async def method(self, *args, **kwargs):
        if asyncio.current_task().get_name() == task:
            count[0] += 1
            if count[0] == calls:
                raise RuntimeError("a bug")
        return await real(self, *args, **kwargs)
    return method


@pytest.mark.parametrize("owner, method, calls, task", [(HandJournal, "_commit", 30, "journal"),
                                                        (TableController, "_write_seat_line", 20, "seat-writer")])
def test_a_task_the_table_needs_that_fails_stops_the_table_loudly(owner, method, calls, task, monkeypatch):
    monkeypatch.setattr(owner, method, failing_after(calls, getattr(owner, method), task))
    with pytest.raises(ControllerFailure, match=f"{task} failed: RuntimeError\\('a bug'\\)"):
        run(run_simulated(get_region("hainan").resolve(), hands=3, seed=1), timeout=60)


def test_a_failure_while_a_rebooted_board_is_caught_up_stops_the_table_loudly(monkeypatch):
    """The board's state read again after its reboot runs in a task beside the pump: a failure there
    left E23 up and the walls unread, with nothing said."""
    async def broken(self, source, rebooted):
        raise RuntimeError("a bug")
    monkeypatch.setattr(TableController, "_resync", broken)
    rebooted = []

    def blow(table, event):
        if not rebooted and event["event"] == "take" and event["hand"] == 1 and event["reason"] == "draw":
            rebooted.append(event)
            table.reset_board("motor")

    with pytest.raises(ControllerFailure, match="motor link back failed: RuntimeError\\('a bug'\\)"):
        run(play_on_a_table("guangshui", 4, blow), timeout=60)
    assert rebooted


async def play_on_a_table(region: str, seed: int, on_event):
    """Two hands on a simulated table; `on_event(table, event)` hears every recorder event."""
    from simulator.table import SimulatedTable

    ruleset = get_region(region).resolve()
    table = SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
    await table.start("pty")
    try:
        return await run_simulated(ruleset, hands=2, seed=seed, table=table, on_event=lambda e: on_event(table, e))
    finally:
        await table.stop()


@pytest.mark.parametrize("error", [LinkClosed("RFID board: link closed"), RuntimeError("a bug")], ids=["closed", "bug"])
def test_a_job_a_key_started_is_guarded(error, monkeypatch, caplog):
    """A person's 确认 on the fault page clears the faults in a job of its own.  Its end by a link the
    stop closed left "Task exception was never retrieved" and a traceback in the log (campaign 750014,
    a SIGTERM during a 确认); a bug in it was as silent.  Now the first is no error and the second stops
    the table loudly."""
    from drivers.motor_protocol import Key

    acknowledge = TableController.acknowledge_faults

    async def fails(self):
        await acknowledge(self)
        raise error
    monkeypatch.setattr(TableController, "acknowledge_faults", fails)
    acknowledged = []

    def person(table, event):
        if not acknowledged and event["event"] == "take" and event["hand"] == 1:
            acknowledged.append(1)
            table.inject_fault("hatch_open")             # a fault shown …
        elif acknowledged == [1] and event["event"] == "fault" and event["code"] == "E12":
            acknowledged.append(2)
            table.press("front", Key.CONFIRM)           # … a person's 确认 while it is shown …
            table.clear_fault("hatch_open")             # … and the hatch closed

    if isinstance(error, LinkClosed):
        assert run(play_on_a_table("hainan", 2, person), timeout=60).hands == 2
    else:
        with pytest.raises(ControllerFailure, match="acknowledge-faults failed: RuntimeError\\('a bug'\\)"):
            run(play_on_a_table("hainan", 2, person), timeout=60)
    gc.collect()
    assert acknowledged == [1, 2]
    assert "never retrieved" not in caplog.text
