"""A table restarted into its session tells the parlour its day at once: the session's start, the
hands and hours played today (they were null until the next hand ended, up to five minutes)."""

from firmware.fleet.publisher import FleetPublisher
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.fleet.support import Subscriber, play, settings_for


def test_a_resumed_session_publishes_todays_hands_and_hours_at_once(broker, tmp_path):
    ledger = tmp_path / "table.db"

    async def first_run():
        publisher = FleetPublisher(settings_for(broker, "r1"), tmp_path / "outbox.db", ledger)
        await publisher.start()
        try:
            await play("wuhan", 2, 5, ledger, follow=publisher.attach)
        finally:
            await publisher.stop()

    async def resumed():
        publisher = FleetPublisher(settings_for(broker, "r1"), tmp_path / "outbox.db", ledger)
        await publisher.start()
        try:
            async with Subscriber(broker, publisher.topics.status) as sub:
                await run_simulated(get_region("wuhan").resolve(), hands=0, seed=5, ledger_path=str(ledger),
                                    resume=True, on_session=lambda s: publisher.attach(s.public_feed()))
                status = await sub.wait_for(lambda: [m.json() for m in sub.on(publisher.topics.status)
                                                     if m.json()["status"] == "online" and m.json().get("hands_today") == 2], 15)
        finally:
            await publisher.stop()
        return status[-1]

    run(first_run(), timeout=90)
    status = run(resumed(), timeout=60)
    assert status["status"] == "online" and status["session_started"] is not None and status["hours_today"] is not None
