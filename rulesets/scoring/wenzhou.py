"""温州 scoring (RULES.md §19 says only 「财神可当任何牌」; RESEARCH.md §3.3, MIL 温州 2024, the rest).

From RESEARCH.md §3.3, as far as it is concrete:
- 软和 ×1 / 硬和 ×2 / 双番 ×4.  软和: a 财神 stands for another tile; 硬和: none does.  Which hands
  are 双番 is not said: read as the special hands RESEARCH.md names beside it — 八对+单张 and
  三财神 (three 财神 held) — the multipliers are levels, the highest applies.
- 连庄 ×2×(repeats+1): a payment the dealer makes or receives is multiplied by 2 × (连庄 + 1).
- Kongs 点杠 1, 暗杠 2, 加杠 0: each other player pays the maker, win or not (payer not said:
  each other player, as every kong payment in the texts).  At the table every side's kongs come
  from what the table asked (`extra["kong_events"]`); without them the winner's kongs are his melds
  and the others' come from `context.exposed_by_side`.
- 财神独立结算: a side holding n of the T 财神 in play receives N·n − T (N players): each pair of
  players settles the difference of their counts.  The winner's count is read from his hand; the
  others' from `context.get("caishen_by_side")` ((side, count) pairs).
A win is 1 (底, not stated) × the multipliers, paid by the discarder, or by everyone on a self-draw
(not stated).  三财神 as a win by itself (whatever the shape) is not modelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from ..winrules import Judged, Verdict
from .base import DrawContext
from .base import best_reading
from .tally import ZERO, count_kinds, dealer_involved, discarder_or_each, kong_counts, kong_money, melds_by_side

KONG_VALUES = (1, 0, 2)     # 点杠, 加杠, 暗杠 (RESEARCH.md §3.3)


def hand_level(j: Judged) -> Item:
    """双番 ×4, 硬和 ×2 or 软和 ×1."""
    if j.shape.shape.value == "eight_pairs_plus_single" or count_kinds(j.hand, j.wild_kinds) >= 3:
        return Item("shuangfan", "双番", "shuang fan", 4, "times")
    if j.wilds_as_wild == 0:
        return Item("yinghe", "硬和", "ying he", 2, "times")
    return Item("ruanhe", "软和", "ruan he", 1, "times")


def dealer_factor(context: WinContext) -> int:
    """连庄 ×2×(repeats+1)."""
    return 2 * (context.consecutive_dealer + 1)


def caishen_payments(counts: dict[int, int], sides: tuple[int, ...]) -> tuple[int, int, int, int]:
    """财神独立结算: each pair of sides settles the difference of their 财神 counts."""
    parts = []
    for side in sides:
        for other in sides:
            if counts.get(side, 0) > counts.get(other, 0):
                parts.append(payments_from({other: counts[side] - counts.get(other, 0)}, side))
    return add_payments(ZERO, *parts)


def caishen_counts(hand: Hand, context: WinContext) -> dict[int, int]:
    counts = {side: 0 for side in context.sides}
    counts.update({side: n for side, n in context.get("caishen_by_side", ()) if side != context.winner})  # type: ignore[misc]
    counts[context.winner] = count_kinds(hand, context.wilds)
    return counts


def kongs_asked(context: WinContext) -> dict[int, tuple[int, int, int]]:
    """Every side's (点杠, 加杠, 暗杠) counts from the kongs the table asked about (`extra["kong_events"]`:
    (side, ming/zhuanwan/an, fed_by)); empty without them (then the melds count)."""
    kongs: dict[int, list[int]] = {}
    for side, kind, _ in context.get("kong_events", ()) or ():
        kongs.setdefault(side, [0, 0, 0])[("ming", "zhuanwan", "an").index(kind)] += 1
    return {side: (counts[0], counts[1], counts[2]) for side, counts in kongs.items()}


@dataclass(frozen=True)
class WenzhouScorer:
    name: str = "wenzhou"

    def describe(self) -> str:
        return "软和 ×1 / 硬和 ×2 / 双番 ×4; dealer ×2×(连庄+1); kongs 点杠 1, 暗杠 2, 加杠 0; 财神独立结算"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        level = best_reading(verdict, hand, context, hand_level, lambda item: item.value)
        value = level.value

        def amount(side: int) -> int:
            return value * (dealer_factor(context) if dealer_involved(context, side) else 1)

        win = discarder_or_each(context, amount)
        kongs = kongs_asked(context) or {side: kong_counts(melds) for side, melds in melds_by_side(context, hand).items()}
        kong_items, kong_pay = kong_money(kongs, context.sides, KONG_VALUES)
        counts = caishen_counts(hand, context)
        cai = caishen_payments(counts, context.sides)
        items = (level,) + kong_items
        if counts[context.winner]:
            items += (Item("caishen", "财神", "cai shen", counts[context.winner], "points"),)
        notes = (f"庄 ×{dealer_factor(context)}",) + (("财神独立结算: " + ", ".join(f"side {s} {n}" for s, n in sorted(counts.items())),)
                                                    if any(counts.values()) else ())
        return Settlement(items, value, add_payments(win, kong_pay, cai), "times", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("荒庄: nothing is paid",))

    def settle_round(self, ruleset: Any, hands: dict[int, Hand], verdicts: tuple[Any, ...],
                     context: Any) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
        """财神独立结算 of the other hands (caishen_settlement=all_sides, rulesets.rounds): the win paid the
        winner's 财神 as if the others held none; N·n − T is linear in the counts, so what is left is
        the same settlement of the others' counts with the winner's at none."""
        counts = {side: count_kinds(hand, context.wilds) for side, hand in sorted(hands.items())
                  if side not in context.winners}
        items = tuple(Item(f"caishen_{side}", f"财神 (side {side})", "cai shen", n, "points")
                      for side, n in counts.items() if n)
        return items, caishen_payments(counts, context.sides)
