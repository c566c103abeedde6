"""A winning (or waiting) hand: concealed tiles, declared melds, and the context of the win.

Melds are written as tiles with an optional kind prefix (`mahjong-table hand --meld`):
`123m` (吃), `555p` (碰), `7777z` (明杠), `concealed:1111s` (暗杠), `added:5555p` (补杠/加杠),
`special:1234z` (长春 旋风杠 and the other opening special kongs), `hua:77z5m` (螺山 花碰: a pung of
two 红中 and one 财神 standing in for the third; the stand-in is kept as the tile it is, the meld
stands as 777z).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum

from .tiles import Tile, counts_of, format_tiles, parse_tiles
from .winning.results import HandError


class MeldKind(str, Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"                       # 明杠 of a discard
    ADDED_KONG = "added_kong"           # 补杠 / 加杠 on a pung
    CONCEALED_KONG = "concealed_kong"   # 暗杠
    SPECIAL = "special"                 # 旋风杠, 喜杠, 幺蛋, 九蛋 (长春 §1.7)


@dataclass(frozen=True)
class Meld:
    kind: MeldKind
    tiles: tuple[Tile, ...]

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.CONCEALED_KONG

    @property
    def is_claimed(self) -> bool:
        """Made with another side's discard: 吃, 碰, 明杠, and a 补杠 (it grows a 碰)."""
        return self.kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG)

    @property
    def is_pung_like(self) -> bool:
        """A pung or a kong (刻子 in the wide sense)."""
        return self.kind in (MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)

    @property
    def kind_tile(self) -> Tile:
        return self.tiles[0]

    @property
    def stand_ins(self) -> tuple[Tile, ...]:
        """The tiles of a pung standing in for its kind (螺山 花碰: a 财神 as the third 红中)."""
        if self.kind is not MeldKind.PUNG:
            return ()
        return tuple(t for t in self.tiles if t != self.tiles[0])

    @property
    def standing(self) -> tuple[Tile, ...]:
        """The meld as it stands: a stand-in counts as the kind it stands for (螺山 F5)."""
        if self.stand_ins:
            return (self.tiles[0],) * len(self.tiles)
        return self.tiles

    def __str__(self) -> str:
        prefix = {MeldKind.CONCEALED_KONG: "concealed:", MeldKind.ADDED_KONG: "added:", MeldKind.SPECIAL: "special:"}
        return ("hua:" if self.stand_ins else prefix.get(self.kind, "")) + format_tiles(self.tiles)


HUA_PENG_PREFIX = "hua"
PREFIXES = {"concealed": MeldKind.CONCEALED_KONG, "ankong": MeldKind.CONCEALED_KONG, "added": MeldKind.ADDED_KONG,
            "special": MeldKind.SPECIAL, "chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kong": MeldKind.KONG}


def parse_meld(text: str, honour_chows: bool = False) -> Meld:
    """A meld from its text; raises HandError naming what is wrong."""
    prefix, sep, body = text.partition(":")
    if sep and prefix.strip().lower() == HUA_PENG_PREFIX:
        return stand_in_pung(tuple(parse_tiles(body)), text)
    kind = PREFIXES.get(prefix.strip().lower()) if sep else None
    if sep and kind is None:
        raise HandError(f"unknown meld kind {prefix!r} in {text!r}; use one of "
                        f"{', '.join((*PREFIXES, HUA_PENG_PREFIX))} or none")
    tiles = tuple(sorted(parse_tiles(body if sep else text)))
    return make_meld(tiles, kind, honour_chows, text)


def stand_in_pung(tiles: tuple[Tile, ...], text: str = "") -> Meld:
    """A pung of two tiles of a kind and one other standing in for the third (螺山 花碰), the pair
    first; whether the stand-in may stand there is the region's rule (table_rules)."""
    text = text or format_tiles(tiles)
    kinds = sorted(set(tiles), key=lambda t: (-tiles.count(t), t))
    if len(tiles) != 3 or len(kinds) != 2 or any(t.is_flower for t in tiles):
        raise HandError(f"not a 花碰: {text!r} (two of a kind and the tile standing in for the third, "
                        "e.g. hua:77z5m)")
    pair, stand_in = kinds
    return Meld(MeldKind.PUNG, (pair, pair, stand_in))


def make_meld(tiles: tuple[Tile, ...], kind: MeldKind | None, honour_chows: bool = False, text: str = "") -> Meld:
    text = text or format_tiles(tiles)
    if kind is MeldKind.SPECIAL:
        if len(tiles) < 3 or any(t.is_flower for t in tiles):
            raise HandError(f"not a special kong: {text!r} (3 or more tiles such as 东南西北, 中发白, 1m1p1s)")
        return Meld(kind, tiles)
    if kind is None:
        kind = _guess_kind(tiles, honour_chows, text)
    if kind is MeldKind.CHOW and not _is_chow(tiles, honour_chows):
        raise HandError(f"not a chow: {text!r} (three consecutive tiles of one suit, e.g. 345p)")
    if kind is MeldKind.PUNG and not (len(tiles) == 3 and len(set(tiles)) == 1):
        raise HandError(f"not a pung: {text!r} (three of a kind, e.g. 555p)")
    if kind in (MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG) and not (len(tiles) == 4 and len(set(tiles)) == 1):
        raise HandError(f"not a kong: {text!r} (four of a kind, e.g. 7777z)")
    if any(t.is_flower for t in tiles):
        raise HandError(f"flowers are never in a meld: {text!r}")
    return Meld(kind, tiles)


