"""A judged hand must be one that could exist at that table under its rules (issue 11 item 4).

四川 「不可以吃」 [000:69]; 河北 「可碰不可吃」 [000:81]; 八枝 「和牌：不许吃牌，不许碰牌」 [000:25]; 灌南
「加上东南西北风各一张」 [000:205].  Otherwise `legal` is false and the failure is named.
"""

import pytest

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import REGION_IDS, get_region
from rulesets.tiles import Tile


def rulesets():
    return [get_region(r).resolve() for r in REGION_IDS]


def suits_of(ruleset):
    return sorted({k.suit for k in ruleset.tiles.kinds if k.is_suited})


def judge(ruleset, tiles, melds, win, *, discarder=None, ready=True):
    context = WinContext(winner=ruleset.players[0], dealer=ruleset.players[1], discarder=discarder,
                         win_tile=Tile.parse(win), sides=ruleset.players, ready_declared=ready)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def hand_with(ruleset, meld):
    """A complete hand of the region's size holding `meld` (written in the first suit, `a`)."""
    a, b = suits_of(ruleset)[:2]
    needed = (ruleset.hand_size - 1) // 3 - 1
    groups = [f"456{a}", f"789{a}", f"456{b}", f"789{b}", f"123{b}"][:needed]
    return "".join(groups) + f"5{b}5{b}", [meld.format(a=a)], f"5{b}"


@pytest.mark.parametrize("ruleset", [r for r in rulesets() if not r.play.chi], ids=lambda r: r.id)
def test_no_chow_where_the_region_has_none(ruleset):
    tiles, melds, win = hand_with(ruleset, "123{a}")
    result = judge(ruleset, tiles, melds, win)
    assert not result.verdict.legal and result.settlement is None
    assert any("(no_chi)" in f for f in result.verdict.failures), result.verdict.failures


@pytest.mark.parametrize("ruleset", [r for r in rulesets() if not r.play.pong], ids=lambda r: r.id)
def test_no_pung_or_claimed_kong_where_the_region_has_no_pong(ruleset):
    for meld in ("111{a}", "1111{a}", "added:1111{a}"):
        tiles, melds, win = hand_with(ruleset, meld)
        result = judge(ruleset, tiles, melds, win)
        assert not result.verdict.legal
        assert any("(no_pong)" in f for f in result.verdict.failures), (meld, result.verdict.failures)
    tiles, melds, win = hand_with(ruleset, "concealed:1111{a}")        # a 暗杠 claims nothing
    assert "(no_pong)" not in " ".join(judge(ruleset, tiles, melds, win).verdict.failures)


def test_the_issue_hands():
    """The three hands the issue names are refused, each with its reason."""
    sichuan = judge(get_region("sichuan").resolve(), "456m789m55p", ["123m", "111p"], "5p")
    assert not sichuan.verdict.legal and sichuan.verdict.failures[0].startswith("不可吃: 123m is a 吃")
    hebei = judge(get_region("hebei").resolve(), "456m789m55p1p1p", ["123m"], "1p")
    assert not hebei.verdict.legal and hebei.verdict.failures[0].startswith("不可吃: 123m is a 吃")
    bazhi = judge(get_region("bazhi").resolve(), "123m456m789m55s", ["111z"], "5s")
    assert not bazhi.verdict.legal and bazhi.verdict.failures[0].startswith("不可碰: 111z is a 碰")
    guannan = judge(get_region("guannan").resolve(), "123m456p789s234m11z", [], "1z", discarder=3)
    assert guannan.verdict.complete and not guannan.verdict.legal
    assert guannan.verdict.failures == ("2 × 1z (东风): the 灌南麻将 set holds 1 (tile_count)",)


@pytest.mark.parametrize("ruleset", [r for r in rulesets() if len(r.tiles.kinds) < 34], ids=lambda r: r.id)
def test_no_tile_the_set_does_not_hold(ruleset):
    """A kind missing from the region's set (四川's 「麻将牌只有筒、条、万三门」) cannot be in a hand."""
    missing = next(k for k in Tile if not k.is_flower and ruleset.tiles.copies(k) == 0)
    tiles, melds, win = hand_with(ruleset, "456{a}")
    result = judge(ruleset, tiles[:-4] + f"{missing}{missing}", melds, str(missing))
    assert not result.verdict.legal
    assert any("has none (tile_count)" in f for f in result.verdict.failures)


@pytest.mark.parametrize("ruleset", [r for r in rulesets() if not r.has_phase("opening_kongs")
                                     and not r.has_phase("liang_pai") and r.tiles.copies(Tile.EAST)],
                         ids=lambda r: r.id)
def test_no_opening_special_kong_where_the_region_has_none(ruleset):
    tiles, melds, win = hand_with(ruleset, "special:1234z")
    result = judge(ruleset, tiles, melds, win)
    assert not result.verdict.legal
    assert any("(no_special_kong)" in f for f in result.verdict.failures)


@pytest.mark.parametrize("ruleset", [r for r in rulesets() if not r.play.discard_win], ids=lambda r: r.id)
def test_no_discard_win_where_wins_are_self_drawn(ruleset):
    """河北 「只能自摸」: a hand won on a discard is refused by the region's own requirement."""
    tiles, melds, win = hand_with(ruleset, "456{a}")
    on_discard = judge(ruleset, tiles, melds, win, discarder=ruleset.players[-1])
    assert not on_discard.verdict.legal


@pytest.mark.parametrize("ruleset", [r for r in rulesets() if r.play.ready_declaration == "required"],
                         ids=lambda r: r.id)
def test_no_win_without_ting_where_ting_is_required(ruleset):
    """立四 「必须报听才可以和牌」; 大包 block 「和牌前必须听牌」."""
    tiles, _, win = hand_with(ruleset, "456{a}")
    melds = ["concealed:1111s"]
    assert not judge(ruleset, tiles, melds, win, ready=False).verdict.legal
