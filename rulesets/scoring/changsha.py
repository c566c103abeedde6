"""长沙 scoring (RULES.md §12.6–12.7): the four hand classes, 扎鸟, and the opening 小和.

The text ranks hands in four classes and lists which hands (and which pairs of hands) make each:
小和 < 大和 < 超大和 < 最大和.  `hand_class` encodes those lists literally.  The text gives no values
(RULES.md §35 "partial — classes only") and neither does RESEARCH.md §3.11 for the classes, so by
default each class is worth twice the one below: 小和 1, 大和 2, 超大和 4, 最大和 8 分 (a stated default).
The discarder pays, or each other side on a self-draw.

Definitions where the text only names a hand: 杠上花 = a self-drawn win on a kong's replacement tile;
海底捞月 = a self-drawn win on the last tile; 全求人 = four melds claimed and won on the single tile's
pair (house option quanqiuren: however the last tile came, by default, or on a discard only); 将将和 =
every tile a 2, 5 or 8; 豪华七对 = seven pairs with four of a kind.

扎鸟 (RESEARCH.md §3.11): the bird tiles are `context.flipped`; a bird's number counted from the winner
as 1 (from the discarder when several won on one discard, `extra["ron_winners"]` > 1) picks a side, so
1/5/9 hit the winner.  House option `bird_mode`: each hit adds 1 分 (default) or doubles; a bird on the
winner counts for every payer, a bird on a payer for that payer only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .. import requirements as req
from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, payments_from
from ..tiles import Tile
from ..winrules import Judged, Verdict
from .base import DrawContext, no_payments
from .base import best_reading
from .hand_types import (all_claimed_of, full_flush, is_luxury_seven_pairs, is_seven_pairs, payers, picked_side)

CLASSES = (("xiaohe", "小和", "xiao he", 1), ("dahe", "大和", "da he", 2),
           ("chaodahe", "超大和", "chao da he", 4), ("zuidahe", "最大和", "zui da he", 8))

BIG_HANDS = {
    "qixiaodui": "七小对", "haohua": "豪华七对", "pengpeng": "碰碰和", "jiangjiang": "将将和", "qingyise": "清一色",
    "gangshanghua": "杠上花", "qiangganghu": "抢杠和", "haidi": "海底捞月", "quanqiuren": "全求人",
}


def is_quanqiuren(j: Judged, counted: str) -> bool:
    """全求人: four melds claimed, won on the single tile's pair; `counted` (house option quanqiuren) "any" counts a
    self-drawn one too, "discard" only one won on a discard."""
    return is_quanqiuren_of(j.hand, j.context, counted)


def is_quanqiuren_of(hand: Hand, context: WinContext, counted: str) -> bool:
    """`is_quanqiuren`, which reads the hand and the context alone."""
    return all_claimed_of(hand) and (counted == "any" or not context.self_drawn)


def big_hands(j: Judged, quanqiuren: str = "any") -> frozenset[str]:
    """The named hands of 大和/超大和/最大和 this reading makes (`quanqiuren`: the house option)."""
    ctx = j.context
    found = {
        "qixiaodui": is_seven_pairs(j),
        "haohua": is_luxury_seven_pairs(j),
        "pengpeng": req.all_pungs(j),
        "jiangjiang": req.all_258(j),
        "qingyise": full_flush(j),
        "gangshanghua": ctx.kong_replacement and ctx.self_drawn,
        "qiangganghu": ctx.robbed_kong,
        "haidi": ctx.last_tile and ctx.self_drawn,
        "quanqiuren": is_quanqiuren(j, quanqiuren),
    }
    return frozenset(name for name, on in found.items() if on)


def _with_any(hands: frozenset[str], first: str, others: Iterable[str]) -> bool:
    return first in hands and any(o in hands for o in others)


def hand_class(hands: frozenset[str]) -> int:
    """0 小和, 1 大和, 2 超大和, 3 最大和 — the text's lists (RULES.md §12.6), literally."""
    if {"haohua", "qingyise", "haidi"} <= hands or \
            ({"pengpeng", "jiangjiang", "quanqiuren"} <= hands and hands & {"haidi", "gangshanghua"}):
        return 3
    if "haohua" in hands or \
            _with_any(hands, "gangshanghua", ("pengpeng", "jiangjiang", "qingyise", "quanqiuren")) or \
            _with_any(hands, "haidi", ("pengpeng", "jiangjiang", "qingyise", "quanqiuren", "qixiaodui", "haohua")) or \
            _with_any(hands, "pengpeng", ("jiangjiang", "quanqiuren", "haidi", "gangshanghua", "qingyise")) or \
            _with_any(hands, "quanqiuren", ("jiangjiang", "haidi", "gangshanghua", "qingyise", "pengpeng")):
        return 2
    if hands & {"qixiaodui", "pengpeng", "jiangjiang", "qingyise", "gangshanghua", "qiangganghu", "haidi"}:
        return 1
    return 0


