"""螺山 scoring (RULES.md §31.7): 和数 per meld, 底和 10, 台 doubling, rounded up to ten.

和数 = ceil10((基本和数 + 10) × 2^台) — reading (a) of Ambiguity F1, the one that makes 清三台平和 240.
平和 (an all-chow hand won on an open wait) is 30 in place of 基本和数 + 底和.  Every loser pays the
same (「不论自摸还是放冲，也不论冲家还是非冲家，付给和家的筹码统一」).  A win needs 100 和 self-drawn or
200 和 on a discard (「自摸100和及以上或放冲200和及以上」).

Choices where the text is silent or garbled (RULES.md §31.8), each written here once; those
the card offers as house options (rulesets/regions/luoshan.py) are fields of `Readings`, whose
defaults are the readings below:
- F1 (`rounding`): the rounding up to ten is of the product, 「（取整十数）」 closing the whole formula
  ("after"); "before" rounds 基本和数 + 底和 (or 平和's 30) up first, then doubles.  Reading (b),
  基本和数 + 底和 × 2^台, is not offered: 「加底和再乘以」 multiplies the sum, and 清三台平和 240 = 30 × 2^3.
- F2 (`pinghu_threshold`): 平和 is not exempt from the 100/200 thresholds ("applies"); "exempt"
  lets a 平和 win whatever its 和数.
- F3 (`zimo_anke`, `chong_ke`): the 自摸 暗刻 values are the winning tile's: a 暗刻 completed by a
  self-drawn tile is worth 自摸六/自摸十 instead of 4/8 ("win_tile"; "every": on a self-drawn
  win every concealed pung is); a pung completed by a discard counts as a 碰 ("peng"; "anke": as
  a 暗刻, 「在手里的为暗刻」).
- F3 (`zimo_ke_value`): 「自摸六」/「自摸十」 replace the 暗刻's 4/8 ("replace": 「暗刻6和」 states the
  暗刻's value); "add": they are added to it, 4 + 6 = 10 / 8 + 10 = 18.
- F3 (`diaotou_pair`): 吊头 adds its value to the 对子 2 of a 大料/座风 pair (「以上和数相加」, "add");
  "replace": the 吊头 value is that pair's whole value, the 对子 2 dropped.
- F3 (`chong_qiyu`): 「其余4和」 of the 放冲 rule is a 吊头 on 1, 9 or an honour, as in the 自摸 rule's
  吊头 4/6 ("diaotou"); "any": every winning tile that is neither a 2-8 吊头 nor 边张/嵌张 — a 1/9/
  honour 吊头, a 两面 wait, a tile completing a pung (双碰) — is 4 on a discard.  边张/嵌张 add
  their value as 吊头 does.
- F4 (`duidui_tai`): only 「大料及座风碰、暗刻、杠各计一台」 survives of the 台 list; 凑一台 1, 清三台 3,
  and 对对胡 1 ("1": so that 对对胡 + 清三台 = 清四台 = 4; "0": 对对胡 earns a 台 only as 清四台's
  fourth).  杠开 and 抢杠 have no 台: their values are lost.
- F5: a meld holding a 财神 (花碰) is valued as the tiles the 财神 stands for: a 碰 of its kind, and
  its kind, not the 财神's own suit, counts for 凑一台 and 清三台 (「在和牌时能替代任何牌」).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any

from .. import reading_bounds as bounds
from ..hand import Hand, Meld, MeldKind, WinContext
from ..settlement import Item, Settlement, payments_from
from ..tiles import DRAGONS, Tile
from ..winning import GroupKind, WinRole
from ..winrules import Judged, Verdict
from .base import DrawContext, best_reading

BASE_HU = 10          # 底和
PINGHU = 30           # 平和


@dataclass(frozen=True)
class Readings:
    """The card's house options on §31.8 (rulesets/regions/luoshan.py); the defaults are the
    readings the module docstring states."""
    rounding: str = "after"             # F1: "after" | "before" 2^台
    pinghu_threshold: str = "applies"   # F2: "applies" | "exempt"
    zimo_anke: str = "win_tile"         # F3: "win_tile" | "every"
    chong_ke: str = "peng"              # F3: "peng" | "anke"
    duidui_tai: str = "1"               # F4: "1" | "0"
    zimo_ke_value: str = "replace"      # F3: "replace" | "add" 自摸六/自摸十 to the 暗刻's 4/8
    diaotou_pair: str = "add"           # F3: "add" | "replace" the 大料/座风 对子 2 by the 吊头
    chong_qiyu: str = "diaotou"         # F3: "diaotou" | "any" 放冲 「其余4和」

    @classmethod
    def of(cls, options) -> "Readings":
        return cls(**{key: options[key] for key in READING_KEYS})


READING_KEYS = ("rounding", "pinghu_threshold", "zimo_anke", "chong_ke", "duidui_tai", "zimo_ke_value",
                "diaotou_pair", "chong_qiyu")
DEFAULT = Readings()


def _big(tile: Tile) -> bool:
    """风牌、大料及数字为一、九的牌."""
    return tile.is_terminal_or_honour


def _seat_or_dragon(tile: Tile, context: WinContext) -> bool:
    """大料及座风."""
    return tile.is_dragon or tile == context.seat_wind()


# -- the value rules, shared by a reading's items and the 和数 worked out from its group views ------

def as_self_drawn(context: WinContext) -> bool:
    """「抢杠当自摸…和数按自摸算」 [000:237]: a robbed kong is counted as a self-draw."""
    return context.self_drawn or context.robbed_kong


def concealed_pung(big: bool, won_here: bool, self_drawn: bool, r: Readings = DEFAULT) -> tuple[int, str]:
    """A concealed pung: 暗刻 8/4; completed by the winning tile, 自摸十/自摸六 or a 碰 4/2 (F3:
    `chong_ke` "anke" keeps a discard's 暗刻 8/4; `zimo_anke` "every" gives every 暗刻 of a
    self-drawn win 自摸十/自摸六; `zimo_ke_value` "add" adds 自摸十/自摸六 to the 暗刻's 8/4)."""
    if won_here and not self_drawn and r.chong_ke == "peng":
        return (4 if big else 2), "碰"          # completed by a discard
    if self_drawn and (won_here or r.zimo_anke == "every"):
        name = "自摸十" if big else "自摸六"
        if r.zimo_ke_value == "add":
            return (18 if big else 10), "暗刻+" + name
        return (10 if big else 6), name
    return (8 if big else 4), "暗刻"


PAIR_OF_SEAT_OR_DRAGON = 2      # 对子 of a dragon or the seat wind
WIN_ROLES = tuple(WinRole)


def pair_counts(role: WinRole | None, r: Readings = DEFAULT) -> bool:
    """Whether a 大料/座风 pair is worth its 对子 2 (F3 `diaotou_pair` "replace": not when the
    winning tile is its 吊头, whose value stands for the pair's)."""
    return not (role is WinRole.PAIR and r.diaotou_pair == "replace")


def winning_tile_value(role: WinRole | None, big: bool, self_drawn: bool, r: Readings = DEFAULT) -> int:
    """吊头 6/4 self-drawn, 4/2 on a discard; 边张/嵌张 4 self-drawn, 2 on a discard; else nothing
    (F3 `chong_qiyu` "any": on a discard every other winning tile, 两面 and 双碰 too, is 4)."""
    if role is WinRole.PAIR:
        return (6 if big else 4) if self_drawn else (4 if big else 2)
    if role in (WinRole.EDGE, WinRole.CLOSED):
        return 4 if self_drawn else 2
    if role is not None and not self_drawn and r.chong_qiyu == "any":
        return 4                                # 「其余4和」 read as every other winning tile
    return 0


def suit_tai(suits: int, honours: bool) -> int:
    """清三台 3 (one suit, no honours), 凑一台 1 (one suit and honours)."""
    if suits == 1:
        return 1 if honours else 3
    return 0


def total_of(points: int, tai: int, pinghu: bool, r: Readings = DEFAULT) -> int:
    """和数 = ceil10((基本和数 + 底和) × 2^台); 平和 30 in place of 基本和数 + 底和 (F1 `rounding`
    "before": ceil10(基本和数 + 底和) × 2^台)."""
    base = PINGHU if pinghu else points + BASE_HU
    if r.rounding == "before":
        return round_up_ten(base) * 2 ** tai
    return round_up_ten(base * 2 ** tai)


def shape_tai(suits: int, honours: bool, all_pungs: bool, r: Readings = DEFAULT) -> int:
    """凑一台 / 清三台 and 对对胡 (F4 `duidui_tai` "0": 对对胡 counts only with 清三台, as 清四台)."""
    tai = suit_tai(suits, honours)
    if all_pungs and (r.duidui_tai == "1" or tai == 3):
        tai += 1
    return tai


# -- a reading's items -------------------------------------------------------------------------------

def declared_points(melds: Iterable[Meld], context: WinContext) -> tuple[list[Item], int]:
    """The declared melds' 基本和数 items and 台."""
    items: list[Item] = []
    tai = 0
    for meld in melds:
        tile = meld.kind_tile
        if meld.kind is MeldKind.CHOW or meld.kind is MeldKind.SPECIAL:
            continue
        value, name = declared_value(meld.kind, _big(tile))
        items.append(Item(f"{name}_{tile}", f"{name}{tile.zh}", "peng" if name == "碰" else "gang", value, "hu"))
        if _seat_or_dragon(tile, context):
            tai += 1
    return items, tai


def declared_hu(melds: Iterable[Meld], context: WinContext) -> tuple[int, int]:
    """`declared_points` summed: the declared melds' 基本和数 and 台, without their items (asked at
    every wait the players weigh, `most_hu`)."""
    valued = [(declared_value(meld.kind, _big(meld.kind_tile))[0], _seat_or_dragon(meld.kind_tile, context))
              for meld in melds if meld.kind is not MeldKind.CHOW and meld.kind is not MeldKind.SPECIAL]
    return sum(value for value, _ in valued), sum(tai for _, tai in valued)


def declared_value(kind: MeldKind, big: bool) -> tuple[int, str]:
    if kind is MeldKind.PUNG:
        return (4 if big else 2), "碰"
    if kind is MeldKind.CONCEALED_KONG:
        return (32 if big else 16), "暗杠"
    return (16 if big else 8), "明杠"


def meld_points(j: Judged, r: Readings = DEFAULT) -> tuple[list[Item], int]:
    """基本和数 items and the 台 from melds."""
    items, tai = declared_points(j.declared, j.context)
    ctx = j.context
    concealed: list[Item] = []
    for index, group in enumerate(j.shape.groups):
        tile = group.tiles[0]
        if group.kind is GroupKind.PUNG:
            value, name = concealed_pung(_big(tile), index == j.shape.win_group, as_self_drawn(ctx), r)
            concealed.append(Item(f"ke_{tile}", f"{name}{tile.zh}", "anke", value, "hu"))
            if _seat_or_dragon(tile, ctx):
                tai += 1
        elif (group.kind is GroupKind.PAIR and _seat_or_dragon(tile, ctx)
              and pair_counts(j.shape.win_role if index == j.shape.win_group else None, r)):
            concealed.append(Item(f"dui_{tile}", f"对子{tile.zh}", "duizi", PAIR_OF_SEAT_OR_DRAGON, "hu"))
    # Two pungs of one tile (wilds make them) are listed the higher value first, whichever of the
    # two readings alike put the winning tile in: the same items in the same order either way.
    first = {item.key: n for n, item in reversed(list(enumerate(concealed)))}
    items += sorted(concealed, key=lambda item: (first[item.key], -item.value))
    items += win_tile_points(j, r)
    return items, tai


def win_tile_points(j: Judged, r: Readings = DEFAULT) -> list[Item]:
    role = j.shape.win_role
    if role is None or j.shape.win_group is None:
        return []
    tile = j.shape.groups[j.shape.win_group].tiles[0]
    value = winning_tile_value(role, _big(tile), as_self_drawn(j.context), r)
    if role is WinRole.PAIR:
        return [Item("diaotou", "吊头", "diaotou", value, "hu")]
    if role in (WinRole.EDGE, WinRole.CLOSED):
        name = "边张" if role is WinRole.EDGE else "嵌张"
        return [Item("bianqian", name, "bianzhang" if role is WinRole.EDGE else "qianzhang", value, "hu")]
    if value:                                   # F3 `chong_qiyu` "any": 两面 / 双碰 on a discard
        return [Item("qiyu", "其余", "qiyu", value, "hu")]
    return []


def tai_items(j: Judged, meld_tai: int, r: Readings = DEFAULT) -> list[Item]:
    items = []
    if meld_tai:
        items.append(Item("dalia_zuofeng", "大料/座风刻", "daliao zuofeng", meld_tai, "tai"))
    honours = any(t.is_honour for t in j.standing)
    tai = suit_tai(len(j.suits), honours)
    if tai == 3:
        items.append(Item("qingsantai", "清三台", "qing san tai", 3, "tai"))
    elif tai == 1:
        items.append(Item("couyitai", "凑一台", "cou yi tai", 1, "tai"))
    if j.all_pungs and r.duidui_tai == "1":
        items.append(Item("duiduihu", "对对胡", "duidui hu", 1, "tai"))
    elif j.all_pungs and tai == 3:                   # F4 "0": 对对胡's 台 only as 清四台's fourth
        items.append(Item("qingsitai", "清四台", "qing si tai", 1, "tai"))
    return items


def is_pinghu(j: Judged) -> bool:
    """平和: all chows (type ① read as the plain hand) and the winning tile not 吊头/边张/嵌张."""
    return (j.shape.shape.value == "standard" and all(g.kind is GroupKind.CHOW for g in j.shape.melds)
            and all(m.kind is MeldKind.CHOW for m in j.declared) and j.shape.win_role is WinRole.OPEN)


def hand_value(j: Judged, r: Readings = DEFAULT) -> tuple[int, tuple[Item, ...]]:
    """和数 of one reading, with its items (worked out once per reading: the threshold and the
    price both ask)."""
    found = j.memo.get((hand_value, r))
    if found is None:
        found = j.memo[(hand_value, r)] = _hand_value(j, r)
    return found


def _hand_value(j: Judged, r: Readings) -> tuple[int, tuple[Item, ...]]:
    if is_pinghu(j):
        tais = tai_items(j, 0, r)
        return (total_of(0, sum(i.value for i in tais), True, r),
                (Item("pinghu", "平和", "pinghu", PINGHU, "hu"),) + tuple(tais))
    melds, meld_tai = meld_points(j, r)
    tais = tai_items(j, meld_tai, r)
    total = total_of(sum(i.value for i in melds), sum(i.value for i in tais), False, r)
    return total, tuple(melds) + (Item("dihu", "底和", "dihu", BASE_HU, "hu"),) + tuple(tais)


# -- the 和数 from a reading's group views ---------------------------------------------------------

def value_of_views(views: Iterable[tuple], hand: Hand, context: WinContext, r: Readings = DEFAULT) -> int:
    """The 和数 of a standard reading known only by its concealed groups' key views
    (views._luoshan_value: (2, suit, role) for a chow, (pung?, suit, big, 座风 or 箭, role) for a pung
    or the pair), with the hand's declared melds: what `hand_value` gives that reading, without
    building it (a settle ranks the classes of readings by it and builds the best ones only)."""
    self_drawn = as_self_drawn(context)
    declared, tai = declared_points(hand.melds, context)
    points = sum(item.value for item in declared)
    suits: set[int] = set()                           # 0-2 万筒条, 3 honours: as `Judged.standing` has them
    chows_only = pungs_only = True                    # of the melds (平和, 对对胡); the pair counts for neither
    win_role = None
    for view in views:
        suits.add(view[1])
        if view[0] == 2:                              # a chow
            pungs_only = False
            role, big = view[2], False                # (边张 and 嵌张 are worth the same on any tile)
        else:
            is_pung, _, big, seat_or_dragon, role = view
            if is_pung:
                chows_only = False
                points += concealed_pung(big, role is not None, self_drawn, r)[0]
                tai += seat_or_dragon
            elif seat_or_dragon and pair_counts(role, r):
                points += PAIR_OF_SEAT_OR_DRAGON
        if role is not None:
            win_role = role
            points += winning_tile_value(role, big, self_drawn, r)
    for meld in hand.melds:
        suits.update(3 if t.is_honour else t // 9 for t in meld.standing if t.is_suited or t.is_honour)
        if meld.kind is MeldKind.CHOW:
            pungs_only = False
        else:
            chows_only = False
    honours = 3 in suits
    tai_of_shape = shape_tai(len(suits) - honours, honours, pungs_only, r)
    if chows_only and win_role is WinRole.OPEN:
        return total_of(0, tai_of_shape, True, r)
    return total_of(points, tai + tai_of_shape, False, r)


def round_up_ten(points: int) -> int:
    """「若算出的和数个位数不是零，则十位数进一」: 122 → 130, 130 → 130."""
    return math.ceil(points / 10) * 10


def meets_threshold(j: Judged, r: Readings = DEFAULT) -> bool:
    """「和牌条件，自摸100和及以上或放冲200和及以上」 (F2 `pinghu_threshold` "exempt": a 平和 wins whatever
    its 和数)."""
    if r.pinghu_threshold == "exempt" and is_pinghu(j):
        return True
    return threshold_met(hand_value(j, r)[0], j.context)


def threshold_check(r: Readings = DEFAULT):
    """The threshold requirement's check under the readings `r`."""
    if r == DEFAULT:
        return meets_threshold
    return lambda j: meets_threshold(j, r)


def threshold_hopeless(r: Readings = DEFAULT):
    """`threshold_check` met by no reading: even `most_hu` falls short (none known where a 平和 is
    exempt, F2)."""
    if r.pinghu_threshold == "exempt":
        return None
    return lambda hand, context, evaluator: not threshold_met(most_hu(hand, context, evaluator, r), context)


def most_hu(hand: Hand, context: WinContext, evaluator: Any, r: Readings = DEFAULT) -> int:
    """A 和数 no reading of the hand passes (rulesets/reading_bounds.py): the declared melds' points
    and 台 as they are; as many concealed pungs as the tiles allow (three of a kind held, or one per
    free tile), each at the most a pung is worth, and a 台 for each 大料/座风 kind that could make
    one; a 大料/座风 pair; the most a winning tile adds; 清三台 unless two suits are fixed, and
    对对胡 unless no reading is all pungs.  A 平和 at most 30 with the suits' 台."""
    free = bounds.free_kinds(evaluator)
    spare = bounds.free_count(hand, free)
    counts = bounds.fixed_counts(hand, free)
    points, tai = declared_hu(hand.melds, context)
    self_drawn = as_self_drawn(context)
    pungs = min((len(hand.concealed) - 2) // 3, sum(n // 3 for n in counts.values()) + spare)
    pung_value = max(concealed_pung(True, won_here, self_drawn, r)[0] for won_here in (False, True))
    points += (pungs * pung_value + PAIR_OF_SEAT_OR_DRAGON
               + max(winning_tile_value(role, True, self_drawn, r) for role in WIN_ROLES))
    seat_or_dragon = sum(1 for kind in {*DRAGONS, context.seat_wind()} if counts[kind] + spare >= 3)
    suits = 0 if len(bounds.fixed_suits(hand, counts)) > 1 else 3
    all_pungs = 0 if bounds.no_all_pungs(hand, free, counts) else 1
    tai += min(pungs, seat_or_dragon) + suits + all_pungs
    return max(total_of(points, tai, False, r), total_of(0, suits, True, r))


def threshold_met(value: int, context: WinContext) -> bool:
    """The threshold from the 和数 alone (`Requirement.by_key`)."""
    return value >= (100 if as_self_drawn(context) else 200)


@dataclass(frozen=True)
class LuoshanScorer:
    name: str = "luoshan"
    readings: Readings = DEFAULT

    def describe(self) -> str:
        formula = ("ceil10(基本和数 + 底和 10) × 2^台" if self.readings.rounding == "before"
                   else "ceil10((基本和数 + 底和 10) × 2^台)")
        return f"和数 = {formula}; 平和 30; every loser pays the same"

    def reading_key(self, j: Judged) -> int:
        """What `settle` maximises over the readings: the 和数 (views.SCORER_KEY_VIEWS says what it reads)."""
        return hand_value(j, self.readings)[0]

    def key_of_views(self, views: Iterable[tuple], hand: Hand, context: WinContext) -> int:
        """The same key from a class's key views (`value_of_views`): the judge ranks by it."""
        return value_of_views(views, hand, context, self.readings)

    def settle(self, ruleset: Any, hand: Hand, verdict: Verdict, context: WinContext) -> Settlement:
        value, items = best_reading(verdict, hand, context, lambda j: hand_value(j, self.readings),
                                    key=lambda vi: vi[0])
        payments = payments_from({side: value for side in context.losers()}, context.winner)
        return Settlement(items, value, payments, "hu", ("every loser pays the same 和数",))

    def settle_draw(self, ruleset: Any, context: DrawContext) -> Settlement:
        return Settlement((), 0, (0, 0, 0, 0), "hu", ("荒和: nothing is paid",))
