"""The table's wall clock set back while it runs (a time sync correcting a clock that ran ahead):
its status still goes out every heartbeat.  Before, the pace was measured on the wall clock, and a
clock set back an hour meant an hour without a status: the parlour saw the table go quiet."""

import time

from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.topics import Topics
from tests.asyncio_support import run
from tests.fleet.support import Subscriber, settings_for


class SettableClock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


def test_the_heartbeat_goes_on_when_the_clock_is_set_back_an_hour(broker, tmp_path):
    topics, clock = Topics("c1"), SettableClock()

    async def go():
        publisher = FleetPublisher(settings_for(broker, "c1", heartbeat=0.3), tmp_path / "outbox.db", clock=clock)
        async with Subscriber(broker, topics.status) as sub:
            await publisher.start()
            try:
                await sub.wait_for(lambda: sub.on(topics.status))
                clock.offset = -3600.0
                await sub.wait_for(lambda: len([m for m in sub.on(topics.status)
                                                if m.json().get("updated", 1e18) < time.time() - 3000]) >= 2)
            finally:
                await publisher.stop()
        return sub

    sub = run(go(), timeout=60)
    stamps = [m.json()["updated"] for m in sub.on(topics.status) if "updated" in m.json()]
    assert stamps[0] > time.time() - 60 and min(stamps) < time.time() - 3000
