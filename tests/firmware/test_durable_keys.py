"""No key lost to a kill, none applied twice (issue 10): a board's event is acknowledged only once
the journal write covering it has committed.  A controller killed before that gets the event again
from the board when it resumes the session; one killed after it skips the event (the journal names
the last event of each board's session it applied)."""

import asyncio
import threading

from drivers.table_ui import Key
from simulator.table import SimulatedTable
from tests.asyncio_support import run
from tests.firmware.test_restart import crash_and_restart



def nothing(*args, **kwargs) -> None:
    return None


class DeadDisk:
    """The ledger's connection after a SIGKILL, in one process: nothing reaches the file any more."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def execute(self, *args):
        return self

    def fetchone(self):
        return None

    def fetchall(self):
        return []

    def close(self) -> None:
        pass


def no_more_acks(session) -> None:
    """From now on the controller acknowledges nothing more (its acks die with it)."""
    for client in (session.hub.devices.motor, session.hub.devices.rfid):
        client.link.release = nothing


def no_more_writes(session) -> None:
    """From now on nothing the controller writes reaches the disk: what a SIGKILL does, in one process."""
    session.ledger._db = DeadDisk()


async def host_frames(client, count: int) -> None:
    """Until the controller's link sent `count` more frames (heartbeats: each says what it acknowledges)."""
    start = client.statistics().frames_sent
    while client.statistics().frames_sent < start + count:
        await asyncio.sleep(0.01)


def kongs_pressed(monkeypatch) -> list[tuple[int, bool]]:
    """Every 杠 a player presses on the table."""
    pressed: list[tuple[int, bool]] = []
    real = SimulatedTable.press

    def press(table, panel, key, long=False):
        if key == Key.KONG:
            pressed.append((panel, long))
        real(table, panel, key, long)
    monkeypatch.setattr(SimulatedTable, "press", press)
    return pressed


def declared(events: list[dict], hand: int, seat: int) -> int:
    return sum(1 for e in events if e["event"] == "kong_declared" and (e["hand"], e["seat"]) == (hand, seat))


def kill_at_the_first_kong(tmp_path, prepare, kill):
    """Play guangshui; at the first 杠 declared, `prepare(session)` at once, then `await kill(session,
    stop)` beside the table (it ends by stopping the controller); then a restart plays two more hands."""
    holder: dict = {}

    def capture(players, stop) -> None:
        holder["stop"] = stop

    def killed_at(event: dict) -> bool:
        if event["event"] == "kong_declared" and "task" not in holder:
            session = holder["session"]
            prepare(session)
            holder["task"] = asyncio.get_running_loop().create_task(kill(session, holder["stop"]))
        return False

    db = str(tmp_path / "table.db")
    result, before, after = run(crash_and_restart("guangshui", 3, db, killed_at, players_hook=capture,
                                                  on_session=lambda s: holder.setdefault("session", s)),
                                timeout=180)
    kong = next(e for e in before if e["event"] == "kong_declared")
    resumed = next(e for e in after if e["event"] == "resumed")
    assert resumed["hand"] == kong["hand"]
    ends = [e["hand"] for e in after if e["event"] == "hand_end"]
    assert ends[0] == kong["hand"] and len(ends) == len(set(ends)) == 2         # settled once, after
    return kong, after


def test_a_kong_the_journal_never_held_is_sent_again_by_the_board_after_a_kill(tmp_path):
    """The disk stalls as the 杠 is applied (its journal write does not commit), the link beats on
    for a while, then the controller is killed: the restarted controller resumes the board's
    session, gets the 杠 again (never acknowledged) and the hand goes on with it — no 15-tile hand,
    no 诈胡 — settled once."""
    stalled = threading.Event()

    async def kill_after_some_beats(session, stop) -> None:
        await host_frames(session.hub.devices.motor, 5)
        no_more_writes(session)
        no_more_acks(session)
        stalled.set()                           # the stalled writes now reach a dead disk
        stop()

    kong, after = kill_at_the_first_kong(tmp_path, lambda session: session.store.submit(stalled.wait),
                                         kill_after_some_beats)
    assert declared(after, kong["hand"], kong["seat"]) >= 1                 # the board sent it again
    assert not any(e["event"] == "false_win" and e["hand"] == kong["hand"] for e in after)


def test_an_event_the_journal_holds_is_not_applied_again_when_its_ack_died_with_the_controller(tmp_path, monkeypatch):
    """Killed after the journal write covering the 杠 committed but before the board heard the ack:
    the board sends the 杠 again on the resume, and the restarted controller skips it (the journal
    says it was applied): after the restart that seat's 杠 is declared only for its other presses.
    (Those may or may not be journaled by the kill: at speed 0 the players press on, and their
    presses queue in the board, while the first 杠 is applied and committed.)"""
    pressed = kongs_pressed(monkeypatch)

    async def kill_once_journaled(session, stop) -> None:
        while session.journal.pending():
            await asyncio.sleep(0)
        await session.store.run(nothing)        # the write the journal task queued is committed
        no_more_writes(session)
        stop()

    kong, after = kill_at_the_first_kong(tmp_path, no_more_acks, kill_once_journaled)
    others = [p for p in pressed if p[0] == kong["seat"]][1:]               # all but the journaled 杠's press
    assert declared(after, kong["hand"], kong["seat"]) <= len(others), pressed
    assert not any(e["event"] == "warning" and "twice" in e.get("message", "") for e in after)


def test_a_win_reaches_a_seat_display_only_once_the_journal_holds_it(tmp_path, monkeypatch):
    """四川 血战: the hand goes on after a win.  Had the winner's display said 胡 +N before the journal
    held the win, a kill in between would leave a restarted table that does not know it while the
    winner, told he won, plays no more (found by the fault campaign: a stall at 请出牌)."""
    import json
    import sqlite3

    from drivers.table_ui import WIN_DONE
    from firmware.simulated import run_simulated
    from rulesets.regions import get_region
    from simulator.world import World

    db = str(tmp_path / "table.db")
    shown: list[tuple[int, bool]] = []
    real = World.set_seat_text

    def set_seat_text(world, seat, line, text):
        if text.startswith(WIN_DONE + " ") and world.seat_displays[seat][line] != text:
            with sqlite3.connect(db) as con:
                row = con.execute("SELECT value FROM journal WHERE key = 'hand'").fetchone()
            if row is None:                     # the hand is settled: the ledger holds it (one transaction)
                shown.append((seat, True))
            else:
                shown.append((seat, any(w["seat"] == seat for w in json.loads(row[0])["wins"])))
        real(world, seat, line, text)
    monkeypatch.setattr(World, "set_seat_text", set_seat_text)
    run(run_simulated(get_region("sichuan").resolve(), hands=2, seed=5, ledger_path=db, resume=True), timeout=120)
    assert len(shown) >= 2 and all(known for _, known in shown), shown
