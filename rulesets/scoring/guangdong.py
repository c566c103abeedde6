"""广东 scoring: 番 doubling with the 爆和 cap (RULES.md §6), and file 001's 鸡胡 rules (§7.7).

Stated (§6): 「番是2倍的意思」; 爆和 「多少番为顶不再叠加番数进行计算，特殊牌除外比如十三幺，可突破爆和限制这些
特殊牌型不再叠加其他番种」.  Stated (§7): the stakes 「1 2 3 、3个5、10 20 30」 = 花 / 杠 / 鸡胡; the ladder
「鸡胡、杂色、清一色、大哥、十三幺」 without numbers; 3番 minimums for 一炮三响, 杠上开花, 海底捞月 and 抢杠;
天和/人和/地和 6番; 包 (the responsible side pays for all three): 抢杠, 杠上开花包杠, 十二张落地, 大四喜/大三元.

Readings where the texts are silent (each a stated default):
- The 番 of each hand: the texts give none.  Cantonese 番 (the 「3番满」 of file 001 is the Cantonese
  三番 minimum): 杂色 (混一色) 3, 碰碰胡 3, 清一色 7, 大三元 8, added together; 鸡胡 0.
  「大哥」 is not identified and not priced.  The special hands (「特殊牌…比如十三幺」) are 十三幺 and 大四喜,
  13 番 each, above any cap and alone (「不再叠加其他番种」).
- The cap (爆和) is house option `baohe` (default 8 番); it applies after the minimums.
- 天/人/地和 count 6 番 or the hand's own 番 if more; 一炮三响 is three winners on one discard
  (`context.extra["ron_winners"]` = 3).
- 鸡胡 rules: a hand is worth 鸡胡 stake × 2^番 + 花 stake per flower, from each payer; every kong is paid
  the 杠 stake by each other side (`context.kongs_by_side`), with the hand's first win only
  (`extra["first_win"]`: another winner of the same discard never pays them again).  A discard is paid by the discarder alone, a self-draw by the three.
- 包: the responsible side pays the three shares of a self-draw alone: the robbed konger on 抢杠
  (「抢杠胡等同杠开，当自摸」); the side that fed the kong (`extra["kong_feeder"]`) on 杠上开花; on a self-draw
  with twelve tiles shown, the side whose discard made the twelve (`extra["luodi_feeder"]`); on a
  self-drawn 大四喜/大三元, the side that discarded the last wind/dragon (`extra["big_hand_feeder"]`).
- 买马: the horse tiles are `context.flipped`; each picks a side counting the dealer as 1, 逆时针
  (honours as RESEARCH.md §3.10).  A horse belongs to the winner unless `extra["horse_buyers"]` names its
  buyer.  A horse on the winner: its buyer takes what the winner took, from the same payers; a horse on
  a payer: its buyer pays the winner what that payer paid (「他要出多少你就出多少」).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import requirements as req
from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from ..winrules import Judged, Verdict
from .base import DrawContext, discard_or_all_pay, no_payments
from .base import best_reading
from .hand_types import (all_claimed, big_four_winds, big_three_dragons, full_flush, half_flush, is_thirteen_orphans, picked_side)

FANS: tuple[tuple[str, str, str, int, Callable[[Judged], bool]], ...] = (
    ("zase", "杂色", "zase", 3, half_flush),
    ("qingyise", "清一色", "qingyise", 7, full_flush),
    ("pengpeng", "碰碰胡", "pengpeng hu", 3, req.all_pungs),
    ("dasanyuan", "大三元", "da san yuan", 8, big_three_dragons),
)
SPECIAL: tuple[tuple[str, str, str, int, Callable[[Judged], bool]], ...] = (
    ("shisanyao", "十三幺", "shisan yao", 13, is_thirteen_orphans),
    ("dasixi", "大四喜", "da si xi", 13, big_four_winds),
)
"""Special hands (特殊牌型): above the cap, alone (「可突破爆和限制这些特殊牌型不再叠加其他番种」)."""
FIRST_TURN_FAN = 6
MINIMUM_FAN = 3
STAKES = {"1-2-3": (1, 2, 3), "5-5-5": (5, 5, 5), "10-20-30": (10, 20, 30)}


def pattern_items(j: Judged) -> tuple[tuple[Item, ...], bool]:
    """The hand's 番 items, and whether it is a special hand above the cap (十三幺, 大四喜)."""
    for key, zh, pinyin, fan, fits in SPECIAL:
        if fits(j):
            return (Item(key, zh, pinyin, fan, "fan"),), True
    items = tuple(Item(key, zh, pinyin, fan, "fan") for key, zh, pinyin, fan, fits in FANS if fits(j))
    return items or (Item("jihu", "鸡胡", "jihu", 0, "fan"),), False


