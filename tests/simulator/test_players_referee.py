"""A tiny in-process referee that plays the controller's part, for the simulated players' tests.

It is not the controller (firmware/ is): it builds the walls straight into the simulated world,
writes the phase words and seat prompts of docs/table-flow.md on the simulated screens, rolls the
dice (forced with `table.force_dice`, else its own seeded dice), follows every tile that leaves
the wall from the world's wall sensors, and judges wins with rulesets.judging.  Everything the
players do wrong is written down as a violation; the tests assert there is none.

The tests at the bottom check the referee's own bookkeeping on a few hands.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field

import pytest

from drivers.motor_protocol import Key, LiftPosition
from drivers.table_ui import (ADDED_KONG, BAO, CHANGE_BAO_HINT, ENTRY, LAY_HAND, LAY_LIANG, LAY_MELDS, LIANG,
                              LIANG_REFUSED, LIANG_REPLACE, NOT_A_WIN, RELATIVE_SEATS, ROLL_BAO, SELF_DRAWN, WIN_DONE,
                              WIN_FROM, WIN_TILE, Phase, choice_text, kong_from_question, relative_name, roll_prompt,
                              seat_status)
from rulesets.dice import SecondRollerPicksStart, count_seats
from rulesets.hand import Hand, Meld, MeldKind, WinContext
from rulesets.indicators import Effect, RevealContext, Timing
from rulesets.judging import evaluate_hand
from rulesets.liang_pai import REPLACEMENTS, set_named
from rulesets.regions import get_region
from rulesets.reserve import wall_count
from rulesets.tiles import Tile
from rulesets.walls import Layer, Slot, StackPos
from simulator import SimulatedTable
from simulator.players import SimulatedPlayers, flower_kinds
from simulator.world import WorldObserver
from tests.asyncio_support import run

pytestmark = pytest.mark.timeout(60)


@dataclass
class TakeRecord:
    end: str                # "head", "tail", "aside", "out_of_order"
    reason: str             # "deal", "draw", "kong", "flower", "aside", "?"
    slot: Slot
    live_before: int


@dataclass
class WinRecord:
    seat: int
    discarder: int | None
    legal: bool
    hand: str
    failures: tuple[str, ...]
    entered: tuple[Tile, ...] = ()


@dataclass
class HandRecord:
    number: int
    dealer: int
    rolls: list[tuple[int, ...]]
    deal_positions: list[int] = field(default_factory=list)
    takes: list[TakeRecord] = field(default_factory=list)
    wins: list[WinRecord] = field(default_factory=list)
    kongs: int = 0
    kong_keys: int = 0
    kong_givers: list[tuple[int, str]] = field(default_factory=list)   # (seat, answer to 第N杠来自)
    result: str = ""
    swept: int = 0


class Referee(WorldObserver):
    """Runs hands on a SimulatedTable the way docs/table-flow.md says the controller does."""

    def __init__(self, table: SimulatedTable, ruleset, *, seed: int = 0, dealer: int | None = None,
                 unreadable_zone: bool = False) -> None:
        self.table = table
        self.ruleset = ruleset
        self.sides = tuple(ruleset.players)
        self.rng = random.Random(f"{seed}/referee")
        self.dealer = dealer if dealer is not None else self.sides[0]
        self.unreadable_zone = unreadable_zone
        self.violations: list[str] = []
        self.hands: list[HandRecord] = []
        self.totals = [0, 0, 0, 0]
        self._public_wilds: tuple[Tile, ...] = ()
        self._queue: asyncio.Queue = asyncio.Queue()
        self._backlog: list[tuple] = []
        self.asks: list[tuple[int, int]] = []
        self.phase: Phase | None = None
        self.hand: HandRecord | None = None
        table.world.observers.append(self)

    # -- what the world tells us ----------------------------------------------------------------

    def wall_changed(self, side: int, stack: int, tiles: int) -> None:
        self._queue.put_nowait(("wall", side, stack, tiles))

    def key_pressed(self, panel: int, key: Key, long: bool) -> None:
        self._queue.put_nowait(("key", int(panel), key, long))

    # -- the screens -----------------------------------------------------------------------------

    def show(self, phase: Phase, detail: str = "") -> None:
        self.phase = phase
        self.table.display.set_text("main", "t_msg", phase.value + (f" {detail}" if detail else ""))

    def line(self, seat: int, index: int, text: str) -> None:
        self.table.world.set_seat_text(seat, index, text)

    def statuses(self) -> None:
        for side in self.sides:
            self.line(side, 0, seat_status(side == self.dealer, self.totals[side], side in self.ready))

    # -- events ------------------------------------------------------------------------------------

    async def next_key(self, panels: tuple[int, ...] | None = None, keys: tuple[Key, ...] | None = None,
                       *, or_question: bool = False) -> tuple | None:
        """The next wanted key (others wait in the backlog); with `or_question`, None as soon as a
        question is due (as on the controller, a due question goes before any key)."""
        def wanted(ev: tuple) -> bool:
            return (panels is None or ev[1] in panels) and (keys is None or ev[2] in keys)
        if or_question and self.asks:
            return None
        for ev in self._backlog:
            if wanted(ev):
                self._backlog.remove(ev)
                return ev
        while True:
            ev = await self._queue.get()
            if ev[0] == "wall":
                self._on_wall(*ev[1:])
                if or_question and self.asks:
                    return None
                continue
            if self._on_key_now(ev):
                continue
            if wanted(ev):
                return ev
            self._backlog.append(ev)

    async def settle(self, predicate) -> None:
        """Process events until `predicate()` holds (keys that nobody asked for wait in the backlog)."""
        while not predicate():
            ev = await self._queue.get()
            if ev[0] == "wall":
                self._on_wall(*ev[1:])
            elif not self._on_key_now(ev):
                self._backlog.append(ev)

    # -- one hand --------------------------------------------------------------------------------

    async def run(self, hands: int) -> list[HandRecord]:
        for _ in range(hands):
            await self.play_hand()
        await self.push_in()          # the players tidy up after the last hand too
        return self.hands

    async def push_in(self) -> None:
        self.table.world.set_centre(LiftPosition.DOWN)
        self.show(Phase.PUSH_IN)
        await self.next_key(None, (Key.CONFIRM,))
        if self.table.world.out or any(any(s.plate) for s in self.table.world.sides):
            self.violations.append("tiles left on the table top after 请推牌入池后按确认")
        self.table.world.set_centre(LiftPosition.UP)

    async def play_hand(self) -> HandRecord:
        ruleset = self.ruleset
        self.ready: list[int] = []
        self.bao: Tile | None = None
        self.bao_roller: int | None = None
        self.bao_slots: set[Slot] = set()           # every 宝 of the hand lay here
        self.pending_kong: dict[int, bool] = {}
        self.kongs_by_seat: dict[int, list[bool]] = {}
        self.asks: list[tuple[int, int]] = []       # 第N杠来自 due: (seat, N)
        self.wins_done: list[int] = []
        self.out: set[int] = set()
        self.ring = None
        self.rolls_asked = 0
        self._public_wilds: tuple[Tile, ...] = ()
        number = len(self.hands) + 1
        self.hand = HandRecord(number, self.dealer, [])
        # push in, build, raise
        await self.push_in()
        self.hand.swept = len(self.table.world.mixer)
        self._raise_walls((number - 1) % 2)
        self.statuses()
        self.table.display.set_text("main", "t_ind", "")
        self.table.display.set_text("main", "t_wild", "")
        self.table.display.set_text("main", "t_dice", "")
        # dice
        self.show(Phase.DICE)
        procedure = ruleset.dice
        for index in range(procedure.rolls_needed):
            roller = self.dealer
            if index == 1 and isinstance(procedure, SecondRollerPicksStart):
                roller = count_seats(self.dealer, sum(self.hand.rolls[0]), self.sides)
            self.hand.rolls.append(await self.roll(roller, procedure.dice_per_roll))
            self._show_dice()
        result = procedure.break_for(self.dealer, self.sides, self.hand.rolls)
        self.ring = ruleset.layout.ring(result.brk)
        self.slots = {Slot(i, layer): self._plate_tile(pos, layer)
                      for i, pos in enumerate(self.ring.stacks) for layer in (Layer.TOP, Layer.BOTTOM)}
        self.taken: set[Slot] = set()
        self.head_taken = self.tail_taken = self.kongs = self.flowers_owed = 0
        self.liang: dict[int, list[tuple[Tile, ...]]] = {}     # 沈阳 亮牌 shown, by seat
        self.liang_owed = 0                                      # 过杠 replacements still to be taken
        self.expected_aside: set[Slot] = set()
        self.shown: set[Slot] = set()          # tail tiles turned up (云南 尾牌)
        self.last_take_kind: Tile | None = None
        plan = ruleset.dealing.plan(self.dealer, self.sides)
        self.deal_size = plan.next_head
        # the deal
        self.show(Phase.DEAL)
        await self.settle(lambda: self.head_taken >= self.deal_size)
        # indicators after the deal, then the region's phases
        await self._reveal()
        if ruleset.has_phase("exchange_three"):
            await self._exchange()
        self.show(Phase.PLAY)
        await self._play()
        self._end_hand()
        return self.hand

    def _raise_walls(self, set_index: int) -> None:
        world = self.table.world
        tiles = [t for t in world.mixer if t.set_index == set_index]
        world.mixer = [t for t in world.mixer if t.set_index != set_index]
        self.rng.shuffle(tiles)
        it = iter(tiles)
        for side, stacks in enumerate(self.ruleset.stacks_per_side):
            world.sides[side].plate = [[next(it), next(it)] for _ in range(stacks)]   # [bottom, top]
            world.sides[side].channel = []
            world.set_side_position(side, LiftPosition.UP)
        assert next(it, None) is None, "the tile set does not fill the walls"

    def _plate_tile(self, pos: StackPos, layer: Layer):
        stack = self.table.world.sides[pos.wall].plate[pos.stack]
        return stack[1] if layer is Layer.TOP else stack[0]

    async def roll(self, seat: int, count: int, prompt: str | None = None) -> tuple[int, ...]:
        self.rolls_asked += 1
        self.line(seat, 1, prompt or roll_prompt(self.rolls_asked))
        await self.next_key((seat,), (Key.DICE,))
        self.line(seat, 1, "")
        forced = self.table.motor.forced_dice
        values = forced.pop(0) if forced else tuple(self.rng.randint(1, 6) for _ in range(count))
        self.table.world.dice = values
        return values

    def _show_dice(self) -> None:
        self.table.display.set_text("main", "t_dice", " / ".join("+".join(map(str, r)) for r in self.hand.rolls))

    # -- following the wall ------------------------------------------------------------------

    def count(self):
        return wall_count(self.ruleset.reserve, self.ring.tile_count, self.head_taken, self.tail_taken, self.kongs)

    def _next(self, tail: bool) -> Slot | None:
        for n in range(self.ring.tile_count):
            slot = self.ring.tail_slot(n) if tail else self.ring.head_slot(n)
            if slot not in self.taken and not (tail and self._covered(slot)):
                return slot
        return None

    def _covered(self, slot: Slot) -> bool:
        """云南 尾牌: an ordinary replacement passes over a shown tile and the tile under it."""
        top = Slot(slot.ring, Layer.TOP)
        return slot in self.shown or (slot.layer is Layer.BOTTOM and top in self.shown and top not in self.taken)

    def _on_wall(self, side: int, stack: int, tiles: int) -> None:
        if self.ring is None or self.phase in (Phase.PUSH_IN, Phase.HAND_OVER):
            return
        pos = StackPos(side, stack)
        index = self.ring.index_of(pos)
        before = sum(1 for layer in (Layer.TOP, Layer.BOTTOM) if Slot(index, layer) not in self.taken)
        for _ in range(before - tiles):
            self._take(index)
        if (self.phase is Phase.PLAY and self.head_taken >= self.deal_size and self.count().exhausted
                and not self._over()):
            self.show(Phase.LAST_TILE)

    def _take(self, index: int) -> None:
        hand = self.hand
        live = self.count().live
        head, tail = self._next(False), self._next(True)
        top = Slot(index, Layer.TOP)
        slot = top if top not in self.taken else Slot(index, Layer.BOTTOM)
        if slot in self.shown and (head is None or head.ring != index or self.pending_kong):
            tail = slot                            # a shown tail tile, taken for a 杠上开花 (or at the wall end)
        if slot in self.expected_aside:
            self.expected_aside.discard(slot)
            near_tail = abs((tail.ring if tail else 0) - index) < abs(index - (head.ring if head else 0))
            if near_tail:
                self.tail_taken += 1
            else:
                self.head_taken += 1
            record = TakeRecord("aside", "aside", slot, live)
        elif head is not None and head.ring == index:
            slot = head
            if self.head_taken < self.deal_size:
                hand.deal_positions.append(self.ring.slot_sequence(head))
                reason = "deal"
            else:
                reason = "draw"
                if live <= 0:
                    self.violations.append(f"hand {hand.number}: a head draw cut into the reserve (ring {index})")
            self.head_taken += 1
            record = TakeRecord("head", reason, slot, live)
        elif tail is not None and tail.ring == index:
            slot = tail
            self.tail_taken += 1
            if self.flowers_owed:
                self.flowers_owed -= 1
                reason = "flower"
            elif self.liang_owed:                    # a 沈阳 过杠: counted for the reserve as a kong
                self.liang_owed -= 1
                self.kongs += 1
                reason = "kong"
            elif self.pending_kong:
                seat, concealed = next(iter(self.pending_kong.items()))
                del self.pending_kong[seat]
                self.kongs_by_seat.setdefault(seat, []).append(concealed)
                if not concealed and self.ruleset.has_phase("kong_giver"):
                    self.asks.append((seat, self.kongs_by_seat[seat].count(False)))
                self.kongs += 1
                hand.kongs += 1
                reason = "kong"
            else:
                reason = "?"
                self.violations.append(f"hand {hand.number}: a tail draw with no 杠 key and no flower owed")
            record = TakeRecord("tail", reason, slot, live)
        else:
            self.violations.append(f"hand {hand.number}: ring {index} taken out of order")
            record = TakeRecord("out_of_order", "?", slot, live)
        self.taken.add(slot)
        hand.takes.append(record)
        kind = self.slots[slot].kind
        self.last_take_kind = kind
        if record.reason not in ("aside", "deal") and kind in self._flowers():
            self.flowers_owed += 1

    def _on_key_now(self, ev: tuple) -> bool:
        """杠 and 听 change the hand at once (as on the controller); True when consumed."""
        _, seat, key, long = ev
        if self.ring is None or seat not in self.sides:
            return False
        if key == Key.KONG:
            self.pending_kong[seat] = long
            self.hand.kong_keys += 1
            return True
        if key == Key.TING and seat not in self.ready:
            self.ready.append(seat)
            self.statuses()
            rule = self._bao_rule()
            if rule is not None:
                if self.bao is not None:
                    self._show_bao(seat)
                elif self.bao_roller is None:
                    self.bao_roller = seat
                    self.line(seat, 1, ROLL_BAO)
            return True
        return False

    # -- indicators ---------------------------------------------------------------------------

    def _bao_rule(self):
        return next((r for r in self.ruleset.indicators if r.timing is Timing.ON_READY), None)

    def public_wilds(self) -> tuple[Tile, ...]:
        return self._public_wilds

    async def _reveal(self) -> None:
        shown: list[Tile] = []
        wilds: list[Tile] = []
        aside: list[Slot] = []
        for rule in self.ruleset.indicators:
            if rule.timing is Timing.FIXED and rule.effect is Effect.WILD:
                wilds += [k for k in rule.special_kinds(None) if k not in wilds]
            if rule.timing is not Timing.AFTER_DEAL:
                continue
            roll: tuple[int, ...] = ()
            if rule.position_dice:
                roll = await self.roll(self.dealer, rule.position_dice)
                self.hand.rolls.append(roll)
                self._show_dice()
            ctx = RevealContext(self.ring, self.ruleset.layout, self.dealer, self.deal_size, self.tail_taken, roll)
            slots = rule.position.slots(ctx)
            tiles = [self.slots[s].kind for s in slots]
            if rule.public:
                shown += tiles
                if rule.effect is Effect.WILD:
                    wilds += [k for k in rule.special_kinds(tiles[0]) if k not in wilds]
            if not rule.stays_in_play:
                aside += slots
            if rule.effect is Effect.SHOWN:
                self.shown |= set(slots)
        self._show_dice()
        self._public_wilds = tuple(wilds)
        # dealt bonus tiles are owed a replacement; which kinds they are may hang on the wilds (钻牌)
        self.flowers_owed = sum(1 for p in range(self.deal_size) if self.slots[self.ring.head_slot(p)].kind in self._flowers())
        self.table.display.set_text("main", "t_ind", " ".join(t.zh for t in shown))
        self.table.display.set_text("main", "t_wild", " ".join(t.zh for t in wilds))
        self.expected_aside = set(aside)
        await self.settle(lambda: not self.expected_aside)

    async def _exchange(self) -> None:
        option = dict(self.ruleset.options).get("exchange_direction", "dice")
        if option == "dice":
            roll = await self.roll(self.dealer, 2)
            option = {1: "next", 2: "previous", 0: "opposite"}[sum(roll) % 3]
        name = {"next": RELATIVE_SEATS[0], "opposite": RELATIVE_SEATS[1], "previous": RELATIVE_SEATS[2]}[option]
        self.show(Phase.EXCHANGE, f":{name}")
        await self.next_key(self.sides, (Key.CONFIRM,))

    def _show_bao(self, seat: int) -> None:
        self.line(seat, 1, f"{BAO}:{self.bao.zh} {CHANGE_BAO_HINT}")

    async def _choose_bao(self) -> None:
        rule = self._bao_rule()
        roll = tuple(self.rng.randint(1, 6) for _ in range(rule.position_dice))
        ctx = RevealContext(self.ring, self.ruleset.layout, self.dealer, self.head_taken, self.tail_taken, roll)
        (slot,) = rule.position.slots(ctx)
        # as the controller chooses it: never where a 宝 lay before, nor a tile taken (a 换宝 makes another kind)
        while (slot in self.bao_slots or slot in self.taken) and slot.ring > 0:
            slot = Slot(slot.ring - 1, slot.layer)
        self.bao_slots.add(slot)
        self.bao = self.slots[slot].kind
        for seat in self.ready:
            self._show_bao(seat)

    # -- play ------------------------------------------------------------------------------------

    def _over(self) -> bool:
        mode = self.ruleset.play.after_win
        if not self.wins_done:
            return False
        if mode == "end":
            return True
        if mode == "xuezhan":
            return len(self.sides) - len(self.out) <= 1
        return False

    async def _play(self) -> None:
        while not self._over():
            liang = (Key.RIGHT,) if self.ruleset.has_phase("liang_pai") else ()
            ev = await self.next_key(self.sides, (Key.HU, Key.CONFIRM, Key.DICE) + liang, or_question=True)
            if ev is None:
                await self._ask_kong_from(*self.asks.pop(0))
                continue
            _, seat, key, _ = ev
            if key == Key.RIGHT:
                await self._liang(seat)
            elif key == Key.HU:
                await self._win(seat)
                while self.ruleset.play.multiple_winners:          # others who pressed 胡 on the same discard
                    more = next((ev for ev in self._backlog if ev[2] == Key.HU), None)
                    if more is None:
                        break
                    self._backlog.remove(more)
                    await self._win(more[1])
            elif key == Key.CONFIRM:
                if self.count().exhausted and self.phase is Phase.LAST_TILE:
                    return
                self.violations.append(f"hand {self.hand.number}: 确认 from seat {seat} before 最后一张")
            elif key == Key.DICE:
                if self.bao_roller == seat and self.bao is None:
                    await self._choose_bao()
                elif self.bao is not None and seat in self.ready:
                    await self._choose_bao()       # 换宝
            if not self._over() and self.count().exhausted and self.head_taken >= self.deal_size:
                self.show(Phase.LAST_TILE)

    async def _ask_kong_from(self, seat: int, nth: int) -> None:
        """云南: who gave the seat's N-th exposed kong (its players in play order from 下家, or 补杠)."""
        others = sorted((s for s in self.sides if s != seat), key=lambda s: (s - seat) % 4)
        names = [relative_name(seat, s, self.sides) for s in others] + [ADDED_KONG]
        answer = await self.choose(seat, kong_from_question(nth), names)
        self.line(seat, 1, "")
        self.hand.kong_givers.append((seat, names[answer]))

    async def _liang(self, seat: int) -> None:
        """沈阳 亮牌: the set laid on the zone; a 东南西北 过杠 waits for its tail replacement."""
        self.line(seat, 1, LAY_LIANG)
        await self.next_key((seat,), (Key.CONFIRM,))
        tiles = tuple(sorted(self._zone(seat)))
        name = set_named(tiles)
        if name is None or tiles in self.liang.get(seat, []):
            self.violations.append(f"hand {self.hand.number}: seat {seat} showed {tiles} as a 亮牌")
            self.line(seat, 1, LIANG_REFUSED)
            return
        self.liang.setdefault(seat, []).append(tiles)
        if REPLACEMENTS[name]:
            self.liang_owed += REPLACEMENTS[name]
            self.line(seat, 1, f"{LIANG_REPLACE} {REPLACEMENTS[name]}")
            await self.settle(lambda: not self.liang_owed)
        self.line(seat, 1, f"{LIANG} {name}")

    async def choose(self, seat: int, question: str, choices: list[str]) -> int:
        index = 0
        while True:
            self.line(seat, 1, choice_text(question, choices[index]))
            _, _, key, _ = await self.next_key((seat,), (Key.LEFT, Key.RIGHT, Key.CONFIRM))
            if key == Key.CONFIRM:
                return index
            index = (index + (1 if key == Key.RIGHT else -1)) % len(choices)

    def _zone(self, seat: int) -> list[Tile]:
        return [self.table.identify(t.uid).kind for t in self.table.world.zones[seat]]

    async def _win(self, seat: int) -> None:
        ruleset = self.ruleset
        self.show(Phase.WIN_CHECK)
        discarder = None
        if ruleset.play.discard_win:
            others = [s for s in self.sides if s != seat]
            names = [SELF_DRAWN] + [relative_name(seat, s, self.sides) for s in others]
            index = await self.choose(seat, WIN_FROM, names)
            discarder = None if index == 0 else others[index - 1]
        self.line(seat, 1, LAY_MELDS)
        await self.next_key((seat,), (Key.CONFIRM,))
        shown = self._zone(seat)
        self.line(seat, 1, LAY_HAND)
        await self.next_key((seat,), (Key.CONFIRM,))
        everything = self._zone(seat)
        entered: tuple[Tile, ...] = ()
        if self.unreadable_zone:
            entered = tuple(await self._entry(seat))
            if Counter(entered) != Counter(t for t in everything if t not in self._flowers()):
                self.violations.append(f"hand {self.hand.number}: seat {seat} entered {entered}, laid {everything}")
        flowers = tuple(t for t in shown if t in self._flowers())
        kongs = self.kongs_by_seat.get(seat, [])
        plain = [t for t in shown if t not in self._flowers()]
        for tile in (t for shown_set in self.liang.get(seat, []) for t in shown_set):
            plain.remove(tile)
        melds = split_melds(plain, len(kongs), sum(kongs))
        if melds is not None:
            melds = tuple(Meld(MeldKind.SPECIAL, t) for t in self.liang.get(seat, [])) + melds
        concealed = list(everything)
        for tile in shown:
            concealed.remove(tile)
        if melds is None:
            self.violations.append(f"hand {self.hand.number}: seat {seat}'s shown tiles {shown} are not melds")
            melds = ()
        if discarder is None:
            win_tile = self.last_take_kind
        else:
            kinds = sorted(set(concealed))
            win_tile = kinds[await self.choose(seat, WIN_TILE, [t.zh for t in kinds])]
        wilds = self.public_wilds() + ((self.bao,) if self.bao is not None and seat in self.ready else ())
        context = WinContext(winner=seat, dealer=self.dealer, discarder=discarder, win_tile=win_tile,
                             sides=self.sides, ready_declared=seat in self.ready, wilds=wilds,
                             kong_replacement=discarder is None and self.hand.takes[-1].reason == "kong",
                             last_tile=self.count().exhausted, ready_sides=tuple(self.ready),
                             bao_hit=discarder is None and self.bao is not None and seat in self.ready and win_tile == self.bao,
                             kongs_by_side=tuple((s, sum(1 for c in k if not c), sum(1 for c in k if c))
                                                 for s, k in sorted(self.kongs_by_seat.items())))
        hand = Hand(tuple(sorted(concealed)), melds, flowers)
        result = evaluate_hand(ruleset, hand, context)
        legal = result.verdict.legal
        self.hand.wins.append(WinRecord(seat, discarder, legal, f"{hand.concealed} {[str(m) for m in melds]}",
                                        result.verdict.failures, entered))
        if legal:
            value = result.settlement.payments[seat]
            for side in range(4):
                self.totals[side] += result.settlement.payments[side]
            self.wins_done.append(seat)
            if ruleset.play.after_win == "xuezhan":
                self.out.add(seat)
            self.line(seat, 1, f"{WIN_DONE} {value:+d}")
        else:
            self.violations.append(f"hand {self.hand.number}: seat {seat} laid {hand} — not a legal win: "
                                   f"{result.verdict.failures}")
            self.line(seat, 1, NOT_A_WIN)
        if not self._over():
            self.show(Phase.LAST_TILE if self.count().exhausted else Phase.PLAY)

    async def _entry(self, seat: int) -> list[Tile]:
        kinds = [k for k in self.ruleset.tiles.kinds if not k.is_flower]
        entered: list[Tile] = []
        index = 0
        while True:
            self.line(seat, 1, f"{ENTRY}:{kinds[index].zh} {len(entered)}")
            _, _, key, _ = await self.next_key((seat,), (Key.LEFT, Key.RIGHT, Key.CONFIRM, Key.HU))
            if key == Key.HU:
                return entered
            if key == Key.CONFIRM:
                entered.append(kinds[index])
            else:
                index = (index + (1 if key == Key.RIGHT else -1)) % len(kinds)

    def _flowers(self) -> frozenset[Tile]:
        return flower_kinds(self.ruleset, self.public_wilds())

    def _end_hand(self) -> None:
        hand = self.hand
        hand.result = "win" if self.wins_done else "draw"
        if not self.wins_done and not self.count().exhausted:
            self.violations.append(f"hand {hand.number}: 荒庄 confirmed with {self.count().live} live tiles")
        if not self.wins_done and self.asks:
            self.violations.append(f"hand {hand.number}: 荒庄 confirmed with 第N杠来自 unanswered: {self.asks}")
        self.show(Phase.HAND_OVER, "荒庄" if not self.wins_done else "胡")
        if not self.wins_done or self.dealer not in self.wins_done:
            if self.wins_done:
                self.dealer = self.sides[(self.sides.index(self.dealer) + 1) % len(self.sides)]
        self.ready = []
        for side in self.sides:
            self.line(side, 1, "")
        self.statuses()
        self.ring = None
        self.hands.append(hand)


