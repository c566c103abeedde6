"""Win requirements: small named predicates over one reading of a hand (`Judged`).

Each function answers one sentence of a text; region cards wrap them in a `Requirement` with the
quote.  Tiles are judged as they stand (a wild counts as the tile it stands for).  Those that read
only the hand and the win context are written over those (`of_hand`): a failing hand is known
without reading it.
"""

from __future__ import annotations

from .hand import Hand, MeldKind, WinContext
from .tiles import HONOURS, SUITED, Tile
from .winning import GroupKind, Shapes, WinRole, waits
from .winrules import Judged, of_hand

SUITS = ("m", "p", "s")


def all_three_suits(j: Judged) -> bool:
    """三色全 / 不允许缺门: 万, 筒 and 条 all appear."""
    return j.suits == frozenset(SUITS)


def lacks_a_suit(j: Judged) -> bool:
    """缺一门: at least one of 万, 筒, 条 is missing."""
    return len(j.suits) < 3


def has_terminal(j: Judged) -> bool:
    """A suited 1 or 9 (幺九 without honours, 沈阳 「不允许缺“幺九”，可以缺字」)."""
    return any(t.is_terminal for t in j.standing)


def has_terminal_or_honour(j: Judged) -> bool:
    """幺九 with honours counted (长春 「当手牌中有风、字牌和中发白的时候可免1、9」), or a special kong."""
    return any(t.is_terminal_or_honour for t in j.standing) or any(m.kind is MeldKind.SPECIAL for m in j.declared)


def has_pung_or_kong(j: Judged) -> bool:
    """At least one 刻 (明 or 暗) or 杠."""
    return j.pung_count > 0


def has_any_kong(j: Judged) -> bool:
    """A kong of any kind, the opening special kongs (旋风杠, 喜杠, 幺九蛋) included."""
    return any(m.is_kong or m.kind is MeldKind.SPECIAL for m in j.declared)


def holds_dragon(j: Judged) -> bool:
    return any(t.is_dragon for t in j.standing)


def dragon_pair(j: Judged) -> bool:
    pair = j.pair
    return pair is not None and pair.is_dragon


def has_dragon_pung(j: Judged) -> bool:
    """箭刻: a pung or kong of 中, 发 or 白."""
    concealed = any(g.kind is GroupKind.PUNG and g.tiles[0].is_dragon for g in j.shape.groups)
    return concealed or any(m.is_pung_like and m.kind_tile.is_dragon for m in j.declared)


@of_hand
def opened(hand: Hand, context: WinContext) -> bool:
    """开门 / 开口: at least one meld claimed (吃, 碰 or 明杠)."""
    return any(m.kind in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG) for m in hand.melds)


@of_hand
def opened_by_pung_or_kong(hand: Hand, context: WinContext) -> bool:
    """沈阳 「必须通过碰或杠（明杠）“开门”」: a 碰 or a 明杠 (a 吃 does not open)."""
    return any(m.kind in (MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG) for m in hand.melds)


@of_hand
def concealed_hand(hand: Hand, context: WinContext) -> bool:
    """门前清: nothing claimed (concealed kongs allowed)."""
    return hand.is_concealed


@of_hand
def self_drawn(hand: Hand, context: WinContext) -> bool:
    return context.self_drawn


@of_hand
def ready_declared(hand: Hand, context: WinContext) -> bool:
    """报听 before the win."""
    return context.ready_declared


def all_pungs(j: Judged) -> bool:
    """碰碰胡 / 飘: every meld a pung or kong."""
    return j.all_pungs


def one_suit(j: Judged, honours_allowed: bool) -> bool:
    """清一色 (one suit, no honours) or, with honours allowed, 混一色."""
    if len(j.suits) != 1:
        return False
    return honours_allowed or not any(t.is_honour for t in j.standing)


def seven_pairs(j: Judged) -> bool:
    return j.shape.shape.value == "seven_pairs"


@of_hand
def no_red_dragon(hand: Hand, context: WinContext) -> bool:
    """武汉 「红中留在手上不能胡」: no 红中 among the hand's tiles."""
    return Tile.RED not in hand.all_tiles()


def pair_is_258(j: Judged) -> bool:
    """二五八将: the pair is a 2, 5 or 8 of a suit."""
    pair = j.pair
    return pair is not None and pair.is_suited and pair.rank in (2, 5, 8)


def all_258(j: Judged) -> bool:
    """将将和: every tile a 2, 5 or 8."""
    return all(t.is_suited and t.rank in (2, 5, 8) for t in j.standing)


def eight_of_one_suit(j: Judged) -> bool:
    """八枝: 「和牌时需要一门有八张以上」 — eight or more tiles of one suit."""
    return any(sum(1 for t in j.standing if t.suit == suit) >= 8 for suit in SUITS)


def standing_tiles_at_least(j: Judged, count: int) -> bool:
    """手把一 ban: at least `count` concealed tiles standing besides the winning tile."""
    return len(j.hand.concealed) - 1 >= count


def wilds_as_wild_at_most(j: Judged, count: int) -> bool:
    return j.wilds_as_wild <= count


def win_on_terminal_or_honour(j: Judged) -> bool:
    """The winning tile is a 1, 9 or honour."""
    tile = j.context.win_tile
    return tile is not None and tile.is_terminal_or_honour


def closed_wait(j: Judged) -> bool:
    """The winning tile sits in a single-wait place of this reading: the pair (单吊), an edge (边张) or
    the middle (坎张).  Whether the hand waited on that tile alone is `only_wait`."""
    return j.shape.win_role in (WinRole.PAIR, WinRole.EDGE, WinRole.CLOSED)


@of_hand
def only_wait(hand: Hand, context: WinContext) -> bool:
    """独听: without its winning tile the hand waited on one kind only (as a standard hand; a kind it
    holds all four of cannot come).  A 单吊 that another tile would complete as well is none: 1234s
    waits on 1s and on 4s.  A drawn 宝 (摸宝) is taken out like any winning tile: the hand it leaves
    is the one that waited."""
    concealed = list(hand.concealed)
    if context.win_tile is None or context.win_tile not in concealed:
        return False
    concealed.remove(context.win_tile)
    return len(waits(concealed, (), (len(concealed) - 1) // 3, Shapes(), SUITED + HONOURS)) == 1
