"""大包 block (RULES.md §25): 听 before a win, the 缺一门 option, kong chips, the dealer's double, 大包, 跟庄."""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.dabao import follow_dealer
from rulesets.tiles import Tile

REGION = get_region("dabao")
DABAO = REGION.resolve()
QUE = {"que_yi_men": "on"}
HAND = ("123m456p789s55s111z", "1z")       # three suits


def judge(tiles, win, melds=(), options=None, winner=1, dealer=0, discarder=None, ready=True, **ctx):
    ruleset = REGION.resolve(options) if options else DABAO
    context = WinContext(winner=winner, dealer=dealer, discarder=discarder, win_tile=Tile.parse(win),
                         ready_declared=ready, **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def failed(result):
    return " ".join(result.verdict.failures)


def test_must_be_ready_to_win():
    """「5、和牌前必须听牌」"""
    not_ready = judge(*HAND, ready=False)
    assert not_ready.verdict.complete and "(ting)" in failed(not_ready)
    assert judge(*HAND).verdict.legal


def test_que_yi_men_option():
    """「3、开局前需规定是否缺一门，即手上不得同时握有万、条、筒三门的牌，至少缺一门。」"""
    assert judge(*HAND).verdict.legal
    three = judge(*HAND, options=QUE)
    assert three.verdict.complete and "(que_yi_men)" in failed(three)
    assert judge("123m456m789p55p111p", "1p", options=QUE).verdict.legal


def test_que_yi_men_no_one_suit_with_honours():
    """「另外也不可以胡单一门牌加风牌或箭牌这种屁和」; a pure one-suit hand is fine."""
    hun = judge("123m456m789m55m111z", "1z", options=QUE)
    assert hun.verdict.complete and "(no_one_suit_honours)" in failed(hun)
    assert judge("123m456m789m55m111m", "1m", options=QUE).verdict.legal



def test_one_suit_with_honours_without_que_yi_men_per_house_option():
    """「另外也不可以胡单一门牌加风牌或箭牌这种屁和」 closes the 缺一门 item: refused with 缺一门 only by default;
    hun_pihe=always refuses it in every game."""
    assert judge("123m456m789m55m111z", "1z").verdict.legal
    always = judge("123m456m789m55m111z", "1z", options={"hun_pihe": "always"})
    assert always.verdict.complete and "(no_one_suit_honours)" in failed(always)
    assert judge(*HAND, options={"hun_pihe": "always"}).verdict.legal         # three suits and honours: no 屁和 of one suit

def test_thirteen_orphans_only_without_que_yi_men():
    """「缺一门情况下不可以胡十三幺、七不挨等需要三门的牌」"""
    orphans = ("19m19p19s1234567z1m", "1m")
    assert judge(*orphans).verdict.legal
    assert not judge(*orphans, options=QUE).verdict.legal


def test_self_draw_every_loser_pays_dealer_double():
    """「庄家的筹码翻倍计算」: a win is 1 chip; the dealer pays 2."""
    result = judge(*HAND)
    assert result.settlement.payments == (-2, 4, -1, -1)
    dealer_wins = judge(*HAND, winner=0)
    assert dealer_wins.settlement.payments == (6, -2, -2, -2)


def test_winner_kongs_count_loser_kongs_do_not():
    """「杠只有和牌的情况下杠才计入筹码，明杠算一筹，暗杠算两筹」: 1 + 明杠 1 + 暗杠 2 = 4 chips each."""
    result = judge("123m55s111z", "1z", ["5555p", "concealed:7777s"])
    assert result.settlement.total == 4
    assert result.settlement.payments == (-8, 16, -4, -4)
    losers_kongs = judge(*HAND, kongs_by_side=((2, 1, 1),))
    assert losers_kongs.settlement.payments == (-2, 4, -1, -1)


def test_discard_after_ting_each_pays_his_share():
    """「而听牌后打出令别人胡的牌则不需要」 [包三家]: a discarder who had declared 听 pays only his own share."""
    result = judge(*HAND, discarder=2, ready_sides=(1, 2))
    assert result.settlement.payments == (-2, 4, -1, -1)


def test_dabao_the_unready_discarder_pays_for_all_three():
    """「如果听牌前打出令别人胡的牌叫做点炮。点炮需要包三家的筹码（包括自己）叫做大包」"""
    result = judge(*HAND, discarder=2, ready_sides=(1,))
    assert result.settlement.payments == (0, 4, -4, 0)
    dealer_discards = judge(*HAND, discarder=0, ready_sides=(1,))
    assert dealer_discards.settlement.payments == (-4, 4, 0, 0)


def test_follow_the_dealer():
    """「11、如果第一圈四个人打出的牌一样叫做跟庄，庄家需给其他人每人一个筹码，第二圈一样继续每人给一个」"""
    assert follow_dealer(0).payments == (-3, 1, 1, 1)
    assert follow_dealer(2, rounds=2).payments == (2, 2, -6, 2)


def test_the_break_adds_two_rolls_as_the_rhymes_do():
    """「六七十三两把抓光；六八十四，抓把剩一；七八十五头上吃苦；七九十六，两头各凑」: skips of 13 to 16 stacks, more
    than one roll of two dice makes (before, the only break, which could skip 12 at most).  The dealer's roll
    names who rolls second (counted 逆时针 from him), and the skip on that player's wall is both rolls' sum."""
    from rulesets.regions import get_region
    from rulesets.walls import Break
    region = get_region("dabao")
    two = region.resolve()
    for first, second, skip in (((1, 2), (3, 3), 9), ((3, 3), (3, 4), 13), ((3, 3), (4, 4), 14),
                                ((3, 4), (4, 4), 15), ((3, 4), (4, 5), 16)):
        result = two.dice.break_for(0, two.players, [first, second])
        assert result.brk == Break((sum(first) - 1) % 4, skip) and result.rollers[1] == (sum(first) - 1) % 4
    one = region.resolve({"break_rolls": "one"})
    assert one.dice.rolls_needed == 1 and one.dice.break_for(0, one.players, [(6, 6)]).brk == Break(3, 12)
