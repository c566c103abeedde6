"""贵州 抓鸡 (RULES.md §13): 四川's 缺一门, and the 鸡 payments (RESEARCH.md §3.9 where the text is silent)."""

from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.tiles import Tile

GUIZHOU = get_region("guizhou").resolve()

# 万 and 筒 only (缺条); three 3万
THREE_3M = "333m456m789m234p55p"


def settle(tiles, win="5p", melds=(), ruleset=GUIZHOU, winner=1, discarder=2, flipped=(), **ctx):
    context = WinContext(winner=winner, dealer=0, discarder=discarder, win_tile=Tile.parse(win),
                         flipped=tuple(Tile.parse(t) for t in flipped), **ctx)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context)


def chicken_total(result, side):
    return sum(i.value for i in result.settlement.items if i.key == f"ji_{side}")


def test_que_yi_men_is_inherited_from_sichuan():
    """「贵州麻将类似于四川麻将」 — 四川 「必须缺一门」: three suits do not win."""
    assert settle(THREE_3M).verdict.legal
    three_suits = settle("333m456m789s234p55p")
    assert three_suits.verdict.complete and not three_suits.verdict.legal


def test_the_next_number_after_the_flip_is_the_chicken():
    """「如翻开的是2万，即3万是鸡牌」: after a 2万 flip the winner's three 3万 are three 鸡."""
    with_flip = settle(THREE_3M, flipped=("2m",))
    assert chicken_total(with_flip, 1) == 3
    other_flip = settle(THREE_3M, flipped=("4m",))       # 5万 is the 鸡: the winner has one
    assert chicken_total(other_flip, 1) == 1
    # every other side pays each of the winner's 鸡 once; the discarder also pays the hand
    base = settle(THREE_3M, flipped=("7p",)).settlement.payments    # 8筒: none held
    diff = [a - b for a, b in zip(with_flip.settlement.payments, base)]
    assert diff == [-3, 9, -3, -3]
    assert sum(with_flip.settlement.payments) == 0


def test_yingxiong_ji_one_tiao_is_always_a_chicken():
    """「英雄鸡 一条每次都是鸡，抓到一条就有钱」: with no flip at all, 1条 still pays."""
    result = settle("111s456s789s234p55p")
    assert chicken_total(result, 1) == 3


def test_the_example_of_2_tiao():
    """「如翻2条，3条就是鸡。有3条就有钱」."""
    result = settle("333s456s789s234p55p", flipped=("2s",))
    assert chicken_total(result, 1) == 3


def test_golden_chicken_when_the_flip_makes_one_tiao():
    """金鸡 (RESEARCH.md §3.9): a 9条 flip makes 1条 the 鸡 (9→1) and 鸡 count double."""
    plain = settle("111s456s789s234p55p")
    gold = settle("111s456s789s234p55p", flipped=("9s",))
    assert chicken_total(gold, 1) == 2 * chicken_total(plain, 1)


def test_no_wrap_option_a_nine_makes_no_chicken():
    """「9 → ?」 not stated: with ji_wrap=none a flipped 9万 makes no 1万 鸡."""
    no_wrap = get_region("guizhou").resolve({"ji_wrap": "none"})
    assert chicken_total(settle("111m456m789m234p55p", flipped=("9m",), ruleset=no_wrap), 1) == 0
    assert chicken_total(settle("111m456m789m234p55p", flipped=("9m",)), 1) == 3


def test_only_ready_sides_collect_by_default():
    """Who collects is not stated; RESEARCH.md §3.9: only 听 players — side 3's shown 3万 碰 pays it nothing unless ready."""
    shown = ((3, (Meld(MeldKind.PUNG, (Tile.M3,) * 3),)),)
    not_ready = settle("456m789m234p567p11p", win="1p", flipped=("2m",), exposed_by_side=shown)
    assert chicken_total(not_ready, 3) == 0
    ready = settle("456m789m234p567p11p", win="1p", flipped=("2m",), exposed_by_side=shown, ready_sides=(3,))
    assert chicken_total(ready, 3) == 3
    assert ready.settlement.payments[3] > 0 and sum(ready.settlement.payments) == 0


def test_everyone_collects_option():
    """「有3条就有钱」 read literally (ji_collect=all): the loser with 3万 collects too (「被胡的人可能赢钱」)."""
    everyone = get_region("guizhou").resolve({"ji_collect": "all"})
    shown = ((2, (Meld(MeldKind.PUNG, (Tile.M3,) * 3),)),)
    result = settle("456m789m234p567p11p", win="1p", flipped=("2m",), exposed_by_side=shown, ruleset=everyone)
    assert chicken_total(result, 2) == 3
    base = settle("456m789m234p567p11p", win="1p", flipped=("7p",), exposed_by_side=shown, ruleset=everyone)
    diff = [a - b for a, b in zip(result.settlement.payments, base.settlement.payments)]
    assert diff == [-3, -3, 9, -3]      # 「和牌的人可能赔钱」: the winner pays side 2's three 鸡 like everyone


def test_melded_only_option():
    """「有人碰（杠）了3万的话算钱」 (ji_count=melded): the winner's concealed 3万 do not count, a 碰 does."""
    melded = get_region("guizhou").resolve({"ji_count": "melded"})
    assert chicken_total(settle(THREE_3M, flipped=("2m",), ruleset=melded), 1) == 0
    assert chicken_total(settle("456m789m234p55p", flipped=("2m",), melds=["333m"], ruleset=melded), 1) == 3


def test_chongfeng_and_zeren_ji():
    """冲锋鸡: the first 幺鸡 discarded unclaimed — its discarder collects 3 from each; 责任鸡: the discarder of
    the first 幺鸡 that was 碰 pays its claimer 3 (RESEARCH.md §3.9)."""
    base = settle(THREE_3M).settlement.payments
    chongfeng = settle(THREE_3M, extra=(("chongfeng_ji", 1),)).settlement.payments
    assert [a - b for a, b in zip(chongfeng, base)] == [-3, 9, -3, -3]
    zeren = settle(THREE_3M, extra=(("zeren_ji", (3, 1)),)).settlement.payments
    assert [a - b for a, b in zip(zeren, base)] == [0, 3, 0, -3]
