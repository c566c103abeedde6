"""螺山: four more open questions of RULES.md §31 as house options (rulesets/regions/luoshan.py), each
default the reading the card always had, each other value changing the figure a player sees.

- `dead_wall` (§31.4 「荒和：抓完所有牌仍没有一家和牌」): none (default) / 7_stacks;
- `zimo_ke_value` (§31.8 F3): 自摸六/自摸十 replace the 暗刻's 4/8 (default) / are added to it;
- `diaotou_pair` (§31.8 F3): the 吊头 value is added to the 大料/座风 对子 2 (default) / replaces it;
- `chong_qiyu` (§31.8 F3): 放冲 「其余4和」 is a 1/9/honour 吊头 (default) / every other winning tile.

Values (§31.7): 1, 9, honours 暗刻 8, 自摸 暗刻 10 「自摸十」; 大料/座风 对子 2; 自摸 吊头 (1, 9,
honours) 6; 底和 10; 大料/座风 刻 1 台 each, 凑一台 1; 和数 = ceil10((基本和数 + 10) × 2^台).
Tiles: 5z 白, 7z 中; the winner is side 1 (南), not the dealer.  Hands list the winning tile too.
"""

from __future__ import annotations

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.reserve import wall_count
from rulesets.scoring.luoshan import DEFAULT, Readings
from rulesets.tiles import Tile

NEW = {"dead_wall": ("none", "7_stacks"), "zimo_ke_value": ("replace", "add"),
       "diaotou_pair": ("add", "replace"), "chong_qiyu": ("diaotou", "any")}
DEAL = 53               # 13 × 4 + the dealer's 14th: the head draws of the deal


def settle(tiles, win, options=None, discarder=None):
    """The hand judged grouped and with every reading (the two must agree); its settlement."""
    ruleset = get_region("luoshan").resolve(options or {})
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win))
    hand = Hand.parse(tiles)
    grouped = evaluate_hand(ruleset, hand, context)
    every = evaluate_hand(ruleset, hand, context, exhaustive=True)
    assert grouped.verdict.legal == every.verdict.legal
    assert grouped.settlement == every.settlement
    assert grouped.verdict.legal, grouped.verdict.failures
    return grouped.settlement


def test_the_four_options_are_on_the_card_with_todays_readings_as_defaults():
    region = get_region("luoshan")
    options = {option.key: option for option in region.options}
    for key, values in NEW.items():
        assert options[key].values == values and options[key].default == values[0]
        assert len(options[key].value_labels) == 2
    assert Readings.of({key: option.default for key, option in options.items()}) == DEFAULT
    assert region.resolve().scoring.readings == DEFAULT


def live_tiles(options, kongs=0):
    """Tiles the head may still draw after the deal (the 财神 flipped in place: no take), with
    `kongs` replacements taken from the tail."""
    reserve = get_region("luoshan").resolve(options).reserve
    return wall_count(reserve, 136, DEAL, kongs, kongs).live


def test_dead_wall_none_draws_every_tile_and_7_stacks_keeps_14():
    """none: 「抓完所有牌」 — after the deal 136 - 53 = 83 tiles are live, the last one drawn before 荒和.
    7_stacks: 7 × 2 = 14 stay, 83 - 14 = 69 live; after one kong (one tail tile taken) 136 - 53 - 1 =
    82 remain, none keeps 0 (82 live), 7_stacks 14 + the lone tail tile = 15 (67 live)."""
    assert live_tiles({}) == 83
    assert live_tiles({"dead_wall": "7_stacks"}) == 69
    assert live_tiles({}, kongs=1) == 82
    assert live_tiles({"dead_wall": "7_stacks"}, kongs=1) == 67


def test_zimo_ke_value_replace_or_add():
    """Self-drawn 中 completing 777z (双碰 with 99万): 暗刻 1万 8 + 暗刻 白 8 + the 中 自摸十, pair 9万 0;
    台: 白 1 + 中 1 = 2 (万 and 筒: no suit 台).
    replace: 8 + 8 + 10 = 26 → (26 + 10) × 2^2 = 144 → 150.
    add:     8 + 8 + (8 + 10) = 34 → (34 + 10) × 4 = 176 → 180."""
    assert settle("111m555z123p99m777z", "7z").total == 150
    added = settle("111m555z123p99m777z", "7z", {"zimo_ke_value": "add"})
    assert added.total == 180
    assert added.payments == (-180, 540, -180, -180)
    # with zimo_anke=every the 1万 and 白 暗刻 are 自摸十 too: add 18 × 3 = 54 → 64 × 4 = 256 → 260
    assert settle("111m555z123p99m777z", "7z", {"zimo_anke": "every", "zimo_ke_value": "add"}).total == 260


