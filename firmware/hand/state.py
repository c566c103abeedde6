"""One hand on the table as plain data: the ring, the wall, the takes, the indicators, the wins.

No I/O and no reference to a device, a task or the controller: the flow feeds it sensor changes,
key meanings and zone reads, and writes what it returns to the display and the recorder.
`to_json()` / `from_json()` round-trip it exactly, so a restarted controller can journal the hand
and pick it up where it stood.  Everything secret (the wall, a private 宝) stays here until
`hand_end_fields()`; `to_json()` holds it too, so the journal is written for its owner only.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from typing import Any, Mapping

from rulesets.definition import Ruleset
from rulesets.hand import Hand, Meld, WinContext
from rulesets.indicators import Effect, IndicatorRule, RevealContext, Timing
from rulesets.judging import HandResult, fixed_wilds
from rulesets.regions import get_region
from rulesets.rotation import first_win_seats
from rulesets.rounds import kongs_by_side
from rulesets.settlement import add_payments
from rulesets.tiles import Tile
from rulesets.table_rules import hua_peng_kinds
from rulesets.walls import Break, End, Layer, Ring, Slot, StackPos

from .facts import HandFacts
from .taking_back import TakingBack
from .tracker import (Take, UnseenTakes, WallTracker, compact_json, encode_with, hole, slot_from, slot_json, tile_from,
                      tile_json)
from .win_facts import is_first_turn, taken_astray
from .wins import HandOutcome, Payout, WinRecord

BEFORE_PLAY = ("dice", "dealing", "revealing")      # the hand's phases before 请出牌 first shows
STATE_VERSION = 1
NO_UNSEEN = UnseenTakes((), ())


def wall_hash(salt: str, ring: list[list[str]]) -> str:
    """hex SHA-256 of the salt followed by the ring as compact JSON (docs/controller.md)."""
    return hashlib.sha256((salt + json.dumps(ring, separators=(",", ":"))).encode()).hexdigest()


@dataclass(frozen=True)
class Reveal:
    """An indicator shown (or chosen privately) during the hand."""

    rule: IndicatorRule
    slots: tuple[Slot, ...]
    tiles: tuple[Tile, ...]
    special: tuple[Tile, ...]
    seats: tuple[int, ...] = ()        # seats a private indicator was shown to
    roll: tuple[int, ...] = ()         # the indicator's own dice, if any
    kong: int = 0                      # turned up for the hand's kong-th kong (贵州 明鸡 「有杠牌就要翻第四墩」); 0: not

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
            **({"kong": self.kong} if self.kong else {}),
        }

    def to_json(self, ruleset: Ruleset) -> dict[str, Any]:
        return {"rule": ruleset.indicators.index(self.rule), "slots": [slot_json(s) for s in self.slots],
                "tiles": [str(t) for t in self.tiles], "special": [str(t) for t in self.special],
                "seats": list(self.seats), "roll": list(self.roll), **({"kong": self.kong} if self.kong else {})}

    @staticmethod
    def from_json(data: Mapping[str, Any], ruleset: Ruleset) -> "Reveal":
        return Reveal(ruleset.indicators[data["rule"]], tuple(map(slot_from, data["slots"])),
                      tuple(map(Tile.parse, data["tiles"])), tuple(map(Tile.parse, data["special"])),
                      tuple(data["seats"]), tuple(data["roll"]), int(data.get("kong", 0)))


@dataclass(eq=False)
class HandState(TakingBack):
    ruleset: Ruleset
    number: int
    dealer: int
    rolls: list[tuple[int, ...]]
    brk: Break
    wall: dict[Slot, Tile | None]        # every slot of the ring, from the wall map
    deal_size: int
    salt: str = field(default_factory=lambda: secrets.token_hex(16))
    phase: str = "dice"
    ready: list[int] = field(default_factory=list)
    reveals: list[Reveal] = field(default_factory=list)
    bao_index: int | None = None         # the 宝 in force: an index into `reveals`
    bao_used: set[Slot] = field(default_factory=set)
    pending_kong: dict[int, bool] = field(default_factory=dict)     # seat → concealed?
    kongs: dict[int, list[bool]] = field(default_factory=dict)      # seat → [concealed?] per kong
    wins: list[WinRecord] = field(default_factory=list)
    out_of_play: set[int] = field(default_factory=set)              # seats that won in 血战
    last_take: Take | None = None
    draw: Payout | None = None
    last_tile_shown: bool = False
    bao_roller: int | None = None        # the first ready seat, who rolls the 宝 die
    rolls_asked: int = 0
    steps_done: list[str] = field(default_factory=list)    # "reveal:<i>", "phase:<name>": not redone on resume
    facts: HandFacts = field(default_factory=HandFacts)    # what the table asked, and the payments beyond the wins
    started: float | None = None         # the wall-clock time it began (the ledger's), kept across a restart
    # the flight recorder files that hold its lines, in the order the runs wrote them: a restart
    # adds its own, so its page is found without trusting file names (a Pi has no clock: a power cut
    # can set the time back, and the next run's file then sorts before the file it follows)
    recorders: list[str] = field(default_factory=list)
    # the seat that took the last tile, where the table knows it: a kong's maker, for its replacement
    # (None after any other take: who drew from the head depends on claims the table does not see)
    replaced_for: int | None = None
    # a 诈胡's reasons while a private 宝 is in force (seat, reasons): they would tell who is not ready
    # which kinds the 宝 is or is not (a probe: `宝 tiles held in the hand are themselves`), so they
    # are told with the wall at hand_end
    withheld_reasons: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ring: Ring = self.ruleset.layout.ring(self.brk)
        self.tracker = WallTracker(self.ring, self.ruleset.reserve, self.wall,
                                   self.ruleset.flowers.kinds, self.deal_size)
        self.kongs_lapsed: list[int] = []    # the seats whose 杠 the last wall change left void (the flow says so)
        self.begin_undo()

    # -- the wall as built -------------------------------------------------------------------

    def ring_strings(self) -> list[list[str]]:
        return [list(pair) for pair in self._ring_pairs]

    @cached_property
    def _ring_pairs(self) -> tuple[tuple[str, str], ...]:
        """Made once (the wall is fixed when the hand begins): its hash and its reveal at the end."""
        return tuple((str(self.wall[Slot(i, Layer.TOP)]), str(self.wall[Slot(i, Layer.BOTTOM)]))
                     for i in range(len(self.ring)))

    def wall_hash(self) -> str:
        return self._wall_digest

    @cached_property
    def _wall_digest(self) -> str:
        """Made once: the wall and the salt are fixed when the hand begins; the hash is asked for at
        its start, its outcome and its record."""
        return wall_hash(self.salt, self.ring_strings())

    @cached_property
    def _wall_text(self) -> str:
        return compact_json(self._wall_rows)

    @cached_property
    def _wall_rows(self) -> list[list[str | None]]:
        """The wall as the journal writes it, made once: the wall is fixed when the hand begins and
        the journal is written at nearly every take.  (Shared between writes: never changed.)"""
        return [[tile_json(self.wall[Slot(i, layer)]) for layer in (Layer.TOP, Layer.BOTTOM)]
                for i in range(len(self.ring))]

    # -- takes ---------------------------------------------------------------------------------

    def on_wall_change(self, pos: StackPos, tiles: int, *, in_sequence: bool = True) -> list[Take]:
        """The takes a stack's new count means.  `in_sequence`: reported as it happened, in the order of
        the keys around it (not reconstructed from the sensors after a restart or a reboot, whose order
        against a 杠 pressed meanwhile is not known)."""
        self.tracker.kong_pending = bool(self.pending_kong)
        self.tracker.play_open = self.phase not in BEFORE_PLAY
        takes = self.tracker.on_stack_change(pos, tiles, seen=in_sequence)
        self.kongs_lapsed = []
        for take in takes:
            self.note_take(take)
            self.last_take = take
            self.replaced_for = None
            if take.end is End.HEAD and self.pending_kong and in_sequence:
                # a kong's maker takes its replacement at once: a draw from the head first means the
                # 杠 was pressed by mistake (else a later kong's replacement is credited to that seat)
                self.kongs_lapsed += list(self.pending_kong)
                self.note_lapsed(self.pending_kong)
                self.pending_kong.clear()
            bao = self.bao
            if bao is not None and take.slot in bao.slots:      # the 宝's tile left the wall: it is dead
                self.bao_used.add(take.slot)
                self.bao_index = None
            if take.reason == "kong":
                seat = next(iter(self.pending_kong), None)
                if seat is None:
                    self.kong_unclaimed(take)
                else:
                    self._credit_kong(seat, in_sequence)   # (reconstructed: maybe not the last take)
            if take.reason == "draw" and self.ruleset.has_phase("follow_dealer"):
                self.facts.follow_due(take, self.draws_after_deal(), self.before(self.dealer))
        return takes

    @property
    def kong_allowed(self) -> bool:
        """Whether a 杠 pressed now may be made: a live tile must remain after its replacement (no
        kong eats into the reserve or the 马, and none is made on the last tile).  A replacement taken
        just before the press is counted already."""
        if self.last_take_unclaimed:
            return self.tracker.live >= 1
        return self.tracker.live_after_kong() >= 1

    def credit_taken_before(self, seat: int) -> tuple[bool, Slot] | None:
        """`seat` just pressed 杠 right after a tail tile was taken with nothing owed (the replacement
        taken before the press, as people often do): that take, still the hand's last, is the kong's
        replacement.  Returns (concealed, its slot) if so.  Before, the take stayed out of order and
        the 杠 lapsed at the next head draw, unpaid and unsaid."""
        slot = self.claim_last_take() if seat in self.pending_kong else None
        return None if slot is None else (self._credit_kong(seat, True), slot)

    def declare_kong(self, seat: int, concealed: bool, one_at_a_time: bool = True) -> list[int]:
        """`seat` pressed 杠: its replacement is the next tail take.  One replacement is taken at a
        time, so another seat's 杠 still pending was pressed by mistake (its maker would have taken its
        replacement at once): it lapses, and the seats whose 杠 lapsed are returned.  Before, the first
        press took the replacement and the kong of the seat that took it lapsed.  Not for the keys a
        restart applies again (`one_at_a_time` False): their replacements, taken while nobody watched,
        come after them, the first pressed first."""
        lapsed = [other for other in self.pending_kong if other != seat] if one_at_a_time else []
        for other in lapsed:
            del self.pending_kong[other]
        self.pending_kong[seat] = concealed
        return lapsed

    def _credit_kong(self, seat: int, last: bool) -> bool:
        """The pending 杠 of `seat` has its replacement: the kong is the seat's.  `last`: that
        replacement is the last tile taken (a 杠上开花 is the seat's).  Returns whether it was concealed."""
        concealed = self.pending_kong.pop(seat)
        self.kongs.setdefault(seat, []).append(concealed)
        self.replaced_for = seat if last else None
        self.facts.kong_made(self.ruleset, seat, concealed)
        return concealed

    def credit_retaken(self, pos: StackPos) -> tuple[int, bool, Slot] | None:
        """`pos`, which held a tile put back whose take stood, is as counted again: the tile was taken
        again.  A 杠 pending and that take the replacement no 杠 claimed (a tail tile taken with no 杠
        pressed, put back after later draws): the kong is the seat's, as if the tile had been taken
        for it now.  Returns (seat, concealed, the tile's slot) if so."""
        seat = next(iter(self.pending_kong), None)
        slot = None if seat is None else self.claim_retaken(pos)
        if seat is None or slot is None:
            return None
        return seat, self._credit_kong(seat, True), slot

    def draws_after_deal(self) -> int:
        return sum(1 for take in self.tracker.taken.values() if take.reason == "draw")

    def wind_name(self, seat: int) -> str:
        """The seat's wind as the table names it (东 for the dealer, 南 next in play, …)."""
        return WinContext(winner=seat, dealer=self.dealer, sides=self.ruleset.players).seat_wind().zh[0]

    def hua_peng(self, seat: int) -> tuple[frozenset[Tile], frozenset[Tile]]:
        """What may stand in a pung the seat shows, and for which kinds (螺山 花碰; none elsewhere)."""
        return hua_peng_kinds(self.ruleset, WinContext(winner=seat, dealer=self.dealer, sides=self.ruleset.players,
                                                       wilds=self.wilds_for(seat)))

    def before(self, seat: int) -> int:
        """上家 of `seat` among the playing sides."""
        sides = sorted(self.ruleset.players)
        return sides[(sides.index(seat) - 1) % len(sides)]

    @property
    def deal_complete(self) -> bool:
        return self.tracker.head_taken >= self.deal_size

    def kongs_by_side(self) -> tuple[tuple[int, int, int], ...]:
        """(seat, exposed, concealed) kongs; 长春's opening special kongs count as exposed (明杠)."""
        return kongs_by_side(self.kongs, {seat: self.facts.special_kongs(seat) for seat, *_ in self.facts.specials})

    def dice_shown(self) -> list[tuple[int, ...]]:
        """Every roll the dice display shows for this hand: the hand's own, then 换三张's (宜昌: the
        direction's), then each after-deal indicator's in the order revealed."""
        exchange = [tuple(self.facts.exchange_dice)] if self.facts.exchange_dice else []
        return list(self.rolls) + exchange + [r.roll for r in self.reveals if r.roll and r.rule.timing is Timing.AFTER_DEAL]

    def declared_fields(self) -> dict[str, list]:
        """The seats' declarations as the journal knows them, for the `resumed` line: the lines that
        showed them (ready, kong_declared, a kong's take, special_kong, kong_from) may be what a kill
        cut from the recorder file, and the audit scores the hand's wins from them."""
        return {"ready": list(self.ready), "draws": self.draws_after_deal(), "kong_taken": self.tail_taken_for_kongs(),
                "kongs": [[seat, list(flags)] for seat, flags in sorted(self.kongs.items())],
                "pending_kongs": [[seat, concealed] for seat, concealed in self.pending_kong.items()],
                "special_kongs": [[seat, kongs] for seat, _, _, kongs in self.facts.specials],
                "special_melds": [[seat, name, list(tiles)] for seat, name, tiles, _ in self.facts.specials],
                "kong_events": [list(event) for event in self.facts.kong_events]}

    # -- indicators ----------------------------------------------------------------------------

    @property
    def bao(self) -> Reveal | None:
        return None if self.bao_index is None else self.reveals[self.bao_index]

    def rules_at(self, timing: Timing) -> list[IndicatorRule]:
        return [r for r in self.ruleset.indicators if r.timing is timing]

    def _reveal_context(self, roll: tuple[int, ...], kongs: int = 0) -> RevealContext:
        return RevealContext(self.ring, self.ruleset.layout, self.dealer, self.tracker.next_head_position(),
                             self.tracker.tail_taken, roll, frozenset(self.tracker.taken), kongs,
                             self.tracker.last_drawn())

    def kong_reveals_due(self) -> list[tuple[int, IndicatorRule, int]]:
        """(rule index, rule, k): the kongs made so far whose indicator is not turned up yet (贵州 明鸡
        「有杠牌就要翻第四墩～以此类推」).  Each is a step (`kong_step`) once handled, turned up or found gone,
        so a restart between a kong's replacement and its reveal turns it up once, where it lay."""
        due = []
        for index, rule in enumerate(self.ruleset.indicators):
            if not rule.on_kong or rule.kong_position is None or f"reveal:{index}" not in self.steps_done:
                continue
            due += [(index, rule, k) for k in range(1, self.tracker.kongs + 1) if kong_step(index, k) not in self.steps_done]
        return due

    def reveal_on_kong(self, index: int, rule: IndicatorRule, kong: int) -> Reveal | None:
        """Turn up the indicator of the `kong`-th kong (None: its tile has left the wall); the step is done."""
        assert rule.kong_position is not None
        slots = rule.kong_position.slots(self._reveal_context((), kong))
        self.steps_done.append(kong_step(index, kong))
        if not slots:
            return None
        tiles = tuple(self.wall[s] for s in slots)
        reveal = Reveal(rule, slots, tiles, rule.special_kinds(tiles[0]), kong=kong)  # type: ignore[arg-type]
        self.reveals.append(reveal)
        return reveal

    def standing_reveals(self) -> list[Reveal]:
        """The public indicators in force during play (not the after-win flips), in the order shown: with
        a rule whose kongs move it (贵州 ming_ji_kong=move) only its latest reveal stands."""
        out: list[Reveal] = []
        for reveal in self.reveals:
            if not reveal.public or reveal.rule.timing is Timing.AFTER_WIN:
                continue
            if reveal.rule.on_kong == "move":
                out = [r for r in out if r.rule != reveal.rule]
            out.append(reveal)
        return out

    def reveal(self, rule: IndicatorRule, roll: tuple[int, ...] = ()) -> Reveal:
        """Find and record an indicator (after the deal, or after a win)."""
        reveal = self.find_reveal(rule, roll)
        self.record_reveal(reveal)
        return reveal

    def find_reveal(self, rule: IndicatorRule, roll: tuple[int, ...] = ()) -> Reveal:
        """An indicator as the wall holds it, not yet recorded (an after-win flip is shown only once
        the win is judged a win).  An after-win flip read again where the wall has not changed (a win
        check begun again after a restart, or another claim on the same discard) is the same flip."""
        slots = rule.position.slots(self._reveal_context(roll))
        if rule.timing is Timing.AFTER_WIN:
            same = next((r for r in self.reveals if r.rule is rule and r.slots == slots and r.roll == roll), None)
            if same is not None:
                return same
        tiles = tuple(self.wall[s] for s in slots)
        return Reveal(rule, slots, tiles, rule.special_kinds(tiles[0] if tiles else None), roll=roll)  # type: ignore[arg-type]

    def record_reveal(self, reveal: Reveal) -> None:
        """The indicator is the hand's (once)."""
        if any(r is reveal for r in self.reveals):
            return
        self.reveals.append(reveal)
        if reveal.rule.effect is Effect.SHOWN:
            for slot in reveal.slots:
                self.tracker.show(slot)

    @staticmethod
    def fixed(rule: IndicatorRule) -> Reveal:
        """A fixed indicator (杭州 白板): no slot, no tile drawn; its wilds are the rule's own."""
        return Reveal(rule, (), (), rule.special_kinds(None))

    def choose_bao(self, rule: IndicatorRule, roll: tuple[int, ...]) -> Reveal:
        """长春 选宝 / 换宝: the die counted from the tail (RULES.md §1.3).

        A slot that was a 宝 before is passed over (counting on towards the head), and the lower
        layer is used once the upper 宝 are dead (「则可利用下层的牌作宝，上下互换」, option
        `bao_lower_layer`: after six 宝 have died, or when the six upper tiles a die reaches are dead).
        """
        if self.bao is not None:
            self.bao_used.add(self.bao.slots[0])
        ctx = self._reveal_context(roll)
        (slot,) = rule.position.slots(ctx)
        layer = Layer.BOTTOM if self._lower_layer_now(rule, ctx) else slot.layer
        slot = Slot(slot.ring, layer)
        while (slot in self.bao_used or slot in self.tracker.taken) and slot.ring > 0:
            slot = Slot(slot.ring - 1, layer)
        tile = self.wall[slot]
        reveal = Reveal(rule, (slot,), (tile,), rule.special_kinds(tile), tuple(self.ready), roll)  # type: ignore[arg-type]
        self.reveals.append(reveal)
        self.bao_index = len(self.reveals) - 1
        return reveal

    def show_bao_to(self, seat: int) -> Reveal | None:
        """Add `seat` to those who saw the 宝; the updated reveal if the seat is new to it."""
        bao = self.bao
        if bao is None or seat in bao.seats:
            return None
        shown = replace(bao, seats=bao.seats + (seat,))
        self.reveals[self.bao_index] = shown  # type: ignore[index]
        return shown

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
        out += [t for t in fixed_wilds(self.ruleset) if t not in out]
        return tuple(out)

    def wilds_for(self, seat: int) -> tuple[Tile, ...]:
        """Public wilds, plus the 宝 for a seat that has declared 听."""
        wilds = self.public_wilds()
        bao = self.bao
        if bao is not None and seat in self.ready:
            wilds += tuple(t for t in bao.special if t not in wilds)
        return wilds

    # -- wins ----------------------------------------------------------------------------------

    @property
    def last_take_astray(self) -> bool:
        """The last take is out of draw order (into the reserve, off another stack, a tail tile nobody's
        杠 asked for).  Nobody wins self-drawn on it but the seat credited with it as its kong's
        replacement (the audit: `audit_wins`)."""
        return self.last_take is not None and taken_astray(self.last_take.to_json())

    def win_context(self, seat: int, discarder: int | None, win_tile: Tile | None, flowers: tuple[Tile, ...],
                    flipped: tuple[Tile, ...], ron_winners: int = 1) -> WinContext:
        """The facts the scorer is given for a win now (the `win` event records them as `context`)."""
        kong_draw = self.last_take is not None and self.last_take.reason == "kong"
        bao = self.bao
        return WinContext(
            winner=seat, dealer=self.dealer, discarder=discarder, win_tile=win_tile,
            sides=self.ruleset.players, ready_declared=seat in self.ready,
            kong_replacement=discarder is None and kong_draw, last_tile=self.tracker.exhausted,
            robbed_kong=self.robbing(discarder), first_turn=self.first_turn(seat, discarder),
            bao_hit=discarder is None and bao is not None and seat in self.ready and win_tile in bao.special,
            kongs_by_side=self.kongs_by_side(), wilds=self.wilds_for(seat), flipped=flipped,
            ready_sides=tuple(self.ready), consecutive_dealer=self.facts.repeats,
            extra=(("finished", tuple(sorted(self.out_of_play))),     # 血战 winners, who pay no more
                   ("fa_shown", len(flowers)),                        # 钻牌: the 发 (or 红中) shown
                   ("ron_winners", ron_winners),                      # 一炮多响: winners on this discard
                   ("first_win", not self.wins))                      # the hand's kongs are paid with it only
            + self.facts.win_extra(self.ruleset, first_win=not self.wins))

    def robbing(self, discarder: int | None) -> bool:
        """抢杠: a win on the tile of a kong whose maker has not drawn its replacement yet.  Only an
        exposed kong is robbed (its tile is shown as it is added); a 明杠 of a discard is never the
        maker's own discard, so a win naming the maker while his kong waits is a robbed 加杠."""
        return discarder is not None and self.pending_kong.get(discarder) is False

    def first_turn(self, seat: int, discarder: int | None) -> bool:
        """天和, 地和, 人和 (win_facts.is_first_turn)."""
        return is_first_turn(self.ruleset.players, self.dealer, seat, discarder, self.draws_after_deal(),
                             len(self.wins), self.tail_taken_for_kongs())

    def tail_taken_for_kongs(self) -> bool:
        return any(take.reason in ("kong", "special") for take in self.tracker.taken.values())

    def laid_hand(self, seat: int, discarder: int | None, melds: tuple[Meld, ...], concealed: tuple[Tile, ...],
                  flowers: tuple[Tile, ...], win_tile: Tile | None, flipped: tuple[Tile, ...],
                  ron_winners: int = 1) -> tuple[Hand, WinContext]:
        """The hand a seat laid and the table's facts about its win, ready to be judged."""
        hand = Hand(tuple(sorted(concealed)), melds, flowers)
        return hand, self.win_context(seat, discarder, win_tile, flowers, flipped, ron_winners)

    def record_win(self, seat: int, discarder: int | None, hand: Hand, win_tile: Tile | None,
                   result: HandResult, event: Mapping[str, Any] | None = None) -> None:
        """A judged hand: a legal one is a win of this hand (`event`: the fields of its `win` line)."""
        if result.verdict.legal and result.settlement is not None:
            self.wins.append(WinRecord(seat, discarder, hand, win_tile,
                                       Payout(result.settlement.payments, result.settlement.items), len(self.tracker.taken),
                                       event))
            if self.ruleset.play.after_win == "xuezhan":     # 血战: a winner leaves; 血流: he plays on
                self.out_of_play.add(seat)

    def won_already(self, seat: int) -> bool:
        """A 胡 from this seat can only be a win already accepted: he is out of play (血战), or (血流)
        no tile was taken since his last win — a 胡 pressed again, not knowing it was heard."""
        if seat in self.out_of_play:
            return True
        return any(w.seat == seat and w.takes == len(self.tracker.taken) for w in self.wins)

    def payments(self) -> tuple[int, int, int, int]:
        parts = [w.payout.payments for w in self.wins]
        if self.draw is not None:
            parts.append(self.draw.payments)
        return add_payments((0, 0, 0, 0), self.facts.payments(), *parts)

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
        """What hand_end reveals: the whole wall, the salt, every indicator, and the reasons of a
        诈胡 withheld while they would have told the private 宝."""
        withheld = [{"seat": seat, "failures": list(reasons)} for seat, reasons in self.withheld_reasons]
        return {"ring": self.ring_strings(), "salt": self.salt,
                "indicators": [r.event_fields(reveal_private=True) for r in self.reveals],
                **({"false_wins": withheld} if withheld else {})}

    def private_bao_in_force(self) -> bool:
        """A 宝 chosen and shown to the ready seats only is in force: what depends on it stays hidden."""
        return self.bao is not None and not self.bao.public

    def outcome(self) -> HandOutcome:
        winners = tuple(w.seat for w in self.wins)
        discarder = self.wins[0].discarder if self.wins else None
        return HandOutcome(self.number, self.dealer, winners, discarder, self.payments(), self.wall_hash(),
                           self.hand_end_fields(),
                           first_win_seats([(w.seat, w.discarder, w.takes) for w in self.wins]) or None)

    # -- after a restart or a lost link ---------------------------------------------------------

    def blind_changes(self, sensors: Mapping[int, tuple[int, ...]]) -> tuple[UnseenTakes, str | None]:
        """What the wall sensors say happened while the controller was not watching: the hand's last
        takes put back meanwhile (to undo first: `put_backs_found`), and the stacks that hold fewer
        tiles now, as takes in the order they were most likely made (the replacements owed first:
        `WallTracker.unseen_order`); or why the walls cannot be this hand's (a side without a wall, a
        tile that came back that no take can explain)."""
        lower: dict[StackPos, int] = {}
        higher: dict[StackPos, int] = {}
        for pos in self.ring.stacks:
            row = sensors.get(pos.wall, ())
            if pos.stack >= len(row):
                return NO_UNSEEN, f"the sensors of side {pos.wall} see no wall where this hand's wall stood"
            now, before = row[pos.stack], self.tracker.stack_tiles(pos)
            if now > before:
                higher[pos] = now
            elif now < before:
                lower[pos] = now
        put_back, problem = self.put_backs_found(higher)
        if problem is not None:
            return NO_UNSEEN, problem
        return self.tracker.unseen_order(lower, self.replacements_owed(), put_back), None

    def replacements_owed(self) -> int:
        """Tail takes owed now: a 杠 pressed, a flower drawn, a special kong or 过杠 shown."""
        return len(self.pending_kong) + self.tracker.flowers_owed + self.tracker.special_owed

    # -- as data -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return self._data([w.to_json() for w in self.wins], self._wall_rows,
                          self.last_take.to_json() if self.last_take else None, self.tracker.to_json(), self.undo_json())

    def _data(self, wins: Any, wall: Any, last_take: Any, tracker: Any, undo: dict[str, Any]) -> dict[str, Any]:
        """`to_json()` with these parts in their places (`journal_text` puts holes there)."""
        return {
            "version": STATE_VERSION, "ruleset": self.ruleset.id, "options": dict(self.ruleset.options),
            "number": self.number, "dealer": self.dealer, "rolls": [list(r) for r in self.rolls],
            "break": [self.brk.wall, self.brk.skip],
            "wall": wall,
            "deal_size": self.deal_size, "salt": self.salt, "phase": self.phase, "ready": list(self.ready),
            "reveals": [r.to_json(self.ruleset) for r in self.reveals], "bao_index": self.bao_index,
            "bao_used": sorted(slot_json(s) for s in self.bao_used),
            "pending_kong": [[seat, concealed] for seat, concealed in self.pending_kong.items()],
            "kongs": [[seat, made] for seat, made in sorted(self.kongs.items())],
            "wins": wins, "out_of_play": sorted(self.out_of_play),
            "last_take": last_take, "replaced_for": self.replaced_for,
            "draw": self.draw.to_json() if self.draw else None,
            "last_tile_shown": self.last_tile_shown, "bao_roller": self.bao_roller, "rolls_asked": self.rolls_asked,
            "steps_done": list(self.steps_done), "tracker": tracker, "facts": self.facts.to_json(),
            "started": self.started, "recorders": list(self.recorders),
            **({"withheld_reasons": [[seat, list(reasons)] for seat, reasons in self.withheld_reasons]}
               if self.withheld_reasons else {}),
            **undo,
        }

    def journal_text(self) -> str:
        """`to_json()` encoded as the journal keeps it (`compact_json`), without encoding again what
        is most of it and never changes once made: the wall and the wins (each encoded once, as it was
        made), the takes (each once: `EncodedRows`) and the last takes' undo rows (the few kept:
        `LastRows`), spliced in by `encode_with`.  The journal is written every few takes; encoding the
        whole state each time had cost more than anything else the controller does a hand."""
        tracker, parts = self.tracker.journal_parts()
        undo, undo_parts = self.undo_journal_parts()
        parts.update(undo_parts, wall=self._wall_text, wins=f"[{','.join(w.journal_text for w in self.wins)}]")
        last_take = self.last_take.to_json() if self.last_take is not None else None
        return encode_with(self._data(hole("wins"), hole("wall"), last_take, tracker, undo), parts)

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "HandState":
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"hand state version {data.get('version')!r}, this controller reads {STATE_VERSION}")
        region = get_region(data["ruleset"])      # (options another version wrote and this one lacks: left out)
        ruleset = region.resolve(region.known_options(data["options"])[0])
        wall = {Slot(i, layer): tile_from(pair[j])
                for i, pair in enumerate(data["wall"]) for j, layer in enumerate((Layer.TOP, Layer.BOTTOM))}
        state = HandState(
            ruleset, data["number"], data["dealer"], [tuple(r) for r in data["rolls"]], Break(*data["break"]),
            wall, data["deal_size"], data["salt"], data["phase"], list(data["ready"]),
            [Reveal.from_json(r, ruleset) for r in data["reveals"]], data["bao_index"],
            {slot_from(s) for s in data["bao_used"]}, {seat: c for seat, c in data["pending_kong"]},
            {seat: list(made) for seat, made in data["kongs"]}, [WinRecord.from_json(w) for w in data["wins"]],
            set(data["out_of_play"]), Take.from_json(data["last_take"]) if data["last_take"] else None,
            Payout.from_json(data["draw"]) if data["draw"] else None,
            data["last_tile_shown"], data["bao_roller"], data["rolls_asked"], list(data["steps_done"]),
            HandFacts.from_json(data["facts"]) if "facts" in data else HandFacts(), data.get("started"),
            [str(path) for path in data.get("recorders", ())], data.get("replaced_for"))
        state.withheld_reasons = [(int(seat), tuple(map(str, reasons)))
                                  for seat, reasons in data.get("withheld_reasons", ())]
        state.tracker.restore(data["tracker"])
        state.restore_undo(data)
        return state

    def __eq__(self, other: object) -> bool:
        """Field by field; the ruleset by its id and options (two resolutions are two objects)."""
        if not isinstance(other, HandState):
            return NotImplemented
        return ((self.ruleset.id, self.ruleset.options) == (other.ruleset.id, other.ruleset.options)
                and all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self) if f.name != "ruleset")
                and self.tracker == other.tracker)


def kong_step(index: int, kong: int) -> str:
    """The step done once the ruleset's `index`-th indicator was turned up (or found gone) for the
    hand's `kong`-th kong (`steps_done`)."""
    return f"kong:{index}:{kong}"


__all__ = ["BEFORE_PLAY", "HandState", "Reveal", "kong_step", "wall_hash"]
