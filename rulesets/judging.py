"""Judge and settle a hand under a ruleset: the one entry point the controller and the CLI use."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hand import Hand, WinContext
from .scoring.views import reading_view
from .settlement import Settlement
from .tiles import Tile
from .winrules import Verdict, judge


@dataclass(frozen=True)
class HandResult:
    verdict: Verdict
    settlement: Settlement | None     # only for a legal, complete hand


def stand_ins_for(ruleset: Any, wilds: tuple[Tile, ...]) -> dict[Tile, Tile]:
    """The stand-in of the region's wild indicator (白板 or 红中) plays the wild kind's natural face.

    Only with exactly one wild kind, and never when the stand-in is itself wild.
    """
    if len(wilds) != 1:
        return {}
    for rule in ruleset.indicators:
        if rule.stand_in is not None and rule.stand_in not in wilds:
            return {rule.stand_in: wilds[0]}
    return {}


def evaluate_hand(ruleset: Any, hand: Hand, context: WinContext, *, exhaustive: bool = False,
                  settle: bool = True) -> HandResult:
    """The verdict and, for a legal hand, the settlement (unless `settle` is False: a caller
    that only asks whether the hand is legal, like the simulated players, skips the scoring).

    Readings the region's requirements and scorer cannot tell apart are judged and priced once
    (rulesets/scoring/views.py); `exhaustive` judges every reading (the tests compare the two).
    """
    hand.check_counts()
    candidates = tuple(k for k in ruleset.tiles.kinds if not k.is_flower)
    view = None if exhaustive else reading_view(ruleset, context, scoring=settle)
    verdict = judge(ruleset.win, ruleset.hand_size, hand, context, context.wilds,
                    stand_ins_for(ruleset, context.wilds), candidates, view=view)
    settlement = ruleset.scoring.settle(ruleset, hand, verdict, context) if verdict.legal and settle else None
    return HandResult(verdict, settlement)
