"""钻牌 block (RULES.md §26): the 杠牌 that block a win, and 「几个发算几个翻的钱」.

杠牌 (「发财和白板是杠牌，只能用来杠，手上有，就不能和牌」; 「如果是中发白的钻牌，则其余两个就成了杠牌」):
- the 钻 is not a dragon: 发财 and 白板 are 杠牌 (发 is also the shown bonus tile, so a 发 still in the
  concealed hand blocks the win either way); with 打缺, 发 「算风牌」 and only 白板 is a 杠牌;
- the 钻 is a dragon: the two other dragons are 杠牌.
A 杠牌 blocks only while it is among the concealed tiles; a declared kong of it is what it is for.

Value: each 发 shown (or 红中, when 发 is the 钻 — 「当发为钻时，红中充当发牌」) is one 翻 of money.
翻 is read as a doubling (the hand is worth 2^n for n shown 发; house option `fa_value`: or 1 + n).
The count comes from the table (`context.get("fa_shown")`: the winner's shown 发); with 打缺 they are
「不算钱」.  Who pays is not stated: the discarder, or everyone on a self-draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement
from ..tiles import DRAGONS, Tile
from ..winrules import Judged, Verdict
from .base import DrawContext, discard_or_all_pay
from .tally import ZERO


def gang_kinds(wilds: tuple[Tile, ...] | frozenset[Tile], da_que: bool = False) -> frozenset[Tile]:
    """The 杠牌 for this 钻 (the wild kind)."""
    dragon_zuan = [w for w in wilds if w.is_dragon]
    if dragon_zuan:
        return frozenset(DRAGONS) - {dragon_zuan[0]}
    return frozenset({Tile.WHITE} if da_que else {Tile.WHITE, Tile.GREEN})


def no_gang_tiles(j: Judged, da_que: bool = False) -> bool:
    """「手上有，就不能和牌」: no 杠牌 among the concealed tiles."""
    return no_gang_tiles_of(j.hand, j.wild_kinds, da_que)


def no_gang_tiles_of(hand: Hand, wild_kinds: frozenset[Tile], da_que: bool = False) -> bool:
    """`no_gang_tiles`, which reads the hand and the wild kinds alone (the same in every reading): none of
    them physically in the concealed hand."""
    kinds = gang_kinds(wild_kinds, da_que)
    return not any(t in kinds for t in hand.concealed)


def melds_allowed(j: Judged, da_que: bool = False) -> bool:
    """No declared meld the text rules out: a 碰 of a 杠牌 (「只能用来杠」) or of the 钻 (「钻不可以碰」), and no meld
    of the 发 shown as a bonus tile (红中 when 发 is the 钻; none with 打缺, where 发 is a wind-like tile)."""
    return melds_allowed_of(j.hand, j.wild_kinds, da_que)


def melds_allowed_of(hand: Hand, wild_kinds: frozenset[Tile], da_que: bool = False) -> bool:
    """`melds_allowed`, which reads the hand and the wild kinds alone (the same in every reading)."""
    gang = gang_kinds(wild_kinds, da_que)
    bonus = () if da_que else (Tile.RED if Tile.GREEN in wild_kinds else Tile.GREEN,)
    for meld in hand.melds:
        kind = meld.tiles[0]
        if kind in bonus or (meld.kind is MeldKind.PUNG and (kind in gang or kind in wild_kinds)):
            return False
    return True


def fa_value(shown: int, rule: str) -> int:
    return 2 ** shown if rule == "double" else 1 + shown


@dataclass(frozen=True)
class ZuanpaiScorer:
    name: str = "zuanpai"

    def describe(self) -> str:
        return "a win is worth one 翻 per shown 发 (2^n); the discarder pays, or everyone on a self-draw"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        da_que = ruleset.option("da_que") == "on"
        shown = 0 if da_que else int(context.get("fa_shown", 0))  # type: ignore[arg-type]
        value = fa_value(shown, ruleset.option("fa_value"))
        items = (Item("hu", "和", "hu", 1, "points"),)
        if shown:
            items += (Item("fa", "发", "fa", shown, "fan"),)
        notes = ("打缺: 发算风牌，但不算钱",) if da_que else ()
        return Settlement(items, value, discard_or_all_pay(context, value), "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("荒庄: nothing is paid",))
