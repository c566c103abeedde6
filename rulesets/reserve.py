"""The reserve (dead wall): how many undrawn tiles must stay at the tail.

A policy answers `reserved_tiles(kongs, tail_taken)`: the tiles at the end of the draw order that
no head draw may take, given the kongs made so far and the tiles already drawn from the tail
(kong and flower replacements).  The live wall is exhausted (荒庄) when the next head draw would
cut into them: `live = remaining − reserved ≤ 0`.

A lone tile left at the tail by an odd number of tail draws is not a stack
(「杠完后留的单数海底牌不算一墩」, RULES.md §1.4); policies that count stacks keep it in addition.

`tail_taken` also counts an indicator set aside nearer the tail than the head (docs/table-flow.md
§5).  Where that tile is the tail's own next tile (温州 财神, 百搭 set aside: 杠尾) it is a take from
the tail end like a replacement, and leaves a lone tile just as one does.  河北's 混儿 lies 2–12
stacks back from the tail: taking it draws nothing from the tail end, so `StacksPlusKongs` does not
count it there (see that class).

The 留7墩 kong rule of 长春 and 立四 has three readings (RULES.md §1.4, Ambiguity D1):
- R-A: the reserve boundary moves one original stack towards the live wall per kong:
  2·(7 + k) − t tiles (14 + k undrawn at 荒庄 when every tail draw is a kong).
- R-B (default): keep max(7, 6 + k) FULL stacks after k kongs, plus the lone tail tile if any.
- R-C: max(7, 6 + k) stacks of the original layout; replacement tiles come from inside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class NoReserve:
    """Every tile may be drawn (e.g. 螺山 「荒和：抓完所有牌」, 宜昌 「打到桌面无牌」)."""

    name: str = "none"

    def reserved_tiles(self, kongs: int, tail_taken: int) -> int:
        return 0

    def describe(self) -> str:
        return "no reserve: the hand is drawn to the last tile"


@dataclass(frozen=True)
class FixedStacks:
    """A fixed number of full stacks stays at the tail (plus a lone tail tile, which is not a stack)."""

    stacks: int
    name: str = "fixed_stacks"

    def reserved_tiles(self, kongs: int, tail_taken: int) -> int:
        return 2 * self.stacks + tail_taken % 2

    def describe(self) -> str:
        return f"keep the last {self.stacks} full stacks (a lone tail tile stays too)"


@dataclass(frozen=True)
class FixedTiles:
    """A fixed number of tiles stays: 杭州 20, 南昌 34 (RESEARCH.md §3.4, §3.7); 7.5 stacks = 15 (dabao)."""

    tiles: int
    name: str = "fixed_tiles"

    def reserved_tiles(self, kongs: int, tail_taken: int) -> int:
        return self.tiles

    def describe(self) -> str:
        return f"the hand ends when {self.tiles} tiles remain"


@dataclass(frozen=True)
class TilesPlusKongs:
    """A number of tiles stays, and one more stack (2 tiles) for each kong: 大包 「留最后7个半」 grown by
    its kongs (house option `reserve_kongs=grows`: 15 + 2·kongs).

    The tiles are counted as they stand on the table, a lone tile included (「7个半」 counts a half
    stack), as R-B counts 留7墩's stacks; unlike R-B no kong is exempt, and unlike R-A and R-C the
    kongs' replacement draws do not come out of the reserve: after k kongs 15 + 2k tiles stand at 荒庄.
    """

    tiles: int
    name: str = "tiles_plus_kongs"

    def reserved_tiles(self, kongs: int, tail_taken: int) -> int:
        return self.tiles + 2 * kongs

    def describe(self) -> str:
        return f"the hand ends when {self.tiles} + 2·kongs tiles remain (one more stack for each kong)"


@dataclass(frozen=True)
class KongReserve:
    """留7墩 with its kong rule, in one of the readings R-A, R-B, R-C of RULES.md §1.4."""

    reading: str = "R-B"
    base: int = 7
    name: str = "kong_reserve"

    def __post_init__(self) -> None:
        if self.reading not in KONG_READINGS:
            raise ValueError(f"unknown 留7墩 reading {self.reading!r}; choose one of {', '.join(KONG_READINGS)}")

    def reserved_tiles(self, kongs: int, tail_taken: int) -> int:
        grown = max(self.base, self.base - 1 + kongs)
        if self.reading == "R-A":
            return max(0, 2 * (self.base + kongs) - tail_taken)
        if self.reading == "R-B":
            return 2 * grown + tail_taken % 2
        return max(0, 2 * grown - tail_taken)  # R-C

    def describe(self) -> str:
        return {
            "R-A": f"留{self.base}墩: the reserve grows by one original stack per kong (undrawn at 荒庄 = {2 * self.base} + kongs)",
            "R-B": f"留{self.base}墩: keep max({self.base}, {self.base - 1}+kongs) full stacks, plus a lone tail tile",
            "R-C": f"留{self.base}墩: max({self.base}, {self.base - 1}+kongs) stacks of the original layout; replacements come from inside them",
        }[self.reading]


KONG_READINGS = ("R-A", "R-B", "R-C")


@dataclass(frozen=True)
class StacksPlusKongs:
    """Keep `base` + kongs full stacks (河北 「留 6 + 杠数 墩」, RESEARCH.md §3.6), plus a lone tail tile.

    The lone tile is the one an odd number of kong replacements leaves at the tail.  河北 draws
    nothing else from the tail (「无补花」, RULES.md §17): any take counted in `tail_taken` beyond the
    kongs is the 混儿 set aside — the top of the 2nd–12th stack from the tail, a tile out of the
    wall's middle, not a draw from its tail end — so it moves neither the tail nor the reserve:
    12 + 2·kongs (+ 1 for an odd number of kongs) tiles stay at 荒庄.

    A 混儿 taken from inside the reserved stacks leaves its bottom tile there as a half stack;
    whether that is a 墩 is not stated, and the reserve still holds 12 + 2·kongs tiles (six 墩's
    worth, the card says so).
    """

    base: int = 6
    name: str = "stacks_plus_kongs"

    def tail_end_taken(self, kongs: int, tail_taken: int) -> int:
        """The tiles gone from the tail end: the kongs' replacements (the 混儿 set aside is not one)."""
        return min(kongs, tail_taken)

    def reserved_tiles(self, kongs: int, tail_taken: int) -> int:
        return 2 * (self.base + kongs) + self.tail_end_taken(kongs, tail_taken) % 2

    def describe(self) -> str:
        return f"keep {self.base} + kongs full stacks (a lone tail tile stays too)"


