"""Two open questions made house options, each defaulting to what the table did before.

河北 `fan_combine` (RULES.md §17): 「有“混儿吊”⑵，”没混儿“⑵，“捉伍儿”⑶，“龙“⑷，”杠开“⑵，”本混儿龙"(×2）几个番种
并由这些叠加而来。」 — whether 叠加 adds or multiplies is not stated.  `add` (default): the 番 are summed
and 本混儿龙 doubles the sum; `multiply`: the 番 are multiplied and 本混儿龙 is one more ×2.  Either way a
plain win is 1 and the hand is multiplied by the 基点.

大包 `reserve_kongs` (RULES.md §25.1): 「牌桌上的牌必须留最后7个半」 — whether 7个半 (15 tiles) grows with
kongs is not stated.  `fixed` (default): 15 tiles stay; `grows`: one more stack (2 tiles) a kong,
counted as they stand on the table (R-B's way of counting 留7墩, no kong exempt): 15 + 2·kongs.
"""

from __future__ import annotations

import pytest

from firmware.hand.tracker import WallTracker
from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.reserve import FixedTiles
from rulesets.tiles import Tile
from rulesets.walls import Break, End, Layer, Slot

HEBEI = get_region("hebei")
DABAO = get_region("dabao")


DEFAULTS = {"fan_combine": "add", "reserve_kongs": "fixed", "base_points": "1"}


def chosen(region, options):
    """The ruleset with `options`, a default value left unnamed: the default's numbers are those the
    table played before the option existed (and still pass on the code without it)."""
    return region.resolve({k: v for k, v in options.items() if DEFAULTS.get(k) != v})


# --- 河北: 番 added or multiplied --------------------------------------------------------------

def hebei_settle(tiles, win, options, wilds=(Tile.S5, Tile.S6), **ctx):
    """Side 1 wins by self-draw (河北 只能自摸); the dealer is side 0 (no seat factor in 河北)."""
    context = WinContext(winner=1, dealer=0, win_tile=Tile.parse(win), wilds=wilds, **ctx)
    return evaluate_hand(chosen(HEBEI, options), Hand.parse(tiles, ()), context).settlement


# 46m 123p 789p 789s 11s + 5m self-drawn, 混儿 = 5s/6s (none in the hand):
#   没混儿 2 and 捉伍儿 3 (the 5m caught between 4m and 6m).
#   add:      2 + 3 = 5 → each of the three others pays 5, the winner gets 15.
#   multiply: 2 × 3 = 6 → each of the three others pays 6, the winner gets 18.
#   基点 2:   add 5 × 2 = 10, multiply 6 × 2 = 12.
TWO_FAN = ("46m123p789p789s11s5m", "5m")


@pytest.mark.parametrize("combine, base, total, payments", [
    ("add", "1", 5, (-5, 15, -5, -5)),
    ("multiply", "1", 6, (-6, 18, -6, -6)),
    ("add", "2", 10, (-10, 30, -10, -10)),
    ("multiply", "2", 12, (-12, 36, -12, -12)),
])
def test_two_fan_hand_pays_added_or_multiplied(combine, base, total, payments):
    settlement = hebei_settle(*TWO_FAN, {"fan_combine": combine, "base_points": base})
    assert [i.key for i in settlement.items] == ["meihun", "zhuowu"]
    assert settlement.total == total and settlement.payments == payments


def test_the_default_is_added_as_before():
    """Nothing changes unless the option is chosen: 没混儿 2 + 捉伍儿 3 = 5."""
    assert HEBEI.resolve().option("fan_combine") == "add"
    assert hebei_settle(*TWO_FAN, {}).payments == (-5, 15, -5, -5)


def test_ben_hun_long_doubles_the_sum_or_is_one_more_factor():
    """123m 456m 789m 11p 999p, 9p off a kong, 混儿 = 5m/6m playing their own face:
    龙 4 and 杠开 2, 本混儿龙 ×2.  add: (4 + 2) × 2 = 12; multiply: 4 × 2 × 2 = 16."""
    hand = ("123m456m789m11p999p", "9p")
    kwargs = dict(wilds=(Tile.M5, Tile.M6), kong_replacement=True)
    added = hebei_settle(*hand, {"fan_combine": "add"}, **kwargs)
    multiplied = hebei_settle(*hand, {"fan_combine": "multiply"}, **kwargs)
    assert [i.key for i in added.items] == ["long", "gangkai", "benhunlong"] == [i.key for i in multiplied.items]
    assert (added.total, multiplied.total) == (12, 16)
    assert multiplied.payments == (-16, 48, -16, -16)


