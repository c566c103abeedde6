"""17-tile block scoring (RULES.md §18): 连庄 raises the base.

Stated: 「如果庄家连庄则还是此位玩家当庄，底数增加」 — the base grows while the dealer keeps the deal; by how
much is not stated, and no hand values are given.  A win is worth the base, paid by the discarder or
by each other side on a self-draw.  The base is 1 and grows by house option `lianzhuang_raise` with
every 连庄 (`context.consecutive_dealer`, the dealer's repeats the session counts): +1 a 连庄 (the
default: the smallest raise that is a raise), ×2 a 连庄, or not at all (the amount is not stated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement
from ..winrules import Verdict
from .base import DrawContext, discard_or_all_pay, no_payments

BASE = 1


def base_for(raise_by: str, repeats: int) -> int:
    """The base after `repeats` 连庄 (「底数增加」)."""
    if raise_by == "double":
        return BASE * 2 ** repeats
    if raise_by == "one":
        return BASE + repeats
    return BASE


@dataclass(frozen=True)
class SeventeenTileScorer:
    name: str = "seventeen_tile"

    def describe(self) -> str:
        return ("a win is the base (1), paid by the discarder or by each other side on a self-draw; each 连庄 "
                "raises the base (「底数增加」: by how much is the house option lianzhuang_raise)")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        raise_by = ruleset.option("lianzhuang_raise")
        base = base_for(raise_by, context.consecutive_dealer)
        items = [Item("hu", "胡", "hu", BASE, "points")]
        notes = ()
        if base != BASE:
            items.append(Item("lianzhuang", f"连庄 ×{context.consecutive_dealer}", "lianzhuang", base - BASE, "points"))
            notes = (f"底数增加: the base is {base} after {context.consecutive_dealer} 连庄",)
        elif context.consecutive_dealer and raise_by == "none":
            notes = ("底数增加: the text gives no amount and option lianzhuang_raise=none: the base stays 1",)
        return Settlement(tuple(items), base, discard_or_all_pay(context, base), "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("a drawn hand: nothing is paid",))
