"""贵州 打明鸡 at the simulated table: 「打明鸡 起牌后三墩翻起～如翻2条，3条就是鸡。有3条就有钱！！！」 (RULES.md
§13.2, [000:55]).  Six seeded hands with ming_ji=on: the 明鸡 turned up after the deal makes 鸡 that
the win pays the winner for and the settlement round pays each ready seat for, beside the after-win
flip's and 1条 (found by an audit: hand 1's winner held the 明鸡's 7条 and hand 5's ready seat a 3条 碰
under a 2条 明鸡, and neither was paid).  (The recorder's audit needs firmware/records to count the
明鸡 among the flips too: tests/e2e/test_option_variants.py holds the table to it.)"""

import io
from collections import Counter

from firmware.records.audit import read_events
from firmware.simulated import run_simulated
from rulesets.hand import Hand, parse_meld
from rulesets.regions import get_region
from rulesets.scoring.guizhou import chicken_kinds, held_chickens
from rulesets.tiles import Tile
from tests.asyncio_support import run
from tests.e2e.test_payments_owed import hands_of

RULESET = get_region("guizhou").resolve({"ming_ji": "on", "ming_ji_kong": "none"})   # a kong's 明鸡: test_guizhou_kong_ji


def laid(data: dict) -> Hand:
    return Hand(tuple(map(Tile.parse, data["tiles"])), tuple(map(parse_meld, data["melds"])),
                tuple(map(Tile.parse, data.get("flowers", ()))))


def chickens(hand: Hand, flipped: list[str]) -> int:
    kinds, _ = chicken_kinds(RULESET, tuple(map(Tile.parse, flipped)))
    return sum(1 for t in held_chickens(RULESET, hand) if t in kinds)


def ji_paid(items: list[dict], seat: int) -> int:
    """The 鸡 count an item names for `seat` (0 when none)."""
    name = next((i["name"] for i in items if i["pinyin"] == "ji" and i["name"].endswith(f"(side {seat})")), None)
    return 0 if name is None else int(name.split("×")[1].split()[0])


def test_the_ming_ji_is_paid_in_the_win_and_in_the_settlement_round():
    events = io.StringIO()
    result = run(run_simulated(RULESET, hands=6, seed=5, events=events), timeout=180)
    assert result.hands == 6
    tally: Counter = Counter()
    for hand in hands_of(read_events(events.getvalue().splitlines())):
        (ming,) = [e for e in hand if e["event"] == "indicator" and e["timing"] == "after_deal"]
        assert ming["kind"] == "ji" and ming["effect"] == "paying" and ming["tile"]
        after_win: list[str] = []
        for event in hand:
            if event["event"] == "indicator" and event["timing"] == "after_win":
                after_win += event["tile"]
            elif event["event"] == "win":
                flipped = event["context"]["flipped"]
                assert flipped == ming["tile"] + after_win, event
                winner = laid(event)
                assert ji_paid(event["items"], event["seat"]) == chickens(winner, flipped), event
                tally["wins paid a 明鸡's 鸡"] += chickens(winner, flipped) > chickens(winner, after_win)
            elif event["event"] == "settlement":
                assert event["flipped"] == ming["tile"] + after_win, event
                for shown in event["hands"]:
                    count = chickens(laid(shown), event["flipped"]) if shown["seat"] in event["ready"] else 0
                    assert ji_paid(event["items"], shown["seat"]) == count, (shown, event)
                    tally["ready seats paid a 明鸡's 鸡"] += count > chickens(laid(shown), after_win)
    assert tally["wins paid a 明鸡's 鸡"] >= 1 and tally["ready seats paid a 明鸡's 鸡"] >= 1, tally
