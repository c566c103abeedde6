"""Tile sets, built by composition.

A set is a multiset of kinds: `SUITS + WINDS + DRAGONS` is the 136-tile set.  Parts are added
with `+` and suits removed with `without_suit`, so every regional set reads like its text:
灌南 is `SUITS + WINDS_ONE_EACH` (108 + 4 = 112), 卡五星 is `SUITS.without_suit('m') + DRAGONS`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from .tiles import DRAGONS, FLOWERS, SUITED, WINDS, Tile


@dataclass(frozen=True)
class TileSet:
    """A named multiset of tile kinds: which faces, and how many copies of each."""

    name: str
    counts: tuple[tuple[Tile, int], ...]

    @staticmethod
    def of(name: str, kinds: tuple[Tile, ...] | list[Tile], copies: int) -> "TileSet":
        return TileSet(name, tuple((kind, copies) for kind in kinds))

    def __add__(self, other: "TileSet") -> "TileSet":
        merged = Counter(dict(self.counts))
        merged.update(dict(other.counts))
        return TileSet(f"{self.name} + {other.name}", _sorted_counts(merged))

    def without_suit(self, suit: str) -> "TileSet":
        """The same set with every tile of one suit ('m', 'p', 's') removed."""
        kept = tuple((k, n) for k, n in self.counts if k.suit != suit)
        return TileSet(f"{self.name} without {suit}", kept)

    def named(self, name: str) -> "TileSet":
        return TileSet(name, self.counts)

    @property
    def size(self) -> int:
        return sum(n for _, n in self.counts)

    def copies(self, kind: Tile) -> int:
        return self._by_kind.get(kind, 0)

    @cached_property
    def _by_kind(self) -> dict[Tile, int]:
        """`counts` as a dict (asked for every kind of every hand judged)."""
        return dict(self.counts)

    @cached_property
    def kinds(self) -> tuple[Tile, ...]:
        """(asked at every hand judged: worked out once)"""
        return tuple(k for k, n in self.counts if n)

    @cached_property
    def hand_kinds(self) -> tuple[Tile, ...]:
        """The kinds but the flowers: what a hand's waits are looked for among."""
        return tuple(k for k in self.kinds if not k.is_flower)

    def tiles(self) -> list[Tile]:
        """One entry per physical tile, in kind order."""
        return [kind for kind, n in self.counts for _ in range(n)]

    def has_suit(self, suit: str) -> bool:
        return any(k.suit == suit for k in self.kinds)


def _sorted_counts(counter: Counter) -> tuple[tuple[Tile, int], ...]:
    return tuple(sorted(((k, n) for k, n in counter.items() if n), key=lambda kn: kn[0]))


SUITS = TileSet.of("万筒条 ×4", SUITED, 4)
WINDS_SET = TileSet.of("东南西北 ×4", WINDS, 4)
DRAGONS_SET = TileSet.of("中发白 ×4", DRAGONS, 4)
FLOWERS_SET = TileSet.of("春夏秋冬梅兰竹菊 ×1", FLOWERS, 1)
WINDS_ONE_EACH = TileSet.of("东南西北 ×1", WINDS, 1)
RED_DRAGONS = TileSet.of("红中 ×4", (Tile.RED,), 4)

SET_108 = SUITS.named("108 (万筒条)")
SET_112_WINDS = (SUITS + WINDS_ONE_EACH).named("112 (万筒条 + 东南西北各一)")
SET_112_RED = (SUITS + RED_DRAGONS).named("112 (万筒条 + 4 红中)")
SET_136 = (SUITS + WINDS_SET + DRAGONS_SET).named("136 (万筒条 + 风 + 箭)")
SET_144 = (SET_136 + FLOWERS_SET).named("144 (136 + 8 花)")
SET_84 = (SUITS.without_suit("m") + DRAGONS_SET).named("84 (筒条 + 中发白)")

# The physical sets a table can be loaded with, by the name the command line uses.  "112" is
# 灌南's (108 + one each wind), the only 112-tile set a region plays; "112red" is 108 + 4 红中.
NAMED_SETS: dict[str, TileSet] = {"136": SET_136, "144": SET_144, "108": SET_108, "112": SET_112_WINDS,
                                  "112red": SET_112_RED, "84": SET_84}
