"""Several wins in one hand (a probe of the money at the table).

- 广东鸡胡, 一炮三响 (seed 3, hand 8): each of the three winners' settlements paid the 杠 stake of the
  one kong made in the hand, so its maker collected it three times.  A kong is paid once, with the
  hand's first win (`extra.first_win`; RULES.md §7.7, rulesets/scoring/guangdong.py).
- 四川 血战 (seed 12): a win on a discard counted as another winner on it every earlier win off that
  discarder, and the win line said `ron_winners 2` where one seat won."""

from __future__ import annotations

import io
import json

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def play(region_id: str, seed: int, hands: int) -> list[dict]:
    events = io.StringIO()
    run(run_simulated(get_region(region_id).resolve(), hands=hands, seed=seed, speed=0.0, events=events), timeout=120)
    return [json.loads(line) for line in events.getvalue().splitlines()]


def wins_by_hand(log: list[dict]) -> dict[int, list[dict]]:
    found: dict[int, list[dict]] = {}
    for event in log:
        if event["event"] == "win":
            found.setdefault(event["hand"], []).append(event)
    return found


def test_a_kong_is_paid_once_when_three_win_on_one_discard():
    log = play("guangdong_jihu", 3, 8)
    wins = wins_by_hand(log)
    assert len(wins[8]) == 3 and {w["context"]["extra"]["ron_winners"] for w in wins[8]} == {3}
    for hand, hand_wins in wins.items():
        paying = [w["seat"] for w in hand_wins if any(i["pinyin"] == "gang" for i in w["items"])]
        assert len(paying) <= 1, (hand, paying)
        assert [w["context"]["extra"]["first_win"] for w in hand_wins] == [True] + [False] * (len(hand_wins) - 1)
    assert any(i["pinyin"] == "gang" for i in wins[8][0]["items"])     # paid, with the first win
    assert audit_events(read_events([json.dumps(e) for e in log])) == []


def test_winners_on_a_discard_count_only_that_discard_s():
    log = play("sichuan", 12, 3)
    groups: list[list[dict]] = [[]]
    for event in log:
        if event["event"] in ("take", "hand_end"):
            groups.append([])
        elif event["event"] == "win" and event["from"] is not None:
            groups[-1].append(event)
    counted = 0
    for group in groups:
        for win in group:
            same = [w for w in group if w["from"] == win["from"]]
            assert win["context"]["extra"]["ron_winners"] == len(same), (win["hand"], win["seat"])
            counted += 1
    assert counted >= 2
