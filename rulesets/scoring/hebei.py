"""河北 scoring (RULES.md §17): 混儿吊 2, 没混儿 2, 捉伍儿 3, 龙 4, 杠开 2, 本混儿龙 ×2.

「有“混儿吊”⑵，”没混儿“⑵，“捉伍儿”⑶，“龙“⑷，”杠开“⑵，”本混儿龙"(×2）几个番种并由这些叠加而来」.

Add or multiply: the text writes five values as plain numbers and only 本混儿龙 as 「×2」, and says
the hand is 「叠加」 (stacked) from them; whether stacking adds or multiplies is not stated (house
option `fan_combine`).  By default the plain values are **added** and 本混儿龙 doubles the sum
(没混儿 2 + 捉伍儿 3 = 5); with `fan_combine=multiply` they are multiplied and 本混儿龙 is one more
factor ×2 (没混儿 2 × 捉伍儿 3 = 6; 龙 4 × 杠开 2 × 本混儿龙 2 = 16).  Either way a hand with none of
the items is worth 1 (the plain win; the empty sum is read as 1, the empty product is 1) and a hand
with one item is worth its value.  「基点为1、2、3」 is read as the three stakes a table may play for
(house option `base_points`): the hand's value, added or multiplied, is multiplied by it.

Readings of the named items (天津/河北 usage; the text only names them):
- 混儿吊: the winning tile completed the pair, and the pair holds a 混儿.
- 没混儿: no 混儿 in the hand at all.
- 捉伍儿: the winning tile is the 5 in the middle of a 4-5-6 (坎张); house option `zhuowu` limits it
  to 五万 (天津's 捉五魁) — default any suit, as the text names no suit.
- 龙: 1-2-3, 4-5-6 and 7-8-9 of one suit among the melds.  本混儿龙: a 龙 in which the 混儿 play only
  their own face (at least one does) — 「本混儿」, the 混儿 as itself.
Self-draw wins only (「只能自摸」): each other player pays the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from math import prod
from typing import Any

from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement
from ..tiles import Tile
from ..winning import Group, GroupKind, WinRole
from ..winrules import Judged, Verdict
from .base import DrawContext
from .base import best_reading
from .tally import ZERO, each_loser_pays


def hun_diao(j: Judged) -> bool:
    """混儿吊: the winning tile is in the pair, and the pair holds a 混儿."""
    group = j.shape.win_group
    return (j.shape.win_role is WinRole.PAIR and group is not None
            and bool(j.shape.groups[group].wild_positions))


def no_hun(j: Judged) -> bool:
    """没混儿: no 混儿 among the hand's tiles."""
    return not any(t in j.wild_kinds for t in j.hand.all_tiles())


def zhuo_wu(j: Judged, wan_only: bool = False) -> bool:
    """捉伍儿: the winning tile is the 5 between a 4 and a 6."""
    group = j.shape.win_group
    if j.shape.win_role is not WinRole.CLOSED or group is None:
        return False
    five = j.shape.groups[group].tiles[1]
    return five.rank == 5 and (not wan_only or five.suit == "m")


Part = tuple[Tile, ...] | Group   # a declared chow's tiles, or a concealed chow group


def _chow_parts(j: Judged) -> list[Part]:
    return [g for g in j.shape.groups if g.kind is GroupKind.CHOW] + \
        [tuple(sorted(m.tiles)) for m in j.declared if m.kind is MeldKind.CHOW]


def _first(part: Part) -> Tile:
    return part.tiles[0] if isinstance(part, Group) else part[0]


def _is_own_face_only(part: Part) -> bool:
    """No wild in this chow stands for another kind."""
    return not isinstance(part, Group) or all(s == t for s, t in part.assignment)


def _has_own_face_wild(part: Part) -> bool:
    return isinstance(part, Group) and any(s == t for s, t in part.assignment)


def long_kind(j: Judged) -> str | None:
    """None, "long" (a 龙: 1-2-3, 4-5-6, 7-8-9 of one suit) or "benhun" (本混儿龙)."""
    parts = _chow_parts(j)
    found = None
    for base in (Tile.M1, Tile.P1, Tile.S1):
        choices = [[p for p in parts if _first(p) == Tile(base + start)] for start in (0, 3, 6)]
        if not all(choices):
            continue
        found = "long"
        for pick in product(*choices):
            if all(map(_is_own_face_only, pick)) and any(map(_has_own_face_wild, pick)):
                return "benhun"
    return found


def fan_items(j: Judged, wan_only: bool = False) -> tuple[Item, ...]:
    items = []
    if hun_diao(j):
        items.append(Item("hundiao", "混儿吊", "hunr diao", 2))
    if no_hun(j):
        items.append(Item("meihun", "没混儿", "mei hunr", 2))
    if zhuo_wu(j, wan_only):
        items.append(Item("zhuowu", "捉伍儿", "zhuo wur", 3))
    dragon = long_kind(j)
    if dragon:
        items.append(Item("long", "龙", "long", 4))
    if j.context.kong_replacement:
        items.append(Item("gangkai", "杠开", "gang kai", 2))
    if dragon == "benhun":
        items.append(Item("benhunlong", "本混儿龙", "ben hunr long", 2, "times"))
    return tuple(items)


COMBINES = ("add", "multiply")


def hand_value(items: tuple[Item, ...], combine: str = "add") -> int:
    """The 番 added (`combine="add"`, 1 for a plain win) or multiplied (`"multiply"`, 1 for a plain
    win), doubled by 本混儿龙."""
    fan = [i.value for i in items if i.unit == "fan"]
    stacked = prod(fan) if combine == "multiply" else (sum(fan) or 1)
    return stacked * (2 if any(i.key == "benhunlong" for i in items) else 1)


@dataclass(frozen=True)
class HebeiScorer:
    combine: str = "add"         # house option fan_combine: the 番 「叠加」 added or multiplied
    name: str = "hebei"

    def __post_init__(self) -> None:
        if self.combine not in COMBINES:
            raise ValueError(f"unknown 番 combination {self.combine!r}; choose one of {', '.join(COMBINES)}")

    def describe(self) -> str:
        how = "added" if self.combine == "add" else "multiplied"
        return (f"番 {how} (混儿吊2 没混儿2 捉伍儿3 龙4 杠开2; plain win 1), 本混儿龙 ×2, × 基点; "
                "each other player pays")

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        wan_only = ruleset.option("zhuowu") == "wan"
        items = best_reading(verdict, hand, context, lambda j: fan_items(j, wan_only),
                             lambda found: hand_value(found, self.combine))
        base = int(ruleset.option("base_points"))
        value = hand_value(items, self.combine) * base
        notes = (("番相乘",) if self.combine == "multiply" and len(items) > 1 else ()) + \
            ((f"基点 {base}",) if base != 1 else ())
        return Settlement(items, value, each_loser_pays(context, lambda side: value), "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("荒庄: nothing is paid",))
