"""螺山: 和数, 底和, 台 and the rounding of RULES.md §31.7; the thresholds of §31.6."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.luoshan import round_up_ten
from rulesets.tiles import Tile

LUOSHAN = get_region("luoshan").resolve()


def settle(tiles, win, melds=(), discarder=None, winner=1, dealer=0, wilds=()):
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win), wilds=wilds)
    return evaluate_hand(LUOSHAN, Hand.parse(tiles, melds), context)


def test_rounding_up_to_ten():
    """「如算出的和数为122就按130计」"""
    assert round_up_ten(122) == 130 and round_up_ten(130) == 130 and round_up_ten(121) == 130


def test_a_hand_with_tai_is_rounded_up():
    """暗杠 1万 32 + 暗刻 中 8 + 暗刻 9条 8 + 自摸吊头 4 = 52; (52 + 底和 10) × 2^1 (中) = 124 → 130."""
    result = settle("777z999s456m5p5p", "5p", melds=["concealed:1111m"])
    assert result.verdict.legal
    assert result.settlement.total == 130
    assert result.settlement.payments == (-130, 390, -130, -130)     # every loser pays the same


def test_qing_san_tai_pinghu_is_240():
    """「符合此条件，且为清三台，称“清三台平和”，则算240和」"""
    result = settle("123m456m789m23m55m4m", "4m", discarder=3)
    assert result.verdict.legal and result.settlement.total == 240
    assert result.settlement.payments == (-240, 720, -240, -240)


def test_pinghu_is_30_and_below_the_threshold():
    """平和 算30胡; a win needs 100 by self-draw (「自摸100和及以上」)."""
    from rulesets.scoring.luoshan import hand_value
    from rulesets.winrules import Judged
    result = settle("123m456p789s23m55p4m", "4m")
    assert result.verdict.complete and not result.verdict.legal
    judged = Judged(Hand.parse("123m456p789s23m55p4m"), result.verdict.shape, WinContext(win_tile=Tile.M4), frozenset())
    assert hand_value(judged)[0] == 30


def test_discard_win_needs_200():
    """「放冲200和及以上」: the 130 hand above is not enough on a discard."""
    assert not settle("777z999s456m5p5p", "5p", melds=["concealed:1111m"], discarder=2).verdict.legal


def test_caishen_is_wild_when_winning():
    """「财神…在和牌时能替代任何牌」: with 2m wild, the drawn 2m stands for the missing 红中."""
    result = settle("123m456p789s555s7z2m", "2m", wilds=(Tile.M2,))
    assert result.verdict.complete
    assert (Tile.M2, Tile.RED) in result.verdict.shape.assignment


def key_views(shape, context):
    """A reading's groups as `value_of_views` reads them."""
    from rulesets.scoring.views import SCORER_KEY_VIEWS
    view = SCORER_KEY_VIEWS["luoshan"](context)
    return [view(g.kind, tuple(int(t) for t in g.tiles), (), shape.win_role if n == shape.win_group else None)
            for n, g in enumerate(shape.groups)]


def test_the_value_worked_out_from_group_views_equals_the_value_of_every_reading():
    """A settle ranks the classes of readings by the 和数 of their key views (`value_of_views`) and
    builds the best only: on seeded hands (0-4 财神, declared melds, self-drawn and on a discard)
    every reading's `hand_value` equals the value of its groups' views."""
    import random
    from rulesets.scoring.luoshan import hand_value, value_of_views
    from rulesets.winrules import Judged
    from tests.rulesets.reading_cases import readings_of_cases
    values = 0
    seen_values = set()
    for hand, shape, context in readings_of_cases(random.Random(31), LUOSHAN, 150):
        views = key_views(shape, context)
        judged = Judged(hand, shape, context, frozenset(context.wilds))
        assert value_of_views(views, hand, context) == hand_value(judged)[0], (hand, shape, context)
        seen_values.add(hand_value(judged)[0])
        values += 1
    assert values > 1000 and len(seen_values) > 10      # many readings, many different values


# -- 花碰: 「用一张财神替代一张大料或座风的碰称为花碰」 (§31.3); valued as what the 财神 stands for (F5) ----

