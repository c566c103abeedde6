"""Judge and settle a hand under a ruleset: the one entry point the controller and the CLI use."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable
from typing import Any

from .bao import private_bao, read_bao
from .hand import Hand, WinContext
from .scoring.views import key_views, price_key_view, reading_view
from .settlement import Settlement
from .table_rules import refuse, table_failures
from .indicators import Effect, Timing
from .one_stand_in import best_with_one_stand_in
from .tiles import Tile
from .winning import Evaluator, WinShape
from .winning.readings import ViewClass
from .winrules import SHORT, Judged, Keep, Rank, Verdict, hand_failures, judge, make_evaluator, melds_needed


@dataclass(frozen=True)
class HandResult:
    verdict: Verdict
    settlement: Settlement | None     # only for a legal, complete hand


def fixed_wilds(ruleset: Any) -> tuple[Tile, ...]:
    """The kinds wild in every hand, whatever is flipped (杭州's 白板 财神): no indicator reveals them."""
    out: list[Tile] = []
    for rule in ruleset.indicators:
        if rule.timing is Timing.FIXED and rule.effect is Effect.WILD:
            out += [t for t in rule.special_kinds(None) if t not in out]
    return tuple(out)


def wild_sets(ruleset: Any) -> frozenset[frozenset[Tile]]:
    """Every set of wild kinds the region's indicators can make in one hand: one flipped tile per wild
    indicator, each making its derivation's kinds (南昌's 精: the flipped kind and the next), with the
    fixed kinds in each.  A region without wilds can make only the empty set."""
    sets = {frozenset(fixed_wilds(ruleset))}
    for rule in ruleset.indicators:
        if rule.effect is Effect.WILD and rule.timing is not Timing.FIXED:
            made = {frozenset(rule.special_kinds(tile)) for tile in ruleset.tiles.kinds}
            sets = {before | kinds for before in sets for kinds in made}
    return frozenset(sets)


def stand_ins_for(ruleset: Any, wilds: tuple[Tile, ...]) -> dict[Tile, Tile]:
    """The stand-in of the region's wild indicator (白板 or 红中): every tile of it plays the wild
    kind's natural face.

    Only with exactly one wild kind, and never when the stand-in is itself wild; none where only one
    tile of it may stand in (`one_stand_in`: those are judged both ways, rulesets/one_stand_in.py).
    """
    rule = _stand_in_rule(ruleset, wilds)
    return {} if rule is None or rule.stand_in_limit == 1 else {rule.stand_in: wilds[0]}


def one_stand_in(ruleset: Any, wilds: tuple[Tile, ...]) -> tuple[Tile, Tile] | None:
    """(stand-in, face) where one tile of the stand-in kind may play the wild's face and the others
    are themselves (百搭 reading (b): 「其中一张白板可以用作代替该张翻开的牌」); None elsewhere."""
    rule = _stand_in_rule(ruleset, wilds)
    return (rule.stand_in, wilds[0]) if rule is not None and rule.stand_in_limit == 1 else None


def _stand_in_rule(ruleset: Any, wilds: tuple[Tile, ...]) -> Any:
    """The wild indicator whose stand-in plays the one wild kind's face (None: no such, or the
    stand-in is itself wild)."""
    if len(wilds) != 1:
        return None
    return next((rule for rule in ruleset.indicators if rule.stand_in is not None and rule.stand_in not in wilds), None)


def best_key_classes(reading_key: Callable[[Judged], Any]) -> Keep:
    """For a scorer whose key (what it maximises over readings) reads only its key view
    (views.SCORER_KEY_VIEWS): the legal readings of the classes with the best key, each class
    priced once; the best reading is among them, and so are all readings it ties with."""
    def keep(classes: list[tuple[Judged, list[Callable[[], WinShape]]]]) -> list[WinShape]:
        keys = [reading_key(judged) for judged, _ in classes]
        best = max(keys)
        return [found for (judged, rest), key in zip(classes, keys) if key == best
                for found in (judged.shape, *(build() for build in rest))]
    return keep


def key_rank(scorer: Any, hand: Hand, context: WinContext) -> Rank | None:
    """A class's key worked out from its views, for a scorer that can (views.SCORER_KEY_VIEWS):
    classes the walk did not collapse (no views) have none."""
    key_of_views = getattr(scorer, "key_of_views", None)
    if key_of_views is None:
        return None
    return lambda found: key_of_views(key_views(found), hand, context) if isinstance(found, ViewClass) else None


def evaluate_hand(ruleset: Any, hand: Hand, context: WinContext, *, exhaustive: bool = False,
                  settle: bool = True) -> HandResult:
    """Judge and settle a hand as the region's table would (its set, its play rules, its 宝): the
    verdict and, for a legal hand, the settlement (unless `settle` is False: a caller
    that only asks whether the hand is legal, like the simulated players, skips the scoring and
    the verdict keeps only the first legal reading found).

    Readings the region's requirements and scorer cannot tell apart are judged and priced once
    (rulesets/scoring/views.py); `exhaustive` judges every reading (the tests compare the two).
    """
    one = one_stand_in(ruleset, context.wilds)
    if one is not None and one[0] in hand.concealed:
        return best_with_one_stand_in(ruleset, hand, context, one, _judged_with, exhaustive=exhaustive, settle=settle)
    return _judged_with(ruleset, hand, context, stand_ins_for(ruleset, context.wilds), exhaustive=exhaustive,
                        settle=settle)


def is_legal(ruleset: Any, hand: Hand, context: WinContext, evaluator: Evaluator | None = None) -> bool:
    """`evaluate_hand(ruleset, hand, context, settle=False).verdict.legal`, answered without reading
    the hand where the hand alone says (`_whole` hands only; else the judge says what is wrong):

    - where nothing asks how it is read (`_legal_by_hand`): a complete hand that passes the
      table's checks (`table_failures`) and the requirements (each reads the hand and the context
      alone) is legal in any reading, so the judge's first reading (and its search) is not
      needed: the win tables say whether it is complete;
    - where a requirement says no reading of the hand can meet it (`Requirement.hopeless`): the
      hand is not legal, however it would be read;
    - where each requirement reads the hand alone or says every reading meets it
      (`Requirement.assured`), but at most one that says some reading does (`witnessed`): as
      where nothing asks how it is read.

    `evaluator`: one the caller keeps for these wilds (the simulated players ask this at every wait
    they weigh), used if it is the one the judge makes."""
    requirements = ruleset.win.requirements
    by_hand = all(r.hand_check is not None for r in requirements)
    bounded = not by_hand and any(r.hopeless or r.assured or r.witnessed for r in requirements)
    if (by_hand or bounded) and _whole(ruleset, hand, context):
        if by_hand:
            return _legal_by_hand(ruleset, hand, context, evaluator)
        evaluator = _evaluator_for(ruleset, context, evaluator)
        if any(r.hopeless is not None and r.hopeless(hand, context, evaluator) for r in requirements):
            hand.check_counts()                                 # (both raise as the judge does)
            evaluator.check_counts(hand.concealed)
            return False
        unsure = [r for r in requirements
                  if r.hand_check is None and not (r.assured is not None and r.assured(hand, context, evaluator))]
        if not unsure or (len(unsure) == 1 and unsure[0].witnessed is not None
                          and unsure[0].witnessed(hand, context, evaluator)):
            return _legal_by_hand(ruleset, hand, context, evaluator)
    return evaluate_hand(ruleset, hand, context, settle=False).verdict.legal


def _legal_by_hand(ruleset: Any, hand: Hand, context: WinContext, evaluator: Evaluator | None) -> bool:
    """`is_legal` where every requirement reads the hand alone (`Requirement.hand_check`) or is met
    by every reading (`Requirement.assured`), but one at most met by a reading known to exist
    (`Requirement.witnessed`)."""
    hand.check_counts()
    failures = table_failures(ruleset, hand, context) or hand_failures(ruleset.win, hand, context)
    evaluator = _evaluator_for(ruleset, context, evaluator)
    evaluator.check_counts(hand.concealed)          # (raises as the judge's reading of the hand does)
    return not failures and evaluator.is_complete(hand.concealed, melds_needed(ruleset.hand_size, hand))


def _evaluator_for(ruleset: Any, context: WinContext, evaluator: Evaluator | None) -> Evaluator:
    """The evaluator the judge makes for these wilds: the caller's if it is that one."""
    stand_ins = stand_ins_for(ruleset, context.wilds)
    wilds = frozenset(context.wilds)
    if evaluator is None or evaluator.wild_kinds != wilds or dict(evaluator.stand_ins) != stand_ins \
            or evaluator.shapes != ruleset.win.shapes:
        evaluator = make_evaluator(ruleset.win, wilds, stand_ins)
    return evaluator


def _whole(ruleset: Any, hand: Hand, context: WinContext) -> bool:
    """Whether `is_legal` may answer without the judge: no private 宝 acts, no single stand-in is
    held, and the hand is whole (3n + 2 tiles, the winning tile among them; else the judge says
    what is wrong)."""
    one = one_stand_in(ruleset, context.wilds)
    return (private_bao(ruleset) is None
            and (one is None or one[0] not in hand.concealed)
            and len(hand.concealed) == 3 * melds_needed(ruleset.hand_size, hand) + 2
            and (context.win_tile is None or context.win_tile in hand.concealed))


def _judged_with(ruleset: Any, hand: Hand, context: WinContext, stand_ins: dict[Tile, Tile], *,
                 exhaustive: bool = False, settle: bool = True) -> HandResult:
    """`evaluate_hand` with these stand-ins."""
    hand.check_counts()
    win, failures = ruleset.win, table_failures(ruleset, hand, context)
    bao = read_bao(ruleset, context, hand.concealed)      # 长春: a 宝 stands in only for 摸宝
    if bao is not None:
        context, win, failures = bao.context(context), bao.rules(win), failures + bao.failures
    candidates = ruleset.tiles.hand_kinds
    view = None if exhaustive else reading_view(ruleset, context, scoring=settle, win=win, hand=hand, stand_ins=stand_ins)
    coarse, keep, rank = None, None, None
    if settle and view is not None:
        coarse = price_key_view(ruleset, context, win)
        if coarse is not None:
            keep = best_key_classes(ruleset.scoring.reading_key)
            rank = key_rank(ruleset.scoring, hand, context)
        else:
            coarse = reading_view(ruleset, context, scoring=False, win=win)
    elif view is not None and all(r.by_key is not None for r in win.requirements):
        # legality alone, decided by the scorer's key: the classes of the key's views are enough
        rank = key_rank(ruleset.scoring, hand, context)
        keyed = price_key_view(ruleset, context, win) if rank is not None else None
        if keyed is not None:
            view = coarse = keyed
        else:
            rank = None
    verdict = judge(win, ruleset.hand_size, hand, context, context.wilds,
                    stand_ins, candidates, view=view, coarse=coarse,
                    first_legal=not settle, keep=keep, rank=rank)
    unused = bao is not None and bao.unused and not verdict.complete and verdict.failures != (SHORT,)
    verdict = refuse(verdict, failures, (bao.unused,) if unused else ())   # why the 宝 did not complete it
    settlement = ruleset.scoring.settle(ruleset, hand, verdict, context) if verdict.legal and settle else None
    return HandResult(verdict, settlement)
