"""The settlement round: at the end of a hand every seat the rules name lays its hand, and what is paid for it.

The table cannot see a hand that was not won, so where a region settles every seat it asks each
seat to lay its hand on its read zone (docs/table-flow.md §6).  Which seats, and what is judged:

- `check_ready_at_draw` (云南 「流局查大叫，杠钱不算」): at a drawn hand every seat; a hand that some
  tile would complete legally is ready (有叫).  The draw's settlement pays by these ready sides.
- `check_flower_pig` (宜昌 「打完查花猪（三方牌）」): at the end of the hand every seat; a hand still
  holding all three suits is a 花猪.  The text names no penalty, so a 花猪 is named and paid nothing.
- `settle_every_seat`: after a win every seat that did not win lays its hand, and the region's scorer
  pays what each holds (`settle_round`): 贵州 「有3条就有钱」, 「被胡的人可能赢钱」 — each collecting seat is
  paid for the 鸡 it holds; 南昌 with every side's 精分 settled — each seat collects its 精分.
- `lay_kongs` (长春 大蛋, house option `dadan`): at the end of every hand, won or drawn, each seat that
  made a kong lays its exposed kongs, then its concealed kongs beside them (`kongs_laid`), and the
  scorer pays the 大蛋 among them (`settle_round`): the table knows a kong by its 杠 press, not its tiles.

A hand not shown (a seat that pressed 确认 on an empty zone, or did not answer in time) is settled
as the worst case: not ready, a 花猪, no 鸡 — it proves nothing.  Pure rules: no I/O, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, Sequence

from .hand import Hand, Meld, MeldKind, WinContext
from .judging import evaluate_hand
from .settlement import Item, Settlement
from .tiles import Tile
from .winrules import SHORT

ROUND_PHASES = ("check_ready_at_draw", "check_flower_pig", "settle_every_seat", "lay_kongs")
SUITS = frozenset("mps")


@dataclass(frozen=True)
class SeatShown:
    """What one seat laid: its hand, or None when it showed nothing."""

    side: int
    hand: Hand | None
    timed_out: bool = False         # it did not answer in time (the recorder says so)


@dataclass(frozen=True)
class RoundContext:
    dealer: int
    sides: tuple[int, ...]
    winners: tuple[int, ...]        # the seats that won this hand (none at a draw)
    shown: tuple[SeatShown, ...]    # every seat asked, in seat order
    flipped: tuple[Tile, ...] = ()  # the after-win flips of the hand (鸡 …)
    wilds: tuple[Tile, ...] = ()    # the public wilds
    kongs: tuple[tuple[int, int, int], ...] = ()    # (side, exposed, concealed) kongs pressed (`lay_kongs`)
    first_yaoji: tuple[int, int | None] | None = None   # 贵州: (discarder, claimer) of the first 1条 discarded

    @property
    def drawn(self) -> bool:
        return not self.winners


@dataclass(frozen=True)
class SeatVerdict:
    side: int
    shown: bool
    ready: bool | None = None       # judged where the region checks ready hands (查大叫, 有叫 for 鸡)
    waits: tuple[Tile, ...] = ()
    flower_pig: bool | None = None  # judged where the region checks for 花猪


@dataclass(frozen=True)
class RoundResult:
    verdicts: tuple[SeatVerdict, ...]
    ready: tuple[int, ...] | None   # the ready sides, when the round judged them (the draw pays by them)
    settlement: Settlement          # what the round itself pays (鸡 of every seat …)

    def verdict(self, side: int) -> SeatVerdict | None:
        return next((v for v in self.verdicts if v.side == side), None)


def round_phases(ruleset: Any) -> frozenset[str]:
    return frozenset(p.name for p in ruleset.phases if p.name in ROUND_PHASES)


def round_seats(ruleset: Any, winners: tuple[int, ...], kong_sides: Iterable[int] = ()) -> tuple[int, ...]:
    """The seats asked to lay their hands when the hand ends with these winners (none: no round);
    `kong_sides`: the seats that pressed 杠 for a kong (asked where the round lays kongs)."""
    phases = round_phases(ruleset)
    seats: set[int] = set()
    if "check_flower_pig" in phases or ("check_ready_at_draw" in phases and not winners):
        seats.update(ruleset.players)
    if "settle_every_seat" in phases and winners:
        seats.update(s for s in ruleset.players if s not in winners)
    if "lay_kongs" in phases:
        seats.update(s for s in kong_sides if s in ruleset.players)
    return tuple(sorted(seats))


def kong_counts(flags: Sequence[bool]) -> tuple[int, int]:
    """(exposed, concealed) of one seat's kongs, given as each kong's concealed flag."""
    concealed = sum(1 for c in flags if c)
    return len(flags) - concealed, concealed


def pressed_kongs(kongs: Mapping[int, Sequence[bool]]) -> tuple[tuple[int, int, int], ...]:
    """(seat, exposed, concealed) of the seats that made kongs, from each seat's concealed flags
    (the hand's and the audit's ordinary kongs: `RoundContext.kongs`)."""
    return tuple((seat, *kong_counts(flags)) for seat, flags in sorted(kongs.items()) if flags)


def kongs_by_side(kongs: Mapping[int, Sequence[bool]],
                  special: Mapping[int, int]) -> tuple[tuple[int, int, int], ...]:
    """(seat, exposed, concealed) of every seat with kongs pressed (`kongs`: each kong's concealed flag)
    or opening special kongs (`special`: how many 明杠 they count, 长春's 「算一个明杠」), for kong
    money: the hand's and the audit's count."""
    rows = []
    for seat in sorted(set(kongs) | set(special)):
        exposed, concealed = kong_counts(kongs.get(seat, ()))
        rows.append((seat, exposed + special.get(seat, 0), concealed))
    return tuple(rows)


def lays_kongs(ruleset: Any) -> bool:
    """Whether the round lays each kong seat's kongs (exposed, then concealed) rather than its hand."""
    return "lay_kongs" in round_phases(ruleset)


def kongs_laid(exposed_tiles: Sequence[Tile], all_tiles: Sequence[Tile], exposed: int, concealed: int) -> Hand | None:
    """The kongs a seat laid: `exposed_tiles` (the first read) must be exactly its `exposed` kongs of
    four tiles each, and the tiles `all_tiles` (the second read) adds exactly its `concealed` ones;
    anything else does not show the kongs pressed (None: settled as not shown)."""
    rest = list(all_tiles)
    for tile in exposed_tiles:
        if tile not in rest:
            return None
        rest.remove(tile)
    shown = _fours(exposed_tiles, exposed)
    hidden = _fours(rest, concealed)
    if shown is None or hidden is None:
        return None
    return Hand((), tuple(Meld(MeldKind.KONG, (t,) * 4) for t in shown)
                + tuple(Meld(MeldKind.CONCEALED_KONG, (t,) * 4) for t in hidden))


def _fours(tiles: Sequence[Tile], count: int) -> list[Tile] | None:
    """The kinds of `tiles` if they are exactly `count` groups of four of a kind, else None."""
    kinds = sorted(set(tiles))
    if len(tiles) != 4 * count or len(kinds) != count or any(tiles.count(k) != 4 for k in kinds):
        return None
    return kinds


def judges_ready(ruleset: Any, drawn: bool) -> bool:
    """Whether the round judges ready hands: 查大叫 at a draw, or 鸡 collected by the ready (有叫) sides."""
    phases = round_phases(ruleset)
    if "check_ready_at_draw" in phases and drawn:
        return True
    return "settle_every_seat" in phases and not drawn and dict(ruleset.options).get("ji_collect") == "ready"


def legal_waits(ruleset: Any, hand: Hand, side: int, dealer: int, wilds: tuple[Tile, ...] = ()) -> tuple[Tile, ...]:
    """The tiles that would complete `hand` (one tile short) into a legal win of `side`, self-drawn.

    A wait on a kind the hand already holds every copy of is no wait.  A hand of the wrong size has none."""
    context = WinContext(winner=side, dealer=dealer, sides=tuple(ruleset.players), ready_declared=True,
                         ready_sides=(side,), wilds=wilds)
    try:
        short = evaluate_hand(ruleset, hand, context, settle=False).verdict
    except ValueError:
        return ()
    if short.failures != (SHORT,):
        return ()
    held = hand.all_tiles()
    found = []
    for tile in short.waits:
        if held.count(tile) >= ruleset.tiles.copies(tile):
            continue
        full = Hand(tuple(sorted(hand.concealed + (tile,))), hand.melds, hand.flowers)
        try:
            if evaluate_hand(ruleset, full, replace(context, win_tile=tile), settle=False).verdict.legal:
                found.append(tile)
        except ValueError:
            continue
    return tuple(found)


def is_flower_pig(hand: Hand | None) -> bool:
    """「查花猪（三方牌）」: a hand holding tiles of all three suits (a hand not shown proves nothing)."""
    if hand is None:
        return True
    return SUITS <= {t.suit for t in hand.all_tiles() if t.is_suited}


def judge_round(ruleset: Any, context: RoundContext) -> RoundResult:
    """Judge every shown hand and settle what the round pays."""
    phases = round_phases(ruleset)
    ready_judged = judges_ready(ruleset, context.drawn)
    pigs_judged = "check_flower_pig" in phases
    verdicts = []
    for seat in context.shown:
        waits: tuple[Tile, ...] = ()
        if ready_judged and seat.hand is not None:
            waits = legal_waits(ruleset, seat.hand, seat.side, context.dealer, context.wilds)
        verdicts.append(SeatVerdict(seat.side, seat.hand is not None, bool(waits) if ready_judged else None, waits,
                                    is_flower_pig(seat.hand) if pigs_judged else None))
    ready = tuple(v.side for v in verdicts if v.ready) if ready_judged else None
    items: list[Item] = []
    payments = (0, 0, 0, 0)
    notes: list[str] = []
    if ("settle_every_seat" in phases and not context.drawn) or "lay_kongs" in phases:
        hands = {s.side: s.hand for s in context.shown if s.hand is not None}
        round_items, payments = ruleset.scoring.settle_round(ruleset, hands, tuple(verdicts), context)
        items += round_items
    if pigs_judged:
        pigs = [v.side for v in verdicts if v.flower_pig]
        items += [Item(f"huazhu_{side}", f"花猪 (side {side})", "hua zhu", 0, "points") for side in pigs]
        if pigs:
            notes.append("查花猪: the text names no penalty (§15): a 花猪 pays nothing")
    return RoundResult(tuple(verdicts), ready, Settlement(tuple(items), 0, payments, "points", tuple(notes)))


__all__ = ["ROUND_PHASES", "RoundContext", "RoundResult", "SeatShown", "SeatVerdict", "is_flower_pig", "judge_round",
           "judges_ready", "kong_counts", "kongs_laid", "lays_kongs", "legal_waits", "pressed_kongs", "round_phases",
           "round_seats"]
