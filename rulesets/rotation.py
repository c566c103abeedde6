"""Dealer rotation: who deals the next hand.

Sides are in play order (逆时针): the 下家 of side i is the next playing side after i.
A rule is a few small answers, each read from a region's text:
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
- `discarder_deals`: whoever deals in (点炮) deals next, whoever won on his discard; only a self-drawn
  win goes by `on_dealer_win` / `on_other_win` (长沙 「通炮者坐庄其次和家坐庄」, reading (b), RULES.md §12.5).

Only the hand's *first* win decides.  A hand that ends at its first win has just that one (one seat,
or the several seats of one discard); a 血战/血流 hand plays on and makes more wins, and those later
wins, wherever their seats are, do not choose the dealer.  `HandOutcome.first_winners` names the
seats of the first win; a 一炮多响 is several seats there, on `discarder`'s discard.
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
    """How a hand ended.

    `winners`: every win of the hand in the order the table accepted them (empty for 荒庄); a seat
    appears once per win (血流: a seat may win again).  `discarder`: who dealt in the first win (None
    if it was self-drawn, or a draw).  `first_winners`: the seats of the first win — one seat, or the
    several winners of that one discard (一炮多响) — always the first entries of `winners`.  None
    means every winner won at that first win, which is all a hand that ends at its first win can
    have; a hand that plays on (血战/血流) must say, or its later wins are read as one discard's.
    """

    winners: tuple[int, ...] = ()
    discarder: int | None = None
    first_winners: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        first = self.first_winners
        if first is None:
            return
        if not self.winners:
            raise ValueError("a draw has no first winners")
        if not first or sorted(first) != sorted(self.winners[:len(first)]):
            raise ValueError(f"first winners {list(first)} are not the first of the winners {list(self.winners)}")
        if len(first) > 1 and (self.discarder is None or len(set(first)) != len(first)):
            raise ValueError(f"several first winners {list(first)} must be different seats on one discard")

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def first_win(self) -> tuple[int, ...]:
        """The seats of the hand's first win (several: 一炮多响 on `discarder`'s discard)."""
        return self.winners if self.first_winners is None else self.first_winners

    @property
    def several_on_one_discard(self) -> bool:
        """The first win was a 一炮多响: several seats won on one discard."""
        return self.discarder is not None and len(self.first_win) > 1


@dataclass(frozen=True)
class RotationRule:
    on_dealer_win: str = "keep"
    on_other_win: str = "next"
    on_draw: str = "keep"
    multi_win: str = "nearest_winner"
    dealer_among_winners_keeps: bool = False
    discarder_deals: bool = False

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
        text = f"{dealer}; {other}; {draw}; several winners: {several}"
        if self.discarder_deals:
            text = f"whoever deals in deals next, whoever won; on a self-draw: {text}"
        return text

    def next_dealer(self, dealer: int, sides: Sequence[int], outcome: HandOutcome) -> int:
        """Who deals next, by the hand's first win (`HandOutcome.first_win`): later wins of a 血战/血流
        hand do not count."""
        if outcome.is_draw:
            return dealer if self.on_draw == "keep" else following_side(dealer, sides)
        first = outcome.first_win
        winner = first[0]
        if outcome.several_on_one_discard:
            assert outcome.discarder is not None
            if self.dealer_among_winners_keeps and dealer in first:
                return dealer
            if self.discarder_deals:
                return outcome.discarder
            nearest = nearest_winner(outcome.discarder, first, sides)
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
                    winner = dealer if dealer in first else nearest
        elif self.discarder_deals and outcome.discarder is not None:
            return outcome.discarder
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


def first_win_seats(wins: Sequence[tuple[int, int | None, int]]) -> tuple[int, ...]:
    """The seats of a hand's first win, from its wins in order as (seat, discarder, takes) — `takes`
    the tiles taken from the wall when the win was accepted.  A self-drawn first win is one seat; a
    win on a discard takes in the wins that follow it on the same discard (same discarder, no tile
    taken between: 一炮多响; `takes` -1, not known, on both is taken as the same discard).  What the
    firmware gives `HandOutcome.first_winners`."""
    if not wins:
        return ()
    seat, discarder, takes = wins[0]
    if discarder is None:
        return (seat,)
    seats = [seat]
    for other, other_discarder, other_takes in wins[1:]:
        if other_discarder != discarder or other_takes != takes or other in seats:
            break
        seats.append(other)
    return tuple(seats)