def first_turn_name(context: WinContext) -> str | None:
    """天和 (the dealer, self-drawn), 地和 (another side's first self-draw), 人和 (on the dealer's first discard)."""
    if not context.first_turn:
        return None
    if context.winner_is_dealer:
        return "天和"
    return "地和" if context.self_drawn else "人和"


def minimum_reasons(context: WinContext) -> tuple[str, ...]:
    """The 3番 minimums of file 001 that apply to this win."""
    reasons = []
    if int(context.get("ron_winners", 1) or 1) >= 3 and not context.self_drawn:
        reasons.append("一炮三响")
    if context.kong_replacement and context.self_drawn:
        reasons.append("杠上开花")
    if context.last_tile and context.self_drawn:
        reasons.append("海底捞月")
    if context.robbed_kong:
        reasons.append("抢杠")
    return tuple(reasons)


def capped_fan(j: Judged, cap: int | None, jihu_rules: bool, first_turn: str = "at_least") -> tuple[int, tuple[Item, ...]]:
    """The 番 one reading counts, with its items (`first_turn`: house option first_turn_fan — 天/人/地和 count at
    least 6 番, or 6 番 whatever the hand)."""
    items, special = pattern_items(j)
    fan = sum(i.value for i in items)
    if special:
        return fan, items
    if jihu_rules:
        name = first_turn_name(j.context)
        if name and first_turn == "flat":
            items, fan = (Item("tianhe", name, "tian/di/ren he", FIRST_TURN_FAN, "fan"),), FIRST_TURN_FAN
        elif name and fan < FIRST_TURN_FAN:
            items += (Item("tianhe", name, "tian/di/ren he", FIRST_TURN_FAN - fan, "fan"),)
            fan = FIRST_TURN_FAN
        reasons = minimum_reasons(j.context)
        if reasons and fan < MINIMUM_FAN:
            items += (Item("sanfanman", f"3番满（{'、'.join(reasons)}）", "san fan man", MINIMUM_FAN - fan, "fan"),)
            fan = MINIMUM_FAN
    if cap is not None and fan > cap:
        items += (Item("baohe", "爆和", "bao he", cap - fan, "fan"),)
        fan = cap
    return fan, items


def cap_of(ruleset: Any) -> int | None:
    value = ruleset.option("baohe")
    return None if value == "none" else int(value)


@dataclass(frozen=True)
class GuangdongScorer:
    """RULES.md §6: 1 × 2^番 from the discarder, or from each other side on a self-draw."""

    name: str = "guangdong"

    def describe(self) -> str:
        return "番 doubles (1 × 2^番); 爆和 caps the 番 (option baohe); 十三幺 13 番 above the cap; the discarder pays, or the three on a self-draw"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        cap = cap_of(ruleset)
        fan, items = best_reading(verdict, hand, context, lambda j: capped_fan(j, cap, False), key=lambda fi: fi[0])
        value = 2 ** fan
        return Settlement(items, value, discard_or_all_pay(context, value), "points")

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("流局: nothing is paid",))


# --- file 001: 鸡胡 ------------------------------------------------------------------------

def kong_feeder(ctx: WinContext) -> int | None:
    """The 点杠者 of the kong whose replacement the winner drew: `extra["kong_feeder"]`, or at the table
    the giver the winner named for his last kong (`extra["kong_events"]`: (side, kind, fed_by)); none
    for a 暗杠 or a 补杠."""
    if ctx.get("kong_feeder") is not None:
        return ctx.get("kong_feeder")  # type: ignore[return-value]
    own = [event for event in ctx.get("kong_events", ()) or () if event[0] == ctx.winner]
    return own[-1][2] if own and own[-1][1] == "ming" else None


