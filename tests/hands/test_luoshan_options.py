"""螺山 house options on the open questions of RULES.md §31.8 (rulesets/regions/luoshan.py): each
reading gives the value worked out by hand from the text, grouped judging (the classes of
readings ranked by `value_of_views`) agrees with judging every reading, and the defaults are the
readings the card always had.

Values (§31.7): 2-8 碰 2 / 暗刻 4; 1, 9, honours 碰 4 / 暗刻 8; 大料/座风 对子 2; 自摸 暗刻 6 / 10,
自摸 吊头 4 / 6; 放冲 吊头 2 / 4; 底和 10; 大料/座风 刻 1 台 each, 凑一台 1, 清三台 3, 对对胡 1;
和数 = ceil10((基本和数 + 10) × 2^台).  Tiles: 5z 白, 6z 发, 7z 中; the winner (side 1, 南) is not
the dealer unless said.
"""

from __future__ import annotations

import random

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.luoshan import DEFAULT, Readings, hand_value, value_of_views
from rulesets.tiles import Tile
from rulesets.winrules import Judged

from tests.hands.test_luoshan_scoring import key_views
from tests.rulesets.reading_cases import readings_of_cases
from tests.rulesets.test_reading_classes import _check

OPTIONS = {"rounding": "before", "pinghu_threshold": "exempt", "zimo_anke": "every", "chong_ke": "anke",
           "duidui_tai": "0"}


def judge(tiles, win, options=None, discarder=None, winner=1, dealer=0, robbed=False):
    """The hand judged grouped and exhaustively: the two must agree; the grouped result."""
    ruleset = get_region("luoshan").resolve(options or {})
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win),
                         robbed_kong=robbed)
    hand = Hand.parse(tiles)
    grouped = evaluate_hand(ruleset, hand, context)
    every = evaluate_hand(ruleset, hand, context, exhaustive=True)
    assert grouped.verdict.legal == every.verdict.legal
    assert grouped.settlement == every.settlement
    assert evaluate_hand(ruleset, hand, context, settle=False).verdict.legal == every.verdict.legal
    return grouped


def total(result):
    assert result.verdict.legal, result.verdict.failures
    return result.settlement.total


def test_the_defaults_are_the_readings_the_card_had():
    region = get_region("luoshan")
    defaults = {option.key: option.default for option in region.options}
    assert Readings.of(defaults) == DEFAULT
    assert get_region("luoshan").resolve().scoring.readings == DEFAULT


def test_f1_rounding_after_or_before_the_doubling():
    """Self-drawn 吊头 on 红中: 暗刻 1万 8 + 9万 8 + 白 8 + 对子中 2 + 自摸吊头 (大) 6 = 32; 台: 白 1 + 凑一台 1 = 2.
    after:  (32 + 10) × 2^2 = 168 → 170.   before: ceil10(42) = 50, × 4 = 200."""
    assert total(judge("111m999m555z123m77z", "7z")) == 170
    assert total(judge("111m999m555z123m77z", "7z", {"rounding": "before"})) == 200
    # 清三台平和 stays 240 either way: 30 × 2^3 (30 is already a multiple of ten)
    assert total(judge("123m456m789m23m55m4m", "4m", {"rounding": "before"}, discarder=3)) == 240


def test_f2_pinghu_exempt_from_the_threshold():
    """平和 (all chows, won 两面 on 1-4万) = 30, no 台 (three suits).  applies: 30 < 100 self-drawn,
    < 200 on a discard — not a win.  exempt: a win of 30 either way, each loser paying 30."""
    assert not judge("123m456p789s23m55p4m", "4m").verdict.legal
    assert not judge("123m456p789s23m55p4m", "4m", discarder=0).verdict.legal
    exempt = {"pinghu_threshold": "exempt"}
    assert total(judge("123m456p789s23m55p4m", "4m", exempt)) == 30
    discard = judge("123m456p789s23m55p4m", "4m", exempt, discarder=0)
    assert total(discard) == 30 and discard.settlement.payments == (-30, 90, -30, -30)
    # a hand that is not 平和 (嵌张 5p: 2 + 底和 10 = 12 → 20) still needs the threshold
    assert not judge("123m46p789s234m55p5p", "5p", exempt).verdict.legal