def split_melds(tiles: list[Tile], kongs: int, concealed: int) -> tuple[Meld, ...] | None:
    """The shown tiles as melds with exactly `kongs` kongs (the last `concealed` of them concealed)."""
    def search(counts: Counter, kongs_left: int) -> list[Meld] | None:
        if not +counts:
            return [] if kongs_left == 0 else None
        low = min(k for k, n in counts.items() if n)
        options = []
        if kongs_left and counts[low] >= 4:
            options.append(((low,) * 4, MeldKind.KONG, 1))
        if counts[low] >= 3:
            options.append(((low,) * 3, MeldKind.PUNG, 0))
        if low.is_suited and low.rank <= 7:
            run_ = (low, Tile(low + 1), Tile(low + 2))
            if all(counts[t] for t in run_):
                options.append((run_, MeldKind.CHOW, 0))
        for tiles_, kind, used in options:
            rest = counts.copy()
            rest.subtract(tiles_)
            found = search(rest, kongs_left - used)
            if found is not None:
                return [Meld(kind, tiles_)] + found
        return None

    melds = search(Counter(tiles), kongs)
    if melds is None:
        return None
    quads = [i for i, m in enumerate(melds) if m.kind is MeldKind.KONG]
    for i in quads[len(quads) - concealed:] if concealed else []:
        melds[i] = Meld(MeldKind.CONCEALED_KONG, melds[i].tiles)
    return tuple(melds)


