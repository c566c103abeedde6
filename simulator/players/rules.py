"""The region as the players need it: bonus tiles, wilds, what a legal win is, and strategy hints.

Legality is always rulesets.judging's (`is_legal`: `evaluate_hand`'s verdict with the context the
controller would use); the hints only steer the AI towards hands the region accepts (a void suit for 缺一门, all
three suits for 三色全, an opened hand for 开门 …), read from the region's requirement keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.definition import Ruleset
from rulesets.hand import Hand, Meld, WinContext
from rulesets.indicators import Effect, Timing
from rulesets.judging import is_legal, stand_ins_for
from rulesets.tiles import DRAGONS, Tile
from rulesets.winning import Evaluator, HandError, prepare

from .shanten import Parts, Shanten

VOID_KEYS = frozenset({"que_yi_men", "que_men", "da_que"})
THREE_SUIT_KEYS = frozenset({"sanse", "sanmen"})
OPEN_KEYS = frozenset({"kaimen", "kaikou"})
PUNG_KEYS = frozenset({"yicha", "yike", "ke"})
TERMINAL_KEYS = frozenset({"yaojiu", "yaojiu_jianke"})


def flower_kinds(ruleset: Ruleset, wilds: tuple[Tile, ...] = ()) -> frozenset[Tile]:
    """The kinds set aside and replaced from the tail, given the wilds in play.

    钻牌: 发 is shown and replaced, but when 发 is the 钻 (wild) 红中 takes its role (§26.2).
    A wild is never set aside.
    """
    return ruleset.flowers.kinds_for(wilds)


@dataclass(frozen=True)
class Hints:
    """What the region's win requirements ask of a hand, for the AI's choices."""

    void_suit: bool = False          # 缺一门: keep one suit out
    three_suits: bool = False        # 三色全: keep all three suits
    opened: bool = False             # 开门: claim something
    opened_by_pung: bool = False     # 沈阳: only a 碰 or 明杠 opens
    pung: bool = False               # a 刻 (or kong) is needed
    terminal: bool = False           # a 1/9 (幺九) is needed
    all_pungs_or_flush: bool = False # 上海: at least 碰碰胡 (or a flush)
    concealed_only: bool = False     # 八枝: nothing claimed
    eight_of_a_suit: bool = False    # 八枝
    max_claims: int = 5              # 长春 手把一: keep four tiles standing
    dump: frozenset[Tile] = frozenset()   # kinds a winning hand may not hold (武汉 红中, 钻牌 杠牌)


def hints_for(ruleset: Ruleset) -> Hints:
    keys = {r.key for r in ruleset.win.requirements}
    dump: set[Tile] = set()
    if "no_hongzhong" in keys:
        dump.add(Tile.RED)
    if "no_gang_pai" in keys:
        dump.update(DRAGONS)
    return Hints(
        void_suit=bool(keys & VOID_KEYS) or ruleset.has_phase("choose_void_suit"),
        three_suits=bool(keys & THREE_SUIT_KEYS),
        opened=bool(keys & OPEN_KEYS),
        opened_by_pung=ruleset.id == "shenyang" and "kaimen" in keys,
        pung=bool(keys & PUNG_KEYS),
        terminal=bool(keys & TERMINAL_KEYS),
        all_pungs_or_flush="at_least_pengpeng" in keys,
        concealed_only="menqing" in keys or not ruleset.play.pong and not ruleset.play.chi,
        eight_of_a_suit="bazhi" in keys,
        max_claims=3 if "no_shoubayi" in keys else 5,
        dump=frozenset(dump))


@dataclass(frozen=True)
class WinFacts:
    """The table's situation a win is judged in (what the controller knows too)."""

    dealer: int
    ready_sides: tuple[int, ...]
    kongs_by_side: tuple[tuple[int, int, int], ...]
    exposed_by_side: tuple[tuple[int, tuple[Meld, ...]], ...]


