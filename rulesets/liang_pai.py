"""沈阳 亮牌's sets (RULES.md §32.3): what may be shown, and what it takes from the wall.

「①手中有“东南西北”各一张时可以亮出，并“过杠”」 — one each of the winds, a kong-like 过杠 that takes one
replacement from the tail (the card's reading: 「这与“杠”的操作基本相同」); 「②手中有“中发白”各一张时可以亮出」
— one each of the dragons, three tiles, no replacement.
"""

from __future__ import annotations

from .tiles import DRAGONS, WINDS, Tile

SETS: dict[str, tuple[Tile, ...]] = {"东南西北": tuple(sorted(WINDS)), "中发白": tuple(sorted(DRAGONS))}
REPLACEMENTS: dict[str, int] = {"东南西北": 1, "中发白": 0}


def set_named(tiles) -> str | None:
    """The 亮牌 set these tiles are (one each of 东南西北, or of 中发白), or None."""
    return next((name for name, kinds in SETS.items() if tuple(sorted(tiles)) == kinds), None)


__all__ = ["REPLACEMENTS", "SETS", "set_named"]
