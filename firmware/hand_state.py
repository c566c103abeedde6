"""One hand on the table: the ring, the wall map, the tracker, the indicators, the wins.

No I/O: the controller feeds it sensor changes, key meanings and zone reads, and writes what it
returns to the display and the flight recorder.  Everything secret (the ring's tiles, a private
宝) stays here until `hand_end_fields()`.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

from rulesets.definition import Ruleset
from rulesets.hand import Hand, Meld, MeldKind, WinContext, make_meld
from rulesets.indicators import Effect, IndicatorRule, RevealContext, Timing
from rulesets.judging import HandResult, evaluate_hand
from rulesets.settlement import Settlement, add_payments
from rulesets.tiles import Tile
from rulesets.walls import Break, Layer, Ring, Slot, StackPos

from .recorder import wall_hash
from .wall_tracker import Take, WallTracker


@dataclass
class Reveal:
    """An indicator shown (or chosen privately) during the hand."""

    rule: IndicatorRule
    slots: tuple[Slot, ...]
    tiles: tuple[Tile, ...]
    special: tuple[Tile, ...]
    seats: tuple[int, ...] = ()        # seats a private indicator was shown to
    roll: tuple[int, ...] = ()         # the indicator's own dice, if any

    @property
    def public(self) -> bool:
        return self.rule.public

    def event_fields(self, reveal_private: bool = False) -> dict:
        hidden = not self.public and not reveal_private
        return {
            "kind": self.rule.kind, "name": self.rule.name_zh, "timing": self.rule.timing.value,
            "ring": [s.ring for s in self.slots], "layer": [s.layer.value for s in self.slots],
            "tile": None if hidden else [str(t) for t in self.tiles],
            "wilds": None if hidden else [str(t) for t in self.special],
            "effect": self.rule.effect.value, "public": self.public, "dice": list(self.roll),
            "seat": list(self.seats) if self.seats else None,
        }


@dataclass
class WinRecord:
    seat: int
    discarder: int | None
    hand: Hand
    win_tile: Tile | None
    result: HandResult


@dataclass
class HandState:
    ruleset: Ruleset
    number: int
    dealer: int
    rolls: list[tuple[int, ...]]
    brk: Break
    ring: Ring
    wall_tiles: dict[Slot, Tile]
    deal_size: int
    salt: str = field(default_factory=lambda: secrets.token_hex(16))
    ready: list[int] = field(default_factory=list)
    reveals: list[Reveal] = field(default_factory=list)
    pending_kong: dict[int, bool] = field(default_factory=dict)     # seat → concealed?
    kongs: dict[int, list[bool]] = field(default_factory=dict)      # seat → [concealed?] per kong
    wins: list[WinRecord] = field(default_factory=list)
    out_of_play: set[int] = field(default_factory=set)              # seats that won in 血战
    last_take: Take | None = None
    bao: Reveal | None = None
    bao_used: set[Slot] = field(default_factory=set)
    draw_payments: Settlement | None = None

    def __post_init__(self) -> None:
        self.tracker = WallTracker(self.ring, self.ruleset.reserve, self.wall_tiles,
                                   self.ruleset.flowers.kinds, self.deal_size)

    # -- the wall as built -------------------------------------------------------------------

    def ring_strings(self) -> list[list[str]]:
        return [[str(self.wall_tiles[Slot(i, Layer.TOP)]), str(self.wall_tiles[Slot(i, Layer.BOTTOM)])]
                for i in range(len(self.ring))]

    def wall_hash(self) -> str:
        return wall_hash(self.salt, self.ring_strings())

    # -- takes ---------------------------------------------------------------------------------

    def on_wall_change(self, pos: StackPos, tiles: int) -> list[Take]:
        takes = self.tracker.on_stack_change(pos, tiles)
        for take in takes:
            self.last_take = take
            if take.reason == "kong":
                seat = next(iter(self.pending_kong), None)
                if seat is not None:
                    self.kongs.setdefault(seat, []).append(self.pending_kong.pop(seat))
        return takes

    @property
    def deal_complete(self) -> bool:
        return self.tracker.head_taken >= self.deal_size

    def kongs_by_side(self) -> tuple[tuple[int, int, int], ...]:
        return tuple((seat, sum(1 for c in made if not c), sum(1 for c in made if c))
                     for seat, made in sorted(self.kongs.items()))

    # -- indicators ----------------------------------------------------------------------------

    def rules_at(self, timing: Timing) -> list[IndicatorRule]:
        return [r for r in self.ruleset.indicators if r.timing is timing]

    def reveal(self, rule: IndicatorRule, roll: tuple[int, ...] = ()) -> Reveal:
        """Find and record an indicator (after the deal, or after a win)."""
        ctx = RevealContext(self.ring, self.ruleset.layout, self.dealer,
                            self.tracker.next_head_position(), self.tracker.tail_taken, roll)
        slots = rule.position.slots(ctx)
        tiles = tuple(self.wall_tiles[s] for s in slots)
        special = rule.special_kinds(tiles[0] if tiles else None)
        reveal = Reveal(rule, slots, tiles, special, roll=roll)
        self.reveals.append(reveal)
        if rule.effect is Effect.SHOWN:
            for slot in slots:
                self.tracker.show(slot)
        return reveal

    def choose_bao(self, rule: IndicatorRule, roll: tuple[int, ...]) -> Reveal:
        """长春 选宝 / 换宝: the die counted from the tail (RULES.md §1.3).

        A slot that was a 宝 before is passed over (counting on towards the head), and the lower
        layer is used once the upper 宝 are dead (「则可利用下层的牌作宝，上下互换」, option
        `bao_lower_layer`: after six 宝 have died, or when the six upper tiles a die reaches are dead).
        """
        if self.bao is not None:
            self.bao_used.add(self.bao.slots[0])
        ctx = RevealContext(self.ring, self.ruleset.layout, self.dealer,
                            self.tracker.next_head_position(), self.tracker.tail_taken, roll)
        (slot,) = rule.position.slots(ctx)
        layer = Layer.BOTTOM if self._lower_layer_now(rule, ctx) else slot.layer
        slot = Slot(slot.ring, layer)
        while (slot in self.bao_used or slot in self.tracker.taken) and slot.ring > 0:
            slot = Slot(slot.ring - 1, layer)
        reveal = Reveal(rule, (slot,), (self.wall_tiles[slot],), rule.special_kinds(self.wall_tiles[slot]),
                        tuple(self.ready), roll)
        self.bao = reveal
        self.reveals.append(reveal)
        return reveal

    def _lower_layer_now(self, rule: IndicatorRule, ctx: RevealContext) -> bool:
        if dict(self.ruleset.options).get("bao_lower_layer", "after_six_dead") == "after_six_dead":
            return len(self.bao_used) >= 6
        reachable = [rule.position.slots(replace(ctx, roll=(die,)))[0] for die in range(1, 7)]
        return all(s in self.bao_used for s in reachable)

    def public_wilds(self) -> tuple[Tile, ...]:
        out: list[Tile] = []
        for reveal in self.reveals:
            if reveal.public and reveal.rule.effect is Effect.WILD:
                out += [t for t in reveal.special if t not in out]
        for rule in self.ruleset.indicators:
            if rule.timing is Timing.FIXED and rule.effect is Effect.WILD:
                out += [t for t in rule.special_kinds(None) if t not in out]
        return tuple(out)

    def wilds_for(self, seat: int) -> tuple[Tile, ...]:
        """Public wilds, plus the 宝 for a seat that has declared 听."""
        wilds = self.public_wilds()
        if self.bao is not None and seat in self.ready:
            wilds += tuple(t for t in self.bao.special if t not in wilds)
        return wilds

    # -- wins ----------------------------------------------------------------------------------

    def judge_win(self, seat: int, discarder: int | None, melds: tuple[Meld, ...], concealed: tuple[Tile, ...],
                  flowers: tuple[Tile, ...], win_tile: Tile | None, flipped: tuple[Tile, ...],
                  ron_winners: int = 1) -> WinRecord:
        hand = Hand(tuple(sorted(concealed)), melds, flowers)
        kong_draw = self.last_take is not None and self.last_take.reason == "kong"
        wilds = self.wilds_for(seat)
        context = WinContext(
            winner=seat, dealer=self.dealer, discarder=discarder, win_tile=win_tile,
            sides=self.ruleset.players, ready_declared=seat in self.ready,
            kong_replacement=discarder is None and kong_draw, last_tile=self.tracker.exhausted,
            bao_hit=discarder is None and self.bao is not None and seat in self.ready and win_tile in self.bao.special,
            kongs_by_side=self.kongs_by_side(), wilds=wilds, flipped=flipped, ready_sides=tuple(self.ready),
            extra=(("finished", tuple(sorted(self.out_of_play))),     # 血战 winners, who pay no more
                   ("fa_shown", len(flowers)),                        # 钻牌: the 发 (or 红中) shown
                   ("ron_winners", ron_winners)))                     # 一炮多响: winners on this discard
        record = WinRecord(seat, discarder, hand, win_tile, evaluate_hand(self.ruleset, hand, context))
        if record.result.verdict.legal:
            self.wins.append(record)
            if self.ruleset.play.after_win == "xuezhan":     # 血战: a winner leaves; 血流: he plays on
                self.out_of_play.add(seat)
        return record

    def payments(self) -> tuple[int, int, int, int]:
        parts = [w.result.settlement.payments for w in self.wins if w.result.settlement]
        if self.draw_payments is not None:
            parts.append(self.draw_payments.payments)
        return add_payments((0, 0, 0, 0), *parts)

    @property
    def over(self) -> bool:
        """No more play: the first win ends the hand unless the region plays on."""
        if not self.wins:
            return False
        mode = self.ruleset.play.after_win
        if mode == "end":
            return True
        if mode == "xuezhan":
            return len(self.ruleset.players) - len(self.out_of_play) <= 1
        return False

    def hand_end_fields(self) -> dict:
        """What hand_end reveals: the whole wall, the salt, every indicator."""
        return {"ring": self.ring_strings(), "salt": self.salt,
                "indicators": [r.event_fields(reveal_private=True) for r in self.reveals]}


def melds_from_tiles(tiles: list[Tile], kongs: int, concealed_kongs: int = 0) -> tuple[Meld, ...]:
    """Split the tiles laid as shown melds into exactly `kongs` kongs (the seat's 杠 presses; the
    last `concealed_kongs` of them concealed) and pungs and chows.  Raises ValueError if they do not
    split that way."""
    split = _split(sorted(tiles), kongs)
    if split is None:
        raise ValueError(f"the shown tiles {' '.join(t.zh for t in tiles)} do not split into melds with {kongs} kong(s)")
    melds = []
    kong_index = 0
    for group in split:
        if len(group) == 4:
            kong_index += 1
            kind = MeldKind.CONCEALED_KONG if kong_index > kongs - concealed_kongs else MeldKind.KONG
            melds.append(Meld(kind, group))
        else:
            melds.append(make_meld(group, MeldKind.PUNG if group[0] == group[1] else MeldKind.CHOW))
    return tuple(melds)


def _split(tiles: list[Tile], kongs: int) -> list[tuple[Tile, ...]] | None:
    """A partition of sorted tiles into `kongs` kongs and pungs/chows (the first tile leads)."""
    if not tiles:
        return [] if kongs == 0 else None
    first = tiles[0]
    options: list[tuple[Tile, ...]] = []
    if kongs and tiles.count(first) >= 4:
        options.append((first,) * 4)
    if tiles.count(first) >= 3:
        options.append((first,) * 3)
    if first.is_suited and first.rank <= 7 and Tile(first + 1) in tiles and Tile(first + 2) in tiles:
        options.append((first, Tile(first + 1), Tile(first + 2)))
    for group in options:
        rest = list(tiles)
        for tile in group:
            rest.remove(tile)
        found = _split(rest, kongs - (len(group) == 4))
        if found is not None:
            return [group] + found
    return None