class RegionPlay:
    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.sides = tuple(ruleset.players)
        self.melds_full = (ruleset.hand_size - 1) // 3
        self.hints = hints_for(ruleset)
        self.bao_rule = next((r for r in ruleset.indicators if r.timing is Timing.ON_READY), None)
        self.out_of_play = tuple(r for r in ruleset.indicators
                                 if r.timing is Timing.AFTER_DEAL and not r.stays_in_play)
        self.fixed_wilds = tuple(k for r in ruleset.indicators
                                 if r.timing is Timing.FIXED and r.effect is Effect.WILD for k in r.special_kinds(None))
        self.candidates = tuple(k for k in ruleset.tiles.kinds if not k.is_flower)
        self.needs_requirements = bool(ruleset.win.requirements)
        self._tools: dict[tuple[Tile, ...], tuple[Evaluator, Shanten]] = {}
        self._parts = Parts()      # what the distance counters learn of hand parts, for every set of wilds
        self._flowers: dict[tuple[Tile, ...], frozenset[Tile]] = {}
        prepare(ruleset.win.shapes.honour_chows)   # the win tables, before the first decision

    # -- per set of wilds ------------------------------------------------------------------

    def tools(self, wilds: tuple[Tile, ...]) -> tuple[Evaluator, Shanten]:
        """The fast evaluator and the distance counter for these wilds (cached per table)."""
        found = self._tools.get(wilds)        # asked as given first: the same tuples come back
        if found is None:
            key = tuple(sorted(set(wilds)))
            found = self._tools.get(key)
            if found is None:
                stand_ins = stand_ins_for(self.ruleset, key)
                found = (Evaluator(frozenset(key), self.ruleset.win.shapes, stand_ins),
                         Shanten(key, stand_ins, self.ruleset.win.shapes, self._parts))
            self._tools[key] = self._tools[wilds] = found
        return found

    def flowers(self, wilds: tuple[Tile, ...]) -> frozenset[Tile]:
        """`flower_kinds` for these wilds (asked at every draw; the same few wilds all hand)."""
        found = self._flowers.get(wilds)
        if found is None:
            found = self._flowers[wilds] = flower_kinds(self.ruleset, wilds)
        return found

    # -- wins --------------------------------------------------------------------------------

    def complete(self, concealed: list[Tile], melds: tuple[Meld, ...], wilds: tuple[Tile, ...]) -> bool:
        return self.complete_beside(concealed, len(melds), wilds)

    def complete_beside(self, concealed: list[Tile], shown: int, wilds: tuple[Tile, ...]) -> bool:
        """`complete` beside `shown` melds (asked of three seats at every discard: a count will do)."""
        needed = self.melds_full - shown
        if len(concealed) != 3 * needed + 2:
            return False
        try:
            return self.tools(wilds)[0].is_complete(concealed, needed)
        except HandError:
            return False

    def legal_win(self, seat: int, concealed: list[Tile], melds: tuple[Meld, ...], flowers: tuple[Tile, ...],
                  win_tile: Tile, discarder: int | None, wilds: tuple[Tile, ...], ready: bool, facts: WinFacts,
                  *, kong_replacement: bool = False, last_tile: bool = False, bao: Tile | None = None) -> bool:
        """Whether the controller will accept this hand (rulesets.judging decides)."""
        if discarder is not None and not self.ruleset.play.discard_win:
            return False
        if not self.complete(concealed, melds, wilds):
            return False
        if not self.needs_requirements:
            return True
        context = WinContext(
            winner=seat, dealer=facts.dealer, discarder=discarder, win_tile=win_tile, sides=self.sides,
            ready_declared=ready, kong_replacement=kong_replacement and discarder is None,
            last_tile=last_tile, bao_hit=discarder is None and ready and bao is not None and win_tile == bao,
            kongs_by_side=facts.kongs_by_side, wilds=wilds, ready_sides=facts.ready_sides,
            exposed_by_side=facts.exposed_by_side)
        try:
            return is_legal(self.ruleset, Hand(tuple(sorted(concealed)), melds, flowers), context,
                            self.tools(wilds)[0])
        except (HandError, ValueError):
            return False
