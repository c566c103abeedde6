"""武汉 红中赖子杠 (RULES.md §20, RESEARCH.md §3.8): 大胡 and 屁胡, and the win predicates they need.

The text gives the classes only: 「碰碰胡、将一色、清一色、风一色、全求人、杠开、海底捞、抢杠都算大胡。其他就都是屁胡」.
Values, where the text is silent:
- RESEARCH.md §3.8 (four published rule texts): 硬胡 (no 赖子 standing for another tile) ×2, 软胡 ×1;
  a 赖子杠 (discarding a 赖子) is 2番, discarding a 赖子皮 1番; every 番 doubles (「2 番 / ×4」).
  A 屁胡 needs a 2/5/8 pair and at most one 赖子 (the win requirements use these predicates).
- Not in the text or RESEARCH (house options, stated defaults): a 屁胡 is worth 1, each 大胡 the
  `dahu_value` (default 10, summed when a hand has several); a 红中杠 and a 明杠 are 1番, a 暗杠 2番.
- Per-seat 番: each side's kong-like events (`context.get("gang_events")`: (side, 赖子杠, 皮杠, 红中杠)
  counts) and kongs (`context.kongs_by_side`) give it 番; what a loser pays is the hand's value ×
  2^(winner's 番 + his own 番) — the "running 番 count per seat" of RESEARCH.md §3.8.
- 一色包赔: when `context.get("yise_liable")` names the side whose third feed made a 清一色/将一色/
  风一色, that side pays for everyone.
- Who pays otherwise is not stated: house option `payer`, default the discarder alone.

Read literally from the text: 将一色 and 风一色 are judged on standard hands (the 乱将/乱风 forms
without melds would need a shape the evaluator does not have).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .. import reading_bounds as bounds
from .. import requirements as req
from ..hand import Hand, MeldKind, WinContext
from ..tiles import Tile
from ..winning import PAIRS_258, Evaluator
from ..settlement import Item, Settlement, payments_from
from ..winrules import Judged, Verdict
from .base import DrawContext
from .base import best_reading
from .tally import ZERO, discarder_or_each

LAIZI_GANG_FAN, PI_GANG_FAN = 2, 1        # RESEARCH.md §3.8
HONGZHONG_GANG_FAN, MING_GANG_FAN, AN_GANG_FAN = 1, 1, 2   # defaults


def wind_suit(j: Judged) -> bool:
    """风一色: every tile an honour."""
    return all(t.is_honour for t in j.standing)


def quan_qiu_ren(j: Judged) -> bool:
    """全求人: every meld claimed, one tile left, won on a discard."""
    return quan_qiu_ren_of(j.hand, j.context)


def quan_qiu_ren_of(hand: Hand, context: WinContext) -> bool:
    """`quan_qiu_ren`, which reads the hand and the context alone."""
    return (len(hand.concealed) == 2 and not context.self_drawn
            and all(m.kind is not MeldKind.CONCEALED_KONG for m in hand.melds))


DAHU = (
    ("pengpenghu", "碰碰胡", "peng peng hu", req.all_pungs),
    ("jiangyise", "将一色", "jiang yi se", req.all_258),
    ("qingyise", "清一色", "qing yi se", lambda j: req.one_suit(j, False)),
    ("fengyise", "风一色", "feng yi se", wind_suit),
    ("quanqiuren", "全求人", "quan qiu ren", quan_qiu_ren),
    ("gangkai", "杠开", "gang kai", lambda j: j.context.kong_replacement),
    ("haidilao", "海底捞", "hai di lao", lambda j: j.context.last_tile and j.context.self_drawn),
    ("qianggang", "抢杠", "qiang gang", lambda j: j.context.robbed_kong),
)
YISE = ("qingyise", "jiangyise", "fengyise")


def dahu_names(j: Judged) -> tuple[tuple[str, str, str], ...]:
    return tuple((key, zh, pinyin) for key, zh, pinyin, check in DAHU if check(j))


def is_dahu(j: Judged) -> bool:
    return any(check(j) for *_, check in DAHU)


def no_dahu(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """No reading of the hand is a 大胡 (`DAHU`, each bounded from the hand: reading_bounds.py)."""
    free = bounds.free_kinds(evaluator)
    if context.kong_replacement or context.robbed_kong or (context.last_tile and context.self_drawn):
        return False
    if quan_qiu_ren_of(hand, context) or not bounds.no_all_pungs(hand, free):
        return False
    fixed = bounds.fixed_tiles(hand, free)
    return bounds.no_one_suit(fixed, False) and bounds.no_all_honours(fixed) and bounds.no_all_258(fixed)


def held_wilds(hand: Hand, wilds: frozenset[Tile] | tuple[Tile, ...]) -> int:
    """The 赖子 held among the concealed tiles."""
    return sum(1 for tile in hand.concealed if tile in wilds)


def pihu_laizi_ok(counted: str) -> Callable[[Judged], bool]:
    """「两个癞子胡屁胡不能胡」: a 屁胡 holds at most one 赖子 (`counted` "held", RESEARCH.md §3.8 「may hold at most
    1 赖子」), or uses at most one as a wild ("as_wild": a 赖子 playing its own face is not counted)."""
    def check(j: Judged) -> bool:
        if is_dahu(j):
            return True
        if counted == "as_wild":
            return req.wilds_as_wild_at_most(j, 1)
        return held_wilds(j.hand, j.wild_kinds) <= 1
    return check


def pihu_laizi_hopeless(counted: str) -> Callable[[Hand, WinContext, Evaluator], bool] | None:
    """`pihu_laizi_ok` met by no reading: two 赖子 held and no 大胡 possible (none known for "as_wild",
    where how many stand for another depends on the reading)."""
    if counted == "as_wild":
        return None
    return lambda hand, context, evaluator: held_wilds(hand, context.wilds) > 1 and no_dahu(hand, context, evaluator)


def pihu_258_ok(j: Judged) -> bool:
    """RESEARCH.md §3.8: a 屁胡 needs a 2/5/8 pair."""
    return is_dahu(j) or req.pair_is_258(j)


def pihu_258_hopeless(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """`pihu_258_ok` met by no reading: no 2/5/8 pair (asked first: most legal hands have one) and no
    大胡 possible."""
    return bounds.no_pair_of(hand, evaluator, PAIRS_258) and no_dahu(hand, context, evaluator)


def pihu_laizi_assured(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """`pihu_laizi_ok` met by every reading: at most one 赖子 held (and so at most one standing for
    another tile), whichever way they are counted."""
    return held_wilds(hand, context.wilds) <= 1


def hand_items(j: Judged, dahu_value: int) -> tuple[Item, ...]:
    names = dahu_names(j)
    items = [Item(key, zh, pinyin, dahu_value, "points") for key, zh, pinyin in names]
    if not names:
        items.append(Item("pihu", "屁胡", "pi hu", 1, "points"))
    if j.wilds_as_wild == 0:
        items.append(Item("yinghu", "硬胡", "ying hu", 2, "times"))
    return tuple(items)


def hand_value(items: tuple[Item, ...]) -> int:
    base = sum(i.value for i in items if i.unit == "points")
    return base * (2 if any(i.key == "yinghu" for i in items) else 1)


def seat_fan(context: WinContext) -> dict[int, int]:
    """Each side's 番 from its 赖子杠/皮杠/红中杠 and its kongs."""
    fan = {side: 0 for side in context.sides}
    for side, laizi, pi, hongzhong in context.get("gang_events", ()):  # type: ignore[misc]
        fan[side] = fan.get(side, 0) + laizi * LAIZI_GANG_FAN + pi * PI_GANG_FAN + hongzhong * HONGZHONG_GANG_FAN
    for side, exposed, concealed in context.kongs_by_side:
        fan[side] = fan.get(side, 0) + exposed * MING_GANG_FAN + concealed * AN_GANG_FAN
    return fan