def test_f3_zimo_anke_every_concealed_pung_on_a_self_draw():
    """The F1 hand: win_tile: 暗刻 8 + 8 + 8 + 对子 2 + 吊头 6 = 32 → (32 + 10) × 4 = 168 → 170.
    every: 自摸十 10 + 10 + 10 + 2 + 6 = 38 → (38 + 10) × 4 = 192 → 200."""
    assert total(judge("111m999m555z123m77z", "7z")) == 170
    assert total(judge("111m999m555z123m77z", "7z", {"zimo_anke": "every"})) == 200
    # 抢杠当自摸 (「和数按自摸算」): robbing a 补杠 counts as a self-draw here too
    assert total(judge("111m999m555z123m77z", "7z", {"zimo_anke": "every"}, discarder=3, robbed=True)) == 200
    # on a discard 170 is below 200 under both: not a win
    assert not judge("111m999m555z123m77z", "7z", {"zimo_anke": "every"}, discarder=3).verdict.legal


def test_f3_chong_ke_a_pung_completed_by_the_discard():
    """Won on 9万 from a discard: 暗刻 1万 8 + 发 8 + 中 8 + 对子白 2, and 999万:
    peng: 碰 4 → 30;  anke: 暗刻 8 → 34.  台: 发 1 + 中 1 + 凑一台 1 + 对对胡 1 = 4.
    peng: (30 + 10) × 16 = 640.   anke: (34 + 10) × 16 = 704 → 710."""
    assert total(judge("777z666z111m99m55z9m", "9m", discarder=0)) == 640
    assert total(judge("777z666z111m99m55z9m", "9m", {"chong_ke": "anke"}, discarder=0)) == 710
    # self-drawn the option does not matter: 自摸十 10 → 36, (36 + 10) × 16 = 736 → 740
    assert total(judge("777z666z111m99m55z9m", "9m", {"chong_ke": "anke"})) == 740


def test_f4_duidui_tai_alone_or_only_as_qingsitai():
    """Self-drawn 吊头 on 2筒: 暗刻 1万 8 + 9万 8 + 白 8 + 中 8 + 自摸吊头 (小) 4 = 36.
    1: 台 白 1 + 中 1 + 对对胡 1 = 3 → (36 + 10) × 8 = 368 → 370.
    0: 台 2 → 46 × 4 = 184 → 190."""
    assert total(judge("111m999m777z555z22p", "2p")) == 370
    assert total(judge("111m999m777z555z22p", "2p", {"duidui_tai": "0"})) == 190
    # 清四台 is 4 台 either way: 8 + 8 + 4 + 4 + 吊头 4 = 28 → 38 × 16 = 608 → 610
    assert total(judge("111m999m222m888m55m", "5m")) == 610
    qingsi = judge("111m999m222m888m55m", "5m", {"duidui_tai": "0"})
    assert total(qingsi) == 610 and any(item.key == "qingsitai" for item in qingsi.settlement.items)


VARIANTS = [{key: value} for key, value in OPTIONS.items()] + [OPTIONS]


@pytest.mark.parametrize("options", VARIANTS, ids=["-".join(o.values()) for o in VARIANTS])
def test_grouped_judging_agrees_with_every_reading_under_the_options(options):
    """tests/rulesets/test_reading_classes.py's comparison (verdict, settlement, the players'
    legality) on seeded hands with 0-6 财神, under each option."""
    assert _check("luoshan", options, seed=0, hands=40) == 40


@pytest.mark.parametrize("options", VARIANTS, ids=["-".join(o.values()) for o in VARIANTS])
def test_value_of_views_equals_hand_value_under_the_options(options):
    """The fast path's 和数 (`value_of_views`) is every reading's `hand_value` under each option."""
    ruleset = get_region("luoshan").resolve(options)
    readings_ = ruleset.scoring.readings
    values = 0
    for hand, shape, context in readings_of_cases(random.Random(f"luoshan-options-{sorted(options.items())}"),
                                                  ruleset, 60):
        judged = Judged(hand, shape, context, frozenset(context.wilds))
        assert value_of_views(key_views(shape, context), hand, context, readings_) == \
            hand_value(judged, readings_)[0], (hand, shape, context)
        assert ruleset.scoring.key_of_views(key_views(shape, context), hand, context) == \
            ruleset.scoring.reading_key(judged)
        values += 1
    assert values > 300
