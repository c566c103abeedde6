"""Judging a hand under a region's rules: complete (a shape the region allows), legal (also
meets every requirement of the text), which reading of the hand, and for a short hand its waits.

A requirement is a small named predicate with the text's words: `Requirement(key, zh, source,
check)`.  It looks at a `Judged` hand — one reading (decomposition) of the tiles with the wilds
assigned, the declared melds and the win context.  A hand is legal when at least one reading
meets every requirement; the verdict keeps that reading, so the scorer prices what was judged.
A check written over the hand and its context alone (`of_hand`) reads no reading: a caller asking
only whether a hand is legal learns a failing one without looking for any reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from collections.abc import Hashable
from typing import Any, Callable, Iterable

from .hand import Hand, HandError, MeldKind, WinContext
from .provenance import Source
from .tiles import Tile
from .winning import Evaluator, GroupKind, Shapes, WinShape
from .winning.readings import GroupView


@dataclass(frozen=True)
class Judged:
    """One reading of a complete hand, as a requirement sees it."""

    hand: Hand
    shape: WinShape
    context: WinContext
    wild_kinds: frozenset[Tile]
    memo: dict = field(default_factory=dict, compare=False, repr=False)
    """What several rules compute of this reading (螺山's 和数: its threshold, then its price)."""

    @cached_property
    def standing(self) -> tuple[Tile, ...]:
        """Every tile as it stands: concealed groups (wilds as what they stand for) and declared melds
        (a 花碰's 财神 as the kind it stands for)."""
        return tuple(t for g in self.shape.groups for t in g.tiles) + \
            tuple(t for m in self.hand.melds for t in m.standing)

    @cached_property
    def suits(self) -> frozenset[str]:
        return frozenset(t.suit for t in self.standing if t.is_suited)

    @property
    def declared(self):
        return self.hand.melds

    @property
    def claimed(self):
        """Melds claimed from a discard or shown (all declared melds but concealed kongs)."""
        return tuple(m for m in self.hand.melds if not m.is_concealed)

    @cached_property
    def pung_count(self) -> int:
        """刻子 in the wide sense: concealed pungs (free wild groups count) and declared pungs/kongs."""
        concealed = sum(1 for g in self.shape.groups if g.kind is GroupKind.PUNG or (g.is_meld and g.free))
        return concealed + sum(1 for m in self.hand.melds if m.is_pung_like)

    @cached_property
    def all_pungs(self) -> bool:
        return self.shape.shape.value == "standard" and self.shape.all_pungs and \
            all(m.is_pung_like or m.kind is MeldKind.SPECIAL for m in self.hand.melds)

    @property
    def pair(self) -> Tile | None:
        pairs = self.shape.pairs
        return pairs[0].tiles[0] if len(pairs) == 1 else None

    @property
    def wilds_as_wild(self) -> int:
        return self.shape.wilds_as_wild


HandCheck = Callable[[Hand, WinContext], bool]


def of_hand(check: HandCheck) -> Callable[[Judged], bool]:
    """A requirement's check that reads only the hand (tiles, declared melds) and the win context
    (开门, 自摸, 报听, …), never how the tiles are read: it is the same for every reading, so a
    hand failing it fails in all of them (`Requirement.hand_check`)."""
    def judged(j: Judged) -> bool:
        return check(j.hand, j.context)
    judged.__name__, judged.__doc__ = check.__name__, check.__doc__
    judged.hand_check = check  # type: ignore[attr-defined]
    return judged


@dataclass(frozen=True)
class Requirement:
    key: str
    zh: str                                   # the text's words, short
    source: Source
    check: Callable[[Judged], bool]
    by_key: Callable[[Any, WinContext], bool] | None = None
    """The same check from the scorer's key of a reading alone (螺山's 100/200 和数), when it reads
    nothing else: a judge that knows a class's key (`judge`'s `rank`) then needs no reading."""
    hopeless: Callable[[Hand, WinContext, Evaluator], bool] | None = None
    """(hand, context, the judge's evaluator) -> True only when no reading of the hand can meet the
    check (rulesets/reading_bounds.py): a caller asking only whether a hand is legal (`is_legal`)
    then reads none.  False says nothing."""
    assured: Callable[[Hand, WinContext, Evaluator], bool] | None = None
    """The other way: True only when every reading of the hand meets the check (a 平和 rule met by
    any self-drawn hand): where every requirement is a hand check or assured, `is_legal` needs no
    reading either, only whether the hand is complete.  False says nothing."""
    witnessed: Callable[[Hand, WinContext, Evaluator], bool] | None = None
    """True only when some reading of the hand meets the check (长沙's 二五八将: the hand is complete
    with a 2/5/8 pair): where it is the one requirement neither read from the hand nor assured, that
    reading meets them all, and `is_legal` needs none either.  False says nothing."""

    @property
    def hand_check(self) -> HandCheck | None:
        """The check over the hand and context alone, when it reads no reading (`of_hand`)."""
        return getattr(self.check, "hand_check", None)

    def describe(self) -> str:
        return f"{self.zh} ({self.key})"


@dataclass(frozen=True)
class WinRules:
    shapes: Shapes = Shapes()
    requirements: tuple[Requirement, ...] = ()

    def describe(self) -> str:
        shapes = [name for name, on in (("standard", self.shapes.standard), ("seven pairs", self.shapes.seven_pairs),
                                        ("thirteen orphans", self.shapes.thirteen_orphans), ("十三烂", self.shapes.shisanlan),
                                        ("八对+单张", self.shapes.eight_pairs_plus_single)) if on]
        extra = []
        if self.shapes.honour_chows:
            extra.append("honour chows")
        if self.shapes.pair_kinds is not None:
            extra.append("pair of " + "".join(sorted({str(t.rank) for t in self.shapes.pair_kinds})))
        text = "shapes: " + ", ".join(shapes + extra)
        if self.requirements:
            text += "; requires: " + "; ".join(r.describe() for r in self.requirements)
        return text


@dataclass(frozen=True)
class Verdict:
    complete: bool
    legal: bool
    shape: WinShape | None
    failures: tuple[str, ...] = ()
    readings: int = 0
    waits: tuple[Tile, ...] = field(default=())
    legal_readings: tuple[WinShape, ...] = field(default=())   # every reading meeting the requirements


SHORT = "the hand is one tile short"
NO_SHAPE = "not a winning shape in this region"

Keep = Callable[[list[tuple[Judged, list[Callable[[], WinShape]]]]], list[WinShape]]
"""keep(legal classes as (first reading judged, builders of the others)) -> the legal readings to list."""
Rank = Callable[[Hashable], Any]
"""rank(class) -> the key `keep` picks by, for every reading of that class, or None if not known."""


def melds_needed(hand_size: int, hand: Hand) -> int:
    """Melds the concealed tiles must form: 4 for 13-tile hands, 5 for 16, less the declared melds."""
    return (hand_size - 1) // 3 - len(hand.melds)


def make_evaluator(rules: WinRules, wild_kinds: Iterable[Tile], stand_ins: dict[Tile, Tile] | None = None) -> Evaluator:
    return Evaluator(frozenset(wild_kinds), rules.shapes, stand_ins or {})


def judge(rules: WinRules, hand_size: int, hand: Hand, context: WinContext,
          wild_kinds: Iterable[Tile] = (), stand_ins: dict[Tile, Tile] | None = None,
          candidates: Iterable[Tile] = (), view: GroupView | None = None, coarse: GroupView | None = None,
          first_legal: bool = False, keep: Keep | None = None, rank: Rank | None = None) -> Verdict:
    """A complete hand's verdict, or a short hand's waits.

    `view`: how the requirements and the scorer see a group (rulesets/scoring/views.py); the
    readings they cannot tell apart are judged once (None: every reading).  `coarse`: how the
    requirements alone see one (a part of `view`): readings alike under it are legal alike, so
    one of them is checked and the others are built only when it is legal.  `first_legal`: stop
    at the first legal reading (a caller asking only whether the hand is legal).  `keep`: which
    legal readings the verdict lists, given each coarse class's first reading and builders of
    the rest (a settle that needs only the best-priced classes); without it, all of them.
    With `first_legal`, a requirement the hand fails whatever its reading (`of_hand`) ends the
    judgement before any reading is looked for (the verdict then has no shape), and a reading's
    check stops at the first requirement it fails (an illegal verdict names one).
    `rank`: the scorer's key (what `keep` picks by) worked out from a class alone (None: not known
    for it).  With `keep`, the classes are judged best key first, and once legal ones are found,
    those of a lower key are not built at all.  Where every requirement is decided by that key
    (`Requirement.by_key`), no class is built to be judged: only the legal ones kept (and, for a
    hand that is not legal, the first one, which the verdict shows)."""
    wilds = frozenset(wild_kinds)
    evaluator = make_evaluator(rules, wilds, stand_ins)
    needed = melds_needed(hand_size, hand)
    length = len(hand.concealed)
    if needed < 0:                  # (the count below would ask for -1 tiles)
        raise HandError(f"{len(hand.melds)} declared melds: a {hand_size}-tile hand has at most "
                        f"{(hand_size - 1) // 3}")
    if length == 3 * needed + 1:
        return Verdict(False, False, None, (SHORT,), 0,
                       evaluator.waits(hand.concealed, needed, candidates))
    if length != 3 * needed + 2:
        raise HandError(f"{length} concealed tiles with {len(hand.melds)} declared meld(s): "
                        f"a {hand_size}-tile hand needs {3 * needed + 2} to win or {3 * needed + 1} to wait")
    checks = rules.requirements
    if first_legal:
        failures = hand_failures(rules, hand, context)
        if failures:
            complete = evaluator.is_complete(hand.concealed, needed)
            return Verdict(complete, False, None, failures if complete else (NO_SHAPE,))
        checks = tuple(r for r in checks if r.hand_check is None)     # the hand passed those
    classes = evaluator.classified_decompositions(hand.concealed, needed, context.win_tile, view, coarse)
    if not classes:
        return Verdict(False, False, None, (NO_SHAPE,))
    by_key = all(r.by_key is not None for r in rules.requirements)
    ranked = _ranked(classes, rank) if rank is not None and (keep is not None or by_key) else None
    order, keys = ranked if ranked is not None else (None, None)
    decided = keys is not None and by_key             # legality from the key: no reading to build
    best_failures: tuple[tuple[int, int], tuple[str, ...]] | None = None
    shapes: dict[int, WinShape] = {}
    legal_classes: list[tuple[Judged, list[Callable[[], WinShape]]]] = []
    legal_key = None
    for index in (order or range(len(classes))):
        builds = classes[index][1]
        key = keys[index] if keys is not None else None
        if legal_classes and keys is not None and key != legal_key:
            break                                     # a lower key: `keep` would drop it
        if decided:
            failures = tuple(r.describe() for r in rules.requirements if not r.by_key(key, context))  # type: ignore[misc]
        if not decided or not failures:
            shape = shapes[index] = builds[0]()
            judged = Judged(hand, shape, context, wilds)
            if not decided:
                failures = _failures(checks, judged, first_legal)
        if not failures:
            if first_legal:
                legal_classes.append((judged, []))
                break
            legal_classes.append((judged, builds[1:]))
            legal_key = key
        elif best_failures is None or (len(failures), index) < best_failures[0]:
            best_failures = (len(failures), index), failures
    if keep is not None and legal_classes:
        legal = keep(legal_classes)
    else:
        legal = [shape for found, rest in legal_classes for shape in (found.shape, *(build() for build in rest))]
    count = sum(len(builds) for _, builds in classes)
    if legal:
        return Verdict(True, True, legal[0], (), count, legal_readings=tuple(legal))
    first = shapes[0] if 0 in shapes else classes[0][1][0]()
    return Verdict(True, False, first, best_failures[1] if best_failures else (), count)


def _failures(requirements: tuple[Requirement, ...], judged: Judged, first: bool) -> tuple[str, ...]:
    """The requirements a reading fails; with `first`, only the first of them (a caller asking
    only whether the hand is legal needs no more, and 武汉's two 屁胡 rules each judge its 大胡)."""
    failed = (r.describe() for r in requirements if not r.check(judged))
    if first:
        found = next(failed, None)
        return () if found is None else (found,)
    return tuple(failed)


def hand_failures(rules: WinRules, hand: Hand, context: WinContext) -> tuple[str, ...]:
    """The requirements the hand fails whatever its reading (those with a `hand_check`)."""
    return tuple(r.describe() for r in rules.requirements
                 if r.hand_check is not None and not r.hand_check(hand, context))


def _ranked(classes: list[tuple[Hashable, list[Callable[[], WinShape]]]], rank: Rank
            ) -> tuple[list[int], list[Any]] | None:
    """The classes' indices, best key first (in their order among equals), and each class's key;
    None when a class's key is not known."""
    keys = [rank(key) for key, _ in classes]
    if None in keys:
        return None
    return sorted(range(len(classes)), key=keys.__getitem__, reverse=True), keys  # stable: ties keep their order
