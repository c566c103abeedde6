"""长春's opening special kongs (RULES.md §1.7): 旋风杠, 喜杠, 幺蛋, 九蛋, shown from the dealt hand.

「旋风杠：当发完牌后，手牌中有东、西、南、北风时，可以亮出算一个明杠，如果再有其他的风牌可以补杠，每补一张风牌多
算一个明杠。」 and likewise 喜杠 (中、发、白; more 「字牌」 in version A, 「箭牌」 in version B), 幺蛋 (幺鸡、幺饼、
幺万; more 幺牌), 九蛋 (九条、九饼、九万; more 九牌).  「特殊杠牌只有起手牌才算」; 「庄家第一手不允许补杠」.

A special kong is one set of its base kinds plus any further tiles of its kind (each a 补杠): it
counts as one 明杠 and one more per addition.  The card's reading: a 3-tile base (喜杠, 幺蛋, 九蛋) takes
no replacement tile, 旋风杠 (4 tiles) and each addition take one from the tail.  Pure rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from .hand import Meld, MeldKind
from .tiles import DRAGONS, WINDS, Tile


@dataclass(frozen=True)
class SpecialKind:
    key: str
    zh: str
    base: tuple[Tile, ...]            # one each, to show it at all
    extra: frozenset[Tile]            # what may be added (补杠)


def special_kinds(win_version: str = "A") -> tuple[SpecialKind, ...]:
    honours = frozenset(WINDS + DRAGONS) if win_version == "A" else frozenset(DRAGONS)
    return (SpecialKind("xuanfeng", "旋风杠", tuple(WINDS), frozenset(WINDS)),
            SpecialKind("xi", "喜杠", tuple(DRAGONS), honours),
            SpecialKind("yao", "幺蛋", (Tile.S1, Tile.P1, Tile.M1), frozenset((Tile.S1, Tile.P1, Tile.M1))),
            SpecialKind("jiu", "九蛋", (Tile.S9, Tile.P9, Tile.M9), frozenset((Tile.S9, Tile.P9, Tile.M9))))


def kind_named(zh: str, win_version: str = "A") -> SpecialKind | None:
    return next((k for k in special_kinds(win_version) if k.zh == zh), None)


def special_meld(kind: SpecialKind, tiles: Iterable[Tile], additions_allowed: bool = True) -> Meld | None:
    """The special kong `tiles` make as `kind` (its base, then additions), or None when they do not."""
    tiles = tuple(sorted(tiles))
    left = Counter(tiles)
    left.subtract(kind.base)
    if any(n < 0 for n in left.values()):
        return None
    added = list(left.elements())
    if any(t not in kind.extra for t in added) or (added and not additions_allowed):
        return None
    return Meld(MeldKind.SPECIAL, tiles)


def kongs_of(meld: Meld, kind: SpecialKind) -> int:
    """How many 明杠 a special kong counts: one, and one per addition."""
    return 1 + len(meld.tiles) - len(kind.base)


def replacements_of(meld: Meld, kind: SpecialKind) -> int:
    """Tiles drawn from the tail for it: one for a 4-tile base (旋风杠), one per addition."""
    return (1 if len(kind.base) == 4 else 0) + len(meld.tiles) - len(kind.base)


def kind_of(meld: Meld, win_version: str = "A") -> SpecialKind | None:
    """Which special kong a declared special meld is (its base kinds all present)."""
    return next((k for k in special_kinds(win_version) if special_meld(k, meld.tiles) is not None), None)


def best_declaration(tiles: Iterable[Tile], win_version: str = "A", additions_allowed: bool = True
                     ) -> tuple[SpecialKind, tuple[Tile, ...]] | None:
    """The first special kong a hand can show, with every addition it holds (for the simulated
    players: a person shows what he can)."""
    held = Counter(tiles)
    for kind in special_kinds(win_version):
        if all(held[t] for t in kind.base):
            rest = held.copy()
            rest.subtract(kind.base)
            added = [t for t in rest.elements() if t in kind.extra] if additions_allowed else []
            return kind, tuple(sorted(kind.base + tuple(added)))
    return None


__all__ = ["SpecialKind", "best_declaration", "kind_named", "kind_of", "kongs_of", "replacements_of", "special_kinds",
           "special_meld"]
