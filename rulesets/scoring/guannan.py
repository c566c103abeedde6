"""灌南 scoring (RULES.md §30): the four 记牌形式 the text names, each named on the win.

「记牌形式主要包括：七对、碰碰和（牌型为nAAA+BB其中n大于等于0小于等于4）、一条龙（由同种花色组成的1-9的和牌形式）、
平牌（普通的和牌形式）」 — the text names the forms and gives no value for any of them (RULES.md §35:
scoring none).  So the win names its form (七对, 碰碰和, 一条龙 or 平牌: the first the hand makes, in
the text's order, 平牌 last) and is worth 1 point, paid by the discarder or by each other side on a
self-draw; the settlement's note says plainly that the value is not stated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import requirements as req
from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement
from ..winning import GroupKind
from ..winrules import Judged, Verdict
from .base import DrawContext, best_reading, discard_or_all_pay, no_payments
from .hand_types import is_seven_pairs

VALUE = 1       # not stated: a win is 1 point, whatever its form


def is_dragon(j: Judged) -> bool:
    """一条龙: 123, 456 and 789 of one suit among the hand's chows (concealed or declared)."""
    starts = {(g.tiles[0].suit, g.tiles[0].rank) for g in j.shape.groups if g.kind is GroupKind.CHOW}
    starts |= {(m.tiles[0].suit, m.tiles[0].rank) for m in j.declared if m.kind is MeldKind.CHOW}
    return any({(suit, 1), (suit, 4), (suit, 7)} <= starts for suit in "mps")


FORMS = (("qidui", "七对", "qi dui", is_seven_pairs),
         ("pengpenghe", "碰碰和", "peng peng he", lambda j: not is_seven_pairs(j) and req.all_pungs(j)),
         ("yitiaolong", "一条龙", "yi tiao long", is_dragon),
         ("pingpai", "平牌", "ping pai", lambda j: True))


def form_of(j: Judged) -> tuple[int, Item]:
    """(rank in the text's order, the form's item) of one reading."""
    for rank, (key, zh, pinyin, fits) in enumerate(FORMS):
        if fits(j):
            return rank, Item(key, zh, pinyin, VALUE, "points")
    raise AssertionError("平牌 fits every hand")


@dataclass(frozen=True)
class GuannanScorer:
    name: str = "guannan"

    def describe(self) -> str:
        return ("the win names its form — 七对, 碰碰和, 一条龙 or 平牌 (the text's 记牌形式); the text gives no values: "
                "a win is 1 point, paid by the discarder or by each other side on a self-draw")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        _, item = best_reading(verdict, hand, context, form_of, key=lambda found: -found[0])
        return Settlement((item,), VALUE, discard_or_all_pay(context, VALUE), "points",
                          (f"灌南: the text names the form {item.zh} but gives no value for it: a win is {VALUE} point",))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, no_payments(), "points", ("a drawn hand: nothing is paid",))
