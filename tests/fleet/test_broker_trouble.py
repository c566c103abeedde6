"""A broker that is down never touches the table: restarted mid-session, stuck (SIGSTOP), away
when the table stops, or outliving a table that dies — no settled hand is lost, none is delayed,
and the table plays on.

The simulated table runs real serial links over ptys that a board calls lost after 0.6 s without
a frame: a table whose loop the broker stalled would have a link episode (E23 latched, recorded as a
`fault`, then `link_back`).  Playing every hand to the end with no such event is the proof that the
loop was never held up.
"""

import asyncio
import signal
import subprocess
import sys
import threading

from firmware.fleet.outbox import Outbox
from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.topics import Topics
from firmware.parlour.watcher import ParlourWatcher
from tests.asyncio_support import run
from tests.fleet.support import Subscriber, ledger_hands, play, settings_for
from tests.ops.support import ROOT, clean_env
from tests.processes import interrupt


def parlour(broker, tmp_path, name="parlour"):
    return ParlourWatcher(broker.settings, tmp_path / f"{name}.db", client_id=f"test-{name}", backoff=(0.1, 0.5))


async def parlour_and_table(broker, tmp_path, table, ledger):
    """The parlour, connected, and a table's publisher, started (its outbox in tmp_path)."""
    watcher = parlour(broker, tmp_path)
    await watcher.start()
    await watcher.connected.wait()
    publisher = FleetPublisher(settings_for(broker, table), tmp_path / "outbox.db", ledger)
    await publisher.start()
    return watcher, publisher


def stored(watcher):
    """(number, payments, totals) of the hands the parlour stored, oldest first."""
    return sorted((h["hand"], tuple(h["payments"]), tuple(h["totals"])) for h in watcher.recent)


def test_a_broker_restarted_mid_session_loses_no_settled_hand(broker, tmp_path):
    """The broker stops answering at hand 2's end, goes down, and comes back only once hand 3 has
    ended: hands 2 and 3 wait in the table's outbox, and the parlour gets all four, once each."""
    ledger = tmp_path / "table.db"
    hand_three_over = threading.Event()

    def restart() -> None:
        broker.stop()                       # SIGTERM: the broker keeps the parlour's session on disk
        hand_three_over.wait(60)
        broker.start()

    async def go():
        watcher, publisher = await parlour_and_table(broker, tmp_path, "r1", ledger)
        restarting = []

        def on_event(event):
            if event["event"] == "hand_end" and event["hand"] == 2:
                broker.pause()              # from this instant nothing is acknowledged …
                restarting.append(asyncio.get_running_loop().run_in_executor(None, restart))
            elif event["event"] == "hand_end" and event["hand"] == 3:
                hand_three_over.set()       # … until hand 3 is over

        try:
            result = await play("changchun", 4, 5, ledger, follow=publisher.attach, on_event=on_event)
            await restarting[0]
            await watcher.wait_until(lambda: watcher.stats.hands == 4, 30)
        finally:
            hand_three_over.set()
            await publisher.stop()
            await watcher.stop()
        return result, watcher, publisher

    result, watcher, publisher = run(go(), timeout=120)
    assert result.hands == 4 and broker.starts == 2
    assert publisher.stats.connections >= 2 and publisher.waiting_hands == 0
    assert stored(watcher) == ledger_hands(ledger)             # every hand, once, as the ledger has it


def test_a_stuck_broker_never_holds_the_table_up(broker, tmp_path):
    """SIGSTOP at hand 1's end: the table plays hands 2–4 to the end while the broker answers
    nothing; every hand waits; once the broker runs again they all arrive."""
    ledger = tmp_path / "table.db"

    async def go():
        watcher, publisher = await parlour_and_table(broker, tmp_path, "s1", ledger)
        troubles = []

        def on_event(event):
            if event["event"] in ("fault", "link_back"):
                troubles.append(event)
            if event["event"] == "hand_end" and event["hand"] == 1:
                broker.pause()

        try:
            result = await play("hangzhou", 4, 6, ledger, follow=publisher.attach, on_event=on_event)
            still_stuck, waiting = broker.paused, publisher.waiting_hands
            broker.resume()
            await watcher.wait_until(lambda: watcher.stats.hands == 4, 60)
        finally:
            if broker.paused:
                broker.resume()
            await publisher.stop()
            await watcher.stop()
        return result, still_stuck, waiting, watcher, publisher, troubles

    result, still_stuck, waiting, watcher, publisher, troubles = run(go(), timeout=150)
    assert result.hands == 4 and still_stuck            # the table finished while the broker was stuck
    assert troubles == []                               # with no link episode, no fault: never held up
    assert waiting == 4                                 # not one hand was acknowledged meanwhile
    assert stored(watcher) == ledger_hands(ledger) and publisher.waiting_hands == 0


