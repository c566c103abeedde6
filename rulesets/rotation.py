"""Dealer rotation: who deals the next hand.

Sides are in play order (逆时针): the 下家 of side i is the next playing side after i.
A rule is four small answers, each read from a region's text:
- `on_dealer_win`: "keep" (连庄) or "next" (pass to 下家)
- `on_other_win`: "next" (the dealer's 下家 deals, 下庄) or "winner" (the winner deals)
- `on_draw`: "keep" or "next"
- `multi_win`: when one discard makes several winners (一炮多响):
  "nearest_winner" (the winner first reached from the discarder towards 下家),
  "after_nearest_winner" (that winner's 下家), "discarder_next" (the discarder's 下家),
  "dealer_if_winner" (the dealer stays if among the winners, else the usual rule for the
  nearest winner), "discarder" (the discarder deals: 长沙 通炮者坐庄).
- `dealer_among_winners_keeps`: the opening block of 000/004 (RULES.md §5), 「允许一炮多响，如果一炮多响
  包括庄家在内和牌下一轮庄家继续当庄」 — when the dealer is among several winners of one discard he
  deals again; otherwise `multi_win` decides.  A house option of every region with 一炮多响.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

ON_WIN = ("keep", "next")
ON_OTHER_WIN = ("next", "winner")
ON_DRAW = ("keep", "next")
MULTI_WIN = ("nearest_winner", "after_nearest_winner", "discarder_next", "dealer_if_winner", "discarder")


@dataclass(frozen=True)
class HandOutcome:
    """How a hand ended: the winners (empty for 荒庄) and the discarder (None if self-drawn or a draw)."""

    winners: tuple[int, ...] = ()
    discarder: int | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class RotationRule:
    on_dealer_win: str = "keep"
    on_other_win: str = "next"
    on_draw: str = "keep"
    multi_win: str = "nearest_winner"
    dealer_among_winners_keeps: bool = False

    def __post_init__(self) -> None:
        for value, allowed in ((self.on_dealer_win, ON_WIN), (self.on_other_win, ON_OTHER_WIN),
                               (self.on_draw, ON_DRAW), (self.multi_win, MULTI_WIN)):
            if value not in allowed:
                raise ValueError(f"rotation value {value!r} is not one of {allowed}")

    def describe(self) -> str:
        dealer = "dealer keeps on a win (连庄)" if self.on_dealer_win == "keep" else "dealer passes even on a win"
        other = "another's win passes the deal to the dealer's 下家" if self.on_other_win == "next" else "the winner deals next"
        draw = "a draw keeps the dealer" if self.on_draw == "keep" else "a draw passes the deal to 下家"
        several = self.multi_win.replace('_', ' ')
        if self.dealer_among_winners_keeps:
            several = f"the dealer keeps if among them, else {several}"
        return f"{dealer}; {other}; {draw}; several winners: {several}"

    def next_dealer(self, dealer: int, sides: Sequence[int], outcome: HandOutcome) -> int:
        if outcome.is_draw:
            return dealer if self.on_draw == "keep" else following_side(dealer, sides)
        winner = outcome.winners[0]
        if len(outcome.winners) > 1 and outcome.discarder is not None:
            if self.dealer_among_winners_keeps and dealer in outcome.winners:
                return dealer
            nearest = nearest_winner(outcome.discarder, outcome.winners, sides)
            match self.multi_win:
                case "nearest_winner":
                    winner = nearest
                case "after_nearest_winner":
                    return following_side(nearest, sides)
                case "discarder_next":
                    return following_side(outcome.discarder, sides)
                case "discarder":
                    return outcome.discarder
                case "dealer_if_winner":
                    winner = dealer if dealer in outcome.winners else nearest
        if winner == dealer:
            return dealer if self.on_dealer_win == "keep" else following_side(dealer, sides)
        return following_side(dealer, sides) if self.on_other_win == "next" else winner


def following_side(side: int, sides: Sequence[int]) -> int:
    """The next playing side in turn order (下家, skipping an empty side)."""
    ordered = sorted(sides)
    return ordered[(ordered.index(side) + 1) % len(ordered)]


def nearest_winner(discarder: int, winners: Sequence[int], sides: Sequence[int]) -> int:
    """The first winner reached going from the discarder towards 下家."""
    side = discarder
    for _ in range(len(sides)):
        side = following_side(side, sides)
        if side in winners:
            return side
    raise ValueError(f"no winner among {list(winners)}")
