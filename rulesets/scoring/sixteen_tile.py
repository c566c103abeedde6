"""16-tile block scoring (RULES.md §8): 连庄 adds a 番, 拉庄 carries a third.

Stated: 「连庄即是连续做一次庄。每连庄一次便加上一番」 and 「闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一
作下一盘的博注」.  No hand values are given.

Readings:
- A win is 1 point (the text gives no hand values); 番 doubles (「番是2倍的意思」, the 广东 line just
  before this block, RULES.md §6).  The 连庄 番 (`context.consecutive_dealer`) apply where the dealer is
  involved: every payer pays 2^n when the dealer wins, the dealer pays 2^n when he pays.
- The discarder pays, or each other side on a self-draw; 一炮三响 is three settlements.
- 拉庄: a non-dealer listed in `context.extra["la_zhuang"]` pays the dealer two thirds of what he owes
  now; the third left (rounded down) is noted as carried into the next hand's stake.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, payments_from
from ..winrules import Verdict
from .base import DrawContext, no_payments
from .hand_types import payers

BASE = 1


def amount_for(payer: int, context: WinContext) -> int:
    """What `payer` owes: 2^连庄 when the dealer wins or pays, else the base."""
    dealer_involved = context.winner_is_dealer or payer == context.dealer
    return BASE * 2 ** context.consecutive_dealer if dealer_involved else BASE


def la_zhuang(debts: dict[int, int], context: WinContext) -> tuple[dict[int, int], dict[int, int]]:
    """(paid now, carried) after 拉庄: a third of a debt to the dealer stays as the next stake."""
    asking = set(context.get("la_zhuang", ()) or ())
    if context.winner != context.dealer:
        return debts, {}
    paid, carried = dict(debts), {}
    for side in asking & set(debts):
        carried[side] = debts[side] // 3
        paid[side] = debts[side] - carried[side]
    return paid, carried


@dataclass(frozen=True)
class SixteenTileScorer:
    name: str = "sixteen_tile"

    def describe(self) -> str:
        return ("a win is 1 point; each 连庄 adds a 番 (×2) where the dealer wins or pays; 拉庄 holds back a third of a "
                "debt to the dealer for the next hand's stake (the table does not pay it later: noted only)")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        items = [Item("hu", "胡", "hu", BASE, "points")]
        debts = {side: amount_for(side, context) for side in payers(context)}
        if context.consecutive_dealer and (context.winner_is_dealer or context.dealer in debts):
            items.append(Item("lianzhuang", "连庄", "lianzhuang", context.consecutive_dealer, "fan"))   # the dealer's part only
        paid, carried = la_zhuang(debts, context)
        notes = tuple(f"拉庄: side {side} carries {amount} into the next hand's stake" for side, amount in carried.items() if amount)
        if any(carried.values()):
            # held back, not a bonus (a probe read "拉庄 5 points" as one): the table never pays it later
            items.append(Item("lazhuang", "拉庄留下局(未付)", "lazhuang held back", sum(carried.values()), "points"))
        return Settlement(tuple(items), BASE, payments_from(paid, context.winner), "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("a drawn hand: nothing is paid",))
