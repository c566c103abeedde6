"""Durable acknowledgement (protocol.md §3.4): a host holding acks acknowledges an event only once
its client released it (made it durable); the board keeps every other one and sends it again
after a RESUME — to this host, which does not deliver it twice, or to a restarted one, which
skips those its journal says were applied."""

from __future__ import annotations

import dataclasses

import pytest

from drivers.board_link import BoardLinkConfig
from drivers.link import EventMark, LinkConfig, SessionRef
from drivers.motor import MotorBoard
from drivers.reconnect import reconnect
from tests.asyncio_support import run
from tests.drivers.test_link_resume import Bench, bench, press

pytestmark = pytest.mark.timeout(60)

HOLDING = LinkConfig(hold_acks=True)


async def frames_later(client: MotorBoard, count: int) -> None:
    """Until the host sent `count` more frames (each beat or ack carries its acknowledgement)."""
    start = client.statistics().frames_sent
    await until(lambda: client.statistics().frames_sent >= start + count)


async def until(predicate, step: float = 0.01) -> None:
    import asyncio
    while not predicate():
        await asyncio.sleep(step)


async def close(client: MotorBoard, b: Bench) -> None:
    await client.close()
    b.board.stop()
    await b.wire.close()


async def holding_bench(presses: int) -> tuple[Bench, list, list]:
    """A host holding its acks, and `presses` keys the board reported and it read (with their marks)."""
    b = bench(config=HOLDING)
    await b.motor.connect()
    sent = press(b.board, 0, presses)
    return b, sent, await read(b.motor, presses)


async def read(client: MotorBoard, count: int) -> list:
    got = []
    for _ in range(count):
        got.append((await client.next_event(5), client.last_mark))
    return got


def test_an_event_not_released_is_never_acknowledged_and_a_restarted_host_gets_it_again():
    async def main():
        b, sent, got = await holding_bench(3)
        assert [event for event, _ in got] == sent
        b.motor.link.release(got[0][1])                         # only the first is durable
        await until(lambda: b.board.unacked_events == 2)
        await frames_later(b.motor, 5)                          # beats went on: still not acknowledged
        assert b.board.unacked_events == 2
        journal = dataclasses.replace(b.motor.link.session_ref, applied=None)
        await b.motor.close()                                   # a kill before the journal caught up
        second = MotorBoard(b.new_host_end(), config=HOLDING)
        assert (await second.connect(journal)).resumed
        again = await read(second, 2)
        assert [event for event, _ in again] == sent[1:]        # the two not released, in order
        await frames_later(second, 5)
        assert b.board.unacked_events == 2 and second.pending_events() == []
        second.link.release(again[-1][1])
        await until(lambda: b.board.unacked_events == 0)
        await close(second, b)
    run(main(), timeout=30)


def test_a_restarted_host_skips_the_events_its_journal_says_were_applied():
    async def main():
        b, sent, got = await holding_bench(4)
        applied = got[1][1]                     # the journal holds the first two; not yet committed
        journal = SessionRef(applied.session, b.motor.identity.boot_counter, applied=applied.seq)
        await b.motor.close()
        assert b.board.unacked_events == 4
        second = MotorBoard(b.new_host_end(), config=HOLDING)
        assert (await second.connect(journal)).resumed
        assert await second.next_event(5) == sent[2]            # never the first two again
        assert await second.next_event(5) == sent[3]
        second.link.release(second.last_mark)
        await until(lambda: b.board.unacked_events == 0)        # the skipped ones are released with it
        assert second.pending_events() == []
        await close(second, b)
    run(main(), timeout=30)


def test_after_a_lost_link_the_board_resends_what_was_not_released_and_it_is_delivered_once():
    async def main():
        b, sent, got = await holding_bench(3)
        await b.lose()
        b.wire.faults.silent = False
        resent = b.board.counters.events_resent
        outcome = await reconnect(b.motor)
        assert outcome.resumed
        await until(lambda: b.board.counters.events_resent >= resent + 3)     # all three again
        later = press(b.board, 10, 1)
        assert await b.motor.next_event(5) == later[0]            # …but delivered once only
        assert b.motor.pending_events() == [] and b.board.unacked_events == 4
        b.motor.link.release(got[-1][1])                          # a mark from before the cut still counts
        await until(lambda: b.board.unacked_events == 1)
        b.motor.link.release(b.motor.last_mark)
        await until(lambda: b.board.unacked_events == 0)
        assert [e for e, _ in got] == sent
        await b.close()
    run(main(), timeout=30)


def test_a_mark_of_another_session_releases_nothing():
    async def main():
        b, _, got = await holding_bench(2)
        mark = got[1][1]
        stale = EventMark(mark.session ^ 0x1111, mark.seq)
        b.motor.link.release(stale)
        await frames_later(b.motor, 5)
        assert b.board.unacked_events == 2
        await b.close()
    run(main(), timeout=30)


def test_events_released_as_they_come_free_the_boards_window_without_waiting_for_a_timer():
    """A burst longer than the board's window of 32 (a build's pushes and reads): once 8 released
    events are unacknowledged, the host acknowledges at once, as it does events it does not hold.
    Here no beat and no ack timer fires during the test, so the events past the first window come
    only through those acknowledgements."""
    async def main():
        quiet = dataclasses.replace(HOLDING, heartbeat=60.0, link_timeout=120.0, event_ack_delay=60.0)
        b = bench(config=quiet, board_config=BoardLinkConfig(link_timeout=120.0))
        await b.motor.connect()
        sent = press(b.board, 0, 100)
        got = []
        for _ in sent:
            got.append(await b.motor.next_event(20))
            b.motor.link.release(b.motor.last_mark)
        assert got == sent
        await close(b.motor, b)
    run(main(), timeout=40)
