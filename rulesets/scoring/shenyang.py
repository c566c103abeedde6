"""沈阳 scoring (RULES.md §32.4): the 番 of the list are added up, the hand is worth 2^N.

「沈阳麻将的底分为1，最终和牌的人按番数算分，有N番，分数就是2的N次方，是否设置封顶值由对局的玩家们决定」.

Readings where the text is short (each also in the region's notes):
- 小和 1番 is the hand that is neither 飘 nor 边和/夹和 (「其他和牌方式称为“小和”」): a 两面 or a 单吊
  wait.  边和 and 夹和 go by the winning tile's place in the reading (边张/坎张).
- Kongs (「“中发白”明杠算2番，暗杠算4番；“东南西北”和其他牌的明杠算1番，暗杠算2番」) are the winner's own;
  a 补杠 counts as a 明杠.  Every 亮牌 (a shown 东南西北 or 中发白, a `special` meld) is 2番.
- 「亮出后，若有人碰字牌…则该碰算作2番」: once a 亮牌 is on the table (the winner's own, or
  `context.get("liang_shown")`), each honour pung of the winner is 2番 instead of 碰中发白's 1番.
- 闷三家 needs every other side's melds (`context.exposed_by_side` lists each loser): only the winner
  has 开门 (a 碰 or a 明杠).  闭门炮 is added on a discard; its value is not stated (house option).
- 「已碰的对子若在之后的对局中吃或手牌的顺子中也有已碰的这张牌，算1杠（即加算1番）」: each declared pung whose
  tile is also in a chow of the hand (declared or concealed) adds 1番.
- Who pays is not stated (§32.5): house option, default the discarder alone (a self-draw: everyone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import requirements as req
from ..hand import Hand, MeldKind, WinContext
from ..settlement import Item, Settlement
from ..winning import GroupKind, WinRole
from ..winrules import Judged, Verdict
from .base import DrawContext
from .base import best_reading
from .tally import ZERO, discarder_or_each, fan_total


def kong_fan(j: Judged) -> list[Item]:
    items = []
    for meld in j.declared:
        if not meld.is_kong:
            continue
        dragon = meld.kind_tile.is_dragon
        concealed = meld.kind is MeldKind.CONCEALED_KONG
        value = (4 if concealed else 2) if dragon else (2 if concealed else 1)
        name = ("暗杠" if concealed else "明杠") + meld.kind_tile.zh
        items.append(Item(f"gang_{meld.kind_tile}", name, "angang" if concealed else "minggang", value))
    return items


def liang_shown(j: Judged) -> bool:
    return any(m.kind is MeldKind.SPECIAL for m in j.declared) or bool(j.context.get("liang_shown", False))


def pung_fan(j: Judged) -> list[Item]:
    """碰中发白 1番; after a 亮牌 every honour pung 2番 (③)."""
    items = []
    after_liang = liang_shown(j)
    for meld in j.declared:
        tile = meld.kind_tile
        if meld.kind is not MeldKind.PUNG or not tile.is_honour:
            continue
        if after_liang:
            items.append(Item(f"peng_{tile}", f"亮后碰{tile.zh}", "liang hou peng", 2))
        elif tile.is_dragon:
            items.append(Item(f"peng_{tile}", f"碰{tile.zh}", "peng zhongfabai", 1))
    return items


def pung_also_in_chow(j: Judged) -> list[Item]:
    """A declared pung whose tile is also in a chow counts as one more 杠 (1番)."""
    chows = [m.tiles for m in j.declared if m.kind is MeldKind.CHOW]
    chows += [g.tiles for g in j.shape.groups if g.kind is GroupKind.CHOW]
    return [Item(f"peng_chi_{m.kind_tile}", f"碰{m.kind_tile.zh}又吃", "peng hou chi", 1)
            for m in j.declared if m.kind is MeldKind.PUNG and any(m.kind_tile in c for c in chows)]


def others_closed(j: Judged) -> bool:
    """闷三家: every loser is listed in `exposed_by_side` and none has a 碰 or 明杠."""
    shown = dict(j.context.exposed_by_side)
    losers = j.context.losers()
    if not all(side in shown for side in losers):
        return False
    return not any(m.kind in (MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG) for side in losers for m in shown[side])


def hand_type(j: Judged) -> list[Item]:
    """飘 3, 边和 2, 夹和 2, or else 小和 1."""
    if req.all_pungs(j):
        return [Item("piao", "飘", "piao", 3)]
    if j.shape.win_role is WinRole.EDGE:
        return [Item("bianhe", "边和", "bian he", 2)]
    if j.shape.win_role is WinRole.CLOSED:
        return [Item("jiahe", "夹和", "jia he", 2)]
    return [Item("xiaohe", "小和", "xiao he", 1)]


def situation_fan(j: Judged, bimenpao: int) -> list[Item]:
    ctx = j.context
    items = []
    if len(j.hand.concealed) == 2:
        items.append(Item("shoubayi", "手把一", "shou ba yi", 1))
    if ctx.kong_replacement:
        items.append(Item("gangkai", "杠上开花", "gang shang kai hua", 1))
    if ctx.last_tile and ctx.self_drawn:
        items.append(Item("haidi", "海底捞月", "hai di lao yue", 1))
    if ctx.get("gang_shang_liulei", False) and not ctx.self_drawn:
        items.append(Item("liulei", "杠上流泪", "gang shang liu lei", 1))
    if others_closed(j):
        items.append(Item("mensanjia", "闷三家", "men san jia", 1))
        if not ctx.self_drawn and bimenpao:
            items.append(Item("bimenpao", "闭门炮", "bi men pao", bimenpao))
    return items


def fan_items(j: Judged, bimenpao: int = 1) -> tuple[Item, ...]:
    liang = [Item(f"liang_{m.tiles[0]}", "亮牌", "liang pai", 2) for m in j.declared if m.kind is MeldKind.SPECIAL]
    return tuple(hand_type(j) + kong_fan(j) + pung_fan(j) + pung_also_in_chow(j) + liang + situation_fan(j, bimenpao))


def score(fan: int, cap: int | None) -> int:
    """2^N, capped when the table sets a cap."""
    value = 2 ** fan
    return value if cap is None else min(value, cap)


@dataclass(frozen=True)
class ShenyangScorer:
    name: str = "shenyang"

    def describe(self) -> str:
        return "底分1, N番 = 2^N (飘3, 边/夹2, 小和1, kongs 1/2 or 中发白 2/4, 亮牌2, …); cap and payer are house options"

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        cap_option = ruleset.option("cap")
        cap = None if cap_option == "none" else int(cap_option)
        items = best_reading(verdict, hand, context, lambda j: fan_items(j, int(ruleset.option("bimenpao"))), fan_total)
        fan = fan_total(items)
        value = score(fan, cap)
        all_pay = ruleset.option("payer") == "all_pay"
        payments = discarder_or_each(context, lambda side: value, all_pay)
        notes = (f"{fan}番 → 2^{fan} = {2 ** fan}" + (f", capped at {cap}" if cap is not None and 2 ** fan > cap else ""),)
        return Settlement(items, value, payments, "points", notes)

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, ZERO, "points", ("荒庄: nothing is paid (the text states no kong money)",))
