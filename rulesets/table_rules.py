"""Could this hand exist at this table?  The region's set and play rules, as the judge applies them.

A judged hand must be one that could have been played at that table under those rules (issue 11
item 4): no more copies of a kind than the region's set holds (灌南 has one of each wind:
「加上东南西北风各一张」), no 吃 meld where the region has no 吃 (四川 「不可以吃」, 河北 「可碰不可吃」), no
碰 or claimed kong where it has no 碰 (八枝 「不许吃牌，不许碰牌」), and no opening special kong
(旋风杠 …) where the region has no such phase.  Each failure names what was wrong and why.

Discard wins in a self-draw-only region and wins without a required 报听 are the regions' own
requirements (`zimo`, `baoting`, `ting` on their cards), so they are not repeated here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from .hand import Hand, Meld, MeldKind
from .provenance import Source, text
from .winrules import Verdict

CLAIMED_FROM_DISCARD = (MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG)
SPECIAL_PHASES = ("opening_kongs", "liang_pai")     # 长春 旋风杠 …, 沈阳 亮牌


def table_failures(ruleset: Any, hand: Hand) -> tuple[str, ...]:
    """Why this hand could not exist at this table (empty when it could)."""
    return copy_failures(ruleset, hand) + meld_failures(ruleset, hand)


def judged_rules(ruleset: Any) -> tuple[tuple[str, Source], ...]:
    """What the judge refuses at this table beyond the win requirements, each with its source (for the card)."""
    from .bao import private_bao                         # bao imports winrules, as this module does
    out = [("no more tiles of a kind than the set holds", ruleset.source("tiles"))]
    if not ruleset.play.chi:
        out.append(("no 吃 meld", ruleset.source("play")))
    if not ruleset.play.pong:
        out.append(("no 碰 and no claimed kong", ruleset.source("play")))
    if not any(ruleset.has_phase(p) for p in SPECIAL_PHASES):
        out.append(("no opening special kong (旋风杠 …)", ruleset.source("phases")))
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