def test_diaotou_pair_add_or_replace():
    """Self-drawn 吊头 on 红中: 暗刻 1万 8 + 9万 8 + 白 8 = 24, the 中 pair 对子 2, 自摸吊头 (honour) 6;
    台: 白 1 + 凑一台 1 = 2.
    add:     24 + 2 + 6 = 32 → (32 + 10) × 4 = 168 → 170.
    replace: 24 + 6 = 30     → (30 + 10) × 4 = 160."""
    assert settle("111m999m555z123m77z", "7z").total == 170
    replaced = settle("111m999m555z123m77z", "7z", {"diaotou_pair": "replace"})
    assert replaced.total == 160
    assert not any(item.key.startswith("dui_") for item in replaced.items)
    # a 吊头 on a pair that is no 大料/座风 (9万) has no 对子 2 to drop: 暗刻 1万 8 + 白 8 + 中 8 + 吊头 6 = 30,
    # 台 白 1 + 中 1 + 凑一台 1 = 3: (30 + 10) × 8 = 320 either way
    assert settle("111m555z123m777z99m", "9m").total == 320
    assert settle("111m555z123m777z99m", "9m", {"diaotou_pair": "replace"}).total == 320


def test_chong_qiyu_diaotou_or_any_other_winning_tile():
    """On a discard (side 0), 4万 completes 234万 两面 (23万 waits 1万/4万): 暗刻 1万 8 + 白 8 + 中 8 = 24,
    pair 9万 0; 台: 白 1 + 中 1 + 凑一台 1 = 3.
    diaotou: 两面 adds nothing: (24 + 10) × 2^3 = 272 → 280.
    any:     「其余4和」: 24 + 4 = 28 → (28 + 10) × 8 = 304 → 310."""
    assert settle("111m555z777z234m99m", "4m", discarder=0).total == 280
    assert settle("111m555z777z234m99m", "4m", {"chong_qiyu": "any"}, discarder=0).total == 310
    # self-drawn the 放冲 rule does not apply: 280 either way
    assert settle("111m555z777z234m99m", "4m", {"chong_qiyu": "any"}).total == 280
    # 双碰 on a discard (9万 completes 999万, counted a 碰 4): 1万 8 + 发 8 + 中 8 + 对子白 2 + 4 = 30,
    # 台 发 + 中 + 凑一台 + 对对胡 = 4: 40 × 16 = 640; any adds 4: 44 × 16 = 704 → 710
    assert settle("777z666z111m99m55z9m", "9m", discarder=0).total == 640
    assert settle("777z666z111m99m55z9m", "9m", {"chong_qiyu": "any"}, discarder=0).total == 710


@pytest.mark.parametrize("key", ["zimo_ke_value", "diaotou_pair", "chong_qiyu"])
def test_grouped_judging_agrees_with_every_reading_under_the_new_options(key):
    """tests/rulesets/test_reading_classes.py's comparison on seeded hands with 0-6 财神, and the fast
    path's 和数 (`value_of_views`) equal to every reading's `hand_value`, under the non-default value."""
    import random
    from rulesets.scoring.luoshan import hand_value, value_of_views
    from rulesets.winrules import Judged
    from tests.hands.test_luoshan_scoring import key_views
    from tests.rulesets.reading_cases import readings_of_cases
    from tests.rulesets.test_reading_classes import _check
    options = {key: NEW[key][1]}
    assert _check("luoshan", options, seed=0, hands=40) == 40
    ruleset = get_region("luoshan").resolve(options)
    readings = ruleset.scoring.readings
    checked = 0
    for hand, shape, context in readings_of_cases(random.Random(f"luoshan-more-{key}"), ruleset, 60):
        judged = Judged(hand, shape, context, frozenset(context.wilds))
        assert value_of_views(key_views(shape, context), hand, context, readings) == \
            hand_value(judged, readings)[0], (hand, shape, context)
        checked += 1
    assert checked > 300
