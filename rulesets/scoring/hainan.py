"""海南 (RULES.md §23): 番 is a prerequisite, not a multiplier; the payments of the attributed fragment.

「在海南麻将中番是指和牌的前提，而不是倍数」 — a hand needs at least one 番 to win, unless it is
self-drawn (「无番靠自摸」).  The 番 conditions that survive (items 7-9 are lost) are each worth one:
1 a 2/5/8 pair; 2 each pung or kong of 中发白; 3 each seat flower (dealer 春/梅, 下家 夏/兰, 对家 秋/菊,
上家 冬/竹); 4 each pung or kong of the prevailing wind (令) or of one's own seat wind; 5 门前清 (no
碰, 吃 or 杠 at all, a 暗杠 included: 「没有任何碰，吃或杠」); 6 碰碰和.  A pung may be concealed by default
(item 6 calls any three alike 「碰的牌」: 「即三张一样的或四张一样的牌」); house option `pung_fan=declared`
counts for items 2 and 4 only a 碰 claimed or a kong (「碰或杠（包括明杠暗杠）」).

Payments (the fragment [000:121-127], attribution uncertain — RULES.md §23.2):
- 推倒胡 (a win without 报听): 「放炮即1全部人1番」 — reading (a), the default: on a discard the discarder
  pays 1, on a self-draw each other player pays 1; reading (b): everyone pays 1 in both cases.
- 明摸 (a self-draw after 报听): 「明摸1人4番，庄上8番」 — each other player pays 4, 8 when the dealer
  pays or wins.
- 明打 (a discard win after 报听, only with house option `mingda` = allowed, since item 4 says a 报听
  player must self-draw): 「明打1人8番，庄上16番」 — the discarder pays 8, 16 when the dealer is involved.
Winning on a flower replacement is 花砸 and gives no 番 (「补来的牌和牌算花砸但不算番」): nothing to add.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import requirements as req
from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement
from ..tiles import Tile
from ..winning import GroupKind
from ..winrules import Judged, Verdict, of_hand
from .base import DrawContext
from .base import best_reading
from .tally import ZERO, dealer_involved, discarder_or_each

SEAT_FLOWERS = {  # seat wind → its flowers (「庄家摸春或梅，庄家下家摸夏或兰，庄家对家摸秋或菊，庄家上家摸冬或竹」)
    Tile.EAST: (Tile.SPRING, Tile.PLUM), Tile.SOUTH: (Tile.SUMMER, Tile.ORCHID),
    Tile.WEST: (Tile.AUTUMN, Tile.CHRYSANTHEMUM), Tile.NORTH: (Tile.WINTER, Tile.BAMBOO),
}


def pung_kinds(j: Judged, counted: str = "any") -> list[Tile]:
    """The kind of every pung or kong, concealed or declared (`counted` "declared": the declared ones only)."""
    kinds = [g.tiles[0] for g in j.shape.groups if g.kind is GroupKind.PUNG] if counted == "any" else []
    return kinds + [m.kind_tile for m in j.declared if m.is_pung_like]


def fan_items(j: Judged, pung_fan: str = "any") -> tuple[Item, ...]:
    """Each 番 of this reading (`pung_fan`: house option, which pungs items 2 and 4 count)."""
    ctx = j.context
    items = []
    if req.pair_is_258(j):
        items.append(Item("yan258", "2、5、8做眼", "er wu ba zuo yan", 1))
    kinds = pung_kinds(j, pung_fan)
    items += [Item(f"jian_{t}", f"碰杠{t.zh}", "peng gang zhong fa bai", 1) for t in kinds if t.is_dragon]
    seat = ctx.seat_wind()
    items += [Item(f"hua_{f}", f"本家花{f.zh}", "ben jia hua", 1) for f in j.hand.flowers if f in SEAT_FLOWERS[seat]]
    for t in kinds:
        if t == ctx.prevailing_wind:
            items.append(Item(f"ling_{t}", f"令风{t.zh}", "ling feng", 1))
        if t == seat:
            items.append(Item(f"zuo_{t}", f"本风{t.zh}", "ben feng", 1))
    if not any(m.kind is not MeldKind.SPECIAL for m in j.declared):
        items.append(Item("menqianqing", "门前清", "men qian qing", 1))
    if req.all_pungs(j):
        items.append(Item("pengpenghe", "碰碰和", "peng peng he", 1))
    return tuple(items)


def has_fan_or_self_drawn(pung_fan: str) -> Callable[[Judged], bool]:
    """「番是指和牌的前提」, 「无番靠自摸」: one 番 at least, or a self-draw."""
    return lambda j: j.context.self_drawn or sum(i.value for i in fan_items(j, pung_fan)) > 0


@of_hand
def ready_wins_by_self_draw(hand: Hand, context: WinContext) -> bool:
    """「报听明摸放炮不能和牌，必须自摸」: after 报听 only a self-draw wins."""
    return not context.ready_declared or context.self_drawn


def win_kind(context: WinContext) -> Item:
    """明摸, 明打 or 推倒胡, with the amount each payer pays before the dealer's doubling."""
    if context.ready_declared and context.self_drawn:
        return Item("mingmo", "明摸", "ming mo", 4, "points")
    if context.ready_declared:
        return Item("mingda", "明打", "ming da", 8, "points")
    return Item("tuidaohu", "推倒胡", "tui dao hu", 1, "points")


@dataclass(frozen=True)
class HainanScorer:
    name: str = "hainan"

    def describe(self) -> str:
        return "番 only admit a win (无番靠自摸); 推倒胡 1, 明摸 4 each (庄 8), 明打 8 (庄 16)"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        pung_fan = ruleset.option("pung_fan")
        fan = best_reading(verdict, hand, context, lambda j: fan_items(j, pung_fan), lambda items: len(items))
        kind = win_kind(context)
        doubles = kind.key != "tuidaohu"

        def amount(side: int) -> int:
            return kind.value * (2 if doubles and dealer_involved(context, side) else 1)

        all_pay = kind.key == "tuidaohu" and ruleset.option("tuidao_payment") == "everyone"
        payments = discarder_or_each(context, amount, all_pay)
        notes = ("番 are the prerequisite of a win, not a multiplier",) + (("无番靠自摸",) if not fan else ())
        return Settlement((kind,) + fan, kind.value, payments, "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("荒庄: nothing is paid",))
