"""上海 scoring (RULES.md §4.7): who pays what share; 抢杠 and 承包.

Stated: 「点炮点炮者输分，和其他人无关」; 抢杠 「记分按自摸计，但由杠的支付，相当于杠的人付 3份，抢杠时如果还有承包
关系，承包者也付3份」; 承包 after three or more claims between two sides (反承包 included): 「点炮记分时，承包者
付一份点数，若自摸记分时承包者付3份点数」.

Not stated: the value of a share (the 花分 and the 勒子 cap have no values).  A share here is
1 + the winner's flowers (RESEARCH.md §3.5, 上海敲麻 「(1 + 花)」, without its 番 multiplier, which needs a
番 table the text does not give); no cap.

Readings:
- 承包者: the side X from which the winner claimed 3 or more times, or which claimed 3 or more times
  from the winner (反承包); the controller gives the claims as `context.extra["claims"]`, triples
  (claimer, from_side, count).
- On a self-draw the 承包者 pays all 3 shares alone.  On a discard he pays the one share instead of the
  discarder (house option `chengbao_discard`, default) or besides him.
- 抢杠: the robbed konger (`context.discarder`) pays 3 shares; a 承包者 other than the konger 3 more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, WinContext
from ..settlement import Item, Settlement, payments_from
from ..winrules import Verdict
from .base import DrawContext, no_payments

CHENGBAO_CLAIMS = 3


def chengbao_side(context: WinContext) -> int | None:
    """「如果吃碰杠一家或被一家吃碰杠超过3次（包括3次），则承包（包含反承包在内）」."""
    for claimer, from_side, count in context.get("claims", ()) or ():
        if count < CHENGBAO_CLAIMS:
            continue
        if claimer == context.winner and from_side != context.winner:
            return from_side
        if from_side == context.winner and claimer != context.winner:
            return claimer
    return None


def share_value(hand: Hand) -> int:
    return 1 + len(hand.flowers)


def debts(context: WinContext, share: int, chengbao: int | None, discard_rule: str) -> tuple[dict[int, int], str]:
    """Who pays how much for this win, and a note saying why."""
    if context.robbed_kong and context.discarder is not None:
        owed = {context.discarder: 3 * share}
        if chengbao is not None and chengbao != context.discarder:
            owed[chengbao] = 3 * share
            return owed, "抢杠: the konger pays 3 shares, the 承包者 3 more"
        return owed, "抢杠: 按自摸计, the konger pays 3 shares"
    if context.self_drawn:
        if chengbao is not None:
            return {chengbao: 3 * share}, "自摸 under 承包: the 承包者 pays 3 shares"
        return {s: share for s in context.losers()}, "自摸: each other side pays a share"
    if chengbao is None or chengbao == context.discarder:
        return {context.discarder: share}, "点炮: the discarder alone pays (「和其他人无关」)"  # type: ignore[dict-item]
    if discard_rule == "instead":
        return {chengbao: share}, "点炮 under 承包: the 承包者 pays the share"
    return {context.discarder: share, chengbao: share}, "点炮 under 承包: the discarder and the 承包者 pay a share each"  # type: ignore[dict-item]


@dataclass(frozen=True)
class ShanghaiScorer:
    name: str = "shanghai"

    def describe(self) -> str:
        return ("a share is 1 + the winner's flowers; 点炮: the discarder alone pays a share; 自摸: each other side a share; "
                "抢杠: the konger 3 shares; 承包 (3 claims between two sides): the 承包者 pays 3 shares on a self-draw, one on a discard")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        share = share_value(hand)
        chengbao = chengbao_side(context)
        owed, note = debts(context, share, chengbao, ruleset.option("chengbao_discard"))
        items = [Item("di", "底", "di", 1, "points")]
        if hand.flowers:
            items.append(Item("hua", "花", "hua", len(hand.flowers), "points"))
        if chengbao is not None:
            items.append(Item("chengbao", f"承包 (side {chengbao})", "chengbao", owed.get(chengbao, 0), "points"))
        return Settlement(tuple(items), share, payments_from(owed, context.winner), "points", (note,))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("流局: nothing is paid",))
