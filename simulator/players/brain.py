"""The AI: which tile to discard, what to claim, when to kong and to declare 听.

Simple and deterministic for a seed: keep the hand as near to complete as the region's shapes
allow (shanten.py), prefer the discard that keeps the most live *legal* waits (each wait is
judged by rulesets.judging as the controller would), honour the region's demands (void suit,
three suits, pungs, no 杠牌 in hand …) and, per style, play safe into 荒庄 late in the hand.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Collection, Generator, Sequence
from operator import itemgetter
from dataclasses import dataclass
from typing import TypeVar

from rulesets.tiles import Tile
from rulesets.winning import HandError

from .knowledge import TableView
from .player import Player
from .rules import RegionPlay, WinFacts
from .shanten import FAR
from .style import PlayStyle

SUITS = ("m", "p", "s")
T = TypeVar("T")


def _neighbour_weights(kind: Tile) -> tuple[tuple[Tile, float], ...]:
    """A suited kind's neighbours of its suit with what each held copy adds to its usefulness
    (one rank away 2, two ranks away 1), in the order `Brain._usefulness` adds them."""
    rank = kind.rank
    return tuple((Tile(kind + sign * step), weight) for step, weight in ((1, 2.0), (2, 1.0)) for sign in (-1, 1)
                 if 1 <= rank + sign * step <= 9)


def _chow_pairs(tile: Tile) -> tuple[tuple[Tile, Tile], ...]:
    """The pairs of the same suit that make a chow with a suited `tile`."""
    rank, suit = tile.rank, tile.suit
    return tuple((Tile.of(rank + a, suit), Tile.of(rank + b, suit)) for a, b in ((-2, -1), (-1, 1), (1, 2))
                 if 1 <= rank + a <= 9 and 1 <= rank + b <= 9)


# looked up, not worked out, at every discard weighed and every discard claimable
_NEIGHBOURS = {kind: _neighbour_weights(kind) for kind in Tile if kind.is_suited}
_MIDDLE = {kind: 1.0 if 3 <= kind.rank <= 7 else 0.0 for kind in Tile if kind.is_suited}
_CHOW_PAIRS = {kind: _chow_pairs(kind) for kind in Tile if kind.is_suited}
_SUIT_KINDS = {suit: frozenset(kind for kind in Tile if kind.suit == suit) for suit in "mpszf"}

_FIRST_THREE = itemgetter(0, 1, 2)      # an entry's (distance, -weight, penalty)
_NOTHING_KEPT: tuple[Counter, int] = (Counter(), 0)    # `Brain._kept` where no hint reads it (never written)

JUDGEMENTS_PER_DECISION = 8
"""Legality judgements (rulesets.judging on a whole hand, self-drawn or on a discard) one discard
choice may make: where
few waits are legal (螺山's 和数 threshold, 武汉's 屁胡) a choice would otherwise judge every wait
of every ready discard, about a hundred judgements; the most promising are judged first."""


class Budget:
    """What is left of a decision's judgements (JUDGEMENTS_PER_DECISION)."""

    def __init__(self, left: int) -> None:
        self.left = left

    def take(self) -> bool:
        """One judgement, if any is left."""
        if self.left <= 0:
            return False
        self.left -= 1
        return True


Facts = WinFacts | Callable[[], WinFacts]
"""The table's situation for a judgement, or how to read it: a discard choice judges no wait in
most turns, and reading it from the table top (every seat's melds) is then wasted."""


def _known(facts: Facts) -> WinFacts:
    return facts() if callable(facts) else facts


Thinking = Generator[None, None, T]
"""A decision made in steps: it yields where it may pause, and returns what it decided."""


def decided(thinking: Thinking[T]) -> T:
    """Run a decision through without pausing."""
    while True:
        try:
            next(thinking)
        except StopIteration as done:
            return done.value


async def think(thinking: Thinking[T]) -> T:
    """Run a decision on the event loop, letting the table run at each pause: a decision never
    holds the loop for more than one of its steps (JUDGEMENTS_PER_DECISION judgements at 1–2 ms
    each would, in 武汉 and 螺山)."""
    while True:
        try:
            next(thinking)
        except StopIteration as done:
            return done.value
        await asyncio.sleep(0)


