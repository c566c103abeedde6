"""上海 (RULES.md §4): at least 碰碰胡, 漏胡, and who pays (点炮, 抢杠, 承包)."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

SHANGHAI = get_region("shanghai").resolve()

PENGPENG = "111m444p777s222z55z"
HUNYISE = "123m456m789m111z55z"
QINGYISE = "123m456m789m234m55m"
PLAIN = "123m456p789s234m55z"


def judge(tiles, win, ruleset=SHANGHAI, winner=1, discarder=None, melds=(), **ctx):
    context = WinContext(winner=winner, dealer=0, discarder=discarder, win_tile=Tile.parse(win), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def test_at_least_pengpeng_plain_hands_do_not_win():
    """「上海麻将必须至少从碰碰胡及以上的番型才允许和牌」: a plain hand of chows is not legal."""
    result = judge(PLAIN, "5z", discarder=2)
    assert result.verdict.complete and not result.verdict.legal
    assert any("碰碰胡" in f for f in result.verdict.failures)


def test_at_least_pengpeng_qinghunpeng_win():
    """碰碰胡 and, by default (清混碰, RESEARCH.md §3.5), 混一色 and 清一色 are of that class."""
    for tiles, win in ((PENGPENG, "5z"), (HUNYISE, "5z"), (QINGYISE, "5m")):
        assert judge(tiles, win, discarder=2).verdict.legal, tiles


def test_all_pungs_reading():
    """min_hand=all_pungs: only all-pung hands; a 混一色 with chows is not enough."""
    strict = get_region("shanghai").resolve({"min_hand": "all_pungs"})
    assert not judge(HUNYISE, "5z", discarder=2, ruleset=strict).verdict.legal
    assert judge(PENGPENG, "5z", discarder=2, ruleset=strict).verdict.legal


def test_louhu_a_passed_tile_cannot_be_won_on_a_discard():
    """漏胡: 「玩家A是不能胡那一张的…漏胡只针对1张牌」; a 动牌 (his own draw) lifts it."""
    passed = (("passed_tiles", (Tile.parse("5z"),)),)
    assert not judge(PENGPENG, "5z", discarder=3, extra=passed).verdict.legal
    assert judge(PENGPENG, "5z", extra=passed).verdict.legal
    other = (("passed_tiles", (Tile.parse("2z"),)),)
    assert judge(PENGPENG, "5z", discarder=3, extra=other).verdict.legal


def test_dianpao_the_discarder_alone_pays():
    """「点炮点炮者输分，和其他人无关」."""
    payments = judge(PENGPENG, "5z", discarder=3).settlement.payments
    assert payments == (0, 1, 0, -1)


def test_qianggang_is_a_self_draw_paid_by_the_konger():
    """「抢杠如果抢杠，记分按自摸计，但由杠的支付，相当于杠的人付 3份」."""
    zimo = judge(PENGPENG, "5z").settlement.payments
    robbed = judge(PENGPENG, "5z", discarder=2, robbed_kong=True).settlement.payments
    assert robbed[1] == zimo[1] and robbed == (0, 3, -3, 0)


CLAIMS = (("claims", ((1, 3, 3),)),)          # side 1 claimed three times from side 3


def test_chengbao_self_draw_the_chengbao_pays_three_shares():
    """「若自摸记分时承包者付3份点数」: 3 claims from side 3 make it 承包者."""
    assert judge(PENGPENG, "5z", extra=CLAIMS).settlement.payments == (0, 3, 0, -3)
    two_claims = (("claims", ((1, 3, 2),)),)
    assert judge(PENGPENG, "5z", extra=two_claims).settlement.payments == (-1, 3, -1, -1)


def test_fan_chengbao_counts_too():
    """「（包含反承包在内）」: side 3 claiming three times from the winner also makes side 3 承包者."""
    reverse = (("claims", ((3, 1, 3),)),)
    assert judge(PENGPENG, "5z", extra=reverse).settlement.payments == (0, 3, 0, -3)


def test_chengbao_discard_one_share():
    """「点炮记分时，承包者付一份点数」: instead of the discarder by default, or besides him by option."""
    assert judge(PENGPENG, "5z", discarder=0, extra=CLAIMS).settlement.payments == (0, 1, 0, -1)
    besides = get_region("shanghai").resolve({"chengbao_discard": "besides"})
    assert judge(PENGPENG, "5z", discarder=0, extra=CLAIMS, ruleset=besides).settlement.payments == (-1, 2, 0, -1)


def test_qianggang_with_chengbao_both_pay_three():
    """「抢杠时如果还有承包关系，承包者也付3份」."""
    assert judge(PENGPENG, "5z", discarder=2, robbed_kong=True, extra=CLAIMS).settlement.payments == (0, 6, -3, -3)


def test_flowers_raise_the_share():
    """花分 (values not stated): a share is 1 + the winner's flowers (RESEARCH.md §3.5)."""
    result = judge(PENGPENG + "12f", "5z", discarder=3)
    assert result.settlement.payments == (0, 3, 0, -3)
