"""Tiles and their notation.

A tile *kind* is one of 42 faces: 1m–9m (万), 1p–9p (筒), 1s–9s (条), 1z–7z (东 南 西 北 白 发 中)
and 1f–8f (春 夏 秋 冬 梅 兰 竹 菊).  A physical tile is one copy of a kind; its identity (copy,
set, RFID tag) lives with whoever owns the hardware, never here.

`Tile` is an `IntEnum`, so a kind is also its index 0–41: suited tiles are 0–26, honours 27–33,
flowers 34–41.  The win evaluator counts tiles in plain lists indexed this way.
"""

from __future__ import annotations

import re
from enum import IntEnum

SUIT_LETTERS = "mpszf"
SUIT_NAMES_ZH = {"m": "万", "p": "筒", "s": "条", "z": "字", "f": "花"}
_NUMERALS_ZH = "一二三四五六七八九"
HONOUR_NAMES_ZH = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
FLOWER_NAMES_ZH = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
# suit, rank and notation of each index 0–41, looked up rather than worked out: tiles are named
# and ranked at every take, journal write and player's count
_SUIT_OF = tuple(suit for suit in SUIT_LETTERS for _ in range(_SUIT_SIZE[suit]))
_RANK_OF = tuple(rank for suit in SUIT_LETTERS for rank in range(1, _SUIT_SIZE[suit] + 1))
_NOTATION = tuple(f"{rank}{suit}" for rank, suit in zip(_RANK_OF, _SUIT_OF))


class TileError(ValueError):
    """Tile text that is not a tile, or tiles that cannot exist together."""


