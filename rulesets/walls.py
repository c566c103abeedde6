"""Wall geometry, the ring and the draw sequence (DESIGN.md §4).

- Sides 0–3 are the table's sides counter-clockwise seen from above (the order of play):
  下家 of side i is i+1, 对家 i+2, 上家 i+3.
- The wall in front of side i has S_i stacks of two tiles (top, bottom), numbered 0.. from that
  player's right end to the left end.  An empty side (3-player tables) has 0 stacks.
- Tiles are drawn clockwise: after stack S_i−1 of wall i comes stack 0 of wall i+3.
- A break (wall, k) skips k stacks from that wall's right end: ring[0] is stack k of that wall,
  the tail ring[-1] is the stack before it.
- Head draws take ring[0].top, ring[0].bottom, ring[1].top, …; tail draws take the top of the last
  stack still standing, then its bottom.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from enum import Enum
from typing import NamedTuple

SIDES = 4


def next_side(side: int) -> int:
    """下家."""
    return (side + 1) % SIDES


def opposite_side(side: int) -> int:
    """对家."""
    return (side + 2) % SIDES


def previous_side(side: int) -> int:
    """上家."""
    return (side + 3) % SIDES


class Layer(str, Enum):
    TOP = "top"
    BOTTOM = "bottom"


class End(str, Enum):
    HEAD = "head"
    TAIL = "tail"


class StackPos(NamedTuple):
    """A stack position on the table: wall (side) and stack number from that side's right end.
    (A named tuple, not a frozen dataclass: the controller and the simulator make thousands a hand,
    and a tuple is made, hashed and compared at a third of the cost.  Ordered as before.)"""

    wall: int
    stack: int


class Slot(NamedTuple):
    """One tile position: a ring index and a layer (a named tuple, as `StackPos`)."""

    ring: int
    layer: Layer


@dataclass(frozen=True)
class Break:
    """Where the wall is broken: skip `skip` stacks from the right end of `wall`."""

    wall: int
    skip: int


class WallError(ValueError):
    """A layout or break that cannot exist on this table."""


@dataclass(frozen=True)
class WallLayout:
    """Stacks per side (4 numbers, 0 for an empty side)."""

    stacks_per_side: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        if len(self.stacks_per_side) != SIDES or any(s < 0 for s in self.stacks_per_side):
            raise WallError(f"stacks per side must be 4 numbers >= 0, got {self.stacks_per_side}")
        if self.total_stacks == 0:
            raise WallError("a layout needs at least one stack")

    @staticmethod
    def for_tiles(tile_count: int, playing_sides: tuple[int, ...] = (0, 1, 2, 3)) -> "WallLayout":
        """Spread `tile_count` tiles over the playing sides as evenly as whole stacks allow.

        Sides that get an extra stack alternate across the table (0, 2, 1, 3), so a 108-tile
        set becomes 14+13+14+13 as on real tables (RESEARCH.md §1.1).
        """
        if tile_count % 2:
            raise WallError(f"{tile_count} tiles cannot make stacks of two")
        stacks = tile_count // 2
        base, extra = divmod(stacks, len(playing_sides))
        per_side = [0] * SIDES
        for side in playing_sides:
            per_side[side] = base
        for side in [s for s in (0, 2, 1, 3) if s in playing_sides][:extra]:
            per_side[side] += 1
        return WallLayout(tuple(per_side))  # type: ignore[arg-type]

    @property
    def total_stacks(self) -> int:
        return sum(self.stacks_per_side)

    @property
    def tile_count(self) -> int:
        return 2 * self.total_stacks

    @property
    def walled_sides(self) -> tuple[int, ...]:
        return tuple(s for s in range(SIDES) if self.stacks_per_side[s])

    def clockwise_from(self, wall: int) -> list[StackPos]:
        """Every stack in draw order, starting at stack 0 of `wall`."""
        order: list[StackPos] = []
        side = wall
        for _ in range(SIDES):
            order.extend(StackPos(side, k) for k in range(self.stacks_per_side[side]))
            side = previous_side(side)
        return order

    def ring(self, brk: Break) -> "Ring":
        """The ring for a break: ring[0] is `brk.skip` stacks past the right end of `brk.wall`."""
        if not self.stacks_per_side[brk.wall]:
            raise WallError(f"side {brk.wall} has no wall to break")
        if brk.skip < 0:
            raise WallError(f"cannot skip {brk.skip} stacks")
        order = self.clockwise_from(brk.wall)
        start = brk.skip % len(order)
        return Ring(tuple(order[start:] + order[:start]))


@dataclass(frozen=True)
class Ring:
    """All stacks in draw order: ring[0] is the head, ring[-1] the tail."""

    stacks: tuple[StackPos, ...]

    def __len__(self) -> int:
        return len(self.stacks)

    def __getitem__(self, index: int) -> StackPos:
        return self.stacks[index]

    @property
    def tile_count(self) -> int:
        return 2 * len(self.stacks)

    @property
    def head(self) -> StackPos:
        return self.stacks[0]

    @property
    def tail(self) -> StackPos:
        return self.stacks[-1]

    def index_of(self, pos: StackPos) -> int:
        return self.stacks.index(pos)

    def head_slot(self, position: int) -> Slot:
        """The slot of the `position`-th head draw (0-based sequence position)."""
        self._check(position)
        return self.head_order()[position]

    def tail_slot(self, taken: int) -> Slot:
        """The slot of the tail draw after `taken` tiles have already been drawn from the tail."""
        self._check(taken)
        return self.tail_order()[taken]

    def head_order(self) -> tuple[Slot, ...]:
        """Every slot in head-draw order (`head_slot` of 0, 1, …)."""
        return _draw_orders(len(self.stacks))[0]

    def tail_order(self) -> tuple[Slot, ...]:
        """Every slot in tail-draw order (`tail_slot` of 0, 1, …)."""
        return _draw_orders(len(self.stacks))[1]

    def slot_sequence(self, slot: Slot) -> int:
        """The head-draw sequence position of a slot."""
        return 2 * slot.ring + (0 if slot.layer is Layer.TOP else 1)

    def _check(self, position: int) -> None:
        if not 0 <= position < self.tile_count:
            raise WallError(f"draw {position} is outside a ring of {self.tile_count} tiles")


@cache
def _draw_orders(stacks: int) -> tuple[tuple[Slot, ...], tuple[Slot, ...]]:
    """The head and tail draw orders of a ring of `stacks` stacks: they depend on its length alone,
    and a hand's tracker asks for them at every hand (a few layouts: a few entries)."""
    layers = (Layer.TOP, Layer.BOTTOM)
    head = tuple(Slot(p // 2, layers[p % 2]) for p in range(2 * stacks))
    tail = tuple(Slot(stacks - 1 - t // 2, layers[t % 2]) for t in range(2 * stacks))
    return head, tail
