"""What no reading of a hand can have, seen from its tiles alone: quick refusals for a caller that
asks only whether a hand is legal (the simulated players, at every wait they weigh).

A requirement that reads how the hand is read (its pair, its tiles as the wilds stand) may also
say, from the hand and the context, that no reading can meet it (`Requirement.hopeless`): 武汉's
屁胡 needs a 2/5/8 pair or a 大胡, and a hand holding no 2/5/8 tile twice, of two suits, with a
chow shown has neither however it is read.  Every bound here is one-sided: True only when no
reading can have the thing, False says nothing; a reading the evaluator would never list is
allowed for, never the other way.

`free`: the kinds whose tiles may stand for another (the wilds, a wild's stand-in).  A tile of one
may be anything in some reading, so only the other concealed tiles and the declared melds bind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from .hand import Hand, HandError, MeldKind, WinContext
from .tiles import Tile
from .winning import PAIRS_258, Evaluator, Shapes

PAIR_258 = (2, 5, 8)
HandBound = Callable[[Hand, WinContext, Evaluator], bool]


def either_way(check: HandBound) -> dict[str, HandBound]:
    """`Requirement.hopeless` and `assured` of a check whose answer is the same in every reading
    (it reads the hand, the context and the wild kinds, never how the tiles are read)."""
    return {"hopeless": lambda hand, context, evaluator: not check(hand, context, evaluator), "assured": check}


def free_kinds(evaluator: Evaluator) -> frozenset[Tile]:
    """The wilds and their stand-ins of the judge's evaluator."""
    return evaluator.wild_kinds | frozenset(evaluator.stand_ins)


def fixed_counts(hand: Hand, free: frozenset[Tile]) -> Counter:
    """How many of each kind the concealed tiles hold, the free kinds left out."""
    counts = Counter(hand.concealed)
    for kind in free:
        counts.pop(kind, None)
    return counts


def free_count(hand: Hand, free: frozenset[Tile]) -> int:
    """Concealed tiles that may stand for any kind."""
    return sum(1 for t in hand.concealed if t in free)


def fixed_tiles(hand: Hand, free: frozenset[Tile]) -> tuple[Tile, ...]:
    """The tiles every reading shows as they are: the other concealed tiles and the declared melds
    as they stand."""
    return tuple(t for t in hand.concealed if t not in free) + tuple(t for m in hand.melds for t in m.standing)


def is_258(tile: Tile) -> bool:
    """A 2, 5 or 8 of a suit."""
    return tile.is_suited and tile.rank in PAIR_258