def test_a_table_stopped_while_the_broker_is_away_sends_its_hands_at_the_next_start(broker, tmp_path):
    ledger, outbox = tmp_path / "table.db", tmp_path / "outbox.db"
    broker.stop()

    async def away():
        publisher = FleetPublisher(settings_for(broker, "o1"), outbox, ledger)
        await publisher.start()
        try:
            result = await play("wuhan", 2, 7, ledger, follow=publisher.attach)
        finally:
            await publisher.stop()               # nothing to talk to: it stops at once
        return result

    async def back():
        watcher = parlour(broker, tmp_path)
        await watcher.start()
        publisher = FleetPublisher(settings_for(broker, "o1"), outbox, ledger)     # the table's next start
        await publisher.start()
        try:
            await watcher.wait_until(lambda: watcher.stats.hands == 2, 30)
        finally:
            await publisher.stop()
            await watcher.stop()
        return watcher

    assert run(away(), timeout=60).hands == 2
    waiting = Outbox(outbox)
    assert waiting.count() == 2
    waiting.close()
    broker.start()
    watcher = run(back(), timeout=60)
    assert stored(watcher) == ledger_hands(ledger)
    check = Outbox(outbox)
    assert check.count() == 0
    check.close()


def table_process(broker, tmp_path, name: str) -> subprocess.Popen:
    """A simulated table reporting to the broker as `name`, in a process of its own."""
    return subprocess.Popen([sys.executable, "-m", "firmware", "run", "--speed", "1", "--hands", "50",
                             "--mqtt", broker.url, "--table", name, "--db", str(tmp_path / f"{name}.db")],
                            cwd=ROOT, env=clean_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


async def stopped_as_watched(broker, tmp_path, proc, name: str, ready, stop,
                             offline_within: float) -> tuple[list, dict, list]:
    """The table `name` (in `proc`) watched by a parlour and a subscriber to its status: once `ready`
    holds of the statuses so far and the parlour shows it online, `stop(proc)`, until both see it
    offline.  Returns the statuses the subscriber got, the parlour's view and its changes."""
    topics = Topics(name)
    watcher = parlour(broker, tmp_path)
    await watcher.start()
    try:
        async with Subscriber(broker, topics.status) as sub:
            await sub.wait_for(lambda: ready(sub.on(topics.status)), 60)
            await watcher.wait_until(lambda: name in watcher.tables and
                                     watcher.tables[name].state(watcher.clock()) == "online", 20)
            stop(proc)
            await sub.wait_for(lambda: sub.on(topics.status)[-1].json()["status"] == "offline", offline_within)
        await watcher.wait_until(lambda: watcher.tables[name].status.get("status") == "offline", 20)
        return sub.on(topics.status), watcher.snapshot(), await watcher.changes()
    finally:
        await watcher.stop()


def test_a_table_that_dies_is_marked_offline_by_its_last_will(broker, tmp_path):
    topics = Topics("t9")
    proc = table_process(broker, tmp_path, "t9")

    async def go():
        statuses, view, changes = await stopped_as_watched(
            broker, tmp_path, proc, "t9", lambda seen: any(m.json().get("ruleset") == "changchun" for m in seen),
            lambda proc: proc.kill(), offline_within=20)          # no clean stop: only the broker can tell
        async with Subscriber(broker, topics.status) as late:                # retained for whoever comes later
            retained = await late.wait_for(lambda: late.on(topics.status), 20)
        return statuses[-1].json(), retained[0], view, changes

    try:
        last, retained, view, changes = run(go(), timeout=120)
    finally:
        interrupt(proc)
    assert last == {"status": "offline", "table": "t9", "reason": "lost"}
    assert retained.retain and retained.json()["reason"] == "lost"
    (table,) = view["tables"]
    assert table["state"] == "offline" and table["reason"] == "lost" and table["ruleset"] == "changchun"
    # the page shows it at once; the changes write it down only once it has stayed away three
    # heartbeats (a broker restart sends every will: test_pieces.py, the will written down)
    assert [c["what"] for c in changes if c["table"] == "t9"] == ["online"]


def test_a_table_stopped_cleanly_is_not_shown_as_a_fault(broker, tmp_path):
    """SIGTERM stops a table in order: the controller's own emergency stop (E16) latches as it does,
    and the retained offline status said fault, so the parlour turned the card red and wrote
    `fault E16`.  A stop the controller asked for is no fault."""
    proc = table_process(broker, tmp_path, "t8")

    async def go():
        statuses, view, changes = await stopped_as_watched(
            broker, tmp_path, proc, "t8", lambda seen: any(m.json().get("phase") == "playing" for m in seen),
            lambda proc: proc.send_signal(signal.SIGTERM), offline_within=30)
        return statuses[-1].json(), view, changes

    try:
        last, view, changes = run(go(), timeout=120)
        assert proc.wait(30) == 0
    finally:
        interrupt(proc)
    assert last["reason"] == "stopped" and last["fault"] is False and last["faults"] == []
    (table,) = view["tables"]
    assert table["state"] == "offline" and not table["fault"]
    assert [c["what"] for c in changes if c["table"] == "t8"] == ["offline", "online"]     # newest first: no fault line
