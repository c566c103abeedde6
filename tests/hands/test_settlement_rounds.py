"""The settlement round's rules (rulesets/rounds.py): who lays a hand at the end, and what it pays."""

import pytest

from rulesets.hand import Hand
from rulesets.regions import REGION_IDS, get_region
from rulesets.rounds import RoundContext, SeatShown, judge_round, legal_waits, round_seats
from rulesets.tiles import Tile

GUIZHOU = get_region("guizhou").resolve()
YUNNAN = get_region("yunnan").resolve()
YICHANG = get_region("yichang").resolve()


def shown(side, tiles, melds=()):
    return SeatShown(side, Hand.parse(tiles, list(melds)))


def test_who_is_asked():
    """贵州 and 南昌 (every side's 精分): after a win, every seat that did not win; 云南: every seat at a
    draw only (查大叫); 宜昌: every seat at the end (查花猪); a region without such a rule: nobody."""
    assert round_seats(GUIZHOU, (2,)) == (0, 1, 3)
    assert round_seats(GUIZHOU, ()) == ()
    assert round_seats(YUNNAN, ()) == (0, 1, 2, 3) and round_seats(YUNNAN, (1,)) == ()
    assert round_seats(YICHANG, (0, 1)) == (0, 1, 2, 3)
    asking = {r for r in REGION_IDS if round_seats(get_region(r).resolve(), ()) or round_seats(get_region(r).resolve(), (0,))}
    assert asking == {"guizhou", "yunnan", "yichang", "nanchang", "wenzhou"}


def test_a_ready_hand_has_the_waits_the_rules_accept():
    """贵州 must lack a suit (四川's 缺一门): a three-suit hand waiting on a shape has no legal wait."""
    assert legal_waits(GUIZHOU, Hand.parse("11s234s567s789s12m"), 1, 0) == (Tile.M3,)
    assert legal_waits(GUIZHOU, Hand.parse("11s234s567s789p12m"), 1, 0) == ()
    assert legal_waits(YUNNAN, Hand.parse("123m456m789m123p5p"), 1, 0) == (Tile.P5,)


def test_a_wait_on_a_kind_the_hand_holds_all_of_is_no_wait():
    assert legal_waits(YUNNAN, Hand.parse("111m234m567m789p5p"), 1, 0) == (Tile.P5,)
    assert legal_waits(YUNNAN, Hand.parse("1111m234p567p789s"), 1, 0) == ()
    assert legal_waits(YUNNAN, Hand.parse("123m456m789m5555p"), 1, 0) == ()


def test_guizhou_pays_the_ji_of_a_ready_seat_that_did_not_win():
    """「被胡的人可能赢钱」, 「有3条就有钱」: seat 1 (ready, 1条 ×2) is paid 2 by each other side; seat 3
    (not ready) collects nothing for its 1条 by the default ji_collect=ready."""
    context = RoundContext(0, (0, 1, 2, 3), (0,), (shown(1, "11s234s567s789s12m"),
                                                   shown(2, "234m567m345m99m12m"),
                                                   shown(3, "1s3s5s7s9s2m4m6m8m1p3p5p7p")))
    result = judge_round(GUIZHOU, context)
    assert result.ready == (1, 2)
    assert [i.zh for i in result.settlement.items] == ["鸡 ×2 (side 1)"]
    assert result.settlement.payments == (-2, 6, -2, -2)


def test_guizhou_every_seat_collects_when_the_table_says_so():
    ruleset = get_region("guizhou").resolve({"ji_collect": "all"})
    context = RoundContext(0, (0, 1, 2, 3), (0,), (shown(3, "1s3s5s7s9s2m4m6m8m1p3p5p7p"),))
    assert judge_round(ruleset, context).settlement.payments == (-1, -1, -1, 3)


def test_guizhou_melded_ji_only_and_a_golden_ji():
    """ji_count=melded: only 鸡 in a 碰/杠 count; a flip of 9条 makes 1条 the 鸡 twice over (金鸡 ×2)."""
    ruleset = get_region("guizhou").resolve({"ji_count": "melded", "ji_collect": "all"})
    seat = shown(2, "1s2s3s456s78m99m", melds=("111s",))
    result = judge_round(ruleset, RoundContext(0, (0, 1, 2, 3), (0,), (seat,), flipped=(Tile.S9,)))
    assert [i.zh for i in result.settlement.items] == ["金鸡", "鸡 ×3 (side 2)"]
    assert result.settlement.payments == (-6, -6, 18, -6)


def test_a_hand_not_shown_proves_nothing():
    """Not shown (or no answer in time): not ready, a 花猪, no 鸡."""
    context = RoundContext(0, (0, 1, 2, 3), (), (SeatShown(0, None, timed_out=True), shown(1, "123m456m789m123p5p")))
    assert judge_round(YUNNAN, context).ready == (1,)
    pig = judge_round(YICHANG, RoundContext(0, (0, 1, 2, 3), (), (SeatShown(0, None),)))
    assert [v.flower_pig for v in pig.verdicts] == [True]


@pytest.mark.parametrize("tiles, pig", [("123m456p789s11s234s", True), ("123m456m789m11p234p", False)])
def test_yichang_a_hand_of_three_suits_is_a_flower_pig_and_pays_nothing(tiles, pig):
    """「打完查花猪（三方牌）」: the penalty is not stated, so the 花猪 is named and nothing is paid."""
    result = judge_round(YICHANG, RoundContext(0, (0, 1, 2, 3), (), (shown(0, tiles),)))
    assert result.verdicts[0].flower_pig is pig
    assert result.settlement.payments == (0, 0, 0, 0)
    assert [i.zh for i in result.settlement.items] == (["花猪 (side 0)"] if pig else [])
    assert ("names no penalty" in " ".join(result.settlement.notes)) is pig


def test_every_card_that_settles_every_seat_has_a_scorer_that_prices_the_round():
    """The round's payments are the region scorer's (`settle_round`): a card naming the phase with a
    scorer that lacks it would void every won hand (scoring failed)."""
    from rulesets.regions import get_region as region
    for rid in REGION_IDS:
        definition = region(rid)
        for option in definition.options:
            for value, _ in option.choices:
                ruleset = definition.resolve({option.key: value})
                if any(p.name == "settle_every_seat" for p in ruleset.phases):
                    assert callable(getattr(ruleset.scoring, "settle_round", None)), (rid, option.key, value)
