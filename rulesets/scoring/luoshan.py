"""螺山 scoring (RULES.md §31.7): 和数 per meld, 底和 10, 台 doubling, rounded up to ten.

和数 = ceil10((基本和数 + 10) × 2^台) — reading (a) of Ambiguity F1, the one that makes 清三台平和 240.
平和 (an all-chow hand won on an open wait) is 30 in place of 基本和数 + 底和.  Every loser pays the
same (「不论自摸还是放冲，也不论冲家还是非冲家，付给和家的筹码统一」).  A win needs 100 和 self-drawn or
200 和 on a discard (「自摸100和及以上或放冲200和及以上」).

Choices where the text is silent or garbled (RULES.md §31.8), each written here once:
- F3: the 自摸/放冲 values are the winning tile's: a 暗刻 completed by a self-drawn tile is worth
  自摸六/自摸十 instead of 4/8; 吊头 and 边张/嵌张 add their value; a pung completed by a discard
  counts as a 碰.  「其余4和」 reads "吊头 on 1, 9 or an honour".
- F4: only 「大料及座风碰、暗刻、杠各计一台」 survives of the 台 list; 凑一台 1, 清三台 3, and 对对胡 1
  (so that 对对胡 + 清三台 = 清四台 = 4).
- F5: a meld holding a 财神 is valued as the tiles the 财神 stands for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement, payments_from
from ..tiles import Tile
from ..winning import GroupKind, WinRole
from ..winrules import Judged, Verdict
from .base import DrawContext, best_reading

BASE_HU = 10          # 底和
PINGHU = 30           # 平和


def _big(tile: Tile) -> bool:
    """风牌、大料及数字为一、九的牌."""
    return tile.is_terminal_or_honour


def _seat_or_dragon(tile: Tile, context: WinContext) -> bool:
    """大料及座风."""
    return tile.is_dragon or tile == context.seat_wind()


def meld_points(j: Judged) -> tuple[list[Item], int]:
    """基本和数 items and the 台 from melds."""
    items: list[Item] = []
    tai = 0
    ctx = j.context
    for meld in j.declared:
        tile = meld.kind_tile
        if meld.kind is MeldKind.CHOW or meld.kind is MeldKind.SPECIAL:
            continue
        big = _big(tile)
        if meld.kind is MeldKind.PUNG:
            value, name = (4 if big else 2), "碰"
        elif meld.kind is MeldKind.CONCEALED_KONG:
            value, name = (32 if big else 16), "暗杠"
        else:
            value, name = (16 if big else 8), "明杠"
        items.append(Item(f"{name}_{tile}", f"{name}{tile.zh}", "peng" if name == "碰" else "gang", value, "hu"))
        if _seat_or_dragon(tile, ctx):
            tai += 1
    for index, group in enumerate(j.shape.groups):
        tile = group.tiles[0]
        won_here = index == j.shape.win_group
        if group.kind is GroupKind.PUNG:
            if won_here and not ctx.self_drawn:
                value, name = (4 if _big(tile) else 2), "碰"          # completed by a discard
            elif won_here:
                value, name = (10 if _big(tile) else 6), "自摸十" if _big(tile) else "自摸六"
            else:
                value, name = (8 if _big(tile) else 4), "暗刻"
            items.append(Item(f"ke_{tile}", f"{name}{tile.zh}", "anke", value, "hu"))
            if _seat_or_dragon(tile, ctx):
                tai += 1
        elif group.kind is GroupKind.PAIR and _seat_or_dragon(tile, ctx):
            items.append(Item(f"dui_{tile}", f"对子{tile.zh}", "duizi", 2, "hu"))
    items += win_tile_points(j)
    return items, tai


def win_tile_points(j: Judged) -> list[Item]:
    role = j.shape.win_role
    if role is None or j.shape.win_group is None:
        return []
    tile = j.shape.groups[j.shape.win_group].tiles[0]
    self_drawn = j.context.self_drawn
    if role is WinRole.PAIR:
        value = (6 if _big(tile) else 4) if self_drawn else (4 if _big(tile) else 2)
        return [Item("diaotou", "吊头", "diaotou", value, "hu")]
    if role in (WinRole.EDGE, WinRole.CLOSED):
        name = "边张" if role is WinRole.EDGE else "嵌张"
        return [Item("bianqian", name, "bianzhang" if role is WinRole.EDGE else "qianzhang", 4 if self_drawn else 2, "hu")]
    return []


def tai_items(j: Judged, meld_tai: int) -> list[Item]:
    items = []
    if meld_tai:
        items.append(Item("dalia_zuofeng", "大料/座风刻", "daliao zuofeng", meld_tai, "tai"))
    suits = j.suits
    honours = any(t.is_honour for t in j.standing)
    if len(suits) == 1 and not honours:
        items.append(Item("qingsantai", "清三台", "qing san tai", 3, "tai"))
    elif len(suits) == 1:
        items.append(Item("couyitai", "凑一台", "cou yi tai", 1, "tai"))
    if j.all_pungs:
        items.append(Item("duiduihu", "对对胡", "duidui hu", 1, "tai"))
    return items


def is_pinghu(j: Judged) -> bool:
    """平和: all chows (type ① read as the plain hand) and the winning tile not 吊头/边张/嵌张."""
    return (j.shape.shape.value == "standard" and all(g.kind is GroupKind.CHOW for g in j.shape.melds)
            and all(m.kind is MeldKind.CHOW for m in j.declared) and j.shape.win_role is WinRole.OPEN)


def hand_value(j: Judged) -> tuple[int, tuple[Item, ...]]:
    """和数 of one reading, with its items (worked out once per reading: the threshold and the
    price both ask)."""
    found = j.memo.get(hand_value)
    if found is None:
        found = j.memo[hand_value] = _hand_value(j)
    return found


def _hand_value(j: Judged) -> tuple[int, tuple[Item, ...]]:
    if is_pinghu(j):
        tais = tai_items(j, 0)
        return round_up_ten(PINGHU * 2 ** sum(i.value for i in tais)), (Item("pinghu", "平和", "pinghu", PINGHU, "hu"),) + tuple(tais)
    melds, meld_tai = meld_points(j)
    tais = tai_items(j, meld_tai)
    total = round_up_ten((sum(i.value for i in melds) + BASE_HU) * 2 ** sum(i.value for i in tais))
    return total, tuple(melds) + (Item("dihu", "底和", "dihu", BASE_HU, "hu"),) + tuple(tais)


def round_up_ten(points: int) -> int:
    """「若算出的和数个位数不是零，则十位数进一」: 122 → 130, 130 → 130."""
    return math.ceil(points / 10) * 10


def meets_threshold(j: Judged) -> bool:
    """「和牌条件，自摸100和及以上或放冲200和及以上」."""
    value, _ = hand_value(j)
    return value >= (100 if j.context.self_drawn else 200)


@dataclass(frozen=True)
class LuoshanScorer:
    name: str = "luoshan"

    def describe(self) -> str:
        return "和数 = ceil10((基本和数 + 底和 10) × 2^台); 平和 30; every loser pays the same"

    def reading_key(self, j: Judged) -> int:
        """What `settle` maximises over the readings: the 和数 (views.SCORER_KEY_VIEWS says what it reads)."""
        return hand_value(j)[0]

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        value, items = best_reading(verdict, hand, context, hand_value, key=lambda vi: vi[0])
        payments = payments_from({side: value for side in context.losers()}, context.winner)
        return Settlement(items, value, payments, "hu", ("every loser pays the same 和数",))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, (0, 0, 0, 0), "hu", ("荒和: nothing is paid",))
