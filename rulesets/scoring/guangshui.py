"""广水 拳打脚踢 scoring (RULES.md §21): named 番 hands, a 16 番 cap, kongs outside the cap.

「碰碰和、七对、清一色、大小三元、卡五星等都可和牌，且有相应的番数，最高16番到顶，但有杠另算」.

The text names the hands and the cap, not the values.  Read as the 湖北 卡五星 family counts them
(RESEARCH.md §3.13: 封顶 8/16), each 番 hand is a multiplier and the hand is their product, capped
at 16; the multipliers are our defaults (not stated anywhere): 碰碰和 ×2, 卡五星 ×2, 七对 ×4,
清一色 ×4, 小三元 ×4, 大三元 ×8; a 屁和 is 1.  Kongs 「另算」: each other player pays a kong's maker
明杠 1, 暗杠 2 (default, the ratio of 大包 §25 and 长春 §1.8), whether or not the maker won.

「屁和只能自摸或者抢杠」: a hand with none of the named 番 hands may win only by self-draw or by
robbing a kong (the win requirement uses `is_fan_hand`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import requirements as req
from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, add_payments
from ..winning import GroupKind, WinRole
from ..winrules import Judged, Verdict
from .base import DrawContext
from .changchun import kong_payments
from .base import best_reading
from .tally import discarder_or_each, times_product

CAP = 16


def dragon_sets(j: Judged) -> tuple[int, bool]:
    """(dragon pungs/kongs, whether the pair is a dragon)."""
    pungs = sum(1 for g in j.shape.groups if g.kind is GroupKind.PUNG and g.tiles[0].is_dragon)
    pungs += sum(1 for m in j.declared if m.is_pung_like and m.kind_tile.is_dragon)
    return pungs, req.dragon_pair(j)


def ka_wu_xing(j: Judged) -> bool:
    """卡五星: the winning tile is a 5 caught between its 4 and 6."""
    group = j.shape.win_group
    return j.shape.win_role is WinRole.CLOSED and group is not None and j.shape.groups[group].tiles[1].rank == 5


def fan_hands(j: Judged) -> tuple[Item, ...]:
    items = []
    if req.all_pungs(j):
        items.append(Item("pengpenghe", "碰碰和", "peng peng he", 2, "times"))
    if req.seven_pairs(j):
        items.append(Item("qidui", "七对", "qi dui", 4, "times"))
    if req.one_suit(j, False):
        items.append(Item("qingyise", "清一色", "qing yi se", 4, "times"))
    pungs, pair = dragon_sets(j)
    if pungs == 3:
        items.append(Item("dasanyuan", "大三元", "da san yuan", 8, "times"))
    elif pungs == 2 and pair:
        items.append(Item("xiaosanyuan", "小三元", "xiao san yuan", 4, "times"))
    if ka_wu_xing(j):
        items.append(Item("kawuxing", "卡五星", "ka wu xing", 2, "times"))
    return tuple(items)


def is_fan_hand(j: Judged) -> bool:
    return bool(fan_hands(j))


def pihe_allowed(j: Judged) -> bool:
    """「屁和只能自摸或者抢杠」."""
    return is_fan_hand(j) or j.context.self_drawn or j.context.robbed_kong


def hand_items(j: Judged) -> tuple[Item, ...]:
    return fan_hands(j) or (Item("pihe", "屁和", "pi he", 1, "times"),)


def capped(items: tuple[Item, ...]) -> int:
    return min(times_product(items), CAP)


@dataclass(frozen=True)
class GuangshuiScorer:
    name: str = "guangshui"

    def describe(self) -> str:
        return ("番 hands multiply (碰碰和 ×2, 卡五星 ×2, 七对 ×4, 清一色 ×4, 小三元 ×4, 大三元 ×8), 16 at most; "
                "kongs paid apart (明 1, 暗 2 from each other player)")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        items = best_reading(verdict, hand, context, hand_items, capped)
        value = capped(items)
        win = discarder_or_each(context, lambda side: value)
        kong_items, kongs = kong_payments(context.kongs_by_side, context.sides, 1)
        notes = ("最高16番到顶",) if times_product(items) > CAP else ()
        return Settlement(items + kong_items, value, add_payments(win, kongs), "times", notes + ("杠另算: kongs outside the cap",))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        items, payments = kong_payments(context.kongs_by_side, context.sides, 1)
        return Settlement(items, 0, payments, "points", ("荒庄: only kongs are paid",))