# --- helpers the other test files use --------------------------------------------------------

def table_for(ruleset, seed: int) -> SimulatedTable:
    return SimulatedTable(seed=seed, speed=0, tile_sets=(ruleset.tiles, ruleset.tiles))


async def referee_hands(region: str, seed: int, hands: int, *, options=None, style=None, dealer=None,
                        unreadable_zone: bool = False):
    """Play `hands` hands of a region with the referee; returns (referee, players)."""
    ruleset = get_region(region).resolve(options or {})
    table = table_for(ruleset, seed)
    referee = Referee(table, ruleset, seed=seed, dealer=dealer, unreadable_zone=unreadable_zone)
    kwargs = {"style": style} if style is not None else {}
    players = SimulatedPlayers(table, ruleset, seed=seed, **kwargs)
    task = asyncio.create_task(players.run())
    try:
        await referee.run(hands)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    return referee, players


# --- the referee's own checks ----------------------------------------------------------------

def test_split_melds_uses_the_kong_count():
    tiles = [Tile.M2] * 4 + [Tile.M3, Tile.M4]
    melds = split_melds(tiles, 0, 0)
    assert melds is not None and {m.kind for m in melds} == {MeldKind.PUNG, MeldKind.CHOW}
    melds = split_melds([Tile.M2] * 4 + [Tile.EAST] * 3, 1, 1)
    assert [m.kind for m in melds] == [MeldKind.CONCEALED_KONG, MeldKind.PUNG]
    assert split_melds([Tile.M2, Tile.M5, Tile.M9], 0, 0) is None


def test_a_few_hands_of_dongbei_are_clean():
    referee, players = run(referee_hands("dongbei", seed=3, hands=3), timeout=30)
    assert referee.violations == [] and players.errors == []
    assert [h.result for h in referee.hands] == players.stats.per_hand
    for hand in referee.hands:
        assert all(t.end != "out_of_order" for t in hand.takes)


def test_yunnan_asks_who_gave_each_exposed_kong_and_a_drawn_hand_with_one_ends():
    # seed 4: hand 15 is a 荒庄 after two exposed kongs; nobody confirms it while his kong is unanswered
    referee, players = run(referee_hands("yunnan", seed=4, hands=15), timeout=60)
    assert referee.violations == [] and players.errors == []
    assert any(h.result == "draw" and h.kong_givers for h in referee.hands)
    meant = [(a.seat, a.detail.split()[1]) for a in players.journal if a.what == "kong_from"]
    assert meant == [given for h in referee.hands for given in h.kong_givers]
