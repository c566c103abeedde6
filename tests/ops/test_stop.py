"""Stopping (issue 9 item 4, issue 10 item 4): SIGTERM or SIGINT to `run` on a table (the simulator
in its own process, as real boards are) stops the motors, keeps the hand in play, exits 0; the next
start resumes that hand and settles it once."""

import asyncio
import signal
import sqlite3
from pathlib import Path

import pytest

from drivers.table_ui import Phase
from simulator.control_server import JOURNAL_SHOWN
from tests.asyncio_support import run
from tests.ops.simulated_table import simulated_table
from tests.reliability.campaign import Controller, card_of, recorder_lines

EMERGENCY_STOP = 16
MOTOR_AWAITED = "E23 连接中断 重连中（电机板）"        # the display's message line while the motor board is awaited
PHASES = tuple(phase.value for phase in Phase)            # the table's own message line starts with one


def recorder_events(folder: Path) -> list[list[dict]]:
    """Each start's recorder, oldest first (a line being written is left for the next look)."""
    files = sorted((card_of(folder) / "events").glob("*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
    return [recorder_lines(path) for path in files]


async def until(predicate, what: str, limit: float = 120.0) -> None:
    """Wait for a condition another process makes true (files and a database: nothing to await)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.05)


def ledger_hands(db: Path) -> list[tuple[int, int, str]]:
    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        try:
            return con.execute("SELECT session, number, result FROM hands ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:
            return []


async def stop_mid_hand_then_start_again(folder: Path, sig: int):
    region = "guangshui"
    async with simulated_table(folder, region, 3) as (sim, config):
        controller = Controller(config, region, folder / "controller.log")
        controller.start()
        try:
            await until(lambda: any(e.get("event") == "take" and e.get("reason") == "draw"
                                    for events in recorder_events(folder) for e in events), "the first draw")
            controller.end(sig)
            first_exit = controller.exits[-1]
            view = await sim.control.table()
            motor_faults = {code for code, _unit, _detail in view.faults["motor"]}
            settled_before = len(ledger_hands(card_of(folder) / "table.db"))     # the hand may have ended before the signal
            controller.start()
            await until(lambda: len(ledger_hands(card_of(folder) / "table.db")) > settled_before,
                        "a hand settled after the restart")
            players = await sim.control.players()
        finally:
            controller.stop()
    return first_exit, motor_faults, recorder_events(folder), ledger_hands(card_of(folder) / "table.db"), players


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_motors_keeps_the_hand_and_the_next_start_settles_it_once(tmp_path, sig):
    first_exit, motor_faults, recorders, hands, players = run(stop_mid_hand_then_start_again(tmp_path, sig),
                                                              timeout=300)
    assert first_exit == 0
    assert EMERGENCY_STOP in motor_faults                  # the board was told to stop its motors
    first, second = recorders[0], recorders[1]
    assert first[-1]["event"] == "recorder_end"            # the recorder was closed, not cut
    open_hand = {e["hand"] for e in first if e["event"] == "hand_start"} - \
        {e["hand"] for e in first if e["event"] == "hand_end"}
    if open_hand:                                          # stopped mid-hand: the next start goes on with it
        (number,) = open_hand
        assert any(e["event"] == "resumed" and e["hand"] == number for e in second)
    numbers = [(s, n) for s, n, _ in hands]
    assert len(numbers) == len(set(numbers))               # never settled twice
    assert len({s for s, _ in numbers}) == 1               # the same session goes on
    assert players.running and len(players.journal) == JOURNAL_SHOWN   # what they did last: "time seat what detail"
    assert all(float(line.split()[0]) >= 0 and int(line.split()[1]) in (-1, 0, 1, 2, 3) for line in players.journal)


async def message_line(sim, condition, what: str, limit: float = 60.0) -> str:
    """Wait until the public display's message line meets `condition`, woken by each change of the
    table the simulator shows (never a sleep); the line."""
    try:
        async with asyncio.timeout(limit):
            while True:
                view = await sim.control.table()
                line = view.components["main.t_msg"].text
                if condition(line) and view.page == "main":
                    return line
                await sim.control.changed(view.version)
    except TimeoutError:
        raise AssertionError(f"gave up waiting for {what}") from None


async def start_on_a_cut_link(folder: Path, stop_at: str | None):
    """The controller started while the motor board's cable is cut, until its output says it is
    trying again (however long a busy machine takes to start it); with `stop_at`, a SIGTERM as soon
    as the output shows that text, else the cable mended then, once the display says it waits."""
    region = "guangshui"
    log = folder / "controller.log"

    def said(text: str) -> bool:
        return log.exists() and text in log.read_text(encoding="utf-8")

    shown: list[str] = []                                # the display's message line: waiting, then playing
    async with simulated_table(folder, region, 3) as (sim, config):
        controller = Controller(config, region, log)
        await sim.control.cut("motor", 600.0)            # mended below, once the controller is seen waiting
        controller.start()
        try:
            if stop_at is not None:
                await until(lambda: said(stop_at), repr(stop_at))
                controller.stop()
            else:
                await until(lambda: said("trying again"), "the controller waiting for the board")
                shown.append(await message_line(sim, lambda line: line == MOTOR_AWAITED, "the wait on the display"))
                await sim.control.cut("motor", 0.01)      # a new cut replaces the long one: whole again at once
                shown.append(await message_line(sim, lambda line: line.startswith(PHASES), "the table's own screen"))
                await until(lambda: len(ledger_hands(card_of(folder) / "table.db")) >= 1, "a hand settled", 180)
                assert controller.alive()
                controller.stop()
        finally:
            controller.stop()
    return controller.exits[0], log.read_text(encoding="utf-8"), shown


def test_a_controller_started_while_a_link_is_cut_waits_for_the_board_then_plays(tmp_path):
    status, said, shown = run(start_on_a_cut_link(tmp_path, None), timeout=300)
    assert status == 0, said
    assert "连接中断 重连中" in said and "no answer from motor board" in said     # said why it waits
    assert "Traceback" not in said
    # and shown where the technician at the table looks: the display, which was blank before
    assert shown[0] == MOTOR_AWAITED and shown[1].startswith(PHASES), shown


@pytest.mark.parametrize("stop_at", ["running", "trying again"], ids=["at-the-banner", "waiting-for-a-board"])
def test_a_sigterm_in_the_first_moments_of_a_start_exits_0(tmp_path, stop_at):
    status, said, _ = run(start_on_a_cut_link(tmp_path, stop_at), timeout=120)
    assert status == 0, said
    assert "stopped by SIGTERM" in said and "Traceback" not in said
    if stop_at == "trying again":           # the log tells what the table was waiting for (a stall's story)
        assert any(line.startswith("at the stop, ") and "open_devices" in line for line in said.splitlines()), said


def test_ctrl_c_on_a_simulated_table_stops_it_without_link_faults(tmp_path):
    """Ctrl-C in a terminal signals the whole process group.  The built-in simulator runs in its own
    session, so its boards do not vanish under the stopping controller (before: a link lost, a
    display gone and reconnection attempts logged as faults at every Ctrl-C)."""
    import os
    import subprocess
    import sys
    import time

    from tests.ops.support import clean_env, needs_no_default_config
    needs_no_default_config()
    events = tmp_path / "events.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "firmware", "run", "--simulate", "--ruleset", "hainan",
                             "--speed", "0", "--db", str(tmp_path / "table.db"), "--events", str(events)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=clean_env(tmp_path),
                            cwd=tmp_path, start_new_session=True)       # a terminal's own process group
    try:
        deadline = time.monotonic() + 120
        while not (events.exists() and '"event":"hand_start"' in events.read_text(encoding="utf-8")):
            assert proc.poll() is None and time.monotonic() < deadline, "no hand began"
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, out[-1500:]
    assert "stopped by SIGINT" in out
    assert "E23" not in out and "E22" not in out and "link lost" not in out, out[-1500:]


# The child run by the next tests: `run --simulate` with a SIGTERM sent to itself the first time
# each target (module[:Class].function; several comma-separated) returns: moments named by code, not
# by a sleep.
_SIGTERM_AT = """
import os, pkgutil, signal, sys

def hook(target):
    where, name = target.rsplit(".", 1)
    owner = pkgutil.resolve_name(where)
    real, sent = getattr(owner, name), []

    def hooked(*args, **kwargs):
        made = real(*args, **kwargs)
        if not sent:              # the thing made, the signal lands before it is used (once)
            sent.append(target)
            os.kill(os.getpid(), signal.SIGTERM)
        return made
    setattr(owner, name, hooked)

for target in sys.argv[1].split(","):
    hook(target)
from firmware.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("target, http", [
    ("asyncio.events.new_event_loop", False),                    # asyncio.run making its loop
    ("asyncio.base_events:BaseEventLoop.create_task", False),    # the run's task made, not started
    ("firmware.web.serving:Serving.start", True),                # in the loop, before until_stopped
], ids=["making-the-loop", "making-the-task", "starting-the-web-view"])
def test_a_sigterm_while_asyncio_run_sets_up_exits_0_with_one_line(tmp_path, target, http):
    """The moments between the early handler and the loop's own: a SIGTERM there is neither lost
    (no --hands: the run would go on until the timeout) nor a traceback or a warning."""
    import subprocess
    import sys

    from tests.ops.support import clean_env, needs_no_default_config
    needs_no_default_config()
    argv = ["run", "--simulate", "--ruleset", "hainan", "--speed", "0", "--db", str(tmp_path / "table.db"),
            *(["--http", "127.0.0.1:0"] if http else [])]
    proc = subprocess.run([sys.executable, "-W", "default", "-c", _SIGTERM_AT, target, *argv],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=clean_env(tmp_path),
                          cwd=tmp_path, timeout=60)
    said = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout
    assert said[0].startswith("simulating: running") and "(hainan)" in said[0], proc.stdout
    assert said[1:] == ["stopped by SIGTERM while starting: nothing was running yet"], proc.stdout


def test_a_sigterm_while_stopping_cancels_nothing_more_and_the_run_still_exits_0(tmp_path):
    """A stop sent twice (a second Ctrl-C, a service manager and a person): the first stops the
    table; one while the hand is journaled at the stop, and one as the loop shuts down, are told
    and change nothing: the recorder still ends cleanly and the exit is 0 (before: the one at the
    loop's shutdown killed the process, its files half closed)."""
    import subprocess
    import sys

    from tests.ops.support import clean_env, needs_no_default_config
    needs_no_default_config()
    moments = ("firmware.hand.flow:HandFlow.play",                             # playing: the stop
               "firmware.journal:HandJournal.at_stop",                         # the hand journaled at the stop
               "asyncio.base_events:BaseEventLoop.shutdown_default_executor")  # the loop closing
    events = tmp_path / "events.jsonl"
    argv = ["run", "--simulate", "--ruleset", "hainan", "--speed", "0", "--db", str(tmp_path / "table.db"),
            "--events", str(events)]
    proc = subprocess.run([sys.executable, "-W", "default", "-c", _SIGTERM_AT, ",".join(moments), *argv],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=clean_env(tmp_path),
                          cwd=tmp_path, timeout=120)
    said = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stdout
    assert said.count("SIGTERM while stopping: the table is already stopping in order") == 2, proc.stdout
    assert said.count("stopped by SIGTERM: motors stopped, the hand in play is kept for the next start") == 1, \
        proc.stdout
    assert "Traceback" not in proc.stdout and "Warning" not in proc.stdout, proc.stdout
    assert recorder_lines(events)[-1]["event"] == "recorder_end"      # the recorder closed, not cut
