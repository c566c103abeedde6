"""南昌 (RULES.md §10, RESEARCH.md §3.7): the win, and the 精 count settled apart.

The text gives no values (「霸王精、冲关等奖励分」 are named only).  RESEARCH.md §3.7 [P] gives the one
value known: 正精 2 and 副精 1 per copy held — research, not checked against an authoritative text.
- 精分 of a side = 2 × its 正精 + 1 × its 副精 (every copy it holds, as a wild or as itself).  The
  winner's count is read from the hand and paid with the win; at the table the other sides' are
  paid in the settlement round, where each lays its hand (`settle_round`); a scorer given them
  reads `context.get("jing_by_side")`: (side, 正精, 副精) counts (the `hand` command has no flag for them).  House option `jing_settlement`:
  every side collects its 精分 from each other side (default: RESEARCH.md keeps 精 counts per
  player), or only the winner collects his from each loser.
- The win itself is worth 1 (not stated), paid by the discarder, or by everyone on a self-draw.
- 霸王精 and 冲关 (and 上下翻精) have no values anywhere and are not applied.
正精 is the first wild kind of the context (the flipped kind), 副精 the second (`Derivation` order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from ..tiles import Tile
from ..winrules import Verdict
from .base import DrawContext, discard_or_all_pay
from .tally import ZERO, count_kinds

ZHENG_JING, FU_JING = 2, 1     # RESEARCH.md §3.7 [P]


def jing_kinds(wilds: tuple[Tile, ...]) -> tuple[Tile | None, Tile | None]:
    padded = tuple(wilds) + (None, None)
    return padded[0], padded[1]


def held_jing(hand: Hand, wilds: tuple[Tile, ...]) -> tuple[int, int]:
    """(正精, 副精) copies in a hand."""
    zheng, fu = jing_kinds(wilds)
    return (count_kinds(hand, (zheng,)) if zheng is not None else 0,
            count_kinds(hand, (fu,)) if fu is not None else 0)


def winner_jing(hand: Hand, context: WinContext) -> tuple[int, int]:
    """(正精, 副精) copies in the winner's hand."""
    return held_jing(hand, context.wilds)


def jing_points(zheng: int, fu: int) -> int:
    return ZHENG_JING * zheng + FU_JING * fu


def jing_by_side(hand: Hand, context: WinContext) -> dict[int, int]:
    points = {side: 0 for side in context.sides}
    for side, zheng, fu in context.get("jing_by_side", ()):  # type: ignore[misc]
        if side != context.winner:
            points[side] = jing_points(zheng, fu)
    points[context.winner] = jing_points(*winner_jing(hand, context))
    return points


def jing_payments(points: dict[int, int], sides: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Each side collects its 精分 from every other side."""
    parts = [payments_from({other: p for other in sides if other != side}, side) for side, p in points.items() if p]
    return add_payments(ZERO, *parts)


@dataclass(frozen=True)
class NanchangScorer:
    name: str = "nanchang"

    def describe(self) -> str:
        return "a win is 1; 精分 (正精 2, 副精 1 per copy, RESEARCH.md §3.7) collected from each other side"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        zheng, fu = winner_jing(hand, context)
        items = [Item("hu", "胡", "hu", 1, "points")]
        if zheng:
            items.append(Item("zhengjing", "正精", "zheng jing", ZHENG_JING * zheng, "points"))
        if fu:
            items.append(Item("fujing", "副精", "fu jing", FU_JING * fu, "points"))
        points = jing_by_side(hand, context)
        if ruleset.option("jing_settlement") == "winner_only":
            points = {side: (p if side == context.winner else 0) for side, p in points.items()}
        payments = add_payments(discard_or_all_pay(context, 1), jing_payments(points, context.sides))
        notes = ("精分: " + ", ".join(f"side {s} {p}" for s, p in sorted(points.items())),)
        return Settlement(tuple(items), 1, payments, "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("流局: nothing is paid",))

    def settle_round(self, ruleset: Any, hands: dict[int, Hand], verdicts: tuple[Any, ...],
                     context: Any) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
        """The settlement round after a win (jing_settlement=all_sides, rulesets.rounds): each seat that
        did not win and laid its hand collects its 精分 from each other side (the winner's was paid
        with the win)."""
        points = {side: jing_points(*held_jing(hand, context.wilds)) for side, hand in sorted(hands.items())}
        items = tuple(Item(f"jing_{side}", f"精分 (side {side})", "jing fen", p, "points") for side, p in points.items() if p)
        return items, jing_payments(points, context.sides)
