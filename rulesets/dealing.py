"""Dealing plans as explicit head-draw sequence positions.

The default deal (DESIGN.md §4): each player in turn, dealer first, takes a grab of 4 tiles (two
stacks) until fewer than 4 are owed; then single tiles go round, and the dealer takes one tile
more.  For 13-tile hands that is 4-4-4 then 跳牌: the dealer takes the tops of the 1st and 3rd of
the next three stacks (positions 48 and 52), the others 49, 50, 51; the first head draw of play
is 53.  Every tile's owner is known from its sequence position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class Grab:
    """One take during the deal: a side and the head-draw positions it takes."""

    side: int
    positions: tuple[int, ...]


@dataclass(frozen=True)
class DealPlan:
    dealer: int
    order: tuple[int, ...]            # sides in dealing order, dealer first
    grabs: tuple[Grab, ...]           # in the order they are taken
    next_head: int                    # the first head position drawn in play

    def positions_of(self, side: int) -> tuple[int, ...]:
        return tuple(sorted(p for g in self.grabs if g.side == side for p in g.positions))

    def hand_sizes(self) -> dict[int, int]:
        return {side: len(self.positions_of(side)) for side in self.order}

    def owner_of(self) -> dict[int, int]:
        """Sequence position → side, for every dealt tile."""
        return {p: g.side for g in self.grabs for p in g.positions}

    def first_grab(self, side: int) -> tuple[int, ...]:
        """The positions of a side's first grab (立四's standing tiles, RULES.md §24)."""
        return next(g.positions for g in self.grabs if g.side == side)


@dataclass(frozen=True)
class DealPattern:
    """How a region deals: grab size, hand size, and whether the dealer's extra tile is a 跳牌."""

    hand_size: int = 13
    grab: int = 4

    def describe(self) -> str:
        rounds, singles = divmod(self.hand_size, self.grab)
        text = f"{rounds} rounds of {self.grab} tiles each, dealer first"
        if singles:
            text += f", then {singles} single tile(s) each and the dealer's 跳牌 (the tile after the round)"
        else:
            text += ", then the dealer takes one more tile"
        return text + f"; dealer {self.hand_size + 1}, others {self.hand_size}"

    def plan(self, dealer: int, sides: Sequence[int]) -> DealPlan:
        order = dealing_order(dealer, sides)
        rounds, singles = divmod(self.hand_size, self.grab)
        grabs: list[Grab] = []
        position = 0
        for _ in range(rounds):
            for side in order:
                grabs.append(Grab(side, tuple(range(position, position + self.grab))))
                position += self.grab
        for _ in range(singles):
            for side in order:
                grabs.append(Grab(side, (position,)))
                position += 1
        grabs.append(Grab(dealer, (position,)))  # the dealer's 14th (or 17th) tile
        return DealPlan(dealer, order, tuple(grabs), position + 1)


def dealing_order(dealer: int, sides: Sequence[int]) -> tuple[int, ...]:
    """Playing sides in turn order (逆时针, towards 下家), dealer first."""
    ordered = sorted(sides)
    start = ordered.index(dealer)
    return tuple(ordered[start:] + ordered[:start])
