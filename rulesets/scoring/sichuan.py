"""四川 血战到底 scoring (RULES.md §14): a hand value, doubled once per kong; the discarder alone pays.

The text gives two rules: 「和牌时有杠加番一杠为一番」 and 「点炮时点炮的一个人负责」.  It gives no hand
values, so the hand's value is RESEARCH.md §3.12's table (基本胡 2, 碰碰 4, 清一色 6, 七对 6, 金钩钓 8,
清碰 10, 清七对 12, 清金钩钓 16), read as a lookup of the largest named hand (the values do not add up:
清金钩钓 16 is not 清一色 6 + 金钩钓 8).

Readings chosen where the text is silent:
- 番 doubles (番 is 「2倍」 in the 广东 lines of the same file, RULES.md §6, and ×2 in 长春 §1.8): each
  kong of the winner doubles the hand value.  RESEARCH.md's 「×(1 + 根)」 is not used: it would count
  each kong twice.  House option `gen`: whether a four of a kind held without a kong (a 根, e.g. in
  龙七对) also adds a 番.
- On a self-draw every side still in the hand pays the hand value; sides that have already won
  (血战到底) are listed by the controller in `context.extra["finished"]` and pay nothing.
- 刮风下雨 (kong money) and 查叫 are named in the texts without values: kongs are priced only as 番.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import requirements as req
from ..hand import Hand, WinContext
from ..settlement import Item, Settlement
from ..winrules import Judged, Verdict
from .base import DrawContext, no_payments
from .base import best_reading
from .hand_types import (each_pays, four_of_a_kind, full_flush, is_seven_pairs, kong_count, payers)


def golden_single(j: Judged) -> bool:
    """金钩钓: every meld declared as a 碰 or 杠, won on the single tile left (单钓)."""
    return len(j.hand.concealed) == 2 and len(j.declared) == 4 and all(m.is_pung_like for m in j.declared)


def _pengpeng(j: Judged) -> bool:
    return req.all_pungs(j)


HANDS: tuple[tuple[str, str, str, int, Callable[[Judged], bool]], ...] = (
    ("qing_jingou", "清金钩钓", "qing jingou diao", 16, lambda j: full_flush(j) and golden_single(j)),
    ("qing_qidui", "清七对", "qing qidui", 12, lambda j: full_flush(j) and is_seven_pairs(j)),
    ("qing_peng", "清碰", "qing peng", 10, lambda j: full_flush(j) and _pengpeng(j)),
    ("jingou", "金钩钓", "jingou diao", 8, golden_single),
    ("qingyise", "清一色", "qingyise", 6, full_flush),
    ("qidui", "七对", "qidui", 6, is_seven_pairs),
    ("pengpeng", "碰碰胡", "pengpeng hu", 4, _pengpeng),
    ("jiben", "基本胡", "jiben hu", 2, lambda j: True),
)
"""RESEARCH.md §3.12's hand values, largest first: a hand is worth the first that fits."""


def hand_item(j: Judged) -> Item:
    for key, zh, pinyin, value, fits in HANDS:
        if fits(j):
            return Item(key, zh, pinyin, value, "points")
    raise AssertionError("基本胡 fits every hand")


def fan_items(j: Judged, gen: str) -> tuple[Item, ...]:
    """One 番 per kong (「一杠为一番」); with gen=four_of_a_kind, one per 根 instead (kongs included)."""
    kongs = kong_count(j)
    items = [Item("gang", "杠", "gang", kongs, "fan")] if kongs else []
    if gen == "four_of_a_kind":
        extra = four_of_a_kind(j) - kongs
        if extra > 0:
            items.append(Item("gen", "根", "gen", extra, "fan"))
    return tuple(items)


def hand_value(j: Judged, gen: str) -> tuple[int, tuple[Item, ...]]:
    """The value one payer pays, with its items."""
    base = hand_item(j)
    fans = fan_items(j, gen)
    return base.value * 2 ** sum(i.value for i in fans), (base,) + fans


def sichuan_hand(ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> tuple[int, tuple[Item, ...]]:
    """The best-priced reading's value and items (shared with 贵州, which plays 四川's hands)."""
    gen = ruleset.option("gen") if "gen" in dict(ruleset.options) else "kongs"
    return best_reading(verdict, hand, context, lambda j: hand_value(j, gen), key=lambda vi: vi[0])


@dataclass(frozen=True)
class SichuanScorer:
    name: str = "sichuan"

    def describe(self) -> str:
        return ("hand value (RESEARCH.md §3.12: 基本胡 2 … 清金钩钓 16) × 2 per kong (「一杠为一番」); "
                "the discarder alone pays; on a self-draw every side still in the hand pays")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        value, items = sichuan_hand(ruleset, hand, verdict, context)
        notes = ("点炮: the discarder alone pays (「点炮的一个人负责」)",) if not context.self_drawn else \
            (f"自摸: paid by sides {', '.join(map(str, payers(context)))}",)
        return Settlement(items, value, each_pays(context, value), "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("查叫 has no values in the text: nothing is paid",))
