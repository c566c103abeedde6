"""云南 (玉溪) scoring (RULES.md §29.6–29.7): hand payments and 杠 money.

Stated: 「和牌时若为自摸，按牌型则三家输分；若为点炮，按牌型则点炮者输分」, 「点炮时点炮者只负责和牌者牌型的分」,
明杠 of a discard: 「打出一张牌的闲家给玩家2分」, and at a draw 「流局查大叫，杠钱不算」.

Readings where the text is silent:
- Hand values per 牌型 are not stated: every hand is worth 1 分 (its 牌型, 平和 or 大牌型, is named).
- Kong money is paid with the win (「杠钱不算」 at a draw means it is only paid when someone wins).
  The controller lists the hand's kongs in `context.extra["kong_events"]`: (side, kind, fed_by) with
  kind "ming" (明杠 of a discard, fed_by = the discarder), "an" (暗杠) or "zhuanwan" (转弯杠).
  明杠: the discarder pays 2 (text).  暗杠 and 转弯杠: house options `angang` / `zhuanwan`, paid by each
  other side (defaults 2 and 1).  On 一炮多响 the controller gives the kongs with one winner only.
- The discarder pays only the hand (「只负责和牌者牌型的分」): he pays nobody's kong money for it.
- 查大叫 at a draw: each side not ready pays each ready side the hand value (1); kongs are not paid.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import requirements as req
from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from ..winrules import Judged, Verdict
from .base import DrawContext, discard_or_all_pay
from .base import best_reading
from .hand_types import (full_flush, half_flush)

HAND_VALUE = 1
MINGGANG = 2


def big_hand(j: Judged) -> bool:
    """大牌型 (house reading): 碰碰胡, 清一色 or 混一色."""
    return req.all_pungs(j) or full_flush(j) or half_flush(j)


def all_chows(j: Judged) -> bool:
    """Four chows and a pair, nothing but chows declared."""
    return all(g.kind.value == "chow" for g in j.shape.melds) and all(m.kind.value == "chow" for m in j.declared)


def is_pinghu(j: Judged, reading: str) -> bool:
    """平和 under the house reading: no 大牌型 (default), or the all-chow hand."""
    return all_chows(j) if reading == "all_chows" else not big_hand(j)


def hand_item(j: Judged, reading: str) -> Item:
    if is_pinghu(j, reading):
        return Item("pinghu", "平和", "pinghu", HAND_VALUE, "points")
    return Item("dapaixing", "大牌型", "da paixing", HAND_VALUE, "points")


def kong_money(ruleset: Any, context: WinContext) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    """明杠 2 from its discarder; 暗杠 and 转弯杠 from each other side, by the house options."""
    values = {"an": int(ruleset.option("angang")), "zhuanwan": int(ruleset.option("zhuanwan"))}
    names = {"ming": "明杠", "an": "暗杠", "zhuanwan": "转弯杠"}
    items: list[Item] = []
    parts = [(0, 0, 0, 0)]
    for side, kind, fed_by in context.get("kong_events", ()) or ():
        if kind == "ming":
            debts = {fed_by: MINGGANG}
        else:
            debts = {s: values[kind] for s in context.sides if s != side}
        items.append(Item(f"{kind}gang_{side}", f"{names[kind]} (side {side})", f"{kind}gang", sum(debts.values()), "points"))
        parts.append(payments_from(debts, side))
    return tuple(items), add_payments(*parts)


@dataclass(frozen=True)
class YunnanScorer:
    name: str = "yunnan"

    def describe(self) -> str:
        return ("a hand is 1 分 (values per 牌型 not stated): the discarder pays it, or the three on a self-draw; "
                "明杠 2 from its discarder, 暗杠/转弯杠 by option from each other side; 流局查大叫, 杠钱不算")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        reading = ruleset.option("pinghu_reading")
        item = best_reading(verdict, hand, context, lambda j: hand_item(j, reading), key=lambda i: i.key != "pinghu")
        kong_items, kongs = kong_money(ruleset, context)
        payments = add_payments(discard_or_all_pay(context, item.value), kongs)
        notes = ("点炮: the discarder pays only the hand (「点炮者只负责和牌者牌型的分」)",) if not context.self_drawn else ()
        return Settlement((item,) + kong_items, item.value, payments, "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        ready = [s for s in context.sides if s in context.ready]
        parts = [(0, 0, 0, 0)]
        items = []
        for side in ready:
            debts = {s: HAND_VALUE for s in context.sides if s not in context.ready}
            if debts:
                items.append(Item(f"chadajiao_{side}", f"查大叫 (side {side})", "cha da jiao", sum(debts.values()), "points"))
                parts.append(payments_from(debts, side))
        return Settlement(tuple(items), HAND_VALUE, add_payments(*parts), "points",
                          ("流局查大叫: each side not ready pays each ready side 1", "杠钱不算: kongs are not paid"))
