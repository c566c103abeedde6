"""Successor cycles: which kind follows a flipped indicator.

The texts disagree on the honours, so the cycle is part of a region's definition:
- `SEPARATE_HONOURS`: suits 9→1, winds 东南西北东, dragons 中发白中 (螺山 财神 RULES.md §31.3,
  钻牌 §26.1).
- `ONE_HONOUR_CYCLE`: suits 9→1, honours 东南西北中发白东 in one cycle (带弟百搭 §27).
- `SUITS_NO_WRAP`: suits only, 9 has no successor (a reading of 贵州 鸡 §13.3 where the wrap is
  not stated).
Flowers never have a successor.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tiles import Tile

_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
_DRAGONS = (Tile.RED, Tile.GREEN, Tile.WHITE)  # 中 → 发 → 白 → 中
_ONE_CYCLE = _WINDS + _DRAGONS                  # 东南西北中发白 → 东


@dataclass(frozen=True)
class SuccessorCycle:
    """A named successor rule."""

    name: str
    suit_wrap: bool
    honour_cycles: tuple[tuple[Tile, ...], ...]
    overrides: tuple[tuple[Tile, Tile], ...] = ()   # explicit successors that break a cycle

    def successor(self, tile: Tile) -> Tile | None:
        """The kind after `tile`, or None where this cycle gives none (flowers, 9 without wrap)."""
        for source, target in self.overrides:
            if tile == source:
                return target
        if tile.is_suited:
            if tile.rank < 9:
                return Tile(tile + 1)
            return Tile(tile - 8) if self.suit_wrap else None
        for cycle in self.honour_cycles:
            if tile in cycle:
                return cycle[(cycle.index(tile) + 1) % len(cycle)]
        return None

    def describe(self) -> str:
        honours = "; ".join("→".join(t.zh[0] for t in c + c[:1]) for c in self.honour_cycles)
        suits = "9→1" if self.suit_wrap else "9 has none"
        extra = "".join(f"; {a.zh}→{b.zh}" for a, b in self.overrides)
        return f"suits n→n+1, {suits}; honours {honours or 'none'}{extra}; flowers none"


SEPARATE_HONOURS = SuccessorCycle("separate_honours", True, (_WINDS, _DRAGONS))
ONE_HONOUR_CYCLE = SuccessorCycle("one_honour_cycle", True, (_ONE_CYCLE,))
SUITS_NO_WRAP = SuccessorCycle("suits_no_wrap", False, ())
SUITS_WRAP = SuccessorCycle("suits_wrap", True, ())

# 武汉 赖子 (RESEARCH.md §3.8): 红中 and 发财 are 杠牌, so a 皮 of 北, 中 or 发 makes 白板 the 赖子.
WUHAN_LAIZI = SuccessorCycle("wuhan_laizi", True, ((Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.WHITE),),
                             ((Tile.RED, Tile.WHITE), (Tile.GREEN, Tile.WHITE)))
