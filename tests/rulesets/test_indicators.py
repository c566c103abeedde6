"""Indicator positions: which slot of the ring holds the indicator."""

from rulesets.dealing import DealPattern
from rulesets.indicators import (AfterWinFlips, CountFromTail, NextHeadTile, RevealContext, TailTop, TailTops,
                                 UpperTilesOnWall, seat_for_number)
from rulesets.regions import get_region
from rulesets.walls import Break, End, Layer, Slot, StackPos, WallLayout

LAYOUT = WallLayout((17, 17, 17, 17))
RING = LAYOUT.ring(Break(2, 7))
N = len(RING)


def ctx(**kw):
    base = dict(ring=RING, layout=LAYOUT, dealer=0, next_head=53, tail_taken=0, roll=())
    base.update(kw)
    return RevealContext(**base)


def test_luoshan_caishen_is_the_next_tile_after_the_tiaopai():
    """螺山 §31.3: 各家拿完跳牌的下一张牌为确定财神之牌."""
    plan = DealPattern(13).plan(0, (0, 1, 2, 3))
    rule = get_region("luoshan").resolve().indicators[0]
    assert rule.position.slots(ctx(next_head=plan.next_head)) == (Slot(26, Layer.BOTTOM),)
    assert isinstance(rule.position, NextHeadTile)


def test_zuanpai_third_roll_counts_upper_tiles_on_shangjia_wall():
    """钻牌 §26.1: 钻牌为庄家的上家…逆时针数至与掷骰数值对应的那张牌翻开（只数上层牌）."""
    (slot,) = UpperTilesOnWall().slots(ctx(dealer=0, roll=(3, 4)))
    assert RING[slot.ring] == StackPos(3, 17 - 7) and slot.layer is Layer.TOP


def test_zuanpai_value_plus_one_reading_counts_one_upper_tile_further():
    """§26.4 (b): 「根据所打数值（+1循环）」 as counting the value + 1 (option zuan_count)."""
    (slot,) = UpperTilesOnWall("upper_house", 1).slots(ctx(dealer=0, roll=(3, 4)))
    assert RING[slot.ring] == StackPos(3, 17 - 8) and slot.layer is Layer.TOP
    rule = get_region("zuanpai").resolve({"zuan_count": "value_plus_one"}).indicators[0]
    assert rule.position.extra == 1 and get_region("zuanpai").resolve().indicators[0].position.extra == 0


def test_zuanpai_count_past_the_wall_end_continues_counter_clockwise():
    layout = WallLayout((14, 13, 14, 13))
    ring = layout.ring(Break(0, 3))
    context = RevealContext(ring=ring, layout=layout, dealer=0, next_head=0, roll=(6, 6, 3))
    (slot,) = UpperTilesOnWall().slots(context)
    assert ring[slot.ring] == StackPos(0, 12)      # 13 on wall 3, then wall 0's 13, 12


def test_bao_counted_in_stacks_from_the_tail():
    """长春 §1.3: 打几点就从牌墙后面往前数几摞."""
    assert CountFromTail("stacks").slots(ctx(roll=(5,))) == (Slot(N - 5, Layer.TOP),)
    # after a kong took the tail top, the tail stack is a lone tile: count from the last full stack
    assert CountFromTail("stacks").slots(ctx(roll=(5,), tail_taken=1)) == (Slot(N - 6, Layer.TOP),)


def test_bao_counted_in_tiles_from_the_tail():
    """长春 §1.3: 例如所得数字为5，则从牌尾倒数第5个牌位宝牌."""
    assert CountFromTail("tiles").slots(ctx(roll=(5,))) == (Slot(N - 3, Layer.TOP),)


def test_baida_is_the_tail_top():
    """百搭 §27: 开牌时将杠尾的一张牌翻开."""
    assert TailTop().slots(ctx()) == (Slot(N - 1, Layer.TOP),)


def test_yunnan_two_tail_tiles():
    """云南 §29.3: 游戏开始前预先把尾牌上面两张翻开."""
    assert TailTops().slots(ctx()) == (Slot(N - 1, Layer.TOP), Slot(N - 2, Layer.TOP))
    assert TailTops("both_of_last_stack").slots(ctx()) == (Slot(N - 1, Layer.TOP), Slot(N - 1, Layer.BOTTOM))


def test_after_win_flips():
    """贵州 §13.2 下一张未摸得牌; 马 from the tail."""
    assert AfterWinFlips(1, End.HEAD).slots(ctx(next_head=80)) == (Slot(40, Layer.TOP),)
    assert AfterWinFlips(2, End.TAIL).slots(ctx(tail_taken=1)) == (Slot(N - 1, Layer.BOTTOM), Slot(N - 2, Layer.TOP))


def test_horse_seat_counts_from_the_dealer():
    """广东 §7.3: 庄家为1，逆时针算起，马的牌数是多少…算到哪家."""
    assert [seat_for_number(n, 2, (0, 1, 2, 3)) for n in range(1, 10)] == [2, 3, 0, 1, 2, 3, 0, 1, 2]


def test_private_and_public_indicators():
    assert not get_region("changchun").resolve().indicators[0].public
    assert get_region("zuanpai").resolve().indicators[0].public
