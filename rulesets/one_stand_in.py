"""One tile of a kind standing in for the wild's face, the others themselves (百搭 reading (b)).

「其中一张白板可以用作代替该张翻开的牌」 (RULES.md §27): read as (b), one 白板 may play the 百搭 kind's
natural face and any other 白板 is a 白板 (house option `baida_white_count=one`).  The evaluator maps a
whole kind to a face (`stand_ins`), so the hand is judged each way it can be read: every 白板 itself;
and one of them replaced by a proxy — a kind the hand does not hold — that plays the face, the
winning tile being that one or another.  The best reading wins (a legal one, then the most paid), and
the proxy is named the 白板 again in what the verdict shows.  A hand one tile short waits on what any
reading waits on: a real tile of the proxy's kind is asked of another proxy.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from .hand import Hand, WinContext
from .tiles import Tile
from .winning import WinShape
from .winrules import SHORT, Verdict

Judge = Callable[..., Any]      # (ruleset, hand, context, stand_ins, exhaustive=, settle=) -> HandResult


def best_with_one_stand_in(ruleset: Any, hand: Hand, context: WinContext, one: tuple[Tile, Tile], judge: Judge, *,
                           exhaustive: bool, settle: bool) -> Any:
    """`hand` judged with at most one `one[0]` tile playing `one[1]`'s face (`judge`: the plain
    judgement with given stand-ins)."""
    source, face = one
    plain = judge(ruleset, hand, context, {}, exhaustive=exhaustive, settle=settle)
    first, second = _proxies(ruleset, hand, context, one)
    readings = [plain] + [_as_source(judge(ruleset, swapped, swapped_context, {first: face}, exhaustive=exhaustive,
                                           settle=False), first, source)
                          for swapped, swapped_context in _swaps(hand, context, source, first)]
    if plain.verdict.failures == (SHORT,):
        return replace(plain, verdict=replace(plain.verdict, waits=_waits(ruleset, hand, context, one, judge,
                                                                          readings, first, second)))
    legal = [r for r in readings if r.verdict.legal]
    if not legal:       # why it fails: the first reading that completes the hand says it best
        return next((r for r in readings if r.verdict.complete), plain)
    if not settle:
        return legal[0]
    priced = [r if r is plain else replace(r, settlement=ruleset.scoring.settle(ruleset, hand, r.verdict, context))
              for r in legal]
    return max(priced, key=lambda r: (r.settlement.total, r.settlement.payments[context.winner]))


def _proxies(ruleset: Any, hand: Hand, context: WinContext, one: tuple[Tile, Tile]) -> tuple[Tile, Tile]:
    """Two kinds the hand does not hold, neither wild nor the stand-in nor its face."""
    used = set(hand.all_tiles()) | set(context.wilds) | set(one)
    free = [k for k in ruleset.tiles.kinds if not k.is_flower and k not in used]
    return free[0], free[1]


def _swaps(hand: Hand, context: WinContext, source: Tile, proxy: Tile) -> list[tuple[Hand, WinContext]]:
    """The hand with one `source` tile replaced by `proxy`: the winning tile's own if it is one
    (then the proxy won), and another one if there is one."""
    concealed = list(hand.concealed)
    concealed.remove(source)
    swapped = Hand(tuple(sorted(concealed + [proxy])), hand.melds, hand.flowers)
    out = []
    if context.win_tile == source:
        out.append((swapped, replace(context, win_tile=proxy)))
    if context.win_tile != source or hand.concealed.count(source) > 1:
        out.append((swapped, context))
    return out


def _waits(ruleset: Any, hand: Hand, context: WinContext, one: tuple[Tile, Tile], judge: Judge, readings: list,
           first: Tile, second: Tile) -> tuple[Tile, ...]:
    """The waits of any reading; a real `first` tile drawn is asked with `second` as the proxy."""
    found = set(readings[0].verdict.waits)
    for reading in readings[1:]:
        found |= set(reading.verdict.waits) - {first}
    for swapped, swapped_context in _swaps(hand, context, one[0], second)[-1:]:
        if first in judge(ruleset, swapped, swapped_context, {second: one[1]}, settle=False).verdict.waits:
            found.add(first)
    return tuple(sorted(found))


def _as_source(result: Any, proxy: Tile, source: Tile) -> Any:
    """The judgement with the proxy named as the tile it replaced."""
    verdict: Verdict = result.verdict
    return replace(result, verdict=replace(verdict, shape=_shape(verdict.shape, proxy, source),
                                           legal_readings=tuple(_shape(s, proxy, source)
                                                                for s in verdict.legal_readings)))


def _shape(shape: WinShape | None, proxy: Tile, source: Tile) -> WinShape | None:
    if shape is None:
        return None
    groups = tuple(replace(g, sources=tuple(source if s == proxy else s for s in g.sources)) for g in shape.groups)
    return replace(shape, groups=groups)


__all__ = ["best_with_one_stand_in"]
