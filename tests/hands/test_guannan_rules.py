"""灌南 (RULES.md §30): 「记牌形式主要包括：七对、碰碰和…、一条龙…、平牌」; no values, a win is 1 point."""

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

GUANNAN = get_region("guannan").resolve()


def judge(tiles, win, discarder=None):
    return evaluate_hand(GUANNAN, Hand.parse(tiles), WinContext(winner=3, discarder=discarder, win_tile=Tile.parse(win)))


FORMS = [  # (tiles, winning tile, the form the text names)
    ("1133m5577p2244s99s", "9s", "七对"),
    ("111m444p777s999m22s", "2s", "碰碰和"),     # nAAA+BB, n = 4
    ("123456789m234p22s", "2s", "一条龙"),
    ("123m456p789s234m22s", "2s", "平牌"),
]


@pytest.mark.parametrize("tiles, win, name", FORMS)
def test_the_four_hand_types_win(tiles, win, name):
    """Each of the four 记牌形式 is a winning hand."""
    result = judge(tiles, win, discarder=0)
    assert result.verdict.legal, name
    assert result.settlement.payments == (-1, 0, 0, 1)


def test_a_broken_hand_does_not_win():
    assert not judge("1133m5577p2246s11z", "1z").verdict.complete


def test_one_of_each_wind():
    """「包括万字36张、筒子36张和条子36张加上东南西北风各一张」: a hand holding two 东 cannot exist here."""
    two_east = judge("123m456p789s234m11z", "1z", discarder=0)
    assert two_east.verdict.complete and not two_east.verdict.legal
    assert two_east.verdict.failures[0].startswith("2 × 1z (东风): the 灌南麻将 set holds 1")
    one_of_each = judge("123m456p789s2s1234z", "4z", discarder=0)
    assert "tile_count" not in " ".join(one_of_each.verdict.failures)


@pytest.mark.parametrize("tiles, win, form", FORMS)
def test_the_win_names_its_form_and_says_the_value_is_not_stated(tiles, win, form):
    """The win is itemised by its form (issue 16 item 6), not as a plain 胡; the text gives no value,
    which the settlement says plainly."""
    settlement = judge(tiles, win, discarder=0).settlement
    assert [i.zh for i in settlement.items] == [form]
    assert any("gives no value" in note for note in settlement.notes)


def test_a_dragon_with_pungs_beside_it_is_named_as_the_dragon():
    """A hand that is both a 一条龙 and plain is named by the form the text names (平牌 comes last)."""
    settlement = judge("123456789m111p22s", "2s").settlement
    assert [i.zh for i in settlement.items] == ["一条龙"]
