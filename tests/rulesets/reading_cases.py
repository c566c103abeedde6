"""Seeded winning hands of a region for the reading-class tests and the scoring benchmark.

A case is a complete hand of the region's size (melds and a pair, sometimes one meld declared,
sometimes seven pairs or thirteen orphans where the region has them) with k of its concealed
tiles replaced by wild tiles, and a win context drawn at random (who won, from whom, on which
of his tiles, ready or not, on a kong's replacement …).  Wilds are of one kind (two kinds for
a region whose rules make two, and sometimes anyway).  Hands lean towards one suit and pairs,
which give the most splits.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

from rulesets.definition import Ruleset
from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.indicators import Effect
from rulesets.tiles import Tile

if TYPE_CHECKING:
    from rulesets.winning import WinShape


@dataclass(frozen=True)
class Case:
    hand: Hand
    context: WinContext

    def __str__(self) -> str:
        wilds = ",".join(map(str, self.context.wilds))
        melds = " ".join(str(m) for m in self.hand.melds)
        return (f"{''.join(map(str, self.hand.concealed))} [{melds}] wilds {wilds} win {self.context.win_tile} "
                f"from {self.context.discarder}")


def wild_kind_count(ruleset: Ruleset) -> int:
    """How many kinds the region's indicators make wild at most (0, 1 or 2)."""
    count = 0
    for rule in ruleset.indicators:
        if rule.effect is Effect.WILD:
            count += 2 if rule.derivation.rule == "same_and_next" else 1
    return min(count, 2)


def _meld(rng: random.Random, kinds: list[Tile], suit_bias: int | None) -> list[Tile]:
    suited = [k for k in kinds if k.is_suited and (suit_bias is None or k // 9 == suit_bias)]
    if suited and rng.random() < 0.55:
        low = rng.choice([k for k in suited if k % 9 <= 6 and Tile(k + 2) in kinds] or suited)
        if low % 9 <= 6 and Tile(low + 2) in kinds:
            return [Tile(low), Tile(low + 1), Tile(low + 2)]
    pool = suited if suited and rng.random() < 0.7 else kinds
    return [rng.choice(pool)] * 3


def make_case(rng: random.Random, ruleset: Ruleset, wilds: int, two_kinds: bool = False) -> Case | None:
    """A case with `wilds` wild tiles (at most four per kind), or None when the draw broke the
    set's copies or held the wild kind."""
    kinds = [k for k in ruleset.tiles.kinds if not k.is_flower]
    melds_total = (ruleset.hand_size - 1) // 3
    suit_bias = rng.choice([0, 1, 2, None]) if rng.random() < 0.7 else None
    shapes = ruleset.win.shapes
    roll = rng.random()
    if shapes.seven_pairs and roll < 0.15 and ruleset.hand_size == 13:
        tiles = [k for k in rng.sample(kinds, 7) for _ in range(2)]
        groups: list[list[Tile]] = []
    elif shapes.thirteen_orphans and roll < 0.25 and ruleset.hand_size == 13:
        orphans = [k for k in kinds if k.is_terminal_or_honour]
        tiles = orphans + [rng.choice(orphans)]
        groups = []
    else:
        groups = [_meld(rng, kinds, suit_bias) for _ in range(melds_total)]
        pair_pool = [k for k in kinds if suit_bias is None or k.is_honour or k // 9 == suit_bias]
        tiles = [rng.choice(pair_pool)] * 2
        for group in groups:
            tiles += group
    declared: list[Meld] = []
    if groups and rng.random() < 0.3:
        group = groups[rng.randrange(len(groups))]
        kind = MeldKind.CHOW if group[0] != group[1] else rng.choice([MeldKind.PUNG, MeldKind.PUNG, MeldKind.KONG])
        shown = tuple(group) + ((group[0],) if kind is MeldKind.KONG else ())
        for t in group:
            tiles.remove(t)
        declared.append(Meld(kind, shown))
    everything = tiles + [t for m in declared for t in m.tiles]
    if any(everything.count(k) > ruleset.tiles.copies(k) for k in set(everything)):
        return None
    wild_kinds = _wild_kinds(rng, kinds, two_kinds)
    if any(k in wild_kinds for k in everything):
        return None  # the natural hand holds no tile of the wild kinds; they come in below
    concealed = list(tiles)
    spots = rng.sample(range(len(concealed)), min(wilds, len(concealed)))
    for n, index in enumerate(spots):  # at most four of each wild kind
        concealed[index] = wild_kinds[n % len(wild_kinds)]
    hand = Hand(tuple(sorted(concealed)), tuple(declared))
    return Case(hand, _context(rng, ruleset, hand, tuple(wild_kinds)))


def _wild_kinds(rng: random.Random, kinds: list[Tile], two: bool) -> list[Tile]:
    first = rng.choice(kinds)
    if not two:
        return [first]
    second = rng.choice([k for k in kinds if k != first])
    return [first, second]


def _context(rng: random.Random, ruleset: Ruleset, hand: Hand, wilds: tuple[Tile, ...]) -> WinContext:
    sides = tuple(ruleset.players)
    winner, dealer = rng.choice(sides), rng.choice(sides)
    discarder = None if rng.random() < 0.5 else rng.choice([s for s in sides if s != winner])
    ready = rng.random() < 0.5
    extra: tuple[tuple[str, object], ...] = ()
    if rng.random() < 0.3:
        extra = (("void_suit", rng.choice("mps")),)
    return WinContext(
        winner=winner, dealer=dealer, discarder=discarder, win_tile=rng.choice(hand.concealed), sides=sides,
        ready_declared=ready, kong_replacement=discarder is None and rng.random() < 0.15,
        last_tile=rng.random() < 0.1, bao_hit=discarder is None and ready and rng.random() < 0.2,
        consecutive_dealer=rng.choice((0, 0, 1, 2)), wilds=wilds, extra=extra)


def readings_of_cases(rng: random.Random, ruleset: Ruleset, cases: int) -> Iterator[tuple[Hand, "WinShape", WinContext]]:
    """Every reading of `cases` seeded hands with 0–4 wilds (`make_case`), hand by hand."""
    from rulesets.judging import stand_ins_for
    from rulesets.winrules import make_evaluator, melds_needed
    made = 0
    while made < cases:
        case = make_case(rng, ruleset, rng.randint(0, 4))
        if case is None:
            continue
        hand, context = case.hand, case.context
        evaluator = make_evaluator(ruleset.win, context.wilds, stand_ins_for(ruleset, context.wilds))
        for shape in evaluator.decompositions(hand.concealed, melds_needed(ruleset.hand_size, hand), context.win_tile):
            yield hand, shape, context
        made += 1
