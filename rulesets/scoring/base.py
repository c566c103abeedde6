"""The scorer protocol and the flat scorer for regions whose texts give no values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, payments_from
from ..winrules import Judged

if TYPE_CHECKING:
    from ..winning import WinShape
    from ..winrules import Verdict

T = TypeVar("T")


@dataclass(frozen=True)
class DrawContext:
    """A drawn hand (荒庄): who dealt, who is ready (查叫), the kongs made (side, exposed, concealed)."""

    dealer: int
    sides: tuple[int, ...] = (0, 1, 2, 3)
    ready: tuple[int, ...] = ()
    kongs_by_side: tuple[tuple[int, int, int], ...] = ()


class Scorer(Protocol):
    name: str

    def describe(self) -> str: ...

    def settle(self, ruleset: Any, hand: Hand, verdict: "Verdict", context: WinContext) -> Settlement: ...

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement: ...


def false_win_settlement(ruleset: Any, seat: int, dealer: int) -> Settlement | None:
    """What a 诈胡 by `seat` pays, where the region's scorer prices one (`settle_false_win`: 大包
    「诈胡等同于输给其他三家」); None where it pays nothing.  The table and the audit both ask here."""
    settle = getattr(ruleset.scoring, "settle_false_win", None)
    return settle(ruleset, seat, dealer, tuple(ruleset.players)) if settle is not None else None


def readings(verdict: "Verdict") -> tuple["WinShape", ...]:
    """The readings a scorer may price: every legal one (or the one judged)."""
    return verdict.legal_readings or ((verdict.shape,) if verdict.shape else ())


def best_reading(verdict: "Verdict", hand: Hand, context: WinContext, price: Callable[[Judged], T],
                 key: Callable[[T], object]) -> T:
    """The highest-priced reading: a player is paid for the best way to read his hand.

    Among readings priced alike, the one whose price (its items) comes first in text order, so
    the answer does not depend on the order the readings were found in."""
    wilds = frozenset(context.wilds)
    prices = [price(Judged(hand, shape, context, wilds)) for shape in readings(verdict)]
    best = max(map(key, prices))  # type: ignore[type-var]
    return min((p for p in prices if key(p) == best), key=repr)


def no_payments() -> tuple[int, int, int, int]:
    return (0, 0, 0, 0)


def discard_or_all_pay(context: WinContext, amount: int) -> tuple[int, int, int, int]:
    """The discarder pays `amount`, or on a self-draw every other player does."""
    if context.self_drawn:
        return payments_from({side: amount for side in context.losers()}, context.winner)
    return payments_from({context.discarder: amount}, context.winner)


@dataclass(frozen=True)
class FlatScorer:
    """One point per win: the discarder pays 1, or each other player pays 1 on a self-draw.

    Used where the text gives no values (RULES.md §35 "scoring: none"); the table still keeps a
    score, and the region's notes say so.
    """

    name: str = "flat"

    def describe(self) -> str:
        return "no values in the text: a win is 1 point, paid by the discarder or by each player on a self-draw"

    def settle(self, ruleset: Any, hand: Hand, verdict: "Verdict", context: WinContext) -> Settlement:
        item = Item("hu", "胡", "hu", 1, "points")
        return Settlement((item,), 1, discard_or_all_pay(context, 1), notes=("flat: the text gives no values",))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments())
