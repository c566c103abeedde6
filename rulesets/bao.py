"""How a private 宝 acts in one win (长春 RULES.md §1.3, and 吉林, which plays by its 「打宝规则」).

The 宝 is no joker at large.  The texts give it two ways to win, both on the ready player's own
draw: 摸宝 — 「听牌后若再次摸到宝牌，宝牌可代替任何牌，即：听牌后摸到宝牌即可胡」 [002:196]: the 宝 he
draws stands for the tile he waits for; and 对宝 — 「听牌者摸到宝牌或者所听之牌为宝牌即赢」 [002:222]:
the tile he waits for is the 宝 kind (「算胡自摸、宝牌」 [002:203]).  Only a seat that declared 听 may
look at the 宝 (「听牌时可看宝，未听牌者不许看」 [002:85]; 「玩家不选择报听…无法看“宝”」 [002:208]), so a
宝 win needs 报听.  On a discard the 宝 is an ordinary tile: neither the discarded tile nor the 宝
kinds held in the hand stand for other tiles, and a seat that has not declared 听 never uses it.

`read_bao` turns the wilds a caller passes (the controller passes the 宝 for every ready seat; the
`hand` command passes `--wild`) into the ones this win may use, says whether it is a 宝 win, and
adds the requirement that only the drawn 宝 stands in.  Tiles of one kind are interchangeable, so
"the drawn 宝 is the joker and every other 宝 tile is itself" is "at most one 宝 tile stands for
another kind, and the winning tile is read at its place" (`stand_ins_once`, `win_on_the_drawn_bao`):
a 宝 tile held in the hand is a natural tile, and the win's 夹胡 is judged on the tile the drawn 宝
stands for, never on a held copy.

断幺九: 「断幺九也可以听牌，但是必须胡幺九，且不能看宝。比如所听之牌为6、9万，只能胡9万，不能胡6万」
[002:210-211].  A seat whose ready hand (every tile but the winning one, melds included) holds no
1, 9 or honour may declare 听 and win, but only on a 幺九 (the region's 「不能缺1，9」 requirement
already asks that of the whole hand) and never by the 宝: the drawn 宝 stands for nothing
(`no_bao_for_duanyaojiu`) and a 宝-kind tile he draws and wins on naturally is a plain 自摸, not a
对宝 (the scorer leaves out its ×2, `duanyaojiu`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .hand import Hand, MeldKind, WinContext
from .indicators import Effect, IndicatorRule, Timing
from .provenance import text
from .tiles import Tile
from .winning.decompose import role_of
from .winrules import Judged, Requirement, WinRules

NEEDS_TING = "未听牌者不许看宝: a 宝 win needs 报听 (bao_needs_ting)"
OWN_DRAW = "宝 wins on the ready player's own draw (摸宝/对宝), never on a discard (bao_own_draw)"
NOT_THE_BAO = "the winning tile is not the 宝: 摸宝/对宝 win on the 宝 kind (bao_win_tile)"
ON_DISCARD = "on a discard the 宝 is an ordinary tile: only a 宝 the ready player draws stands in (bao_discard)"
NOT_READY = "the 宝 stands in only for a seat that declared 听 (bao_not_ready)"
NOT_DRAWN = "only the 宝 just drawn stands in; 宝 tiles held in the hand are themselves (bao_held)"


def private_bao(ruleset: Any) -> IndicatorRule | None:
    """The region's private 宝: chosen when a seat declares 听, wild, seen only by ready seats."""
    return next((r for r in ruleset.indicators
                 if r.timing is Timing.ON_READY and r.effect is Effect.WILD and not r.public), None)


def stand_ins_once(bao: Tile) -> Requirement:
    """摸宝: the drawn 宝 may stand for any tile; no other 宝 tile stands for another kind."""
    return Requirement("bao_stands_in_once", "摸到的宝牌可代替任何牌",
                       text("§1.3", "听牌后若再次摸到宝牌，宝牌可代替任何牌，即：听牌后摸到宝牌即可胡"),
                       lambda j: jokers(j, bao) <= 1)


def jokers(j: Judged, bao: Tile) -> int:
    """How many 宝 tiles stand for another kind in this reading."""
    return sum(1 for source, face in j.shape.assignment if source == bao and face != bao)


def win_on_the_drawn_bao(bao: Tile) -> Requirement:
    """摸宝 with 宝 tiles held besides the drawn one: the one that stands in is the drawn one, so the
    winning tile is read at the joker's place (its group and role: 夹胡 or not).  Without it a held
    copy could stand in while the winning tile is read as a natural copy elsewhere (a 单吊 on a held
    pair: a 夹胡 the real wait never had).

    (Its key has no view in rulesets/scoring/views.py, so such a hand's splits are all judged; it is
    added only when a 宝 tile is held besides the drawn one.)"""
    return Requirement("bao_drawn_stands_in", "摸到的宝牌代替所胡之牌",
                       text("§1.3", "听牌后若再次摸到宝牌，宝牌可代替任何牌，即：听牌后摸到宝牌即可胡"),
                       lambda j: win_at_joker(j, bao))