def no_pair_of(hand: Hand, evaluator: Evaluator, kinds: frozenset[Tile]) -> bool:
    """No reading has one pair, of a kind among `kinds`: the hand is not complete with its pair
    so restricted (`Shapes.pair_kinds`, the special shapes as they are).  An evaluator that cannot
    read the hand says nothing: the judge says what is wrong."""
    try:
        return not pair_evaluator(evaluator, kinds).is_complete(hand.concealed, (len(hand.concealed) - 2) // 3)
    except HandError:
        return False


def pair_witnessed(hand: Hand, evaluator: Evaluator, kinds: frozenset[Tile]) -> bool:
    """Some reading has one pair, of a kind among `kinds`: the hand is complete with its pair so
    restricted.  Only with at most one free tile: the judge lists a pair of two as their own face,
    where the restricted evaluator lets them be any pair."""
    if free_count(hand, free_kinds(evaluator)) > 1:
        return False
    try:
        return pair_evaluator(evaluator, kinds).is_complete(hand.concealed, (len(hand.concealed) - 2) // 3)
    except HandError:
        return False


def pair_258_witnessed(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """`Requirement.witnessed` of a check every reading with a 2/5/8 pair meets (长沙's 二五八将, 武汉's
    屁胡 二五八将): some reading has one (`pair_witnessed`)."""
    return pair_witnessed(hand, evaluator, PAIRS_258)


def pair_evaluator(evaluator: Evaluator, kinds: frozenset[Tile]) -> Evaluator:
    """`evaluator` with its pair restricted to `kinds` (kept: the players ask at every wait)."""
    return _restricted(evaluator.wild_kinds, tuple(evaluator.stand_ins.items()), evaluator.shapes, kinds)


@lru_cache(maxsize=64)
def _restricted(wilds: frozenset[Tile], stand_ins: tuple[tuple[Tile, Tile], ...], shapes: Shapes,
                kinds: frozenset[Tile]) -> Evaluator:
    allowed = kinds if shapes.pair_kinds is None else kinds & shapes.pair_kinds
    return Evaluator(wilds, replace(shapes, pair_kinds=allowed), dict(stand_ins))


def no_all_pungs(hand: Hand, free: frozenset[Tile], counts: Counter | None = None) -> bool:
    """No reading is all pungs (碰碰胡, `Judged.all_pungs`): a chow is shown, or the concealed tiles
    need more free tiles than held to make pungs and a pair of them (`counts`: their
    `fixed_counts`, if known)."""
    if any(not (m.is_pung_like or m.kind is MeldKind.SPECIAL) for m in hand.melds):
        return True
    counts = fixed_counts(hand, free) if counts is None else counts
    return _pung_wilds_needed(counts) > len(hand.concealed) - sum(counts.values())


def all_pungs_witnessed(hand: Hand, free: frozenset[Tile]) -> bool:
    """Some reading is all pungs: no free tile, and `no_all_pungs` finds the hand needs none (every
    meld shown a pung or kong, each kind held a multiple of three times but one, held two more than
    that: its pair).  Only without free tiles: the count would let a wild make a fifth tile of a
    face, which no reading does."""
    return not free_count(hand, free) and not no_all_pungs(hand, free)


def _pung_wilds_needed(counts: Counter) -> int:
    """The fewest free tiles that make every kind's tiles pungs and one pair: each kind's count
    up to a multiple of three; then the pair takes one free tile less (two or one of a kind held
    not a multiple of three times: 1, 2, 4 … become 2, 3, 5 …), or, when every count is a multiple
    of three, two more (a free pair, or a pung cut to a pair and a free tile's pung)."""
    rounded = sum(-n % 3 for n in counts.values())
    return rounded - 1 if any(n % 3 for n in counts.values()) else rounded + 2


def no_one_suit(fixed: tuple[Tile, ...], honours_allowed: bool) -> bool:
    """No reading is of one suit (清一色, or 混一色 with honours allowed), given the `fixed_tiles`:
    two suits among them, or an honour where none is allowed."""
    if len({t.suit for t in fixed if t.is_suited}) > 1:
        return True
    return not honours_allowed and any(t.is_honour for t in fixed)


def no_all_honours(fixed: tuple[Tile, ...]) -> bool:
    """No reading is all honours (字一色, 风一色): a suited tile among the `fixed_tiles`."""
    return any(t.is_suited for t in fixed)


def no_all_258(fixed: tuple[Tile, ...]) -> bool:
    """No reading is all 2, 5 and 8 (将一色): another tile among the `fixed_tiles`."""
    return not all(is_258(t) for t in fixed)


def fixed_suits(hand: Hand, counts: Counter) -> set[str]:
    """The suits among the fixed tiles, from the concealed ones' `fixed_counts`."""
    return {k.suit for k in counts if k.is_suited} | {t.suit for m in hand.melds for t in m.standing if t.is_suited}


def suit_counts(fixed: tuple[Tile, ...]) -> list[int]:
    """How many of the `fixed_tiles` each suit holds (万, 筒, 条)."""
    counts = Counter(t.suit for t in fixed if t.is_suited)
    return [counts[suit] for suit in "mps"]


def no_eight_of_a_suit(hand: Hand, free: frozenset[Tile]) -> bool:
    """No reading has eight tiles of one suit (八枝): no suit's fixed tiles and the free ones make eight."""
    return max(suit_counts(fixed_tiles(hand, free))) + free_count(hand, free) < 8


def eight_of_a_suit(hand: Hand, free: frozenset[Tile]) -> bool:
    """Every reading has eight tiles of one suit: that many are fixed."""
    return max(suit_counts(fixed_tiles(hand, free))) >= 8


def three_suits_hopeless(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """No reading shows 万, 筒 and 条 (三色全): the fixed suits and one per free tile are fewer."""
    free = free_kinds(evaluator)
    return len(fixed_suits(hand, fixed_counts(hand, free))) + free_count(hand, free) < 3


def three_suits_assured(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """Every reading shows the three suits: they are fixed."""
    return len(fixed_suits(hand, fixed_counts(hand, free_kinds(evaluator)))) == 3


def terminal_hopeless(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """No reading shows a suited 1 or 9: none is fixed, and no tile may stand for one."""
    free = free_kinds(evaluator)
    return not free_count(hand, free) and not any(t.is_terminal for t in fixed_tiles(hand, free))


def terminal_assured(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """Every reading shows a suited 1 or 9: one is fixed."""
    return any(t.is_terminal for t in fixed_tiles(hand, free_kinds(evaluator)))


def pung_hopeless(hand: Hand, evaluator: Evaluator, kinds: Callable[[Tile], bool]) -> bool:
    """No reading has a pung or kong of a kind `kinds` takes: none is shown, no free tile, and no
    such kind held three times."""
    if any(m.is_pung_like and kinds(m.kind_tile) for m in hand.melds):
        return False
    free = free_kinds(evaluator)
    return not free_count(hand, free) and not any(n >= 3 and kinds(k) for k, n in fixed_counts(hand, free).items())


def pung_assured(hand: Hand, evaluator: Evaluator, kinds: Callable[[Tile], bool]) -> bool:
    """Every reading has a pung or kong of a kind `kinds` takes: one is shown, or an honour among
    them is held three times where honours make no chows and the shape is the standard one
    (however the pair and the wilds go, a pung holds one of its tiles)."""
    if any(m.is_pung_like and kinds(m.kind_tile) for m in hand.melds):
        return True
    shapes = evaluator.shapes
    if shapes.honour_chows or shapes.seven_pairs or shapes.eight_pairs_plus_single or shapes.thirteen_orphans:
        return False            # (honours in chows, or held three times as a pair and a pair with a wild)
    counts = fixed_counts(hand, free_kinds(evaluator))
    return any(n >= 3 and k.is_honour and kinds(k) for k, n in counts.items())
