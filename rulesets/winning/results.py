"""What an evaluation returns: groups, their wild assignment, and the winning tile's role."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..tiles import Tile, TileError, format_tiles
from .shapes import ShapeKind


class HandError(TileError):
    """A hand that cannot be evaluated: five of a kind, a flower, the wrong number of tiles …

    A `TileError` (so a `ValueError`); the message is one line.
    """


class GroupKind(str, Enum):
    PAIR = "pair"  # 将 / 对子
    PUNG = "pung"  # 刻子
    CHOW = "chow"  # 顺子 (also 南昌's honour chows)
    SINGLE = "single"  # a lone tile of 十三幺, 十三烂 or 八对+单张

    def __str__(self) -> str:
        return self.value


class WinRole(str, Enum):
    """What the winning tile did in its group."""

    PAIR = "pair"  # 单吊: it completed the pair
    PUNG = "pung"  # 双碰 / 对倒: it completed a pung
    EDGE = "edge"  # 边张: the 3 of 1-2-3 or the 7 of 7-8-9
    CLOSED = "closed"  # 坎张 / 夹: the middle of a chow
    OPEN = "open_ended"  # 两面: an end of a chow that could also have been the other end
    HONOUR_CHOW = "honour_chow"  # any place of a 南昌 honour chow
    SINGLE = "single"  # a lone tile of a special shape

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Group:
    """One group of a decomposition.

    `tiles` are the tiles the group stands for, in order.  `sources[i]` is the physical kind
    at place i: the tile itself, a stand-in (e.g. 白板 playing the wild's face), or a wild
    tile; `wild_positions` are the places held by wild tiles, whether they stand for another
    kind or for their own face.
    """

    kind: GroupKind
    tiles: tuple[Tile, ...]
    sources: tuple[Tile, ...]
    wild_positions: tuple[int, ...] = ()

    @property
    def free(self) -> bool:
        """Only wilds: the group may stand for any meld (or pair) a scorer prefers."""
        return len(self.wild_positions) == len(self.tiles)

    @property
    def assignment(self) -> tuple[tuple[Tile, Tile], ...]:
        """(wild kind, stands for) for each wild place."""
        if not self.wild_positions:      # (most groups: read twice for every reading built)
            return ()
        return tuple((self.sources[i], self.tiles[i]) for i in self.wild_positions)

    @property
    def is_meld(self) -> bool:
        return self.kind in (GroupKind.PUNG, GroupKind.CHOW)

    def __str__(self) -> str:
        text = format_tiles(list(self.tiles))
        notes = [f"{s}→{t}" if i in self.wild_positions else f"{s}={t}"
                 for i, (s, t) in enumerate(zip(self.sources, self.tiles))
                 if i in self.wild_positions or s != t]
        return text + (f"({','.join(notes)})" if notes else "")


@dataclass(frozen=True)
class WinShape:
    """A complete hand split into groups, with the wild assignment.

    `assignment` lists (wild kind, stands for) for every wild tile in the hand; a wild that
    stands for its own face counts as natural (`wilds_natural`), the others as wilds
    (`wilds_as_wild`).  `win_group` is the index in `groups` of the group holding the winning
    tile (when one was given) and `win_role` what it did there.
    """

    shape: ShapeKind
    groups: tuple[Group, ...]
    assignment: tuple[tuple[Tile, Tile], ...]
    wilds_as_wild: int
    wilds_natural: int
    win_group: int | None = None
    win_role: WinRole | None = None

    @property
    def melds(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.is_meld)

    @property
    def pairs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind is GroupKind.PAIR)

    @property
    def all_pungs(self) -> bool:
        """Every meld is a pung (free wild groups count, since they may be pungs)."""
        return all(g.kind is GroupKind.PUNG or g.free for g in self.melds)

    def __str__(self) -> str:
        text = f"{self.shape}: " + " ".join(map(str, self.groups))
        if self.win_role is not None:
            text += f" [win: group {self.win_group}, {self.win_role}]"
        return text
