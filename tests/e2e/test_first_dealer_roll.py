"""The session's first dealer chosen by a roll where the text says so (house option first_dealer):
螺山 「第一盘由任意一家掷骰子，由这一家开始逆时针数掷出的骰子点数和即为庄家」, and 上海, 广东鸡胡, 云南, 长春
and 吉林 (「第一把系统随机选一个人做庄」), whose first dealer is chosen at random.  Before, side 0 always dealt first, whatever the text said.

Side 0 is asked 请掷骰子定庄 before the hand's own dice; the sum counted 逆时针 from side 0 names the
dealer, who deals the hand (hand_start) and is recorded with the roll (`first_dealer`); only the
session's first hand rolls for it.
"""

from __future__ import annotations

import io

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.dice import dealer_by_roll
from rulesets.regions import get_region
from tests.asyncio_support import run


def played(region_id: str, options: dict[str, str], hands: int = 2, seed: int = 6) -> list[dict]:
    events = io.StringIO()
    result = run(run_simulated(get_region(region_id).resolve(options), hands=hands, seed=seed, events=events),
                 timeout=180)
    assert result.hands == hands
    return read_events(events.getvalue().splitlines())


@pytest.mark.parametrize("region_id", ["luoshan", "yunnan", "changchun"])
def test_the_session_s_first_hand_is_dealt_by_the_seat_its_roll_names(region_id):
    log = played(region_id, {})
    (roll,) = [e for e in log if e["event"] == "first_dealer"]
    starts = [e for e in log if e["event"] == "hand_start"]
    assert roll["hand"] == starts[0]["hand"] and roll["roller"] == 0 and len(roll["dice"]) == 2
    assert roll["dealer"] == dealer_by_roll(0, roll["dice"], starts[0]["sides"]) == starts[0]["dealer"]
    assert audit_events(log) == []


def test_with_first_dealer_east_side_0_deals_without_a_roll():
    log = played("luoshan", {"first_dealer": "east"}, hands=1)
    assert not any(e["event"] == "first_dealer" for e in log)
    assert next(e for e in log if e["event"] == "hand_start")["dealer"] == 0


def test_a_region_whose_text_names_no_roll_has_none():
    log = played("sichuan", {}, hands=1)
    assert not any(e["event"] == "first_dealer" for e in log)


def test_a_first_dealer_the_roll_does_not_name_is_found_by_the_audit():
    log = played("luoshan", {}, hands=1)
    roll = next(e for e in log if e["event"] == "first_dealer")
    other = (roll["dealer"] + 1) % 4
    problems = audit_events([dict(e, dealer=other) if e is roll else e for e in log])
    assert any(f"names seat {roll['dealer']}; the table said seat {other}" in p for p in problems), problems


def test_the_dealer_dice_and_the_count_are_the_text_s():
    """「由这一家开始逆时针数掷出的骰子点数和即为庄家」: the roller counts as 1."""
    assert dealer_by_roll(0, (1, 1), (0, 1, 2, 3)) == 1
    assert dealer_by_roll(0, (2, 2), (0, 1, 2, 3)) == 3
    assert dealer_by_roll(0, (4, 5), (0, 1, 2, 3)) == 0
    assert dealer_by_roll(2, (3, 4), (0, 1, 2, 3)) == 0
    for region_id in ("shanghai", "guangdong_jihu", "yunnan", "luoshan"):
        assert dict(get_region(region_id).resolve().options)["first_dealer"] == "dice"


def test_a_restart_as_the_first_dealer_is_rolled_deals_the_hand_by_a_roll_once(tmp_path):
    """Stopped abruptly as the roll is recorded: the next controller either resumes the hand (its
    journal held it, with its dealer) or rolls again (it did not): either way hand 1 is settled once,
    dealt by the seat a recorded roll names."""
    from firmware.records.ledger import Ledger
    from tests.firmware.test_restart import crash_and_restart

    db = str(tmp_path / "table.db")
    _, before, after = run(crash_and_restart("luoshan", 3, db, lambda e: e["event"] == "first_dealer"), timeout=180)
    rolled = [e for e in before + after if e["event"] == "first_dealer"]
    resumed = any(e["event"] == "resumed" and e["hand"] == 1 for e in after)
    assert len(rolled) == (1 if resumed else 2)
    assert audit_events(after) == []
    ledger = Ledger(db)
    try:
        rows = ledger._db.execute("SELECT number, dealer FROM hands ORDER BY number").fetchall()
    finally:
        ledger.close()
    assert [number for number, _ in rows] == [1, 2]
    assert rows[0][1] == rolled[-1]["dealer"]


def test_the_web_view_and_the_parlour_show_the_rolled_dealer_while_the_first_hand_is_played():
    """The session takes the rolled dealer on only once the first hand is settled; the web view's
    `dealer` (and the parlour's status, which reports it) showed side 0 meanwhile, against the 庄 on
    the screen.  Before: `dealer` 0 all through a hand side 1 dealt."""
    from firmware.fleet.payloads import status_payload
    from firmware.web.live import LiveTable
    from tests.web.test_live_after_restart import Feed

    log = played("luoshan", {}, hands=1, seed=6)
    start = next(e for e in log if e["event"] == "hand_start")
    assert start["dealer"] != 0, "this seed's roll names side 0: choose one that does not"
    mid_hand = log[:next(i for i, e in enumerate(log) if e["event"] == "take" and e["reason"] == "draw") + 1]
    feed, live = Feed("luoshan"), LiveTable()
    live.attach(feed)
    feed.tell(mid_hand)
    table = live.status({"table", "faults"})
    assert table["table"]["dealer"] == table["table"]["hand_dealer"] == start["dealer"]
    status = status_payload("t1", table, {}, now=0.0, heartbeat=30.0, version="test")
    assert status["dealer"] == start["dealer"]


def test_a_restart_in_the_first_hand_says_and_shows_the_rolled_dealer(tmp_path):
    """The session takes the rolled dealer on only once the first hand is settled: a restart in that
    hand said `session 1 resumed: … dealer seat 0` and put 庄 on side 0's line while another side
    dealt (a probe: two seats at 庄 until the hand's repaint).  The resumed session says the hand's."""
    from tests.firmware.test_restart import crash_and_restart

    db = str(tmp_path / "table.db")
    _, before, after = run(crash_and_restart("luoshan", 6, db, lambda e: e["event"] == "take" and e["reason"] == "draw"),
                           timeout=180)
    start = next(e for e in before if e["event"] == "hand_start")
    assert start["dealer"] != 0, "this seed's roll names side 0: choose one that does not"
    resumed = next(e for e in after if e["event"] == "session_resumed")
    assert any(e["event"] == "resumed" and e["hand"] == 1 for e in after)
    assert resumed["dealer"] == start["dealer"]
