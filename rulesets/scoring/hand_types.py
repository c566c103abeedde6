"""Named hand patterns (番种) several scorers share, each a small predicate over one reading.

Tiles are judged as they stand (a wild counts as what it stands for), as in
`rulesets/requirements.py`; these are the patterns a scorer prices, not win requirements.
Also the helpers every scorer of this group uses: the legal readings of a verdict, the side a
马/鸟 tile picks, and who pays on a self-draw when some sides have left the hand (血战).
"""

from __future__ import annotations

from typing import Iterable

from .. import requirements as req
from ..hand import Hand, MeldKind, WinContext
from ..indicators import seat_for_number
from ..settlement import payments_from
from ..tiles import Tile, WINDS, DRAGONS
from ..winning import GroupKind
from ..winrules import Judged



# --- shapes -------------------------------------------------------------------------------

def is_seven_pairs(j: Judged) -> bool:
    """七对 / 七小对 / 七巧对."""
    return j.shape.shape.value == "seven_pairs"


def is_luxury_seven_pairs(j: Judged) -> bool:
    """豪华七对 / 龙七对: seven pairs with four of a kind (two pairs of one kind)."""
    kinds = [g.tiles[0] for g in j.shape.pairs]
    return is_seven_pairs(j) and len(set(kinds)) < len(kinds)


def is_thirteen_orphans(j: Judged) -> bool:
    """十三幺."""
    return j.shape.shape.value == "thirteen_orphans"


# --- suits and honours -------------------------------------------------------------------

def full_flush(j: Judged) -> bool:
    """清一色: one suit, no honours."""
    return req.one_suit(j, honours_allowed=False)


def half_flush(j: Judged) -> bool:
    """混一色 / 杂色: one suit and honours."""
    return req.one_suit(j, honours_allowed=True) and any(t.is_honour for t in j.standing)


# --- melds --------------------------------------------------------------------------------

def pung_kinds(j: Judged) -> tuple[Tile, ...]:
    """The kinds of every 刻 and 杠: concealed pungs and declared pungs/kongs."""
    concealed = tuple(g.tiles[0] for g in j.shape.groups if g.kind is GroupKind.PUNG)
    return concealed + tuple(m.kind_tile for m in j.declared if m.is_pung_like)


def big_three_dragons(j: Judged) -> bool:
    """大三元: a 刻 or 杠 of each of 中, 发, 白."""
    return set(DRAGONS) <= set(pung_kinds(j))


def big_four_winds(j: Judged) -> bool:
    """大四喜: a 刻 or 杠 of each of 东, 南, 西, 北."""
    return set(WINDS) <= set(pung_kinds(j))


def claimed_melds(j: Judged) -> int:
    """Melds taken from a discard or shown: 吃, 碰, 明杠, 加杠 (a 暗杠 is not claimed)."""
    return claimed_count(j.hand)


def claimed_count(hand: Hand) -> int:
    """`claimed_melds`, which reads the hand alone."""
    return sum(1 for m in hand.melds if m.kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG))


def all_claimed(j: Judged) -> bool:
    """全求人 / 十二张落地: four melds claimed, a single tile left standing, won on its pair."""
    return all_claimed_of(j.hand)


def all_claimed_of(hand: Hand) -> bool:
    """`all_claimed`, which reads the hand alone."""
    return claimed_count(hand) >= 4 and len(hand.concealed) == 2


def kong_count(j: Judged) -> int:
    return sum(1 for m in j.declared if m.is_kong)


def four_of_a_kind(j: Judged) -> int:
    """根: kinds of which all four tiles are in the hand, declared kongs included."""
    counts: dict[Tile, int] = {}
    for tile in j.standing:
        counts[tile] = counts.get(tile, 0) + 1
    return sum(1 for n in counts.values() if n == 4)


# --- 马 / 鸟 ------------------------------------------------------------------------------

HONOUR_NUMBERS = {Tile.EAST: 1, Tile.SOUTH: 2, Tile.WEST: 3, Tile.NORTH: 4, Tile.RED: 2, Tile.GREEN: 3, Tile.WHITE: 4}
"""An honour's number for 买马 (RESEARCH.md §3.10): 东 1; 南 and 中 2; 西 and 发 3; 北 and 白 4."""


def tile_number(tile: Tile) -> int | None:
    """The number a 马 or 鸟 counts: a suited tile's rank, an honour's (above); a flower none."""
    if tile.is_suited:
        return tile.rank
    return HONOUR_NUMBERS.get(tile)


def picked_side(tile: Tile, start: int, sides: Iterable[int]) -> int | None:
    """The side a tile picks counting `start` as 1, 逆时针 (towards 下家); None for a flower."""
    number = tile_number(tile)
    return None if number is None else seat_for_number(number, start, tuple(sides))


# --- payers -------------------------------------------------------------------------------

def payers(context: WinContext) -> tuple[int, ...]:
    """Who pays this win: the discarder, or on a self-draw every side still in the hand.

    Under 血战到底 a side that has already won has left the hand; the controller lists such
    sides in `context.extra["finished"]`.
    """
    if not context.self_drawn:
        return (context.discarder,)  # type: ignore[return-value]
    finished = set(context.get("finished", ()) or ())
    return tuple(s for s in context.losers() if s not in finished)


def each_pays(context: WinContext, amount: int) -> tuple[int, int, int, int]:
    return payments_from({side: amount for side in payers(context)}, context.winner)