def test_a_hua_peng_is_valued_as_the_pung_it_stands_for():
    """碰红中 with a 财神 (5万) as the third: 4 和 and one 台 like 777z, and the 财神's own suit does
    not spoil 凑一台 (the hand is 筒 and honours only, as it stands)."""
    natural = settle("11122233p", "3p", melds=["999p", "777z"], winner=0, wilds=(Tile.M5,))
    hua = settle("11122233p", "3p", melds=["999p", "hua:5m77z"], winner=0, wilds=(Tile.M5,))
    assert hua.verdict.legal and natural.verdict.legal
    assert hua.settlement.items == natural.settlement.items
    assert hua.settlement.total == natural.settlement.total == 280
    assert any(item.key == "couyitai" for item in hua.settlement.items)


def test_a_hua_peng_of_the_seat_wind_only_for_that_seat():
    """座风: the dealer is 东; a 花碰 of 南 is not his to make, of 东 it is."""
    east = settle("11122233p", "3p", melds=["999p", "hua:5m11z"], winner=0, wilds=(Tile.M5,))
    south = settle("11122233p", "3p", melds=["999p", "hua:5m22z"], winner=0, wilds=(Tile.M5,))
    assert east.verdict.legal
    assert not south.verdict.legal
    assert any("花碰 is of a dragon or the seat's own wind" in f for f in south.verdict.failures)


def test_only_a_caishen_stands_in_and_only_in_luoshan():
    not_caishen = settle("11122233p", "3p", melds=["999p", "hua:6m77z"], winner=0, wilds=(Tile.M5,))
    assert not not_caishen.verdict.legal
    assert any("not the 财神 of this hand" in f for f in not_caishen.verdict.failures)
    hangzhou = get_region("hangzhou").resolve()
    elsewhere = evaluate_hand(hangzhou, Hand.parse("11122233p", ["999p", "hua:5m77z"]),
                              WinContext(winner=0, dealer=0, win_tile=Tile.P3))
    assert not elsewhere.verdict.legal
    assert any("has no 花碰" in f for f in elsewhere.verdict.failures)


def test_a_hua_peng_is_valued_alike_from_group_views_and_reading_by_reading():
    """The classes of readings are ranked by the 和数 of their key views (`value_of_views`), which
    read a 花碰 as it stands too: 凑一台 here, whatever the 财神's own suit."""
    from rulesets.judging import stand_ins_for
    from rulesets.scoring.luoshan import hand_value, value_of_views
    from rulesets.winrules import Judged, make_evaluator, melds_needed
    hand = Hand.parse("11122233p", ["999p", "hua:5m77z"])
    context = WinContext(winner=0, dealer=0, win_tile=Tile.P3, wilds=(Tile.M5,))
    evaluator = make_evaluator(LUOSHAN.win, context.wilds, stand_ins_for(LUOSHAN, context.wilds))
    readings = evaluator.decompositions(hand.concealed, melds_needed(LUOSHAN.hand_size, hand), context.win_tile)
    assert readings
    for shape in readings:
        judged = Judged(hand, shape, context, frozenset(context.wilds))
        assert value_of_views(key_views(shape, context), hand, context) == hand_value(judged)[0] == 280


def test_a_robbed_kong_is_valued_as_a_self_draw():
    """§31.5 [000:237] 「抢杠当自摸…和数按自摸算」: 170 和 on a discard misses the 200 threshold; robbing
    a 补杠 it is a self-draw's 170, over the 100 threshold.  The scorer never read 抢杠 before."""
    from rulesets.hand import Hand, WinContext
    from rulesets.judging import evaluate_hand
    from rulesets.regions import get_region
    from rulesets.tiles import Tile
    ruleset = get_region("luoshan").resolve()
    hand = Hand.parse("111m999m555z123m77z", [])

    def judged(robbed: bool):
        return evaluate_hand(ruleset, hand, WinContext(winner=0, dealer=1, discarder=3, win_tile=Tile.parse("7z"),
                                                       robbed_kong=robbed))
    assert not judged(False).verdict.legal
    robbed = judged(True)
    assert robbed.verdict.legal and robbed.settlement.total == 170
    assert robbed.settlement.payments == (510, -170, -170, -170)
