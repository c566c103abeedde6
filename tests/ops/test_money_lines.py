"""Money paid beside a win was said nowhere in the log (a probe): 长沙's 起手小和 left only `荒庄 (draw);
payments -1 -1 +3 -1` where the card says a draw pays nothing; 贵州's 鸡 round and 南昌's 精 round only
the hand's totals.  Each has its line now; and 杭州's fixed 财神 read `财神 shown:  → wilds 5z`."""

from __future__ import annotations

import logging

from firmware.table_log import describe

ITEM = {"name": "六顺", "pinyin": "liu shun", "value": 1, "unit": "points"}


def test_an_opening_small_win_says_what_it_pays():
    level, text = describe({"event": "opening_win", "hand": 10, "seat": 2, "tiles": [], "accepted": True,
                            "reason": None, "items": [ITEM], "payments": [-1, -1, 3, -1]})
    assert level == logging.INFO and text == "hand 10: seat 2's opening small win (起手小和: 六顺 1 point); pays -1 -1 +3 -1"
    level, text = describe({"event": "opening_win", "hand": 10, "seat": 1, "tiles": [], "accepted": False,
                            "reason": "not 六顺", "items": [], "payments": [0, 0, 0, 0]})
    assert "refused: not 六顺" in text


def test_a_settlement_round_that_pays_says_what_and_one_that_pays_nothing_is_quiet():
    paid = {"event": "settlement", "hand": 2, "seats": [0, 1, 2, 3], "ready": None, "flipped": ["1s"], "hands": [],
            "items": [{"name": "金鸡 ×2", "pinyin": "jin ji", "value": 2, "unit": "x"}], "payments": [-6, -6, -6, 18]}
    level, text = describe(paid)
    assert level == logging.INFO and "the settlement round (金鸡 ×2" in text and text.endswith("pays -6 -6 -6 +18")
    level, _ = describe({**paid, "items": [], "payments": [0, 0, 0, 0]})
    assert level == logging.DEBUG


def test_following_the_dealer_is_said_with_what_it_pays():
    level, text = describe({"event": "follow_dealer", "hand": 3, "seat": 1, "round": 1, "followed": True,
                            "payments": [3, -1, -1, -1]})
    assert level == logging.INFO and "跟庄" in text and text.endswith("pays +3 -1 -1 -1")


def test_a_fixed_wild_with_no_tile_turned_up_reads_as_such():
    _, text = describe({"event": "indicator", "hand": 1, "kind": "caishen", "name": "财神", "timing": "fixed",
                        "ring": [], "layer": [], "tile": [], "wilds": ["5z"], "effect": "wild", "public": True,
                        "dice": [], "seat": None})
    assert text == "hand 1: 财神: wilds 5z"
