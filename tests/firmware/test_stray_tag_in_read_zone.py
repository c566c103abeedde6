"""A tag of no registered tile in a seat's read zone (a card or a phone near the antenna, a stray tag)
is no tile: the laid tiles are judged without it and the event counts it (`stray_tags`), as the set
check counts those beside the walls.  Before, one stray tag refused every 长春 special kong laid
("the laid tiles are not a 幺蛋"), every 长沙 opening small win and every 沈阳 亮牌, and sent every
win to entry on the seat panel (found by the fault campaign with read faults, seed 300031, 长春: a
喜杠 refused, then two 诈胡 on a hand that held it)."""

from __future__ import annotations

import io
import json

import pytest

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from tests.asyncio_support import run


def played(region: str, seed: int, faults: tuple[str, ...]) -> tuple[tuple[int, ...], list[dict]]:
    events = io.StringIO()
    result = run(run_simulated(get_region(region).resolve(), hands=3, seed=seed, events=events, faults=faults),
                 timeout=120)
    return result.totals, [json.loads(line) for line in events.getvalue().splitlines()]


@pytest.mark.parametrize("region, seed, declared", [("changchun", 2, "special_kong"), ("changsha", 3, "opening_win"),
                                                   ("shenyang", 3, "liang_pai")])
def test_a_stray_tag_beside_every_read_changes_no_judgement(region, seed, declared):
    totals, events = played(region, seed, ())
    stray_totals, stray_events = played(region, seed, ("foreign_tag=1",))     # a stray tag at every read

    def judged(log: list[dict]) -> list[tuple]:
        return [(e["hand"], e["seat"], e["tiles"], e["accepted"]) for e in log if e["event"] == declared]

    assert judged(events), f"no {declared} in these hands: choose another seed"
    assert judged(stray_events) == judged(events)
    assert all(e.get("stray_tags", 0) >= 1 for e in stray_events if e["event"] == declared)
    assert stray_totals == totals
    assert not [e for e in stray_events if e["event"] in ("false_win", "zone_fallback")]
    said = [e for e in stray_events if e["event"] == "warning" and e.get("stray_tags")]
    assert len(said) == sum(e["event"] == "win" for e in stray_events)      # once a win's hand is read
