"""17-tile block (RULES.md §18): 「如果庄家连庄则还是此位玩家当庄，底数增加」 — the amount is a house option."""

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

HAND = "111m234m567m789p234s55s"     # a complete 17-tile hand (5 melds + a pair)


def settle(repeats, discarder=None, **options):
    ruleset = get_region("seventeen_tile").resolve(options)
    context = WinContext(winner=0, dealer=0, discarder=discarder, win_tile=Tile.S5, consecutive_dealer=repeats)
    result = evaluate_hand(ruleset, Hand.parse(HAND), context)
    assert result.verdict.legal
    return result.settlement


@pytest.mark.parametrize("repeats, each", [(0, 1), (1, 2), (2, 3)])
def test_each_lianzhuang_raises_the_base_by_one(repeats, each):
    """The dealer who keeps the deal twice collects 3 from each payer on a self-draw (1 + 2 连庄)."""
    assert settle(repeats).payments == (3 * each, -each, -each, -each)


def test_the_raise_is_the_tables_choice():
    assert settle(2, lianzhuang_raise="double").payments == (12, -4, -4, -4)
    plain = settle(2, lianzhuang_raise="none")
    assert plain.payments == (3, -1, -1, -1)
    assert "gives no amount" in plain.notes[0]


def test_a_discard_win_is_paid_by_the_discarder_at_the_raised_base():
    assert settle(1, discarder=2).payments == (2, 0, -2, 0)


def test_the_card_says_the_amount_is_not_stated():
    region = get_region("seventeen_tile")
    assert "not stated" in str(region.option("lianzhuang_raise").source)
