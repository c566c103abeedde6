"""The scoring worker process: it answers, it is started again when it dies (the hand is still
scored), it ends with the controller, and a call that kills it every time fails instead of hanging."""

import asyncio
import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.simulated import run_simulated
from firmware.worker import ProcessWorker, WorkerFailed
from rulesets.regions import get_region
from rulesets.tiles import parse_tiles
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.e2e.test_faults_at_the_table import break_the_zones
from tests.firmware.scripted_players import DealerWins
from tests.firmware.worker_calls import die_the_first_time


def _gone(pid: int) -> bool:
    """The process has ended (a zombie nobody reaped yet counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_a_worker_that_dies_mid_call_is_started_again_and_the_call_answered(tmp_path):
    faults: list[str] = []

    async def scenario():
        worker = ProcessWorker(on_fault=faults.append)
        worker.start()
        try:
            first = worker.pid
            assert await worker.run(die_the_first_time, str(tmp_path / "flag")) == "answered"
            return first, worker.pid, worker.restarts
        finally:
            await worker.stop()

    first, second, restarts = run(scenario(), timeout=60)
    assert restarts == 1 and first != second and _gone(first)
    assert len(faults) == 1 and "exited (exit status 7)" in faults[0] and "started again" in faults[0]


def test_a_call_that_kills_every_worker_fails_plainly_and_the_next_call_is_answered():
    faults: list[str] = []

    async def scenario():
        worker = ProcessWorker(on_fault=faults.append)
        worker.start()
        try:
            with pytest.raises(WorkerFailed, match="died 2 times"):
                await worker.run(os._exit, 3)
            return await worker.run(sorted, (3, 1, 2))
        finally:
            await worker.stop()

    assert run(scenario(), timeout=60) == [1, 2, 3]
    assert len(faults) == 2


def test_a_worker_that_stops_answering_is_replaced():
    faults: list[str] = []

    async def scenario():
        worker = ProcessWorker(on_fault=faults.append, call_timeout=0.5, attempts=1)
        worker.start()
        try:
            with pytest.raises(WorkerFailed):
                await worker.run(__import__("time").sleep, 60)
            worker.call_timeout = 60.0              # the new worker's start-up is not timed here
            return await worker.run(max, 4, 9)
        finally:
            await worker.stop()

    assert run(scenario(), timeout=60) == 9
    assert faults and "did not answer" in faults[0]


def test_an_error_in_the_call_is_raised_in_the_controller_and_the_worker_lives_on():
    async def scenario():
        worker = ProcessWorker()
        worker.start()
        try:
            with pytest.raises(ValueError, match="invalid literal"):
                await worker.run(int, "x")
            return await worker.run(int, "12"), worker.restarts
        finally:
            await worker.stop()

    assert run(scenario(), timeout=60) == (12, 0)


CHILD = """
import asyncio, sys
from firmware.worker import ProcessWorker
async def main():
    worker = ProcessWorker()
    worker.start()
    assert await worker.run(abs, -1) == 1
    print(worker.pid, flush=True)
    await asyncio.sleep(3600)
asyncio.run(main())
"""


def test_the_worker_dies_with_a_controller_that_is_killed():
    root = Path(__file__).resolve().parents[2]
    controller = subprocess.Popen([sys.executable, "-c", CHILD], cwd=root, stdout=subprocess.PIPE, text=True)
    try:
        worker_pid = int(controller.stdout.readline())
        assert not _gone(worker_pid)
        controller.send_signal(signal.SIGKILL)
        controller.wait()

        async def until_gone():
            while not _gone(worker_pid):          # its input ended with the controller: it exits
                await asyncio.sleep(0.05)

        run(until_gone(), timeout=30)
    finally:
        if controller.poll() is None:
            controller.kill()
            controller.wait()
        controller.stdout.close()


def test_a_killed_worker_is_started_again_and_the_win_still_scored():
    """Through the controller: the worker is killed as the dealer's 胡 is checked; the hand is
    scored by a new worker, the restart is in the recorder, and no worker is left after the run."""
    ruleset = get_region("dongbei").resolve()
    killed: list[int] = []
    scorers: list[int] = []                     # the worker that scored the win
    hubs = []

    def on_session(session):
        hub = session.hub
        hubs.append(hub)

        def kill_at_the_win_check():
            if hub.table.state == "win_check" and not killed:
                killed.append(hub.worker.pid)
                os.kill(hub.worker.pid, signal.SIGKILL)
        hub.watch(kill_at_the_win_check)
        hub.recorder.listen(lambda e: scorers.append(hub.worker.pid) if e["event"] == "win" else None)

    async def play():
        table = SimulatedTable(seed=1, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))
        await table.start("pty")
        events = io.StringIO()
        zones = asyncio.create_task(break_the_zones(table))
        try:
            await run_simulated(ruleset, hands=1, seed=1, events=events, table=table, players=DealerWins,
                                on_session=on_session)
        finally:
            zones.cancel()
            await asyncio.gather(zones, return_exceptions=True)
            await table.stop()
        return [json.loads(line) for line in events.getvalue().splitlines()]

    log = run(play(), timeout=120)
    names = [e["event"] for e in log]
    warning = next(i for i, e in enumerate(log) if e["event"] == "warning" and "scoring worker" in e["message"])
    win = names.index("win")
    assert killed and warning < win
    assert sorted(log[win]["tiles"]) == sorted(str(t) for t in parse_tiles(DealerWins.HAND))
    assert hubs[0].worker.restarts == 1 and hubs[0].worker.pid is None      # stopped with the controller
    assert _gone(killed[0]) and scorers[0] != killed[0] and _gone(scorers[0])     # no worker outlives the run


def test_the_worker_is_this_controller_s_own_whatever_folder_the_controller_runs_in(tmp_path, monkeypatch):
    """A folder holding another `firmware` (an older checkout, a copy being edited) is not where the
    worker's code comes from: it would be first on `python -m`'s path."""
    decoy = tmp_path / "firmware"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "worker_side.py").write_text("raise SystemExit(3)\n")
    monkeypatch.chdir(tmp_path)

    async def scenario():
        worker = ProcessWorker()
        worker.start()
        try:
            return await worker.run(int, "7"), worker.restarts
        finally:
            await worker.stop()

    assert run(scenario(), timeout=60) == (7, 0)