@dataclass(frozen=True)
class WuhanScorer:
    name: str = "wuhan"

    def describe(self) -> str:
        return ("屁胡 1, each 大胡 the house value (10); 硬胡 ×2; each loser pays × 2^(winner's 番 + his 番) "
                "from 赖子杠 2, 皮 1, 红中杠 1, 明杠 1, 暗杠 2")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        dahu_value = int(ruleset.option("dahu_value"))
        items = best_reading(verdict, hand, context, lambda j: hand_items(j, dahu_value), hand_value)
        value = hand_value(items)
        fan = seat_fan(context)

        def amount(side: int) -> int:
            return value * 2 ** (fan[context.winner] + fan[side])

        liable = context.get("yise_liable")
        if liable is not None and any(i.key in YISE for i in items):
            payments = payments_from({liable: sum(amount(s) for s in context.losers())}, context.winner)
            notes: tuple[str, ...] = (f"一色包赔: side {liable} pays for everyone",)
        else:
            payments = discarder_or_each(context, amount, ruleset.option("payer") == "all_pay")
            notes = ()
        seat_items = tuple(Item(f"fan_{side}", f"番 (side {side})", "fan", n) for side, n in sorted(fan.items()) if n)
        return Settlement(items + seat_items, value, payments, "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("黄庄: nothing is paid",))
