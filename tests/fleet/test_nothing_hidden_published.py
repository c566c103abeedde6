"""Nothing hidden ever goes out: every payload the broker received from a table, over whole
simulated sessions of regions with a private 宝 (长春) and public indicators (杭州 财神 …), names
no tile of the unrevealed wall and no private 宝 before its hand ends.

The check is the web view's (tests/web/watch.py): an event is judged by what its own stream had
made public when it was sent (exact: the events topic is in order); a status by the hand it
reports (`hand`, `hand_over`), against everything that hand made public before it ended; a
settled hand and Home Assistant's discovery come after any hand's end, and are scanned for a
private seat line.
"""

import json

import pytest

from firmware.fleet.publisher import FleetPublisher
from firmware.fleet.topics import Topics, split_topic
from tests.asyncio_support import run
from tests.fleet.support import Subscriber, play, settings_for
from tests.web.watch import SHORT_PLAYS, SOAK_PLAYS, Context, Seen, Truth, WatchResult, assert_nothing_hidden


async def scanned(broker, region: str, hands: int, seed: int, tmp_path) -> WatchResult:
    truth = Truth()
    table = f"{region}{seed}"
    async with Subscriber(broker, "#") as sub:
        publisher = FleetPublisher(settings_for(broker, table), tmp_path / f"{table}.outbox.db",
                                   tmp_path / f"{table}.db")
        await publisher.start()
        try:
            result = await play(region, hands, seed, tmp_path / f"{table}.db", follow=publisher.attach,
                                on_event=truth.on_event)
        finally:
            await publisher.stop()
        status = Topics(table).status
        await sub.wait_for(lambda: any(m.json()["status"] == "offline" for m in sub.on(status)))
    return WatchResult(judged(sub.messages, table), truth, publisher.stats.refused, result.hands, {region})


def judged(messages, table: str) -> list[Seen]:
    """Each message of this table with the context it is judged in."""
    stream, public_at_end, out = Truth(), {}, []
    for message in messages:
        text = message.payload.decode("utf-8")
        where = split_topic(message.topic)
        if where is None or where[0] != table:
            out.append(Seen(message.topic, text, None))
            continue
        if where[1] == "events":
            event = json.loads(text)["event"]
            if event["event"] == "hand_end":
                public_at_end[event["hand"]] = frozenset(stream.allowed)
            stream.on_event(event)
            out.append(Seen("events", text, stream.context() if event["event"] != "hand_end" else None))
        else:
            out.append(Seen(where[1], text, None))
    for seen in out:                          # a status is judged by the hand it shows, once that hand's end is known
        if seen.kind == "status":
            status = json.loads(seen.text)
            hand = status.get("hand") or 0
            if hand and not status.get("hand_over") and hand in public_at_end:
                seen.context = Context(hand, public_at_end[hand])
    return out


def check(plays, broker, tmp_path):
    total, regions = 0, set()
    for region, hands, seed in plays:
        result = run(scanned(broker, region, hands, seed, tmp_path), timeout=60 + 30 * hands)
        assert_nothing_hidden(result, region, hands)
        during = [s for s in result.seen if s.context is not None and s.context.hand]
        assert len([s for s in during if s.kind == "events"]) > 50 and [s for s in during if s.kind == "status"], \
            "the scan must have seen the table's events and statuses during its hands"
        assert len([s for s in result.seen if s.kind == "hands"]) == hands
        total += hands
        regions.add(region)
    return total, regions


def test_a_short_session_of_private_and_public_indicators_publishes_nothing_hidden(broker, tmp_path):
    check(SHORT_PLAYS, broker, tmp_path)


@pytest.mark.soak
def test_fifty_hands_across_nine_regions_publish_nothing_hidden(broker, tmp_path):
    total, regions = check(SOAK_PLAYS, broker, tmp_path)
    assert total >= 50 and len(regions) >= 8
