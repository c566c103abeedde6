"""A clean stop (SIGTERM: the owner restarting the service) while the players play on.

The stopping session journals the hand in play and the next start resumes it.  The fault
campaign's `term` disruption found draws the players made while the session stopped (they do not
stop with the controller) applied to the hand and written to the recorder after that journal
write: the next start resumed the hand without them, the boards sent them again, and the two
recorders together showed those tiles taken twice.

Here the simulator and its players run in their own process, as on a real table; the first
controller is stopped at the 60th take of hand 2, and right after its journal write at the stop,
what it had applied is acknowledged (as by a journal commit finishing while the motors stop), so
the board sends on while the players play on.  Before the mend the session applied and recorded
those events after its journal write (the resumed hand then held 116 takes, the first recorder
136); now they are left for the next start.
"""

from __future__ import annotations

import asyncio
import io

from firmware.build.registry import Registered, TileRegistry
from firmware.controller import monotonic_clock
from firmware.records.audit import audit_recorders
from firmware.records.stream import recorder_from_events
from firmware.journal import HandJournal
from firmware.simulated import _play
from rulesets.regions import get_region
from rulesets.tiles import Tile
from simulator.spawn import SimulatorProcess
from tests.asyncio_support import run
from tests.firmware.test_restart import events_of, nth_take_of_hand_2


async def stop_then_resume(db: str, stop_when) -> tuple[list[dict], list[dict]]:
    ruleset = get_region("dongbei").resolve()
    first, second = io.StringIO(), io.StringIO()
    async with SimulatorProcess("--seed", "3", "--speed", "0", "--ruleset", ruleset.id, "--players-seed", "3") as sim:
        tags = [Registered(t.uid, Tile.parse(t.tile), t.set_index, t.copy) for t in await sim.control.registry()]

        async def play(events: io.StringIO, hands: int | None, on_event=None):
            registry = TileRegistry()
            registry.enroll(tags)
            return await _play(sim.endpoints, registry, ruleset, hands, monotonic_clock(), None, events=events,
                               ledger_path=db, settings_path=None, on_event=on_event, on_session=None,
                               resume=True, events_path=None)

        stopped = asyncio.Event()
        controller = asyncio.create_task(play(first, None, lambda e: stop_when(e) and stopped.set()))
        await asyncio.wait({controller, asyncio.ensure_future(stopped.wait())}, return_when=asyncio.FIRST_COMPLETED)
        assert stopped.is_set(), "the first controller ended before the moment to stop it"
        controller.cancel()
        await asyncio.gather(controller, return_exceptions=True)
        await play(second, 1)
    return events_of(first), events_of(second)


def test_a_draw_made_while_the_session_stops_is_recorded_once(tmp_path, monkeypatch):
    journal_at_stop = HandJournal.at_stop
    waited = []

    async def then_the_next_event(journal: HandJournal, session: int | None) -> None:
        """Once the hand is journaled, the board's next events come (while the session applies events)."""
        await journal_at_stop(journal, session)
        hub = journal._hub
        link = hub.devices.motor.link
        delivered = link.events_delivered
        if not waited and journal._open_hand() is not None:
            clients = {"motor": hub.devices.motor, "rfid": hub.devices.rfid}
            for source, mark in dict(hub.applied).items():      # what a commit of the journal releases
                clients[source].link.release(mark)
            while link.events_delivered == delivered and hub.applies_events:
                await asyncio.sleep(0.001)
            waited.append(link.events_delivered - delivered)
            for _ in range(3):
                await asyncio.sleep(0)               # a session still applying events applies them now

    monkeypatch.setattr(HandJournal, "at_stop", then_the_next_event)
    before, after = run(stop_then_resume(str(tmp_path / "table.db"), nth_take_of_hand_2(60)), timeout=120)
    assert waited
    resumed = next(e for e in after if e["event"] == "resumed")
    taken_before = [e for e in before if e["event"] == "take" and e["hand"] == 2]
    assert len(resumed["taken"]) == len(taken_before)     # the journal holds what the recorder says
    report = audit_recorders([recorder_from_events("first", before), recorder_from_events("second", after)])
    assert [str(p) for p in report.problems] == []
