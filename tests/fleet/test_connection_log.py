"""What the log says about the broker link: a clash of client ids named once (two tables with one name
knocked each other off the broker, and each logged a line a second that named no cause), and the
broker's return after failures."""

import asyncio
import logging
import threading

from firmware.fleet.publisher import FleetPublisher
from tests.asyncio_support import run
from tests.fleet.support import settings_for


def lines(caplog, words):
    return [r for r in caplog.records if r.name == "firmware.fleet" and words in r.getMessage()]


def test_two_tables_with_one_name_are_told_the_likely_cause_once(broker, tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger="firmware.fleet")

    async def go():
        twins = [FleetPublisher(settings_for(broker, "t5"), tmp_path / f"{i}.outbox.db") for i in range(2)]
        for twin in twins:
            await twin.start()
        try:
            async with asyncio.timeout(40):
                while len(lines(caplog, "same client id")) < 2 or sum(twin.stats.connections for twin in twins) < 16:
                    await asyncio.sleep(0.2)
        finally:
            for twin in twins:
                await twin.stop(grace=0.5)

    run(go(), timeout=60)
    named = lines(caplog, "same client id")
    assert len(named) == 2 and all("'mjt-t5'" in r.getMessage() for r in named)   # once for each twin
    warned = [r for r in caplog.records if r.name == "firmware.fleet" and r.levelno >= logging.WARNING]
    assert len(warned) <= 2 * 3, [r.getMessage() for r in warned]          # not a line for every drop


def test_the_brokers_return_after_failures_is_said(broker, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="firmware.fleet")
    broker.stop()

    async def go():
        publisher = FleetPublisher(settings_for(broker, "t6"), tmp_path / "outbox.db")
        await publisher.start()
        try:
            async with asyncio.timeout(20):
                while not lines(caplog, "unreachable"):
                    await asyncio.sleep(0.1)
            starting = threading.Thread(target=broker.start)
            starting.start()
            await asyncio.get_running_loop().run_in_executor(None, starting.join)
            await asyncio.wait_for(publisher.connected.wait(), 20)
        finally:
            await publisher.stop(grace=1)

    run(go(), timeout=60)
    (back,) = lines(caplog, "connected to the broker again after")
    assert back.levelno == logging.INFO
