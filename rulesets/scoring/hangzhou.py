"""杭州 scoring (RULES.md §9 names 爆头, 财飘, 杠开; RESEARCH.md §3.4 the rest): 番 double, 4番封顶.

The text names three terms and no values.  RESEARCH.md §3.4 (MIL 杭州 2025): 爆头, 财飘, 杠开, 无财神,
七对, 豪华七对, 十风; 4番封顶; 老庄 ×2/×4/×8; 三吃承包; self-draw only.  The 番 each item is worth is
not in RESEARCH.md either; our defaults (each 番 doubles, so 4番 = ×16 at most):
- 爆头 1番: the winning tile completed a pair holding a 财神 (单吊 with a 财神).
- 财飘 +1番 per 飘 (a 财神 discarded while waiting on 爆头: `context.get("cai_piao")` counts them);
  only with 爆头 — so 爆头 ×2, 一飘 ×4, 二飘 ×8, 三飘 ×16, the ladder that ends at the cap.
- 杠开 1番; 无财神 (no 财神 in the hand) 1番; 七对 1番, 豪华七对 (a four counted as two pairs) 2番.
- 老庄: a dealer who has kept the deal n times (`context.consecutive_dealer`) doubles what he pays
  or receives, ×2 / ×4 / ×8 for n = 1, 2, 3 or more — outside the 4番 cap.
- 三吃承包: when `context.get("chengbao")` names the player who fed the winner three claims, he pays
  for everyone.  十风 (first ten discards all honours) is not a hand shape and is not scored here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from ..hand import Hand, Meld, WinContext
from ..settlement import Item, Settlement, payments_from
from ..winning import GroupKind, WinRole
from ..winrules import Judged, Verdict
from .base import DrawContext
from .base import best_reading
from .tally import ZERO, dealer_involved, each_loser_pays, fan_total

CAP_FAN = 4
SAN_CHI_CLAIMS = 3          # 三吃: the claimed melds one side fed the winner


def san_chi_possible(melds: Iterable[Meld]) -> bool:
    """三吃承包 can be: the hand shows three claimed melds or more (吃, 碰, 明杠, 补杠).  The table asks
    who fed them only then, and the audit expects the question only then."""
    return sum(1 for meld in melds if meld.is_claimed) >= SAN_CHI_CLAIMS


def bao_tou(j: Judged) -> bool:
    """爆头: the winning tile is in the pair, and the pair holds a 财神."""
    group = j.shape.win_group
    return (j.shape.win_role is WinRole.PAIR and group is not None
            and bool(j.shape.groups[group].wild_positions))


def no_caishen(j: Judged) -> bool:
    return not any(t in j.wild_kinds for t in j.hand.all_tiles())


def luxury_pairs(j: Judged) -> bool:
    """豪华七对: two of the seven pairs are the same kind."""
    pairs = [g.tiles[0] for g in j.shape.groups if g.kind is GroupKind.PAIR]
    return len(pairs) != len(set(pairs))


def fan_items(j: Judged) -> tuple[Item, ...]:
    ctx = j.context
    items = []
    if bao_tou(j):
        items.append(Item("baotou", "爆头", "bao tou", 1))
        piao = int(ctx.get("cai_piao", 0))  # type: ignore[arg-type]
        if piao:
            items.append(Item("caipiao", "财飘", "cai piao", piao))
    if ctx.kong_replacement:
        items.append(Item("gangkai", "杠开", "gang kai", 1))
    if no_caishen(j):
        items.append(Item("wucaishen", "无财神", "wu cai shen", 1))
    if j.shape.shape.value == "seven_pairs":
        items.append(Item("haohuaqidui", "豪华七对", "hao hua qi dui", 2) if luxury_pairs(j)
                     else Item("qidui", "七对", "qi dui", 1))
    return tuple(items)


def laozhuang(consecutive: int) -> int:
    """老庄 ×2 / ×4 / ×8."""
    return 2 ** min(consecutive, 3)


@dataclass(frozen=True)
class HangzhouScorer:
    name: str = "hangzhou"

    def describe(self) -> str:
        return "番 double (爆头 1, 财飘 +1 each, 杠开 1, 无财神 1, 七对 1, 豪华七对 2), 4番封顶; 老庄 ×2/×4/×8; self-draw, each pays"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        items = best_reading(verdict, hand, context, fan_items, fan_total)
        fan = min(fan_total(items), CAP_FAN)
        value = 2 ** fan

        def amount(side: int) -> int:
            return value * (laozhuang(context.consecutive_dealer) if dealer_involved(context, side) else 1)

        notes = [f"{fan_total(items)}番" + (f", 封顶 {CAP_FAN}番" if fan_total(items) > CAP_FAN else "") + f" → ×{value}"]
        if context.consecutive_dealer:
            notes.append(f"老庄 ×{laozhuang(context.consecutive_dealer)}")
        liable = context.get("chengbao")
        if liable is not None:
            payments = payments_from({liable: sum(amount(s) for s in context.losers())}, context.winner)
            notes.append(f"三吃承包: side {liable} pays for everyone")
        else:
            payments = each_loser_pays(context, amount)
        return Settlement(items, value, payments, "points", tuple(notes))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("流局: nothing is paid",))