def class_items(j: Judged, quanqiuren: str = "any") -> tuple[Item, ...]:
    """The class with its value, named after the hands that made it, e.g. 超大和（碰碰和+清一色）."""
    hands = big_hands(j, quanqiuren)
    key, zh, pinyin, value = CLASSES[hand_class(hands)]
    if hands:
        zh += "（" + "+".join(BIG_HANDS[h] for h in BIG_HANDS if h in hands) + "）"
    return (Item(key, zh, pinyin, value, "points"),)


def bird_hits(context: WinContext) -> Counter[int]:
    """How many birds hit each side."""
    several = int(context.get("ron_winners", 1) or 1) > 1 and not context.self_drawn
    start = context.discarder if several else context.winner
    hits: Counter[int] = Counter()
    for tile in context.flipped:
        side = picked_side(tile, start, context.sides)  # type: ignore[arg-type]
        if side is not None:
            hits[side] += 1
    return hits


def with_birds(debts: dict[int, int], winner: int, hits: Counter[int], mode: str) -> dict[int, int]:
    """Each payer's amount after the birds: +1 or ×2 per bird on the winner or on that payer."""
    out = {}
    for payer, amount in debts.items():
        n = hits[winner] + hits[payer]
        out[payer] = amount * 2 ** n if mode == "double" else amount + n
    return out


def settle_with_birds(value: int, items: tuple[Item, ...], payer_sides: Sequence[int], context: WinContext,
                      mode: str, notes: tuple[str, ...] = ()) -> Settlement:
    hits = bird_hits(context)
    debts = with_birds({side: value for side in payer_sides}, context.winner, hits, mode)
    bird_count = hits[context.winner] + sum(hits[s] for s in payer_sides)
    if bird_count:
        items = items + (Item("zhongniao", "中鸟", "zhong niao", bird_count, "points" if mode == "add" else "fan"),)
    return Settlement(items, value, payments_from(debts, context.winner), "points", notes)


@dataclass(frozen=True)
class ChangshaScorer:
    name: str = "changsha"

    def describe(self) -> str:
        return ("the text's four classes, each twice the one below: 小和 1, 大和 2, 超大和 4, 最大和 8 分; "
                "the discarder pays, or each other side on a self-draw; 扎鸟: a bird hitting the winner or a payer adds 1 (or doubles)")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        counted = ruleset.option("quanqiuren")
        items = best_reading(verdict, hand, context, lambda j: class_items(j, counted), key=lambda its: its[0].value)
        return settle_with_birds(items[0].value, items, payers(context), context, ruleset.option("bird_mode"))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("a drawn hand: nothing is paid",))


# --- 起手小和: opening wins declared right after the deal -----------------------------------

def opening_small_wins(tiles: Sequence[Tile]) -> tuple[Item, ...]:
    """「四喜（开局摸到四张一样的牌型）、无将和（开局没有摸到2.5.8这三种牌型）、缺一色（开局未摸到万索筒这几种牌的
    任意一种牌型）、六顺（开局摸到任意两种牌各三只）」 — each one 小和 (value 1)."""
    counts = Counter(tiles)
    value = CLASSES[0][3]
    found = []
    if any(n == 4 for n in counts.values()):
        found.append(Item("sixi", "四喜", "si xi", value, "points"))
    if not any(t.is_suited and t.rank in (2, 5, 8) for t in tiles):
        found.append(Item("wujianghe", "无将和", "wu jiang he", value, "points"))
    if len({t.suit for t in tiles if t.is_suited}) < 3:
        found.append(Item("queyise", "缺一色", "que yi se", value, "points"))
    if sum(1 for n in counts.values() if n >= 3) >= 2:
        found.append(Item("liushun", "六顺", "liu shun", value, "points"))
    return tuple(found)


def settle_opening(ruleset: Any, tiles: Sequence[Tile], context: WinContext) -> Settlement | None:
    """An opening 小和 is paid like a self-drawn 小和, once per small win; birds count (RESEARCH.md §3.11)."""
    items = opening_small_wins(tiles)
    if not items:
        return None
    value = sum(i.value for i in items)
    return settle_with_birds(value, items, context.losers(), context, ruleset.option("bird_mode"),
                             ("起手小和: each other side pays every small win",))
