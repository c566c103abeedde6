"""长春 money (RULES.md §1.8, §1.9 S1): which of the texts' numbers each reading reproduces.

Payment list 1: 「庄平胡点炮家2，平家 1 总计4」; list 2: 「平家夹胡：庄家4：平家 2」 with
「如果平家点炮再翻一倍，庄家不变」; the worked examples [002:210].  The default is the reading that
reproduces the most of them; the option `seat_doubling=stacked` offers the other.
"""

from rulesets.hand import Hand, WinContext
from rulesets.judging import evaluate_hand
from rulesets.regions import get_region
from rulesets.scoring.changchun_money import LINES, READINGS, WORKED, paid, reproduced, situation

REGION = get_region("changchun")


def payments(options, tiles, melds, win, *, winner, discarder):
    ruleset = REGION.resolve(options)
    context = WinContext(winner=winner, dealer=0, discarder=discarder, win_tile=win)
    return evaluate_hand(ruleset, Hand.parse(tiles, melds), context).settlement.payments


def test_the_default_reproduces_the_most_numbers():
    combos = [{a.key: x, b.key: y} for a, b in [tuple(REGION.option(k) for k in READINGS)]
              for x in a.values for y in b.values]
    counts = {tuple(c.values()): reproduced(REGION.resolve(c))[0] for c in combos}
    default = tuple(REGION.default_options()[k] for k in READINGS)
    assert counts[default] == max(counts.values())
    assert counts[default] > counts[("stacked", "all_pay")]       # the reading the program used before


def test_list_one_dealer_wins_on_a_discard():
    """「庄平胡点炮家2，平家 1 总计4 元」 by default; the stacked reading pays 4/2/2 (total 8)."""
    from rulesets.tiles import Tile
    hand = ("111m234s99s67m8m", ["456p"], Tile.M8)
    assert payments({}, *hand, winner=0, discarder=2) == (4, -1, -2, -1)
    assert payments({"seat_doubling": "stacked"}, *hand, winner=0, discarder=2) == (8, -2, -4, -2)


def test_list_two_xian_wins_jia_and_the_discarder_doubles_but_not_the_dealer():
    """「平家夹胡：庄家4：平家 2（如果平家点炮再翻一倍，庄家不变）」"""
    from rulesets.tiles import Tile
    hand = ("111m234s99s68m7m", ["456p"], Tile.M7)
    assert payments({}, *hand, winner=1, discarder=0) == (-4, 8, -2, -2)      # the dealer discards: 庄家 4
    assert payments({}, *hand, winner=1, discarder=2) == (-4, 10, -4, -2)     # a 平家 discards: he pays 4
    assert payments({"seat_doubling": "stacked"}, *hand, winner=1, discarder=0) == (-8, 12, -2, -2)


def test_every_reading_reproduces_the_worked_examples():
    """「…其他玩家输牌番型累计乘16，庄家输番数为32 … 其他闲家输牌番型累计乘64」: all self-drawn, so every reading agrees."""
    numbers = sum(len(line.numbers) for line in WORKED)
    for doubling in REGION.option("seat_doubling").values:
        for payer in REGION.option("discard_payment").values:
            ruleset = REGION.resolve({"seat_doubling": doubling, "discard_payment": payer})
            assert reproduced(ruleset, WORKED) == (numbers, numbers)


def test_each_line_of_the_texts_is_judged_as_a_legal_hand_of_its_kind():
    """The money table prices real hands: each line's hand is legal and carries the items its words name."""
    ruleset = REGION.resolve()
    for line in LINES:
        result = evaluate_hand(ruleset, *situation(line))
        keys = {i.key for i in result.settlement.items}
        wanted = {"jiahu"} if line.hand == "jia" else {"piaohu"} if line.hand == "piao" else set()
        wanted |= {"menqing"} if line.menqing else set()
        wanted |= {"zimo", "bao"} if line.win == "bao" else {"zimo"} if line.win == "zimo" else set()
        wanted |= {"zhuangjia"} if line.dealer_wins else set()
        assert keys == wanted, (line.quote, keys)
        assert paid(ruleset, line)["total"] > 0
