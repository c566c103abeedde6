"""贵州 抓鸡 scoring (RULES.md §13): 四川's hand (「在四川麻将的基础上添加抓鸡模式」) plus 鸡 payments.

鸡 kinds: 1条 always (英雄鸡 「一条每次都是鸡」) and the next number after every flipped 鸡 tile in
`context.flipped` (the after-win flip, and the 明鸡 when that option is on: 「打明鸡 起牌后三墩翻起～如翻2条，
3条就是鸡。有3条就有钱」), derived by the region's own indicator rule so the 9→? option applies.  The
controller gives the 明鸡 first, then the after-win flips (firmware.hand.win_check.paying_flips), to the
win and to the settlement round alike; a 明鸡 that makes 1条 the 鸡 is a 金鸡 as an after-win flip is.

The text says who may gain (「和牌的人可能赔钱，被胡的人可能赢钱」; 「有3条就有钱」) but not how much or
from whom.  Readings (RESEARCH.md §3.9, MIL 贵州 and the open implementations):
- each 鸡 tile a collecting side holds is worth 1 from each other side; 金鸡 (the flip makes 1条 the
  鸡) doubles it;
- who collects is house option `ji_collect`: the winner and the ready sides (有叫, `context.ready_sides`,
  default, the usual convention) or every side (the text's 「有3条就有钱」);
- tiles counted (house option `ji_count`, the texts conflict): by default any held 鸡 (「有3条就有钱」,
  「抓到一条就有钱」), or only 鸡 in a 碰/杠 (「有人碰（杠）了3万的话算钱」); held tiles are the winner's whole hand; for the other sides their shown melds
  (`context.exposed_by_side`) and, when the controller gives them, their concealed tiles
  (`context.extra["concealed_by_side"]`, pairs (side, tiles));
- 冲锋鸡 (`extra["chongfeng_ji"]` = the side whose first 幺鸡 discard went unclaimed): that side collects
  3 from each other side if it collects at all; 责任鸡 (`extra["zeren_ji"]` = (discarder, claimer) of the
  first 幺鸡 that was 碰/杠): the discarder pays the claimer 3.
- 包鸡 (sides without 叫 paying for their 鸡) is not applied: RESEARCH.md marks it [P].

At the table the win pays the winner's 鸡; the other seats' 鸡 are paid once per hand in the settlement
round (rulesets.rounds: every seat that did not win lays its hand), by `round_chickens` — the same
count and unit, each collecting seat's 鸡 from each other side — and so are 冲锋鸡 and 责任鸡, from the
round's `first_yaoji` (the winner is asked who discarded the first 1条 and who claimed it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from ..tiles import Tile
from ..winrules import Verdict
from .base import DrawContext, no_payments
from .hand_types import each_pays
from .sichuan import sichuan_hand

CHONGFENG = 3
ZEREN = 3
DRAW_NOTE = ("a drawn hand (荒庄): nothing is paid — the text pays 鸡 only with a win (「和牌后翻开下一张未摸得牌」, "
             "「和牌的人可能赔钱，被胡的人可能赢钱」), so no after-win flip is made and a 明鸡 turned up after the deal "
             "pays nothing either; 四川's 查叫 has no values")


def chicken_kinds(ruleset: Any, flipped: Iterable[Tile]) -> tuple[frozenset[Tile], bool]:
    """The 鸡 kinds for these flips, and whether it is 金鸡 (a flip made 1条 the 鸡)."""
    rules = [r for r in ruleset.indicators if r.kind == "ji"]
    kinds = {Tile.S1}
    gold = False
    for tile in flipped:
        for rule in rules[:1]:
            kinds.update(rule.special_kinds(tile))
            cycle = rule.derivation.cycle
            gold = gold or (cycle is not None and cycle.successor(tile) == Tile.S1)
    return frozenset(kinds), gold


def tiles_by_side(hand: Hand, context: WinContext, melded_only: bool = False) -> dict[int, tuple[Tile, ...]]:
    """Every side's countable tiles: the winner's hand; the others' melds and given concealed tiles.

    `melded_only`: only tiles in 碰/杠 melds count (「有人碰（杠）了3万的话算钱」).
    """
    out: dict[int, list[Tile]] = {side: [] for side in context.sides}
    out[context.winner] = [t for m in hand.melds if m.is_pung_like for t in m.tiles] if melded_only else list(hand.all_tiles())
    for side, melds in context.exposed_by_side:
        if side != context.winner:
            out[side] += [t for m in melds if m.is_pung_like or not melded_only for t in m.tiles]
    for side, tiles in () if melded_only else (context.get("concealed_by_side", ()) or ()):
        if side != context.winner:
            out[side] += list(tiles)
    return {side: tuple(tiles) for side, tiles in out.items()}


def collectors(ruleset: Any, context: WinContext) -> tuple[int, ...]:
    if ruleset.option("ji_collect") == "all":
        return context.sides
    return tuple(s for s in context.sides if s == context.winner or s in context.ready_sides)


def chicken_payments(ruleset: Any, hand: Hand, context: WinContext
                     ) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    kinds, gold = chicken_kinds(ruleset, context.flipped)
    unit = 2 if gold else 1
    items: list[Item] = []
    parts = [(0, 0, 0, 0)]
    collecting = collectors(ruleset, context)
    held = tiles_by_side(hand, context, ruleset.option("ji_count") == "melded")
    for side in collecting:
        count = sum(1 for t in held[side] if t in kinds)
        if count:
            items.append(Item(f"ji_{side}", f"鸡 ×{count} (side {side})", "ji", count * unit, "points"))
            parts.append(payments_from({s: count * unit for s in context.sides if s != side}, side))
    first_yaoji_payments(context.get("chongfeng_ji"), context.get("zeren_ji"), collecting, context.sides, unit,
                         items, parts)
    if gold and items:
        items.insert(0, Item("jinji", "金鸡", "jinji", 2, "times"))
    return tuple(items), add_payments(*parts)


def first_yaoji_payments(chongfeng: int | None, zeren: tuple[int, int] | None, collecting: Iterable[int],
                         sides: tuple[int, ...], unit: int, items: list[Item], parts: list) -> None:
    """冲锋鸡 (the side whose first 1条 discard went unclaimed: 3 from each other side, if it collects at
    all) and 责任鸡 ((discarder, claimer) of a first 1条 碰'd or 杠'd: the discarder pays the claimer 3),
    each ×`unit`, added to `items` and `parts`."""
    if chongfeng is not None and chongfeng in collecting:
        items.append(Item("chongfeng_ji", f"冲锋鸡 (side {chongfeng})", "chongfeng ji", CHONGFENG * unit, "points"))
        parts.append(payments_from({s: CHONGFENG * unit for s in sides if s != chongfeng}, chongfeng))
    if zeren is not None:
        discarder, claimer = zeren
        items.append(Item("zeren_ji", f"责任鸡 (side {discarder} → {claimer})", "zeren ji", ZEREN * unit, "points"))
        parts.append(payments_from({discarder: ZEREN * unit}, claimer))


def held_chickens(ruleset: Any, hand: Hand) -> tuple[Tile, ...]:
    """The tiles of a laid hand that count as 鸡 tiles by option `ji_count`: all, or those in a 碰/杠."""
    if ruleset.option("ji_count") == "melded":
        return tuple(t for m in hand.melds if m.is_pung_like for t in m.tiles)
    return hand.all_tiles()


def round_chickens(ruleset: Any, hands: dict[int, Hand], collecting: Iterable[int], flipped: Iterable[Tile],
                   sides: tuple[int, ...], first_yaoji: tuple[int, int | None] | None = None,
                   winners: Iterable[int] = ()) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    """The 鸡 of the seats that did not win, laid in the settlement round: each collecting seat is paid
    its count (×2 for 金鸡) by each other side.  `first_yaoji`: (discarder, claimer or None) of the
    hand's first 1条 discarded, as the winner told it: 冲锋鸡 unclaimed (paid if the discarder collects:
    a winner, or a collecting seat), 责任鸡 claimed."""
    kinds, gold = chicken_kinds(ruleset, tuple(flipped))
    unit = 2 if gold else 1
    items: list[Item] = []
    parts = [(0, 0, 0, 0)]
    collecting = sorted(set(collecting))
    for side in collecting:
        count = sum(1 for t in held_chickens(ruleset, hands[side]) if t in kinds)
        if count:
            items.append(Item(f"ji_{side}", f"鸡 ×{count} (side {side})", "ji", count * unit, "points"))
            parts.append(payments_from({s: count * unit for s in sides if s != side}, side))
    if first_yaoji is not None:
        discarder, claimer = first_yaoji
        first_yaoji_payments(discarder if claimer is None else None,
                             (discarder, claimer) if claimer is not None else None,
                             set(collecting) | set(winners), sides, unit, items, parts)
    if gold and items:
        items.insert(0, Item("jinji", "金鸡", "jinji", 2, "times"))
    return tuple(items), add_payments(*parts)


@dataclass(frozen=True)
class GuizhouScorer:
    name: str = "guizhou"

    def describe(self) -> str:
        return ("四川's hand value and payments, plus 鸡: 1 a tile from each other side to each collecting side "
                "(1条 always; the next number after each flipped 鸡 tile); 金鸡 doubles; 冲锋鸡/责任鸡 3")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        value, items = sichuan_hand(ruleset, hand, verdict, context)
        ji_items, ji = chicken_payments(ruleset, hand, context)
        kinds, _ = chicken_kinds(ruleset, context.flipped)
        notes = ("鸡: " + " ".join(t.zh for t in sorted(kinds)),)
        return Settlement(items + ji_items, value, add_payments(each_pays(context, value), ji), "points", notes)

    def settle_round(self, ruleset: Any, hands: dict[int, Hand], verdicts: tuple[Any, ...],
                     context: Any) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
        """The settlement round (rulesets.rounds): the 鸡 of each collecting seat that did not win (every
        seat that showed its hand, or with ji_collect=ready those whose hand is 有叫)."""
        collecting = [v.side for v in verdicts if v.shown and (v.ready or ruleset.option("ji_collect") == "all")]
        return round_chickens(ruleset, hands, collecting, context.flipped, context.sides, context.first_yaoji,
                              context.winners)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", (DRAW_NOTE,))
