"""贵州 打明鸡 on a kong at the simulated table: 「而且有杠牌 就要翻第四墩～以此类推」 (RULES.md §13.2–13.3,
[000:55]).  Seeded hands with kongs (seed 5: hand 1 one kong, hand 7 two): after each kong's replacement the
top of the (3 + k)-th stack from the wall's original tail is turned up, recorded as an `indicator` with its
`kong`; the win and the settlement round count every 明鸡 (ming_ji_kong=add) or only the latest (move); the
recorder's audit finds the logs sound and flags a 明鸡 at the wrong stack, or one a kong never turned up."""

import copy
import io

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run
from tests.e2e.test_payments_owed import hands_of

HANDS = 7


def played(kong: str) -> list[dict]:
    events = io.StringIO()
    ruleset = get_region("guizhou").resolve({"ming_ji": "on", "ming_ji_kong": kong})
    result = run(run_simulated(ruleset, hands=HANDS, seed=5, events=events), timeout=180)
    assert result.hands == HANDS
    return read_events(events.getvalue().splitlines())


@pytest.fixture(scope="module", params=["add", "move"])
def log(request) -> tuple[str, list[dict]]:
    return request.param, played(request.param)


def test_each_kong_turns_up_the_next_stack_and_the_wins_count_it(log):
    kong, events = log
    assert audit_events(events) == []
    turned = 0
    for hand in hands_of(events):
        stacks = hand[0]["ring_stacks"]
        kongs = 0
        standing: list[str] = []
        after_win: list[str] = []
        flips: list[str] = []
        for index, event in enumerate(hand):
            if event["event"] == "take" and event["reason"] == "kong" and not any(e["event"] == "win" for e in hand[:index]):
                kongs += 1
                reveal = next(e for e in hand[index + 1:] if e["event"] in ("indicator", "take", "win"))
                assert reveal["event"] == "indicator" and reveal["kong"] == kongs, reveal
                assert reveal["ring"] == [stacks - 3 - kongs] and reveal["layer"] == ["top"]
                assert reveal["timing"] == "after_deal" and reveal["effect"] == "paying" and reveal["tile"]
                turned += 1
            elif event["event"] == "indicator" and event["timing"] == "after_deal":
                if event.get("kong") is None:
                    assert event["ring"] == [stacks - 3]
                standing = list(event["tile"]) if kong == "move" else standing + event["tile"]
            elif event["event"] == "indicator" and event["timing"] == "after_win":
                after_win += event["tile"]
            elif event["event"] == "win":        # (一炮多响: each win's check records the same flip again)
                assert event["context"]["flipped"] == standing + after_win, event
                flips, after_win = after_win, []
            elif event["event"] == "settlement":
                assert event["flipped"] == standing + flips, event
    assert turned >= 3


def test_the_audit_flags_a_ming_ji_at_the_wrong_stack(log):
    _, events = log
    bad = copy.deepcopy(events)
    reveal = next(e for e in bad if e["event"] == "indicator" and e.get("kong") == 1)
    reveal["ring"] = [reveal["ring"][0] + 1]             # the 3rd stack again, not the 4th
    problems = audit_events(bad)
    assert any("the rules put it at" in p for p in problems), problems


def test_the_audit_flags_a_kong_that_turned_up_no_ming_ji(log):
    _, events = log
    reveal = next(e for e in events if e["event"] == "indicator" and e.get("kong") == 1)
    problems = audit_events([e for e in events if e is not reveal])
    assert any("kong 1 turned up no 鸡" in p for p in problems), problems


def test_with_none_a_kong_turns_up_nothing():
    events = played("none")
    assert audit_events(events) == []
    assert any(e["event"] == "take" and e["reason"] == "kong" for e in events)
    assert not any(e["event"] == "indicator" and "kong" in e for e in events)


class _MingJiRegion:
    """`crash_and_restart` resolves its region with the defaults: this one with 打明鸡 on."""

    def __init__(self, kong: str) -> None:
        self.kong = kong

    def resolve(self, options=None):
        return get_region("guizhou").resolve({"ming_ji": "on", "ming_ji_kong": self.kong})


@pytest.mark.parametrize("kong", ["add", "move"])
def test_killed_at_a_kongs_replacement_the_restarted_table_turns_its_ming_ji_up_once(tmp_path, monkeypatch, kong):
    """The controller is killed (its writes lost) as a kong's replacement is taken in hand 2, before the
    journal holds the take or its 明鸡: the restarted controller sees the take on the sensors and turns the
    明鸡 up once, at the (3 + k)-th stack from the original tail; the log audits sound."""
    import threading

    import tests.firmware.test_restart as restart
    from tests.firmware.lost_writes import lose_writes_while, stop_options

    monkeypatch.setattr(restart, "get_region", lambda region_id: _MingJiRegion(kong))
    down = threading.Event()
    lose_writes_while(down, monkeypatch)

    def kong_take(event: dict) -> bool:
        # (one well before the wall's end: there the head may have drawn the stack meanwhile, and the
        # restarted table rightly turns up nothing)
        return event["hand"] >= 2 and event["event"] == "take" and event["reason"] == "kong" and event["live"] >= 20

    db = str(tmp_path / "table.db")
    result, before, after = run(restart.crash_and_restart("guizhou", 5, db, kong_take,
                                                          **stop_options(down, killed=True)), timeout=120)
    assert result.hands == 2
    resumed = next(e for e in after if e["event"] == "resumed")
    stacks = resumed["ring_stacks"]
    hand = [e for e in after if e["hand"] == resumed["hand"]]
    kong_reveals = [e for e in hand if e["event"] == "indicator" and e.get("kong") is not None]
    kongs_taken = [t for t in resumed["taken"] if t[3] == "kong"] + \
        [e for e in hand if e["event"] == "take" and e["reason"] == "kong"]
    assert kong_reveals, hand
    assert sorted(e["kong"] for e in kong_reveals) == list(range(1, len(kong_reveals) + 1))
    assert all(e["ring"] == [stacks - 3 - e["kong"]] and e["layer"] == ["top"] for e in kong_reveals)
    assert len(kong_reveals) <= len(kongs_taken)
    assert audit_events(after) == []
