"""Regions without values: 襄阳 (§22), 立四 (§24), 八枝 (§11) — their win rules, and the flat 1 point."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile


def judge(region, tiles, win, melds=(), options=None, discarder=2, sides=(0, 1, 2, 3), **ctx):
    ruleset = get_region(region).resolve(options)
    context = WinContext(winner=1, dealer=0, discarder=discarder, win_tile=Tile.parse(win), sides=sides, **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


# --- 襄阳 -----------------------------------------------------------------------------------

def test_xiangyang_standard_and_seven_pairs_flat_1():
    """The text states no requirement; seven pairs wins as in 广水 (§21); no values: 1 point."""
    three = (0, 1, 2)
    standard = judge("xiangyang", "123p456p789s11p46s5s", "5s", sides=three)
    assert standard.verdict.legal and standard.settlement.total == 1
    assert standard.settlement.payments == (0, 1, -1, 0)
    pairs = judge("xiangyang", "1199p2288s33p55z7z7z", "7z", sides=three, discarder=None)
    assert pairs.verdict.legal and pairs.settlement.payments == (-1, 2, -1, 0)


# --- 立四 -----------------------------------------------------------------------------------

def test_lisi_must_declare_ready():
    """「6、必须报听才可以和牌。」"""
    hand = ("123m456p789s11p46s5s", "5s")
    not_ready = judge("lisi", *hand)
    assert not_ready.verdict.complete and not not_ready.verdict.legal
    assert "baoting" in " ".join(not_ready.verdict.failures)
    ready = judge("lisi", *hand, ready_declared=True)
    assert ready.verdict.legal and ready.settlement.total == 1


# --- 八枝 -----------------------------------------------------------------------------------

def test_bazhi_needs_eight_of_one_suit():
    """「八枝：和牌时需要一门有八张以上」"""
    eight = judge("bazhi", "123m456m78m9m55s111z", "9m")
    assert eight.verdict.legal
    six = judge("bazhi", "123m456m55s111z789p", "6m")
    assert six.verdict.complete and not six.verdict.legal
    assert "bazhi" in " ".join(six.verdict.failures)
    with_a_kong = judge("bazhi", "456m78m9m55s111z", "9m", ["concealed:1111m"])    # melds count: 10 of 万
    assert with_a_kong.verdict.legal


def test_bazhi_no_claims_reading_a():
    """「和牌：不许吃牌，不许碰牌必须有八枝。」 reading (a): 碰 allowed at the table, not in a winning hand."""
    ponged = ("123m456m789m55s", "5s", ["111z"])
    reading_b = judge("bazhi", *ponged)                                  # (b): a 碰 cannot happen at this table
    assert reading_b.verdict.complete and not reading_b.verdict.legal
    assert reading_b.verdict.failures == ("不可碰: 111z is a 碰, and 八枝麻将 has no 碰 (no_pong)",)
    reading_a = judge("bazhi", *ponged, options={"claims": "pong"})
    assert reading_a.verdict.complete and "menqing" in " ".join(reading_a.verdict.failures)
    kong = judge("bazhi", "123m456m789m55s", "5s", ["concealed:1111z"], options={"claims": "pong"})
    assert kong.verdict.legal                                           # a 暗杠 is not a claim


def test_bazhi_reading_a_lets_the_table_claim_and_only_the_win_must_be_concealed():
    """(a) 「和牌：不许吃牌，不许碰牌」 is a condition on the winning hand: 吃 and 碰 are the table's as
    anywhere (before, (a) allowed 碰 and still banned 吃 at the table)."""
    from rulesets.regions import get_region
    a = get_region("bazhi").resolve({"claims": "pong"})
    b = get_region("bazhi").resolve()
    assert a.play.chi and a.play.pong and not b.play.chi and not b.play.pong
