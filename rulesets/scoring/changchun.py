"""长春 scoring (RULES.md §1.8): every 番 doubles; kongs are settled on their own.

The model that reproduces the text's worked examples (×16, ×32, ×64) and payment list 1:
base 1; ×2 each for 门清 (站立), 夹胡, 自摸, a dealer involved (the dealer wins, or the dealer pays)
and 点炮 (for the discarder only); 飘胡 ×4; a 宝 win (摸宝/对宝) a further ×2 on top of its 自摸.
Who pays on a discard is a house option (RULES.md §1.9 S1): everyone, the discarder double
(default, as the payment lists), or the discarder alone (「只有放炮家输分」).  How the dealer's and the
discarder's doublings combine is another (`seat_doubling`): stacked (×2 each, the worked examples'
model) or not stacked (one ×2 a payer, as the payment lists: 「如果平家点炮再翻一倍，庄家不变」,
「庄平胡点炮家2，平家 1」); docs/regions.md lists every number of the texts beside what each pays.
Kongs (蛋) are paid by each other player to their maker, 暗杠 double, whatever the hand's result
(「杠：又称蛋，单独算，不随庄走」; 「但有杠者可以赢得相应点数」 at 荒庄); the base value of a kong is not
stated — house option `kong_value`, default 1.  大蛋 (a kong of 幺鸡, 幺饼, 红中, 发财 or 白板,
「明大蛋2倍底注，暗大蛋4倍底注」) is paid twice that, when the house lays kongs to show them (house
option `dadan`, `dadan_payments`, paid in the settlement round); otherwise as the ordinary kong it is.
A 断幺九 listener 「不能看宝」 (RULES.md §1.3 [002:210]): a 宝-kind tile he draws and wins on is a plain
自摸, without the 宝's ×2 (rulesets/bao.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import requirements as req
from ..bao import duanyaojiu
from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from ..tiles import Tile
from ..winrules import Judged, Verdict
from .base import DrawContext, best_reading


def multipliers(j: Judged) -> tuple[Item, ...]:
    """The ×2 / ×4 items of one reading, before the payer's own factors."""
    items = []
    if req.concealed_hand(j):
        items.append(Item("menqing", "门清", "menqing", 2, "times"))
    piao = req.all_pungs(j)
    if req.closed_wait(j) and not piao and req.only_wait(j):     # 「单张、单贴胡边张、砍张和单调都算夹胡，同独听」
        items.append(Item("jiahu", "夹胡", "jiahu", 2, "times"))
    if j.context.self_drawn:
        items.append(Item("zimo", "自摸", "zimo", 2, "times"))
    if bao_counts(j.hand, j.context):
        items.append(Item("bao", "宝", "bao", 2, "times"))
    if piao:
        items.append(Item("piaohu", "飘胡", "piaohu", 4, "times"))
    if j.context.winner_is_dealer:
        items.append(Item("zhuangjia", "庄家胡", "zhuangjia hu", 2, "times"))
    return tuple(items)


def bao_counts(hand: Hand, context: WinContext) -> bool:
    """A 宝 win (摸宝/对宝) — never for a 断幺九 listener, who may not look at the 宝 (「且不能看宝」)."""
    return context.bao_hit and not duanyaojiu(hand, context.win_tile)


def product(items: tuple[Item, ...]) -> int:
    total = 1
    for item in items:
        total *= item.value
    return total


def seat_factor(context: WinContext, payer: int, stacked: bool) -> int:
    """What one payer pays, as a multiple of the hand's value without its 庄家胡 item.

    stacked (the worked examples' model): ×2 when the dealer wins or pays, ×2 more for the discarder.
    not stacked (the payment lists): one ×2 for being the dealer or the discarder — 「如果平家点炮再翻一倍，
    庄家不变」 — and the dealer's win on a discard doubles only the discarder's payment (「庄平胡点炮家2，平家 1」).
    """
    dealer_wins = context.winner == context.dealer
    if stacked:
        return (2 if dealer_wins or payer == context.dealer else 1) * (2 if payer == context.discarder else 1)
    return 2 if payer in (context.dealer, context.discarder) or (dealer_wins and context.self_drawn) else 1


def payment_notes(context: WinContext, stacked: bool, all_pay: bool, hand: Hand | None = None) -> tuple[str, ...]:
    notes = () if context.winner_is_dealer else ("the dealer pays double",)
    if hand is not None and context.bao_hit and not bao_counts(hand, context):
        notes += ("断幺九也可以听牌，但是必须胡幺九，且不能看宝: won on the 宝 kind as a plain 自摸, no 宝 ×2",)
    if not context.self_drawn:
        alone = "" if all_pay else " and alone"
        if stacked:
            notes += ("点炮: the discarder pays double" + alone,)
        else:
            notes += ("点炮: the discarder pays double" + alone + "; the dealer's and the discarder's doubling do not stack",)
    return notes