def responsible_side(j: Judged) -> tuple[int | None, str]:
    """The side that pays all three shares (包), and the rule that makes it."""
    ctx = j.context
    if ctx.robbed_kong and ctx.discarder is not None:
        return ctx.discarder, "抢杠: 被抢杠者包三家"
    if not ctx.self_drawn:
        return None, ""
    feeder = kong_feeder(ctx)
    if ctx.kong_replacement and feeder is not None:
        return feeder, "杠上开花包杠: 点杠者包三家"
    if all_claimed(j) and ctx.get("luodi_feeder") is not None:
        return ctx.get("luodi_feeder"), "十二张落地包自摸"  # type: ignore[return-value]
    if (big_four_winds(j) or big_three_dragons(j)) and ctx.get("big_hand_feeder") is not None:
        return ctx.get("big_hand_feeder"), "大四喜/大三元包自摸"  # type: ignore[return-value]
    return None, ""


def win_debts(context: WinContext, value: int, responsible: int | None) -> dict[int, int]:
    if responsible is not None:
        return {responsible: 3 * value}
    if context.self_drawn:
        return {side: value for side in context.losers()}
    return {context.discarder: value}  # type: ignore[dict-item]


def horse_payments(context: WinContext, debts: dict[int, int]) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    """买马: each horse copies the result of the side it picks onto its buyer."""
    buyers = tuple(context.get("horse_buyers", ()) or ())
    items: list[Item] = []
    parts = [(0, 0, 0, 0)]
    for index, tile in enumerate(context.flipped):
        buyer = buyers[index] if index < len(buyers) else context.winner
        side = picked_side(tile, context.dealer, context.sides)
        if side == context.winner:
            parts.append(payments_from(debts, buyer))
            items.append(Item(f"ma_{index}", f"马 {tile.zh} → side {side}: buyer {buyer} collects", "ma", sum(debts.values()), "points"))
        elif side in debts:
            parts.append(payments_from({buyer: debts[side]}, context.winner))
            items.append(Item(f"ma_{index}", f"马 {tile.zh} → side {side}: buyer {buyer} pays", "ma", debts[side], "points"))
    return tuple(items), add_payments(*parts)


def kong_money(context: WinContext, stake: int) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    """Every kong of the hand earns its maker the 杠 stake from each other side, once: with the hand's
    first win (a probe: 一炮三响 paid one kong three times, once in each winner's settlement)."""
    items: list[Item] = []
    parts = [(0, 0, 0, 0)]
    if not context.get("first_win", True):
        return (), (0, 0, 0, 0)
    for side, exposed, concealed in context.kongs_by_side:
        count = exposed + concealed
        if count:
            items.append(Item(f"gang_{side}", f"杠 ×{count} (side {side})", "gang", count * stake, "points"))
            parts.append(payments_from({s: count * stake for s in context.sides if s != side}, side))
    return tuple(items), add_payments(*parts)


@dataclass(frozen=True)
class JihuScorer:
    """RULES.md §7.7: stakes 花/杠/鸡胡, 3番 minimums, 天/人/地和 6番, 包, 买马."""

    name: str = "guangdong_jihu"

    def describe(self) -> str:
        return ("鸡胡 stake × 2^番 (+ 花 stake per flower) from each payer; 3番 minimums (一炮三响, 杠上开花, 海底捞月, 抢杠); "
                "天/人/地和 6番; 爆和 cap; 包三家 for 抢杠, 杠上开花包杠, 十二张落地, 大四喜/大三元; 杠 stake per kong; 买马")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        flower, kong, jihu = STAKES[ruleset.option("stakes")]
        cap = cap_of(ruleset)
        first_turn = ruleset.option("first_turn_fan")

        def price(j: Judged) -> tuple[int, tuple[Item, ...], int | None, str]:
            fan, items = capped_fan(j, cap, True, first_turn)
            return (jihu * 2 ** fan, items) + responsible_side(j)

        value, items, responsible, why = best_reading(verdict, hand, context, price, key=lambda p: p[0])
        if hand.flowers:
            items += (Item("hua", f"花 ×{len(hand.flowers)}", "hua", flower * len(hand.flowers), "points"),)
            value += flower * len(hand.flowers)
        debts = win_debts(context, value, responsible)
        horse_items, horses = horse_payments(context, debts)
        kong_items, kongs = kong_money(context, kong)
        payments = add_payments(payments_from(debts, context.winner), horses, kongs)
        notes = (why,) if why else ()
        return Settlement(items + horse_items + kong_items, value, payments, "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("流局: nothing is paid; kongs are paid with a win",))
