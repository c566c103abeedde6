"""Small helpers several scorers share: 番 doubling, who pays, kong money (readings: base.best_reading).

Each scorer prices every legal reading of the hand (`Verdict.legal_readings`) and keeps the best
for the winner, as 长春 and 螺山 do; the helpers here keep that and the payment arithmetic in one
place so that each region's module reads as its rules.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..hand import Hand, Meld, MeldKind, WinContext
from ..settlement import Item, add_payments, payments_from
from ..tiles import Tile

Payments = tuple[int, int, int, int]
ZERO: Payments = (0, 0, 0, 0)


def fan_total(items: Iterable[Item]) -> int:
    return sum(i.value for i in items if i.unit == "fan")


def times_product(items: Iterable[Item]) -> int:
    total = 1
    for item in items:
        if item.unit == "times":
            total *= item.value
    return total


def each_loser_pays(context: WinContext, amount: Callable[[int], int]) -> Payments:
    """Every loser pays `amount(side)` to the winner."""
    return payments_from({side: amount(side) for side in context.losers()}, context.winner)


def discarder_or_each(context: WinContext, amount: Callable[[int], int], all_pay: bool = False) -> Payments:
    """On a discard the discarder pays (or, with `all_pay`, every loser); on a self-draw everyone."""
    if context.self_drawn or all_pay:
        return each_loser_pays(context, amount)
    return payments_from({context.discarder: amount(context.discarder)}, context.winner)


def count_kinds(hand: Hand, kinds: Iterable[Tile]) -> int:
    wanted = frozenset(kinds)
    return sum(1 for t in hand.all_tiles() if t in wanted)


def melds_by_side(context: WinContext, hand: Hand) -> dict[int, tuple[Meld, ...]]:
    """Declared melds per side: the winner's from the hand, the others' from `exposed_by_side`."""
    melds = {side: tuple(shown) for side, shown in context.exposed_by_side if side != context.winner}
    melds[context.winner] = hand.melds
    return melds


def kong_money(kongs: dict[int, tuple[int, int, int]], sides: tuple[int, ...],
               values: tuple[int, int, int]) -> tuple[tuple[Item, ...], Payments]:
    """Each other side pays a kong's maker: `values` = (明杠 of a discard, 加杠, 暗杠) per kong.

    `kongs[side]` = (明杠, 加杠, 暗杠) counts.
    """
    items: list[Item] = []
    parts = []
    for side in sorted(kongs):
        amount = sum(n * v for n, v in zip(kongs[side], values))
        if amount:
            items.append(Item(f"gang_{side}", f"杠 (side {side})", "gang", amount, "points"))
            parts.append(payments_from({s: amount for s in sides if s != side}, side))
    return tuple(items), add_payments(ZERO, *parts)


def kong_counts(melds: Iterable[Meld]) -> tuple[int, int, int]:
    """(明杠 of a discard, 加杠, 暗杠) among declared melds."""
    melds = tuple(melds)
    return (sum(m.kind is MeldKind.KONG for m in melds), sum(m.kind is MeldKind.ADDED_KONG for m in melds),
            sum(m.kind is MeldKind.CONCEALED_KONG for m in melds))


def dealer_involved(context: WinContext, payer: int) -> bool:
    return context.winner_is_dealer or payer == context.dealer