def _guess_kind(tiles: tuple[Tile, ...], honour_chows: bool, text: str) -> MeldKind:
    if len(tiles) == 4 and len(set(tiles)) == 1:
        return MeldKind.KONG
    if len(tiles) == 3 and len(set(tiles)) == 1:
        return MeldKind.PUNG
    if _is_chow(tiles, honour_chows):
        return MeldKind.CHOW
    raise HandError(f"not a meld: {text!r}; a meld is a chow (345p), a pung (555p) or a kong (7777z)")


def _is_chow(tiles: tuple[Tile, ...], honour_chows: bool) -> bool:
    if len(tiles) != 3:
        return False
    a, b, c = sorted(tiles)
    if a.is_suited:
        return a.suit == c.suit and b == a + 1 and c == a + 2
    if honour_chows and len({a, b, c}) == 3:
        return all(t.is_wind for t in tiles) or all(t.is_dragon for t in tiles)
    return False


@dataclass(frozen=True)
class Hand:
    """Concealed tiles (the win tile included, flowers excluded), declared melds and bonus tiles."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()

    @staticmethod
    def parse(tiles: str, melds: list[str] | tuple[str, ...] = (), honour_chows: bool = False) -> "Hand":
        parsed = parse_tiles(tiles)
        flowers = tuple(t for t in parsed if t.is_flower)
        concealed = tuple(sorted(t for t in parsed if not t.is_flower))
        hand = Hand(concealed, tuple(parse_meld(m, honour_chows) for m in melds), flowers)
        hand.check_counts()
        return hand

    def all_tiles(self) -> tuple[Tile, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    def check_counts(self, copies: int = 4) -> None:
        """No kind more than `copies` times, no flower twice."""
        for kind, n in Counter(self.all_tiles() + self.flowers).items():
            limit = 1 if kind.is_flower else copies
            if n > limit:
                raise HandError(f"{n} × {kind} ({kind.zh}) in one hand: a set has only {limit}")

    @property
    def is_concealed(self) -> bool:
        """门清 / 门前清: no meld claimed from a discard (concealed kongs keep it)."""
        return all(m.is_concealed for m in self.melds)

    @property
    def kongs(self) -> tuple[Meld, ...]:
        return tuple(m for m in self.melds if m.is_kong)

    @property
    def size(self) -> int:
        """Tiles counted as a hand (a kong counts as 3)."""
        return len(self.concealed) + sum(3 if m.is_kong else len(m.tiles) for m in self.melds if m.kind is not MeldKind.SPECIAL) \
            + sum(3 for m in self.melds if m.kind is MeldKind.SPECIAL)

    def counts(self) -> list[int]:
        return counts_of(self.concealed)


@dataclass(frozen=True)
class WinContext:
    """How the hand was won: who, from whom, on which tile, and the table's situation."""

    winner: int = 0
    dealer: int = 0
    discarder: int | None = None            # None: self-drawn
    win_tile: Tile | None = None
    sides: tuple[int, ...] = (0, 1, 2, 3)
    prevailing_wind: Tile = Tile.EAST
    ready_declared: bool = False            # 报听
    kong_replacement: bool = False          # 杠上开花
    robbed_kong: bool = False               # 抢杠
    last_tile: bool = False                 # 海底
    first_turn: bool = False                # 天和 / 地和 / 人和
    bao_hit: bool = False                   # 长春 摸宝 / 对宝
    consecutive_dealer: int = 0             # 连庄 count
    kongs_by_side: tuple[tuple[int, int, int], ...] = field(default=())   # (side, exposed, concealed) kongs made
    wilds: tuple[Tile, ...] = ()            # wild kinds in play this hand
    flipped: tuple[Tile, ...] = ()          # after-win flips: 鸡 indicator, 马/鸟 tiles
    exposed_by_side: tuple[tuple[int, tuple[Meld, ...]], ...] = ()   # every side's shown melds (鸡 payments)
    ready_sides: tuple[int, ...] = ()       # sides that declared 听 / are ready (查叫)
    extra: tuple[tuple[str, object], ...] = ()   # region-specific facts, read with `get`

    def get(self, key: str, default: object = None) -> object:
        return dict(self.extra).get(key, default)

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None

    @property
    def winner_is_dealer(self) -> bool:
        return self.winner == self.dealer

    def seat_wind(self, side: int | None = None) -> Tile:
        """座风: the dealer is 东, his 下家 南, 对家 西, 上家 北 (螺山 §31.1)."""
        side = self.winner if side is None else side
        ordered = sorted(self.sides)
        steps = (ordered.index(side) - ordered.index(self.dealer)) % len(ordered)
        return (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)[steps]

    def losers(self) -> tuple[int, ...]:
        return tuple(s for s in self.sides if s != self.winner)
