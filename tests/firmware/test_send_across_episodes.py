"""A command that fails because its link was just lost, before the board's event pump has seen the
episode begin, must wait for the episode (the pump's reconnection) and not spin: the resend loop once
held the event loop and grew without bound in memory (a controller at 9 GB at the dice roll)."""

import asyncio
import io
from types import SimpleNamespace

from drivers.errors import LinkLost
from firmware.build.registry import TileRegistry
from firmware.controller import TableController
from firmware.devices import Devices
from firmware.records.recorder import FlightRecorder
from rulesets.regions import get_region
from tests.asyncio_support import run


async def a_command_failed_by_an_episode_the_pump_sees_later(tmp_path):
    hub = TableController(Devices(SimpleNamespace(seat_text_bytes=16), None), get_region("guangshui").resolve(), TileRegistry(tmp_path / "t.db"),
                          FlightRecorder(io.StringIO(), clock=lambda: 0.0))
    attempts = []

    async def seat_line():                      # fails once: the link is gone, the pump does not know yet
        attempts.append(hub.links.episodes)
        if len(attempts) == 1:
            raise LinkLost("nothing received for 700 ms")

    async def pump_sees_the_episode():          # the pump's part, once the loop lets it run
        hub.links.down.add("motor")
        hub.links.episodes += 1
        await asyncio.sleep(0)
        hub.links.down.discard("motor")
        await hub._notify()

    sending = asyncio.create_task(hub.send(seat_line))
    await asyncio.sleep(0)                      # the command has failed by now; the loop must be free
    await pump_sees_the_episode()
    await sending
    await hub.worker.stop()                     # never started here: nothing to end
    return attempts


def test_a_command_failed_by_an_unseen_episode_waits_for_it_then_is_sent_again(tmp_path):
    attempts = run(a_command_failed_by_an_episode_the_pump_sees_later(tmp_path), timeout=20)
    assert attempts == [0, 1]                   # sent again once, after the episode
