"""大包 block scoring (RULES.md §25): chips for the winner's kongs, the dealer's double, 大包, 跟庄.

What the text gives:
- 「杠只有和牌的情况下杠才计入筹码，明杠算一筹，暗杠算两筹」: only the winner's kongs count, 明杠 (a
  补杠 too) 1 chip, 暗杠 2; they are added to what each payer pays.
- 「庄家的筹码翻倍计算」: a payment the dealer makes or receives is doubled.
- 「点炮需要包三家的筹码（包括自己）叫做大包。而听牌后打出令别人胡的牌则不需要」: every loser pays his own
  share (a self-draw, or a discard by a player who had declared 听); a discarder who had not declared
  听 (not in `context.ready_sides`) pays the three shares alone — 大包.
- 「如果第一圈四个人打出的牌一样叫做跟庄，庄家需给其他人每人一个筹码」: `follow_dealer` settles it apart.

Not stated: what a hand is worth besides its kongs — 1 chip (default, the unit the text counts in).
- 「诈胡等同于输给其他三家」 (house option `zha_hu`): a false claimer pays each other side a plain hand's
  chip, doubled where the dealer pays or is paid (`settle_false_win`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement, add_payments, payments_from
from .base import DrawContext
from .tally import ZERO, dealer_involved, each_loser_pays

BASE_CHIPS = 1


def kong_chips(hand: Hand) -> tuple[Item, ...]:
    """The winner's kongs: 明杠 1 chip, 暗杠 2."""
    items = []
    for meld in hand.kongs:
        concealed = meld.kind is MeldKind.CONCEALED_KONG
        items.append(Item(f"gang_{meld.kind_tile}", ("暗杠" if concealed else "明杠") + meld.kind_tile.zh,
                          "angang" if concealed else "minggang", 2 if concealed else 1, "chips"))
    return tuple(items)


def share(context: WinContext, value: int, payer: int) -> int:
    return value * (2 if dealer_involved(context, payer) else 1)


def is_dabao(context: WinContext) -> bool:
    """A discard by a player who had not declared 听."""
    return not context.self_drawn and context.discarder not in context.ready_sides


def follow_dealer(dealer: int, sides: tuple[int, ...] = (0, 1, 2, 3), rounds: int = 1) -> Settlement:
    """跟庄: for each first-round (and further) round of four equal discards, the dealer pays each other one chip."""
    payments = [0, 0, 0, 0]
    for side in sides:
        if side != dealer:
            payments[side] += rounds
            payments[dealer] -= rounds
    item = Item("genzhuang", "跟庄", "gen zhuang", rounds, "chips")
    return Settlement((item,), rounds, tuple(payments), "chips", ("庄家需给其他人每人一个筹码",))  # type: ignore[arg-type]


@dataclass(frozen=True)
class DabaoScorer:
    name: str = "dabao"

    def describe(self) -> str:
        return "1 chip + the winner's kongs (明 1, 暗 2) from each loser, the dealer's doubled; 大包: a pre-听 discarder pays all three"

    def settle(self, ruleset: Any, hand: Hand, verdict: Any, context: WinContext) -> Settlement:
        kongs = kong_chips(hand)
        value = BASE_CHIPS + sum(i.value for i in kongs)
        items = (Item("hu", "和", "hu", BASE_CHIPS, "chips"),) + kongs
        if is_dabao(context):
            total = sum(share(context, value, side) for side in context.losers())
            payments = payments_from({context.discarder: total}, context.winner)
            notes: tuple[str, ...] = ("大包: the discarder had not declared 听 and pays for all three",)
        else:
            payments = each_loser_pays(context, lambda side: share(context, value, side))
            notes = ()
        return Settlement(items, value, payments, "chips", notes + ("庄家的筹码翻倍",))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "chips", ("流庄: kongs count only for a winner; nothing is paid",))

    def settle_false_win(self, ruleset: Any, seat: int, dealer: int, sides: tuple[int, ...]) -> Settlement | None:
        """「诈胡等同于输给其他三家」: `seat` pays each other side a plain hand's chip, the dealer's doubled
        (None with zha_hu=nothing)."""
        if ruleset.option("zha_hu") != "pays":
            return None
        parts = [payments_from({seat: BASE_CHIPS * (2 if dealer in (seat, side) else 1)}, side)
                 for side in sides if side != seat]
        payments = add_payments(ZERO, *parts)
        item = Item("zhahu", "诈胡", "zha hu", -payments[seat], "chips")
        return Settlement((item,), BASE_CHIPS, payments, "chips", ("诈胡等同于输给其他三家",))