ReservePolicy = NoReserve | FixedStacks | FixedTiles | TilesPlusKongs | KongReserve | StacksPlusKongs


class WallCount(NamedTuple):
    """The arithmetic of the live wall at one moment (a named tuple: one is made at every take and
    every look at the wall)."""

    total: int        # tiles in the ring
    head_taken: int   # head draws so far (dealing included)
    tail_taken: int   # tail draws so far (an indicator set aside nearer the tail included)
    reserved: int     # tiles the reserve holds now
    tail_end: int | None = None   # tiles gone from the tail end, if not all of `tail_taken` (河北 混儿)

    @property
    def remaining(self) -> int:
        return self.total - self.head_taken - self.tail_taken

    @property
    def live(self) -> int:
        """Tiles left to draw from the head before the reserve."""
        return max(0, self.remaining - self.reserved)

    @property
    def exhausted(self) -> bool:
        return self.live == 0

    @property
    def reserved_full_stacks(self) -> int:
        """Full stacks (both tiles present) inside the reserved tiles at the tail."""
        # Tail draws take a stack's top, then its bottom: after an odd number a lone bottom
        # tile stands last; it is reserved first but is not a stack.
        from_end = self.tail_taken if self.tail_end is None else self.tail_end
        lone = from_end % 2
        block_end = self.total - 2 * ((from_end + 1) // 2)   # one past the last full stack's tiles
        in_block = max(0, min(self.reserved, self.remaining) - lone)
        start = max(block_end - in_block, self.head_taken)
        return max(0, block_end // 2 - (start + 1) // 2)


def wall_count(policy: ReservePolicy, total: int, head_taken: int, tail_taken: int, kongs: int) -> WallCount:
    if isinstance(policy, StacksPlusKongs):     # (河北: the 混儿 set aside is not a take from the tail end)
        return WallCount(total, head_taken, tail_taken, policy.reserved_tiles(kongs, tail_taken),
                         policy.tail_end_taken(kongs, tail_taken))
    return WallCount(total, head_taken, tail_taken, policy.reserved_tiles(kongs, tail_taken))


def live_after_a_kong(policy: ReservePolicy, total: int, head_taken: int, tail_taken: int, kongs: int) -> int:
    """The live count once one more kong's replacement is taken from the tail: a kong is made only
    while one would remain (docs/table-flow.md §5) — the players' rule and the controller's."""
    return wall_count(policy, total, head_taken, tail_taken + 1, kongs + 1).live