@pytest.mark.parametrize("hand, wilds, total", [
    (("123m456p789p11m2s5s4s", "4s"), (Tile.S5, Tile.S6), 1),     # a plain win: no 番 either way
    (("123m456p789p11m23s4s", "4s"), (Tile.S5, Tile.S6), 2),      # one 番 (没混儿): its value either way
])
def test_no_fan_or_one_fan_is_the_same_either_way(hand, wilds, total):
    for combine in ("add", "multiply"):
        assert hebei_settle(*hand, {"fan_combine": combine}, wilds=wilds).total == total


def test_the_card_names_the_option_and_the_scorer_follows_it():
    option = next(o for o in HEBEI.options if o.key == "fan_combine")
    assert option.values == ("add", "multiply") and option.default == "add"
    assert "叠加而来" in option.source.quote
    assert "multiplied" in HEBEI.resolve({"fan_combine": "multiply"}).scoring.describe()
    assert "added" in HEBEI.resolve().scoring.describe()


# --- 大包: 留7个半 fixed or grown by the kongs ----------------------------------------------------

DEAL = 53          # 13 × 4 + the dealer's 跳牌: the head draws of the deal


def play_to_huangzhuang(options, kongs):
    """The controller's wall tracker on a 大包 wall: the deal, `kongs` kongs replaced from the tail,
    then head draws until 荒庄.  Returns (live tiles right after the kongs, head draws after the deal
    until 荒庄, the last head slot drawn, the tracker's count at 荒庄)."""
    ruleset = chosen(DABAO, options)
    ring = ruleset.layout.ring(Break(1, 2))
    t = WallTracker(ring, ruleset.reserve, {}, (), DEAL)

    def take(slot):
        return t.on_stack_change(ring[slot.ring], t.stack_tiles(ring[slot.ring]) - 1)[0]

    for _ in range(DEAL):
        take(t.next_head())
    for _ in range(kongs):
        assert take(t.next_tail()).reason == "kong"
    live = t.live
    drawn, last = 0, None
    while not t.exhausted:
        last = t.next_head()
        assert take(last).end is End.HEAD
        drawn += 1
    return live, drawn, last, t.count()


# 136 tiles, 53 dealt, k kongs each replaced from the tail:
#   fixed: 15 stay → live = 136 − 53 − k − 15 = 68 − k: 67 after one kong, 66 after two;
#          荒庄 after the 120th / 119th head tile (53 + live), 15 tiles standing (7个半).
#   grows: 15 + 2k stay → live = 68 − 3k: 65 after one kong, 62 after two;
#          荒庄 after the 118th / 115th head tile, 17 / 19 tiles standing (8个半 / 9个半).
@pytest.mark.parametrize("reserve_kongs, kongs, live, standing, full_stacks", [
    ("fixed", 1, 67, 15, 7), ("fixed", 2, 66, 15, 7),
    ("grows", 1, 65, 17, 8), ("grows", 2, 62, 19, 9),
])
def test_huangzhuang_comes_at_the_tile_the_reading_says(reserve_kongs, kongs, live, standing, full_stacks):
    before, drawn, last, count = play_to_huangzhuang({"reserve_kongs": reserve_kongs}, kongs)
    assert before == drawn == live
    assert count.remaining == standing
    # always 「…个半」: whole stacks and one half stack (a lone tile at the tail or the head's end)
    assert count.reserved_full_stacks == full_stacks and standing - 2 * full_stacks == 1
    assert count.head_taken == DEAL + live


def test_the_two_readings_differ_from_the_first_kong():
    """Before any kong both keep 7个半; after one kong 'grows' ends the hand two head tiles earlier,
    after two kongs four earlier."""
    for kongs, earlier in ((0, 0), (1, 2), (2, 4)):
        fixed = play_to_huangzhuang({}, kongs)
        grows = play_to_huangzhuang({"reserve_kongs": "grows"}, kongs)
        assert fixed[1] - grows[1] == earlier
        if earlier:
            assert grows[2] != fixed[2]
    assert play_to_huangzhuang({}, 0)[3].remaining == 15


def test_the_default_is_fixed_as_before():
    assert DABAO.resolve().option("reserve_kongs") == "fixed"
    assert DABAO.resolve().reserve == FixedTiles(15)
    grows = DABAO.resolve({"reserve_kongs": "grows"}).reserve
    assert [grows.reserved_tiles(k, k) for k in range(4)] == [15, 17, 19, 21]


def test_the_half_stack_of_seven_and_a_half_with_no_kong():
    """No tail draw: the head takes the 8th stack's top from the tail and leaves its bottom."""
    _, _, last, count = play_to_huangzhuang({"reserve_kongs": "grows"}, 0)
    assert count.remaining == 15 and last.layer is Layer.TOP
    assert isinstance(last, Slot)
