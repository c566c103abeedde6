"""Could this hand exist at this table?  The region's set and play rules, as the judge applies them.

A judged hand must be one that could have been played at that table under those rules (issue 11
item 4): no more copies of a kind than the region's set holds (灌南 has one of each wind:
「加上东南西北风各一张」), no 吃 meld where the region has no 吃 (四川 「不可以吃」, 河北 「可碰不可吃」), no
碰 or claimed kong where it has no 碰 (八枝 「不许吃牌，不许碰牌」), and no opening special kong
(旋风杠 …) where the region has no such phase, and no 花碰 (a 财神 standing in a pung) but 螺山's:
one 财神 in a pung of a dragon or the winner's own seat wind.  Each failure names what was wrong
and why.

Discard wins in a self-draw-only region and wins without a required 报听 are the regions' own
requirements (`zimo`, `baoting`, `ting` on their cards), so they are not repeated here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from .hand import Hand, Meld, MeldKind, WinContext
from .indicators import Effect
from .provenance import Source, default, text
from .tiles import DRAGONS, Tile
from .winrules import Verdict

CLAIMED_FROM_DISCARD = (MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG)
SPECIAL_PHASES = ("opening_kongs", "liang_pai")     # 长春 旋风杠 …, 沈阳 亮牌
HUA_PENG = "hua_peng"                               # 螺山 花碰


def table_failures(ruleset: Any, hand: Hand, context: WinContext) -> tuple[str, ...]:
    """Why this hand could not exist at this table (empty when it could)."""
    return copy_failures(ruleset, hand) + meld_failures(ruleset, hand) + stand_in_failures(ruleset, hand, context)


def judged_rules(ruleset: Any) -> tuple[tuple[str, Source], ...]:
    """What the judge refuses at this table beyond the win requirements, each with its source (for the card)."""
    from .bao import private_bao                         # bao imports winrules, as this module does
    out = [("no more tiles of a kind than the set holds", ruleset.source("tiles"))]
    if not ruleset.play.chi:
        out.append(("no 吃 meld", ruleset.source("play")))
    if not ruleset.play.pong:
        out.append(("no 碰 and no claimed kong", ruleset.source("play")))
    if not any(ruleset.has_phase(p) for p in SPECIAL_PHASES):
        out.append(("no opening special kong (旋风杠 …)",
                    default("the text names none: only 长春's special kongs (RULES.md §1.7) and 沈阳's 亮牌 (§32) are shown so")))
    if ruleset.has_phase(HUA_PENG):
        out.append(("a 财神 stands in a 碰 only for a dragon or the seat's own wind (花碰)", ruleset.source("phases")))
    elif any(rule.effect is Effect.WILD for rule in ruleset.indicators):
        out.append(("a wild never stands in a declared meld (no 花碰)",
                    default("a 碰 is three of a kind; only 螺山's text lets a wild stand in one (花碰, RULES.md §31.3)")))
    if private_bao(ruleset) is not None:
        out.append(("the 宝 stands in only for 摸宝 or 对宝, on a ready seat's own draw",
                    text("§1.3", "听牌者摸到宝牌或者所听之牌为宝牌即赢; 听牌时可看宝，未听牌者不许看")))
    return tuple(out)


def copy_failures(ruleset: Any, hand: Hand) -> tuple[str, ...]:
    """More tiles of a kind than the region's set holds, or a kind it does not hold."""
    out = []
    for kind, held in sorted(Counter(hand.all_tiles() + hand.flowers).items()):
        copies = ruleset.tiles.copies(kind)
        if held > copies:
            what = "has none" if copies == 0 else f"holds {copies}"
            out.append(f"{held} × {kind} ({kind.zh}): the {ruleset.region.name} set {what} (tile_count)")
    return tuple(out)


def meld_failures(ruleset: Any, hand: Hand) -> tuple[str, ...]:
    """Melds the region's play rules do not allow."""
    play = ruleset.play
    out = []
    for meld in hand.melds:
        if meld.kind is MeldKind.CHOW and not play.chi:
            out.append(f"不可吃: {meld} is a 吃, and {ruleset.region.name} has no 吃 (no_chi)")
        elif meld.kind in CLAIMED_FROM_DISCARD and not play.pong:
            out.append(f"不可碰: {_claimed(meld)}, and {ruleset.region.name} has no 碰 (no_pong)")
        elif meld.kind is MeldKind.SPECIAL and not any(ruleset.has_phase(p) for p in SPECIAL_PHASES):
            out.append(f"{meld} is an opening special kong (旋风杠 …), which {ruleset.region.name} does not have (no_special_kong)")
    return tuple(out)


def hua_peng_kinds(ruleset: Any, context: WinContext) -> tuple[frozenset[Tile], frozenset[Tile]]:
    """花碰 (螺山 §31.3 「用一张财神替代一张大料或座风的碰称为花碰」): the tiles that may stand in a pung
    (the 财神) and the kinds they may complete (the dragons and the winner's seat wind); both empty
    where the region has no 花碰."""
    if not ruleset.has_phase(HUA_PENG):
        return frozenset(), frozenset()
    return frozenset(context.wilds), frozenset(DRAGONS) | {context.seat_wind()}


def stand_in_failures(ruleset: Any, hand: Hand, context: WinContext) -> tuple[str, ...]:
    """A pung with a stand-in (花碰) only as `hua_peng_kinds` allows: nowhere but 螺山."""
    melds = [meld for meld in hand.melds if meld.stand_ins]
    if not melds:                       # (every hand judged comes here: most have none)
        return ()
    out = []
    stand_ins, kinds = hua_peng_kinds(ruleset, context)
    for meld in melds:
        kind, stand_in = meld.kind_tile, meld.stand_ins[0]
        if not ruleset.has_phase(HUA_PENG):
            out.append(f"{meld}: {ruleset.region.name} has no 花碰, a pung is three of a kind (no_hua_peng)")
        elif stand_in not in stand_ins:
            out.append(f"{meld}: {stand_in.zh} is not the 财神 of this hand, only a 财神 stands in a 花碰 (hua_peng)")
        elif kind not in kinds:
            out.append(f"{meld}: a 花碰 is of a dragon or the seat's own wind "
                       f"({context.seat_wind().zh}), not {kind.zh} (hua_peng)")
    return tuple(out)


def _claimed(meld: Meld) -> str:
    if meld.kind is MeldKind.PUNG:
        return f"{meld} is a 碰"
    if meld.kind is MeldKind.ADDED_KONG:
        return f"{meld} is a kong added to a 碰"
    return f"{meld} is a kong claimed from a discard"


def refuse(verdict: Verdict, failures: tuple[str, ...], reasons: tuple[str, ...] = ()) -> Verdict:
    """The verdict with `failures` put first and `reasons` (why it failed) last: a hand failing
    any of them is not legal."""
    if not failures and not reasons:
        return verdict
    return replace(verdict, legal=False, failures=failures + verdict.failures + reasons, legal_readings=())
