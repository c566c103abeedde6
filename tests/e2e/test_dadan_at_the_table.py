"""长春 大蛋 at the simulated table (house option dadan=laid): 「明大蛋2倍底注，暗大蛋4倍底注」 (RULES.md §1.7).

The table knows a kong by its 杠 press, not its tiles; with dadan=laid each seat that made a kong lays its
明杠, then its 暗杠, at the end of the hand, and the 大蛋 among them are paid twice their kong.  The same
seed plays the same hands with the option off: the totals differ by exactly the 大蛋 paid (seed 1: a 明大蛋
of 白板 in one hand), and the recorder's audit re-scores the round and refuses one whose laid kongs were
rewritten."""

import copy
import io

import pytest

from firmware.records.audit import audit_events, read_events
from firmware.simulated import run_simulated
from rulesets.hand import parse_meld
from rulesets.regions import get_region
from rulesets.scoring.changchun import DADAN_KINDS
from rulesets.tiles import Tile
from tests.asyncio_support import run
from tests.e2e.test_payments_owed import hands_of
from tests.records.tampering import reseal

HANDS = 8


def played(dadan: str) -> tuple[tuple[int, ...], list[dict]]:
    events = io.StringIO()
    result = run(run_simulated(get_region("changchun").resolve({"dadan": dadan}), hands=HANDS, seed=1, events=events),
                 timeout=240)
    assert result.hands == HANDS
    return result.totals, read_events(events.getvalue().splitlines())


@pytest.fixture(scope="module")
def runs() -> dict[str, tuple[tuple[int, ...], list[dict]]]:
    return {dadan: played(dadan) for dadan in ("plain", "laid")}


def kong_seats(hand: list[dict]) -> list[int]:
    """The seats whose 杠 press a kong replacement followed."""
    seats, pending = set(), []
    for event in hand:
        if event["event"] == "kong_declared":
            pending.append(event["seat"])
        elif event["event"] == "take" and event["reason"] == "kong" and pending:
            seats.add(pending.pop(0))
        elif event["event"] == "kong_lapsed" and event["seat"] in pending:
            pending.remove(event["seat"])
    return sorted(seats)


def test_the_kong_seats_lay_their_kongs_and_each_dadan_is_paid_twice(runs):
    (plain_totals, plain), (laid_totals, laid) = runs["plain"], runs["laid"]
    assert audit_events(plain) == [] and audit_events(laid) == []
    assert not any(e["event"] == "settlement" for e in plain)
    paid = [0, 0, 0, 0]
    dadan = 0
    for hand in hands_of(laid):
        rounds = [e for e in hand if e["event"] == "settlement"]
        seats = kong_seats(hand)
        assert [r["seats"] for r in rounds] == ([seats] if seats else []), (seats, rounds)
        for round_ in rounds:
            for laid_hand in round_["hands"]:
                assert laid_hand["tiles"] == [] and all(parse_meld(m).is_kong for m in laid_hand["melds"])
            for item in round_["items"]:
                dadan += 1
                assert "大蛋" in item["name"] and item["value"] == (2 if item["name"].startswith("暗") else 1)
            paid = [p + q for p, q in zip(paid, round_["payments"])]
    assert dadan >= 1                                   # seed 1: a 明大蛋 of 白板
    assert [lt - pt for lt, pt in zip(laid_totals, plain_totals)] == paid


def test_a_round_whose_laid_kongs_were_rewritten_is_refused(runs):
    _, events = runs["laid"]
    edited = copy.deepcopy(events)
    round_ = next(e for e in edited if e["event"] == "settlement" and e["items"])
    for laid_hand in round_["hands"]:
        laid_hand["melds"] = [_plain_kong(m) for m in laid_hand["melds"]]
    found = audit_events(reseal(edited))
    assert any("the settlement round lists" in p for p in found), found


def _plain_kong(meld: str) -> str:
    """The same kong of 二万 instead (no 大蛋)."""
    prefix = meld[:meld.index(":") + 1] if ":" in meld else ""
    return prefix + "2222m"


def test_the_dadan_kinds_are_the_texts():
    """「四个幺鸡、幺饼、红中、发财、白板的杠牌」 / 「一条、一简、红中、发财、白板这五种牌的刻子」."""
    assert DADAN_KINDS == {Tile.parse(t) for t in ("1s", "1p", "7z", "6z", "5z")}