def kong_payments(kongs_by_side: tuple[tuple[int, int, int], ...], sides: tuple[int, ...], value: int
                  ) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    """Each other player pays a kong's maker: 明杠 `value`, 暗杠 2 × `value`."""
    items: list[Item] = []
    parts = []
    for side, exposed, concealed in kongs_by_side:
        amount = value * (exposed + 2 * concealed)
        if amount:
            items.append(Item(f"gang_{side}", f"杠 (side {side})", "gang", amount, "points"))
            parts.append(payments_from({s: amount for s in sides if s != side}, side))
    return tuple(items), add_payments((0, 0, 0, 0), *parts)


DADAN_KINDS = frozenset((Tile.S1, Tile.P1, Tile.RED, Tile.GREEN, Tile.WHITE))     # 幺鸡 幺饼 红中 发财 白板


def dadan_payments(hands: dict[int, Hand], pressed: tuple[tuple[int, int, int], ...], sides: tuple[int, ...],
                   value: int) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
    """「明大蛋2倍底注，暗大蛋4倍底注」 (§1.7): a kong of 幺鸡, 幺饼, 红中, 发财 or 白板 is paid twice what
    it pays as the ordinary kong it also is (`kong_payments`, whose 底注 is `value`): each other player
    pays its maker `value` more for a 明大蛋, 2 × `value` more for an 暗大蛋.  Only kongs laid as the
    seat pressed them count: `pressed` (side, exposed, concealed) must match what it laid."""
    items: list[Item] = []
    parts = []
    counts = {side: (exposed, concealed) for side, exposed, concealed in pressed}
    for side, hand in sorted(hands.items()):
        laid = (sum(1 for m in hand.melds if m.is_kong and m.kind is not MeldKind.CONCEALED_KONG),
                sum(1 for m in hand.melds if m.kind is MeldKind.CONCEALED_KONG))
        if laid != counts.get(side) or len(hand.melds) != sum(laid) or hand.concealed:
            continue
        for meld in hand.melds:
            if not meld.is_kong or meld.kind_tile not in DADAN_KINDS:
                continue
            concealed = meld.kind is MeldKind.CONCEALED_KONG
            amount = value * (2 if concealed else 1)
            name = f"{'暗' if concealed else '明'}大蛋{meld.kind_tile.zh} (side {side})"
            items.append(Item(f"dadan_{side}_{meld.kind_tile}", name, "an da dan" if concealed else "ming da dan",
                              amount, "points"))
            parts.append(payments_from({s: amount for s in sides if s != side}, side))
    return tuple(items), add_payments((0, 0, 0, 0), *parts)


@dataclass(frozen=True)
class ChangchunScorer:
    name: str = "changchun"

    def describe(self) -> str:
        return ("each 番 doubles: 门清, 夹胡, 自摸, 庄 ×2; 飘胡 ×4; 宝 a further ×2; 点炮 ×2 for the discarder "
                "(option seat_doubling: whether it stacks with the dealer's); kongs paid separately (暗杠 double)")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        items = best_reading(verdict, hand, context, multipliers, key=product)
        base = product(items)
        stacked = ruleset.option("seat_doubling") == "stacked"
        all_pay = context.self_drawn or ruleset.option("discard_payment") == "all_pay"
        unit = product(tuple(i for i in items if i.key != "zhuangjia"))
        debts = {payer: unit * seat_factor(context, payer, stacked)
                 for payer in context.losers() if all_pay or payer == context.discarder}
        win = payments_from(debts, context.winner)
        kong_items, kongs = kong_payments(context.kongs_by_side, context.sides, int(ruleset.option("kong_value")))
        return Settlement(items + kong_items, base, add_payments(win, kongs), "times",
                          payment_notes(context, stacked, all_pay, hand))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        items, payments = kong_payments(context.kongs_by_side, context.sides, int(ruleset.option("kong_value")))
        return Settlement(items, 0, payments, "points", ("荒庄: only kongs are paid",))

    def settle_round(self, ruleset: Any, hands: dict[int, Hand], verdicts: tuple[Any, ...],
                     context: Any) -> tuple[tuple[Item, ...], tuple[int, int, int, int]]:
        """The 大蛋 round (house option dadan=laid, rulesets.rounds): the 大蛋 among the kongs each seat laid."""
        return dadan_payments(hands, context.kongs, context.sides, int(ruleset.option("kong_value")))
