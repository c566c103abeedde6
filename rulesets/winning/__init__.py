"""Win evaluation with wilds: complete hands, waits, wild assignments and decompositions.

Quick use::

    from rulesets.tiles import Tile, parse_tiles
    from rulesets.winning import Shapes, is_complete, evaluate, waits

    hand = parse_tiles("123m456p78s111z55m5z")            # 14 tiles; 白板 is the wild (杭州 财神)
    is_complete(hand, {Tile.WHITE}, 4, Shapes())          # True
    evaluate(hand, {Tile.WHITE}, 4, Shapes()).assignment  # ((Tile.WHITE, Tile.S6),)
    waits(hand[:13], {Tile.WHITE}, 4, Shapes(), candidates=[Tile(k) for k in range(34)])

- `concealed`: the concealed tiles only (declared melds left out), flowers set aside unless
  they are wild.  `melds_needed`: 4 for a 13-tile hand with nothing declared, 5 for a 16-tile
  hand, one less per declared meld.  A complete hand has 3·melds_needed + 2 tiles, a hand
  one short 3·melds_needed + 1.
- `wild_kinds`: kinds whose tiles are wild (they stand for any tile).  `stand_ins`: kinds that
  play another face, e.g. ``{Tile.WHITE: Tile.M9}`` (白板 plays the wild's own face).
- `Shapes`: the shapes a region allows (shapes.py defines each one).

Each function builds an `Evaluator` (a few microseconds); for many calls with the same rules,
build one `Evaluator` and call its methods (same names, without the rule arguments).

Bad input (five of a kind, a stray flower, a tile count that does not fit `melds_needed`, a
winning tile not in the hand) raises `HandError`, a `ValueError` with a one-line message.
docs/winning.md describes the method and the measured speed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..tiles import Tile
from . import tables
from .evaluator import Evaluator
from .results import Group, GroupKind, HandError, WinRole, WinShape
from .shapes import ORPHANS, PAIRS_258, ShapeKind, Shapes


def prepare(honour_chows: bool = False) -> None:
    """Build the win tables now (they are built on first use, ≈50 ms here, ≈1 s on a Pi Zero 2 W):
    call it at start-up so that the first win check of a hand does not hold the event loop."""
    tables.suit_table()
    tables.honour_table(honour_chows)
    tables.honour_wild_table(honour_chows)


def is_complete(concealed: Sequence[Tile], wild_kinds: Iterable[Tile], melds_needed: int, shapes: Shapes,
                stand_ins: Mapping[Tile, Tile] | None = None) -> bool:
    """Whether the concealed tiles form a complete hand in one of the allowed shapes."""
    return Evaluator(wild_kinds, shapes, stand_ins).is_complete(concealed, melds_needed)


def evaluate(concealed: Sequence[Tile], wild_kinds: Iterable[Tile], melds_needed: int, shapes: Shapes,
             stand_ins: Mapping[Tile, Tile] | None = None, win_tile: Tile | None = None) -> WinShape | None:
    """One decomposition of a complete hand with its wild assignment — the one using the
    fewest wilds as wilds — or None if the hand is not complete."""
    return Evaluator(wild_kinds, shapes, stand_ins).evaluate(concealed, melds_needed, win_tile)


def waits(concealed: Sequence[Tile], wild_kinds: Iterable[Tile], melds_needed: int, shapes: Shapes,
          candidates: Iterable[Tile], stand_ins: Mapping[Tile, Tile] | None = None) -> tuple[Tile, ...]:
    """Every kind among `candidates` (the region's kinds) that completes a hand one tile short.

    Kinds whose four tiles are all in the hand are left out (they cannot be drawn).
    """
    return Evaluator(wild_kinds, shapes, stand_ins).waits(concealed, melds_needed, candidates)


def decompositions(concealed: Sequence[Tile], wild_kinds: Iterable[Tile], melds_needed: int, shapes: Shapes,
                   stand_ins: Mapping[Tile, Tile] | None = None, win_tile: Tile | None = None) -> list[WinShape]:
    """Every distinct decomposition of a complete hand (all allowed shapes), with assignments;
    with `win_tile`, once per group the winning tile can be in, with its role."""
    return Evaluator(wild_kinds, shapes, stand_ins).decompositions(concealed, melds_needed, win_tile)


def min_wilds_as_wild(concealed: Sequence[Tile], wild_kinds: Iterable[Tile], melds_needed: int, shapes: Shapes,
                      stand_ins: Mapping[Tile, Tile] | None = None) -> int | None:
    """The fewest wilds that must stand for another kind for the hand to be complete (wilds
    standing for their own face are natural), or None if it cannot be complete."""
    return Evaluator(wild_kinds, shapes, stand_ins).min_wilds_as_wild(concealed, melds_needed)


__all__ = [
    "Evaluator", "Group", "GroupKind", "HandError", "ORPHANS", "PAIRS_258", "ShapeKind", "Shapes",
    "WinRole", "WinShape", "decompositions", "evaluate", "is_complete", "min_wilds_as_wild", "prepare", "waits",
]