def win_at_joker(j: Judged, bao: Tile) -> bool:
    """No 宝 stands for another kind, or exactly one does and the winning tile is read at its place."""
    places = [(index, place) for index, group in enumerate(j.shape.groups) for place in group.wild_positions
              if group.sources[place] == bao and group.tiles[place] != bao]
    if not places:
        return True                       # every 宝 tile is itself: a natural reading (对宝)
    if len(places) > 1:
        return True                       # two jokers: `stand_ins_once` refuses it, and says so
    index, place = places[0]
    return j.shape.win_group == index and role_of(j.shape.groups[index], place) == j.shape.win_role


def ready_hand(hand: Hand, win: Tile | None) -> tuple[Tile, ...]:
    """The tiles the seat waited with: every tile of the hand, melds included, but the winning one."""
    concealed = list(hand.concealed)
    if win is not None and win in concealed:
        concealed.remove(win)
    return tuple(concealed) + tuple(t for m in hand.melds for t in m.tiles)


def duanyaojiu(hand: Hand, win: Tile | None) -> bool:
    """断幺九 听牌 (RULES.md §1.3 [002:210]): the ready hand holds no 1, 9 or honour (幺九 counts the
    honours in 长春, 「字牌是算在幺九牌中的」 [002:249-250]) and no special kong (「旋风杠算杠也算手中有19」)."""
    if any(m.kind is MeldKind.SPECIAL for m in hand.melds):
        return False
    return not any(t.is_terminal_or_honour for t in ready_hand(hand, win))


def no_bao_for_duanyaojiu(bao: Tile) -> Requirement:
    """断幺九 may not 看宝: the drawn 宝 stands for no other tile."""
    return Requirement("bao_duanyaojiu", "断幺九听牌不能看宝",
                       text("§1.3", "断幺九也可以听牌，但是必须胡幺九，且不能看宝"),
                       lambda j: jokers(j, bao) == 0 or not duanyaojiu(j.hand, j.context.win_tile))


@dataclass(frozen=True)
class BaoReading:
    """The 宝 in one win: the wilds the judge may use, whether it is a 宝 win, and why not."""

    wilds: tuple[Tile, ...]                  # the wild kinds this win may use
    hit: bool                                # 摸宝 / 对宝: scored as a 宝 win
    requirements: tuple[Requirement, ...]    # added to the region's for this win
    failures: tuple[str, ...]                # a claimed 宝 win that is not one
    unused: str = ""                         # why a 宝 in the hand did not stand in (said if the hand fails)

    def rules(self, win: WinRules) -> WinRules:
        if not self.requirements:
            return win
        return WinRules(win.shapes, win.requirements + self.requirements)

    def context(self, context: WinContext) -> WinContext:
        return replace(context, wilds=self.wilds, bao_hit=self.hit)


def bao_kinds(context: WinContext) -> frozenset[Tile]:
    """The 宝 kinds of this win.  A region with a private 宝 has no other wild (a test holds this),
    so every wild the caller passes is the 宝; a 宝 win claimed without naming it is won on it."""
    if context.wilds:
        return frozenset(context.wilds)
    if context.bao_hit and context.win_tile is not None:
        return frozenset((context.win_tile,))
    return frozenset()


def read_bao(ruleset: Any, context: WinContext, held: tuple[Tile, ...] = ()) -> BaoReading | None:
    """How the region's private 宝 acts in this win; None for a region without one.

    `held`: the concealed tiles (the win tile included), to say why a 宝 among them did not help.
    """
    if private_bao(ruleset) is None:
        return None
    bao = bao_kinds(context)
    win = context.win_tile
    ready, own_draw = context.ready_declared, context.self_drawn
    failures = []
    if context.bao_hit:
        if not ready:
            failures.append(NEEDS_TING)
        if not own_draw:
            failures.append(OWN_DRAW)
        if win not in bao:
            failures.append(NOT_THE_BAO)
    hit = ready and own_draw and win in bao
    others = tuple(k for k in context.wilds if k not in bao)
    if hit:
        assert win is not None
        rules = (stand_ins_once(win),)
        rest = list(held)
        if win in rest:
            rest.remove(win)
        if win in rest:                   # a 宝 held besides the drawn one: it is itself
            rules += (win_on_the_drawn_bao(win),)
        if not any(t.is_terminal_or_honour for t in rest):    # maybe 断幺九 (the melds decide)
            rules += (no_bao_for_duanyaojiu(win),)
        return BaoReading(others + (win,), True, rules, tuple(failures), NOT_DRAWN)
    unused = ""
    if any(t in bao for t in held):
        unused = NOT_READY if not ready else ON_DISCARD if not own_draw else NOT_DRAWN
    return BaoReading(others, False, (), tuple(failures), unused)