class Tile(IntEnum):
    """One tile kind; its value is the index 0–41 used by count vectors."""

    M1 = 0; M2 = 1; M3 = 2; M4 = 3; M5 = 4; M6 = 5; M7 = 6; M8 = 7; M9 = 8  # noqa: E702
    P1 = 9; P2 = 10; P3 = 11; P4 = 12; P5 = 13; P6 = 14; P7 = 15; P8 = 16; P9 = 17  # noqa: E702
    S1 = 18; S2 = 19; S3 = 20; S4 = 21; S5 = 22; S6 = 23; S7 = 24; S8 = 25; S9 = 26  # noqa: E702
    EAST = 27; SOUTH = 28; WEST = 29; NORTH = 30  # noqa: E702
    WHITE = 31; GREEN = 32; RED = 33  # noqa: E702
    SPRING = 34; SUMMER = 35; AUTUMN = 36; WINTER = 37  # noqa: E702
    PLUM = 38; ORCHID = 39; BAMBOO = 40; CHRYSANTHEMUM = 41  # noqa: E702

    @property
    def suit(self) -> str:
        """'m', 'p', 's', 'z' or 'f'."""
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """1-based number within the suit (honours 1–7, flowers 1–8)."""
        return _RANK_OF[self]

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_flower(self) -> bool:
        return self >= 34

    @property
    def is_terminal(self) -> bool:
        """A suited 1 or 9 (老头牌)."""
        return self < 27 and self.rank in (1, 9)

    @property
    def is_terminal_or_honour(self) -> bool:
        """幺九牌 in the wide sense (1, 9 and honours)."""
        return self.is_terminal or self.is_honour

    @property
    def zh(self) -> str:
        """The Chinese name shown to players."""
        if self.is_suited:
            return _NUMERALS_ZH[self.rank - 1] + SUIT_NAMES_ZH[self.suit]
        if self.is_honour:
            return HONOUR_NAMES_ZH[self.rank - 1]
        return FLOWER_NAMES_ZH[self.rank - 1]

    def __str__(self) -> str:
        return _NOTATION[self]

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    @classmethod
    def of(cls, rank: int, suit: str) -> "Tile":
        """The tile with this rank in this suit ('m', 'p', 's', 'z', 'f')."""
        if suit not in _SUIT_BASE or not 1 <= rank <= _SUIT_SIZE[suit]:
            raise TileError(f"no tile {rank}{suit}: ranks are 1-9 for m/p/s, 1-7 for z, 1-8 for f")
        return cls(_SUIT_BASE[suit] + rank - 1)

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """One tile from its notation ('5m', '7z') or its Chinese name ('红中', '五万')."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileError(f"expected one tile, got {len(tiles)} in {text!r}")
        return tiles[0]


ALL_TILES: tuple[Tile, ...] = tuple(Tile)
SUITED: tuple[Tile, ...] = tuple(t for t in Tile if t.is_suited)
WINDS: tuple[Tile, ...] = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS: tuple[Tile, ...] = (Tile.WHITE, Tile.GREEN, Tile.RED)
HONOURS: tuple[Tile, ...] = WINDS + DRAGONS
FLOWERS: tuple[Tile, ...] = tuple(t for t in Tile if t.is_flower)
KIND_COUNT = len(ALL_TILES)

_ZH_TO_TILE: dict[str, Tile] = {t.zh: t for t in Tile}
_ZH_TO_TILE.update({"东": Tile.EAST, "南": Tile.SOUTH, "西": Tile.WEST, "北": Tile.NORTH,
                    "白": Tile.WHITE, "发": Tile.GREEN, "中": Tile.RED, "幺鸡": Tile.S1})
_GROUP = re.compile(r"([0-9]+)([mpszf])")
_ZH_SPLIT = re.compile("|".join(sorted(map(re.escape, _ZH_TO_TILE), key=len, reverse=True)))


def parse_tiles(text: str) -> list[Tile]:
    """Tiles from compact notation: '123m456p789s1122z', '1m 1m 2f', or Chinese names.

    Raises TileError naming the part that is not a tile.
    """
    compact = re.sub(r"[\s,]+", "", text)
    if not compact:
        return []
    if compact[0] not in "0123456789":
        return _parse_chinese(compact, text)
    tiles: list[Tile] = []
    pos = 0
    for match in _GROUP.finditer(compact):
        if match.start() != pos:
            raise TileError(_bad_tile_text(text, compact[pos:match.start()]))
        digits, suit = match.groups()
        for digit in digits:
            rank = int(digit)
            if not 1 <= rank <= _SUIT_SIZE[suit]:
                raise TileError(_bad_tile_text(text, f"{digit}{suit}"))
            tiles.append(Tile.of(rank, suit))
        pos = match.end()
    if pos != len(compact):
        raise TileError(_bad_tile_text(text, compact[pos:]))
    return tiles


def _parse_chinese(compact: str, original: str) -> list[Tile]:
    tiles: list[Tile] = []
    pos = 0
    for match in _ZH_SPLIT.finditer(compact):
        if match.start() != pos:
            raise TileError(_bad_tile_text(original, compact[pos:match.start()]))
        tiles.append(_ZH_TO_TILE[match.group()])
        pos = match.end()
    if pos != len(compact):
        raise TileError(_bad_tile_text(original, compact[pos:]))
    return tiles


def _bad_tile_text(whole: str, part: str) -> str:
    return (f"not a tile: {quoted(part, 60)} in {quoted(whole, 60)}; write tiles as 1m-9m, 1p-9p, 1s-9s, "
            "1z-7z (东南西北白发中), 1f-8f, e.g. 123m456p11z")


def quoted(value: object, most: int = 40) -> str:
    """`value` as repr() shows it in an error, cut short past `most` characters (a pasted page is named,
    never echoed back whole).  Here, in the lowest room, so that every room's errors can use it."""
    text = repr(value)
    return text if len(text) <= most else f"{text[:most]}… ({len(text)} characters)"


def format_tiles(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    """Compact notation, sorted: '123m456p11z'."""
    out: list[str] = []
    for suit in SUIT_LETTERS:
        ranks = sorted(t.rank for t in tiles if t.suit == suit)
        if ranks:
            out.append("".join(map(str, ranks)) + suit)
    return "".join(out)


def counts_of(tiles: list[Tile] | tuple[Tile, ...]) -> list[int]:
    """A 42-entry count vector."""
    counts = [0] * KIND_COUNT
    for tile in tiles:
        counts[tile] += 1
    return counts