@dataclass(frozen=True)
class Discard:
    uid: bytes
    kind: Tile
    declare: bool            # press 听 with this discard


@dataclass(frozen=True)
class Claim:
    """A claim of another's discard: `what` is "kong", "pung" or "chow"; `uids` from my hand."""

    seat: int
    what: str
    uids: tuple[bytes, ...]


@dataclass(frozen=True)
class SelfKong:
    kind: Tile
    concealed: bool          # else added to a shown pung (补杠)
    uids: tuple[bytes, ...]


class Brain:
    def __init__(self, rules: RegionPlay, style: PlayStyle) -> None:
        self.rules = rules
        self.style = style
        self.hints = rules.hints
        self.play = rules.ruleset.play
        self._legal: dict[tuple, bool] = {}
        self._distances: dict[tuple, int] = {}
        self._dead_kinds: dict[tuple[Tile, ...], frozenset[Tile]] = {}    # per set of wilds
        self._shapes_allowed: dict[tuple, tuple[bool, tuple[str, ...]]] = {}   # per shown melds
        self.live_at_start = 0

    def new_hand(self) -> None:
        self._legal.clear()
        self._distances.clear()
        self._shapes_allowed.clear()
        self.live_at_start = 0

    # -- seeing the hand -----------------------------------------------------------------------

    def wilds(self, player: Player, view: TableView) -> tuple[Tile, ...]:
        wilds = tuple(view.wilds)
        if player.ready and player.bao is not None and player.bao not in wilds:
            wilds += (player.bao,)
        return wilds

    def needed(self, player: Player) -> int:
        return self.rules.melds_full - len(player.melds)

    def distance(self, player: Player, kinds: list[Tile], wilds: tuple[Tile, ...], needed: int | None = None) -> int:
        """Shanten towards a hand this region accepts (dead kinds count for nothing)."""
        needed = self.needed(player) if needed is None else needed
        key = (tuple(sorted(kinds)), wilds, needed, player.void, player.meld_tuple())
        found = self._distances.get(key)
        if found is None:   # the same hands come back many times a turn: remembered for the hand
            found = self._distances[key] = self._distance(player, kinds, wilds, needed)
        return found

    def _distance(self, player: Player, kinds: list[Tile], wilds: tuple[Tile, ...], needed: int) -> int:
        live = self._live(player, kinds, self._dead(player, wilds))
        if self.hints.all_pungs_or_flush:     # (the standard count alone is not asked there)
            return self._pung_or_flush(player, live, needed, wilds)
        return self.rules.tools(wilds)[1].best(live, needed, seven_pairs_ok=not player.melds)

    def _discard_distances(self, player: Player, kinds: list[Tile], wilds: tuple[Tile, ...],
                           discards: Collection[Tile], needed: int | None = None) -> dict[Tile, int]:
        """`distance` of the hand less one tile of each kind in `discards`, in one pass over it."""
        needed = self.needed(player) if needed is None else needed
        dead = self._dead(player, wilds)
        live = self._live(player, kinds, dead)
        live_discards = self._live(player, list(discards), dead)
        if not self.hints.all_pungs_or_flush:
            # (a dead or void discard leaves the live tiles as they are: their count, from the same pass)
            left_out = [kind for kind in discards if kind not in live_discards] if len(live_discards) < len(discards) else ()
            return self.rules.tools(wilds)[1].after_each_discard(live, needed, live_discards,
                                                                 seven_pairs_ok=not player.melds, unchanged=left_out)
        out = self._pung_or_flush_after_each(player, live, needed, wilds, live_discards)
        if len(out) < len(discards):     # a dead or void discard leaves the live tiles as they are
            unchanged = self._distance(player, kinds, wilds, needed)
            for kind in discards:
                out.setdefault(kind, unchanged)
        return out

    @staticmethod
    def _live(player: Player, kinds: list[Tile], dead: frozenset[Tile]) -> list[Tile]:
        """The kinds that count towards a hand: dead kinds and the void suit count for nothing."""
        void = player.void
        if not (dead or void):
            return kinds
        if void:
            dead = dead | _SUIT_KINDS[void]
        return [k for k in kinds if k not in dead]

    def _dead(self, player: Player, wilds: tuple[Tile, ...]) -> frozenset[Tile]:
        if not self.hints.dump:
            return frozenset()
        found = self._dead_kinds.get(wilds)
        if found is None:
            found = self._dead_kinds[wilds] = frozenset(k for k in self.hints.dump if k not in wilds)
        return found

    def _pung_or_flush(self, player: Player, kinds: list[Tile], needed: int, wilds: tuple[Tile, ...]) -> int:
        shanten = self.rules.tools(wilds)[1]
        options = []
        pungs_only, flush_suits = self._pung_or_flush_shapes(player)
        if pungs_only:
            options.append(shanten.all_pungs(kinds, needed))
        for suit in flush_suits:
            options.append(shanten.standard(kinds, needed, only_suit=suit) + 1)
        return min(options) if options else FAR

    def _pung_or_flush_after_each(self, player: Player, kinds: list[Tile], needed: int, wilds: tuple[Tile, ...],
                                  discards: list[Tile]) -> dict[Tile, int]:
        """`_pung_or_flush` of `kinds` less one tile of each kind in `discards`, each shape's count
        worked out in one pass (shanten's `…_after_each`)."""
        shanten = self.rules.tools(wilds)[1]
        pungs_only, flush_suits = self._pung_or_flush_shapes(player)
        # the best of the shapes still allowed, per discard (a one-suit count is one more: `_pung_or_flush`)
        out = shanten.all_pungs_after_each(kinds, needed, discards) if pungs_only else dict.fromkeys(discards, FAR)
        # a suit's count only matters where one more is below the best so far: no discard brings a
        # count below the whole hand's, so a suit whose whole hand is that far is not counted per discard
        worst = max(out.values(), default=FAR)
        for flush in shanten.flush_after_each(kinds, needed, discards, flush_suits, below=worst - 1):
            for kind, value in flush.items():
                if value + 1 < out[kind]:
                    out[kind] = value + 1
        return out

    def _pung_or_flush_shapes(self, player: Player) -> tuple[bool, tuple[str, ...]]:
        """Which of 碰碰胡 and the one-suit hands the shown melds still allow: all pungs, and
        the suits all their tiles are of (honours go with any); remembered by the melds (asked
        at every discard weighed)."""
        melds = player.meld_tuple()
        found = self._shapes_allowed.get(melds)
        if found is None:
            found = self._shapes_allowed[melds] = (
                all(m.is_pung_like for m in melds),
                tuple(suit for suit in SUITS if all(t.suit in (suit, "z") for m in melds for t in m.tiles)))
        return found

    # -- legal waits -----------------------------------------------------------------------------

    def _live_waits(self, player: Player, seen: Counter, rest: list[Tile], wilds: tuple[Tile, ...],
                    held: Counter, kind: Tile) -> list[tuple[Tile, float]]:
        """Each wait of `rest` (the hand `held` less one `kind`) with what it adds to the weight if
        legal; `seen`: the tiles in sight (`TableView.visible`)."""
        evaluator = self.rules.tools(wilds)[0]
        try:
            waits = evaluator.waits(rest, self.needed(player), self.rules.candidates)
        except HandError:
            return []
        if not waits:
            return []
        return [(wait, max(0, 4 - seen[wait] - (held[wait] - (wait == kind))) + 0.25) for wait in waits]

    def _legal_weight(self, player: Player, view: TableView, rest: list[Tile], wilds: tuple[Tile, ...],
                      facts: Facts, waits: list[tuple[Tile, float]], first: bool = False,
                      budget: Budget | None = None) -> Thinking[float]:
        """The weight of the legal waits among `waits` (with `first`, stop at the first legal one).
        With a `budget`, the waits with the most live copies are judged first and a wait left
        unjudged when it runs out counts as not legal (the player does not count on it).  Pauses
        (yields) after each judgement made: one judgement can take a millisecond or two."""
        weight = 0.0
        if budget is not None:
            waits = sorted(waits, key=lambda wait: -wait[1])
        for wait, part in waits:
            left = budget.left if budget is not None else 0
            legal = self.could_win(player, view, rest, wait, wilds, facts, budget)
            if budget is not None and budget.left != left:
                yield
            if legal:
                weight += part
                if first:
                    break
        return weight

    def could_win(self, player: Player, view: TableView, rest: list[Tile], tile: Tile,
                  wilds: tuple[Tile, ...], facts: Facts, budget: Budget | None = None) -> bool:
        """Whether drawing `tile` (or, where allowed, claiming it) would be a legal win (False,
        unremembered, when it is not known yet and the `budget` is spent)."""
        key = (player.seat, tuple(sorted(rest)), tile, player.meld_tuple(), wilds, player.ready)
        found = self._legal.get(key)
        if found is None:
            if budget is not None and not budget.take():
                return False
            hand = rest + [tile]
            facts = _known(facts)
            found = self.rules.legal_win(player.seat, hand, player.meld_tuple(), player.flower_tiles(), tile,
                                         None, wilds, player.ready or self.play.ready_declaration != "none",
                                         facts, bao=player.bao)
            if not found and self.play.discard_win:
                if budget is not None and not budget.take():
                    return False
                found = self.rules.legal_win(player.seat, hand, player.meld_tuple(), player.flower_tiles(), tile,
                                             view.upper(player.seat), wilds,
                                             player.ready or self.play.ready_declaration != "none", facts)
            self._legal[key] = found
        return found

    # -- discarding ------------------------------------------------------------------------------

    def choose_discard(self, player: Player, view: TableView, live: int, facts: Facts) -> Discard:
        """The discard, decided at once (`discard_thoughts` without its pauses)."""
        return decided(self.discard_thoughts(player, view, live, facts))

    def discard_thoughts(self, player: Player, view: TableView, live: int, facts: Facts) -> Thinking[Discard]:
        """The discard, decided in steps: it pauses (yields) after each whole-hand judgement, so a
        caller on the event loop can let the table run between them (`think`)."""
        wilds = self.wilds(player, view)
        kinds = player.kinds()
        if player.ready and player.last_drawn in player.hand:
            # 听 declared: the hand stays as it is (摸打)
            uid = player.last_drawn
            return Discard(uid, player.hand[uid], False)
        declare_possible = self.play.ready_declaration != "none" and not player.ready
        options: dict[Tile, bytes] = {}
        standing = player.standing
        for uid, kind in player.hand.items():
            if kind not in options or standing and options[kind] in standing:
                options[kind] = uid
        fold = self.folding(player, live)
        scored = yield from self._score_discards(player, view, options, kinds, wilds, facts, declare_possible, fold)
        if not scored:            # nothing but standing tiles: give one up
            uid = next(iter(player.hand))
            return Discard(uid, player.hand[uid], False)
        if fold:       # safest first; among equally safe tiles, the one that sets the hand back most
            seen, visible = view.discarded(), view.visible()
            best = max(scored, key=lambda s: (round(self._safety(s[3], seen, visible)), s[0], -s[2]))
        else:
            best = min(scored, key=_FIRST_THREE)
        d, neg_weight, _, kind, uid = best
        ready_now = declare_possible and d == 0 and neg_weight < 0 and not fold
        if player.standing:
            declare = ready_now and uid in player.standing     # 立四: only the standing discard declares
        else:
            declare = ready_now and self._wants_declare(player)
        return Discard(uid, kind, declare)

    def _score_discards(self, player: Player, view: TableView, options: dict[Tile, bytes], kinds: list[Tile],
                        wilds: tuple[Tile, ...], facts: Facts, declare_possible: bool, fold: bool
                        ) -> Thinking[list[tuple[int, float, float, Tile, bytes]]]:
        """(distance, -weight, penalty, kind, uid) of each discard a player may make.

        The weight of a discard that leaves the hand ready is the live count of its *legal* waits,
        and judging a wait's legality is the expensive part (a region's requirements read every
        reading of the hand).  Only what the choice needs is judged: folding reads the distance
        alone (ready with a legal wait, or not); otherwise the ready discards are judged in the
        order of their best possible weight (every wait legal), and a discard whose best possible
        entry cannot beat the best judged one is left unjudged (its entry keeps that bound: it is
        never the minimum).  At most JUDGEMENTS_PER_DECISION judgements are made (the waits with
        the most live copies first); a wait not judged by then counts as not legal, so where legal
        waits are rare the choice can differ from judging everything.
        """
        entries: list[list] = []   # [distance, -weight, penalty, kind, uid, rest, waits (unjudged)]
        budget = Budget(JUDGEMENTS_PER_DECISION)
        held = Counter(kinds)
        kept = self._kept(player, kinds)
        dead = self._dead(player, wilds)
        seen: Counter | None = None      # the tiles in sight: counted once, for the first ready discard
        rest_read = self.hints.eight_of_a_suit     # the penalty reads the rest of the hand
        distances = self._discard_distances(player, kinds, wilds, options)
        hints, standing_tiles = self.hints, player.standing
        # `_penalty` is 0 but where a wild, a dead kind, a void suit, a hint or the hand's plan reads the kind
        plain = not (wilds or dead or player.void or hints.three_suits or hints.terminal or rest_read
                     or player.keep_pairs)
        usefulness, random = self._usefulness, player.rng.random
        for kind, uid in options.items():
            d = distances[kind]
            # the hand without this tile: only a ready discard's waits and 八枝 read it
            rest = _without(kinds, kind) if d <= 0 or rest_read else kinds
            weight = 0.0
            waits: Sequence[tuple[Tile, float]] = ()
            if d <= 0:
                seen = view.visible() if seen is None else seen
                waits = self._live_waits(player, seen, rest, wilds, held, kind)
                if not waits:
                    d = 1
            standing = uid in standing_tiles
            if standing and waits:
                weight = yield from self._legal_weight(player, view, rest, wilds, facts, waits, budget=budget)
                waits = ()
                if weight == 0:
                    d = 1
            if standing and not (d == 0 and weight > 0 and declare_possible):
                continue          # 立四: a standing tile goes only with the 听 discard
            penalty = ((0.0 if plain else self._penalty(player, kind, rest, wilds, held, kept, dead))
                       + usefulness(kind, held) * 0.1)
            if standing:
                penalty -= 60     # …and 立四 needs that discard to declare
            entries.append([d, -weight, penalty + random() * 0.05, kind, uid, rest, waits])
        unjudged = [e for e in entries if e[6]]
        if fold:
            for entry in unjudged:   # only whether some wait is legal matters
                if not (yield from self._legal_weight(player, view, entry[5], wilds, facts, entry[6], first=True,
                                                      budget=budget)):
                    entry[0] = 1
        else:
            for entry in unjudged:   # the best it could be: every wait legal
                entry[1] = -sum(part for _, part in entry[6])
            judged = [tuple(e[:3]) for e in entries if not e[6]]
            best = min(judged) if judged else None
            for entry in sorted(unjudged, key=lambda e: tuple(e[:3])):
                if best is not None and tuple(entry[:3]) > best:
                    break             # neither this nor any later one can beat the best
                weight = yield from self._legal_weight(player, view, entry[5], wilds, facts, entry[6], budget=budget)
                entry[1] = -weight
                if weight == 0:
                    entry[0] = 1
                key = tuple(entry[:3])
                best = key if best is None or key < best else best
        return [(e[0], e[1], e[2], e[3], e[4]) for e in entries]

    def folding(self, player: Player, live: int) -> bool:
        """In a careful hand a player gives up building once the wall runs low and plays safe
        (into 荒庄); he still takes a win that falls into his hand."""
        return player.defensive and live <= self.style.defend_from * self.live_at_start

    def _wants_declare(self, player: Player) -> bool:
        if self.play.ready_declaration == "required" or self.rules.bao_rule is not None:
            return True
        return player.rng.random() < self.style.declare_optional

    def _kept(self, player: Player, kinds: list[Tile]) -> tuple[Counter, int]:
        """The tiles by suit and the 1s and 9s of the hand and its melds, for the hints that read them
        (counted once a decision: a discard weighed takes one of its own suit, or one 1 or 9, away)."""
        if not (self.hints.three_suits or self.hints.terminal):
            return _NOTHING_KEPT
        tiles = kinds + [t for m in player.meld_tuple() for t in m.tiles]
        return Counter(t.suit for t in tiles), sum(1 for t in tiles if t.is_terminal)

    def _penalty(self, player: Player, kind: Tile, rest: list[Tile], wilds: tuple[Tile, ...], held: Counter,
                 kept: tuple[Counter, int], dead: frozenset[Tile]) -> float:
        """Lower: more willing to discard this kind (`rest`: the hand without it, read for 八枝 only;
        `held`: the hand by kind; `kept`: `_kept`; `dead`: `_dead`)."""
        p = 0.0
        if kind in wilds:
            return 100.0
        if player.void and kind.suit == player.void:
            p -= 50
        if kind in dead:
            p -= 40
        hints = self.hints
        suits, terminals = kept
        if hints.three_suits and kind.is_suited and suits[kind.suit] <= 1:     # its suit's last tile
            p += 12
        if hints.terminal and kind.is_terminal and terminals <= 1:             # the last 1 or 9
            p += 8
        if hints.eight_of_a_suit:
            counted = Counter(t.suit for t in rest if t.is_suited)
            if counted and kind.suit == counted.most_common(1)[0][0]:
                p += 3
        if player.keep_pairs and held[kind] >= 2:
            p += 3
        return p

    @staticmethod
    def _usefulness(kind: Tile, held: Counter) -> float:
        """What one `kind` does for the rest of the hand; `held` counts the whole hand, that tile
        too (counted once per decision, not once per discard weighed)."""
        count = held.get       # (a Counter's [] on a kind not held goes through __missing__: slow)
        value = 4.0 * (count(kind, 0) - 1)
        neighbours = _NEIGHBOURS.get(kind)
        if neighbours is not None:          # a suited kind
            for other, weight in neighbours:
                value += weight * count(other, 0)
            value += _MIDDLE[kind]
        return value

    @staticmethod
    def _safety(kind: Tile, discarded: Counter, visible: Counter) -> float:
        honour = 27 <= kind < 34            # (Tile.is_honour, without the property's call)
        return 3.0 * discarded.get(kind, 0) + (1.5 if honour else 0.0) + 0.5 * visible.get(kind, 0)

    # -- claims ----------------------------------------------------------------------------------

    def claim(self, player: Player, view: TableView, tile: Tile, discarder: int, can_kong: bool,
              live: int) -> Claim | None:
        """Pong, exposed kong or chow of another's discard (wins are asked separately)."""
        chow_seat = (self.play.chi and tile.is_suited and view.upper(player.seat) == discarder
                     and not self.hints.opened_by_pung and not self.hints.all_pungs_or_flush)
        if not chow_seat and player.count(tile) < 2:
            return None           # (most discards: nothing to weigh, and no chance drawn)
        if player.ready or self.hints.concealed_only or player.claimed_melds() >= self.hints.max_claims:
            return None
        if self.folding(player, live):
            return None
        wilds = self.wilds(player, view)
        if tile in wilds or (player.void and tile.suit == player.void) or tile in self._dead(player, wilds):
            return None
        free = [k for u, k in player.hand.items() if u not in player.standing]   # 立四: standing tiles stay put
        have = free.count(tile)
        if have < 2 and not chow_seat:
            return None
        kinds = player.kinds()
        needed = self.needed(player)
        chows = [pair for pair in self._chow_shapes(tile) if all(k in free for k in pair)] if chow_seat else []
        now = self.distance(player, kinds, wilds, needed) if have >= 2 or chows else FAR
        rng = player.rng
        if self.play.pong and have >= 3 and can_kong and rng.random() < self.style.kong:
            rest = [k for k in kinds if k != tile] + [tile] * (have - 3)
            if self.distance(player, rest, wilds, needed - 1) <= now:
                return Claim(player.seat, "kong", tuple(player.uids_of(tile, 3)))
        eager = self.hints.opened or self.hints.pung or player.keep_pairs or self.hints.all_pungs_or_flush
        if self.play.pong and have >= 2 and rng.random() < (1.0 if eager else self.style.pong):
            rest = list(kinds)
            for _ in range(2):
                rest.remove(tile)
            after = self._best_after_claim(player, rest, wilds, needed - 1)
            if after <= now or (eager and not player.claimed_melds() and after <= now + 1):
                return Claim(player.seat, "pung", tuple(player.uids_of(tile, 2)))
        if chow_seat and rng.random() < (1.0 if self.hints.opened else self.style.chi):
            best: tuple[int, tuple[Tile, Tile]] | None = None
            for pair in chows:
                rest = list(kinds)
                for k in pair:
                    rest.remove(k)
                after = self._best_after_claim(player, rest, wilds, needed - 1)
                if after < now and (best is None or after < best[0]):
                    best = (after, pair)
            if best is not None:
                uids = tuple(player.uids_of(best[1][0], 1) + player.uids_of(best[1][1], 1))
                return Claim(player.seat, "chow", uids)
        return None

    @staticmethod
    def _chow_shapes(tile: Tile) -> tuple[tuple[Tile, Tile], ...]:
        return _CHOW_PAIRS[tile]

    def _best_after_claim(self, player: Player, rest: list[Tile], wilds: tuple[Tile, ...], needed: int) -> int:
        """The distance after the claim's discard: the best of `rest` less any one tile but a wild
        (worked out in one pass, `_discard_distances`)."""
        discards = [kind for kind in set(rest) if kind not in wilds]
        return min([FAR, *self._discard_distances(player, rest, wilds, discards, needed).values()])

    def self_kong(self, player: Player, view: TableView, can_kong: bool) -> SelfKong | None:
        """A concealed kong of four in hand, or the fourth tile onto a shown pung."""
        if not can_kong or player.ready or player.rng.random() >= self.style.kong:
            return None
        wilds = self.wilds(player, view)
        kinds = player.kinds()
        needed = self.needed(player)
        now: int | None = None      # the distance after the best discard: counted only for a four in hand
        for kind in _fours(kinds):
            if kind not in wilds:
                uids = player.uids_of(kind, 4)
                if any(u in player.standing for u in uids):
                    continue
                if now is None:
                    now = min(self._discard_distances(player, kinds, wilds, set(kinds), needed).values(), default=FAR)
                rest = [k for k in kinds if k != kind]
                if self.distance(player, rest, wilds, needed - 1) <= now + 1:
                    return SelfKong(kind, True, tuple(uids))
        for kind in sorted(player.pung_kinds()):
            if kind in kinds and kind not in wilds:
                uid = player.uids_of(kind, 1)[0]
                if uid in player.standing:
                    continue
                return SelfKong(kind, False, (uid,))
        return None

    # -- before play -----------------------------------------------------------------------------

    def choose_void(self, player: Player, suits: tuple[str, ...]) -> str:
        counts = Counter(k.suit for k in player.kinds() if k.is_suited)
        return min(suits, key=lambda s: (counts[s], player.rng.random()))

    def exchange_three(self, player: Player, suits: tuple[str, ...]) -> list[bytes]:
        """Three tiles of one suit: the shortest suit holding three, least useful first."""
        counts = Counter(k.suit for k in player.kinds() if k.is_suited)
        usable = [s for s in suits if counts[s] >= 3] or [max(suits, key=lambda s: counts[s])]
        suit = min(usable, key=lambda s: (counts[s], player.rng.random()))
        kinds = player.kinds()
        held = Counter(kinds)
        mine = sorted(((self._usefulness(k, held), u) for u, k in player.hand.items() if k.suit == suit))
        return [u for _, u in mine[:3]]


def _fours(kinds: list[Tile]) -> list[Tile]:
    """The kinds held four times, in order: in the sorted hand, a kind whose fourth copy is three
    places on and no fifth (asked every turn; a count of every kind held was most of that)."""
    ordered = sorted(kinds)
    last = len(ordered) - 1
    return [kind for i, kind in enumerate(ordered[:-3]) if kind == ordered[i + 3]
            and (i == 0 or ordered[i - 1] != kind) and (i + 4 > last or ordered[i + 4] != kind)]


def _without(kinds: list[Tile], kind: Tile) -> list[Tile]:
    rest = list(kinds)
    rest.remove(kind)
    return rest
