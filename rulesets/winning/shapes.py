"""Which winning shapes a region allows (`Shapes`), and the names of the shapes.

Definitions (RULES.md section numbers in brackets):

- **standard** (基本胡 / 平胡): n melds + one pair, n = 4 for 13-tile hands (14 with the winning
  tile), 5 for 16-tile hands (17), less the declared melds.  A meld is a pung (three equal
  tiles) or a chow (three consecutive ranks of one suit).  With `honour_chows` (南昌 §10:
  「三张不重复的同类的字牌可以组成一副顺子」) three *different* winds, or 中发白, are a chow too
  ("同类" read as: winds with winds, dragons with dragons).  With `pair_kinds` the pair must
  be one of those kinds, e.g. `PAIRS_258` for 二五八将 (长沙 §12, 武汉 屁胡).
- **seven pairs** (七对 / 七巧对, 14 tiles, nothing declared): seven pairs; with
  `four_as_two_pairs` a four-of-a-kind counts as two pairs (豪华七对), else every pair must be
  of a different kind.  `pair_kinds` does not apply to it.
- **thirteen orphans** (十三幺, 14 tiles): one each of 1m 9m 1p 9p 1s 9s and the seven honours,
  plus one more of any of them.
- **shisanlan** (十三烂, 南昌 §10; 14 tiles, nothing declared): fourteen different tiles with no
  two of one suit closer than three ranks apart (so at most three per suit, e.g. 147, 258,
  369, 159, 14) and the honours all different.  Fourteen tiles need at least five honours.
  (The 七星 variant, all seven honours, is a scoring matter.)
- **eight pairs plus a single** (八对+单张, 温州, RESEARCH.md §3.3; 17 tiles, nothing declared):
  eight pairs and one more tile; `four_as_two_pairs` applies as for seven pairs.

Wilds may stand for any tile in every shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..tiles import Tile

PAIRS_258: frozenset[Tile] = frozenset(Tile(base + rank) for base in (0, 9, 18) for rank in (1, 4, 7))
"""二五八将: the pair must be a 2, 5 or 8 of any suit."""

ORPHANS: tuple[Tile, ...] = (Tile.M1, Tile.M9, Tile.P1, Tile.P9, Tile.S1, Tile.S9, Tile.EAST,
                             Tile.SOUTH, Tile.WEST, Tile.NORTH, Tile.WHITE, Tile.GREEN, Tile.RED)
"""十三幺's thirteen kinds."""


class ShapeKind(str, Enum):
    """The shape a complete hand has."""

    STANDARD = "standard"  # n melds + a pair
    SEVEN_PAIRS = "seven_pairs"  # 七对
    THIRTEEN_ORPHANS = "thirteen_orphans"  # 十三幺
    SHISANLAN = "shisanlan"  # 十三烂
    EIGHT_PAIRS_PLUS_SINGLE = "eight_pairs_plus_single"  # 八对+单张

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Shapes:
    """The shapes a region accepts as a complete hand (see the module docstring)."""

    standard: bool = True
    seven_pairs: bool = False
    four_as_two_pairs: bool = True
    thirteen_orphans: bool = False
    shisanlan: bool = False
    eight_pairs_plus_single: bool = False
    honour_chows: bool = False
    pair_kinds: frozenset[Tile] | None = None

    def __post_init__(self) -> None:
        if self.pair_kinds is not None:
            kinds = frozenset(Tile(k) for k in self.pair_kinds)
            if any(k.is_flower for k in kinds):
                raise ValueError("pair_kinds: a flower cannot be a pair")
            object.__setattr__(self, "pair_kinds", kinds)

    def enabled(self, tiles_in_hand: int) -> tuple[ShapeKind, ...]:
        """The shapes that can apply to a hand of this many concealed tiles, in preference order.

        Seven pairs, thirteen orphans and 十三烂 need 14 concealed tiles, 八对+单张 needs 17.
        """
        out = [ShapeKind.STANDARD] if self.standard else []
        if tiles_in_hand == 14:
            out += [kind for kind, on in ((ShapeKind.SEVEN_PAIRS, self.seven_pairs),
                                          (ShapeKind.THIRTEEN_ORPHANS, self.thirteen_orphans),
                                          (ShapeKind.SHISANLAN, self.shisanlan)) if on]
        if tiles_in_hand == 17 and self.eight_pairs_plus_single:
            out.append(ShapeKind.EIGHT_PAIRS_PLUS_SINGLE)
        return tuple(out)
