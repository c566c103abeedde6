"""One hand, from the dice to the settlement, as the controller runs it (docs/table-flow.md).
A win is checked by `win_check.WinCheck`.

The flow awaits what the players do (keys, takes, read zones) through the controller's `until`
and `next_key`; every tile that leaves the wall goes through `on_wall_change` straight from the
motor board's events.  The region's special phases are looked up by name in `PHASE_HOOKS`, so
the controller has no region branches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Awaitable, Callable

from drivers.motor_protocol import Key, KeyAction, KeyPressed, Panel
from drivers.table_ui import BAO, CHANGE_BAO_HINT, RELATIVE_SEATS, ROLL_BAO, ROLL_DICE, Phase, roll_prompt
from rulesets.dice import SecondRollerPicksStart, count_seats
from rulesets.indicators import Timing
from rulesets.rotation import HandOutcome
from rulesets.scoring import DrawContext
from rulesets.walls import Layer, Slot, StackPos

from .hand_state import HandState, Reveal
from .ledger import HandRecord
from .wall_map import WallMap
from .wall_tracker import TrackingError
from .win_check import WinCheck

if TYPE_CHECKING:
    from .controller import TableController

SEAT_PANELS = (Panel.SEAT0, Panel.SEAT1, Panel.SEAT2, Panel.SEAT3)


@dataclass(frozen=True)
class BaoRoll:
    """The first ready seat pressed 骰子 to choose the 宝 (a seat number alone could be 0, falsy)."""

    seat: int


class HandFlow:
    def __init__(self, controller: "TableController") -> None:
        self.ctl = controller
        self.last_tile_shown = False
        self.bao_roller: int | None = None
        self.rolls_asked = 0
        self.win_check = WinCheck(self)

    @property
    def hand(self) -> HandState:
        return self.ctl.hand

    def emit(self, event: str, **fields) -> dict:
        return self.ctl.recorder.emit(event, self.hand.number if self.hand is not None else 0, **fields)

    # -- sensor changes and keys (called from the event pump) ----------------------------------------

    def on_wall_change(self, pos: StackPos, tiles: int) -> None:
        hand = self.hand
        try:
            takes = hand.on_wall_change(pos, tiles)
        except TrackingError as error:
            self.emit("warning", message=str(error))
            return
        for take in takes:
            self.emit("take", end=take.end.value, ring=take.slot.ring, layer=take.slot.layer.value,
                      live=take.live, reserve=take.reserve, kongs=take.kongs, reason=take.reason,
                      in_order=take.in_order)
            if not take.in_order:
                self.ctl.presenter.phase(Phase.PLAY if hand.deal_complete else Phase.DEAL, "⚠请按顺序取牌")
        self.ctl.presenter.stacks_left(hand.tracker.live)
        if hand.deal_complete and hand.tracker.exhausted and not self.last_tile_shown and not hand.over:
            self.last_tile_shown = True
            self.ctl.presenter.phase(Phase.LAST_TILE)

    def on_key(self, press: KeyPressed) -> bool:
        """TING and KONG change the hand's state at once; other keys wait for the flow."""
        hand = self.hand
        seat = int(press.panel)
        if press.panel == Panel.FRONT or seat not in self.ctl.ruleset.players:
            return False
        if press.key == Key.TING and seat not in hand.ready:
            hand.ready.append(seat)
            self.emit("ready", seat=seat)
            self.ctl.presenter.seat_status(seat, seat == hand.dealer, self.ctl.totals[seat], ready=True)
            if hand.bao is not None:
                self._show_bao(seat)
            elif self._bao_rule() is not None and self.bao_roller is None:
                self.bao_roller = seat
                self.ctl.presenter.prompt(seat, ROLL_BAO)
            return True
        if press.key == Key.KONG:
            hand.pending_kong[seat] = press.action == KeyAction.LONG_PRESS
            self.emit("kong_declared", seat=seat, concealed=press.action == KeyAction.LONG_PRESS)
            return True
        return False

    # -- the hand --------------------------------------------------------------------------------

    async def play(self, wall_map: WallMap) -> dict:
        ctl = self.ctl
        ruleset = ctl.ruleset
        self.last_tile_shown = False
        self.bao_roller = None
        self.rolls_asked = 0
        ctl.inputs.keys.clear()                             # nothing pressed before this hand counts in it
        for side in ruleset.players:
            ctl.presenter.prompt(side, "")
        ctl.presenter.public_indicators([], [])             # last hand's indicators are not this hand's
        ctl.presenter.dice([])
        rolls = await self._dice()
        result = ruleset.dice.break_for(ctl.dealer, ruleset.players, rolls)
        ring = ruleset.layout.ring(result.brk)
        tiles = {Slot(i, layer): wall_map.tile_at(pos.wall, pos.stack, layer)
                 for i, pos in enumerate(ring.stacks) for layer in (Layer.TOP, Layer.BOTTOM)}
        plan = ruleset.dealing.plan(ctl.dealer, ruleset.players)
        ctl.hand_number += 1
        ctl.presenter.round(f"第{ctl.hand_number}局")
        ctl.hand = HandState(ruleset, ctl.hand_number, ctl.dealer, rolls, result.brk, ring, tiles, plan.next_head)
        self.emit("hand_start", ruleset=ruleset.id, options=dict(ruleset.options), dealer=ctl.dealer,
                  sides=list(ruleset.players), stacks_per_side=list(ruleset.stacks_per_side),
                  dice=[list(r) for r in rolls], **{"break": {"wall": result.brk.wall, "skip": result.brk.skip}},
                  ring_stacks=len(ring), wall_hash=ctl.hand.wall_hash(), tile_set=wall_map.tile_set)
        await ctl.table.dice_done()
        ctl.presenter.phase(Phase.DEAL)
        await ctl.until(lambda: ctl.hand.deal_complete)
        self.emit("dealt", next_head=ctl.hand.tracker.next_head_position(),
                  hand_sizes={str(side): n for side, n in plan.hand_sizes().items()})
        await ctl.table.dealt()
        await self._reveal_after_deal()
        for phase in ruleset.phases:
            hook = PHASE_HOOKS.get(phase.name)
            if hook is not None:
                await hook(self)
        await ctl.table.revealed()
        ctl.presenter.phase(Phase.PLAY)
        await self._play_loop()
        return await self._settle()

    async def _dice(self) -> list[tuple[int, ...]]:
        ctl = self.ctl
        procedure = ctl.ruleset.dice
        rolls: list[tuple[int, ...]] = []
        ctl.presenter.phase(Phase.DICE)
        for index in range(procedure.rolls_needed):
            roller = ctl.dealer
            if index == 1 and isinstance(procedure, SecondRollerPicksStart):
                roller = count_seats(ctl.dealer, sum(rolls[0]), ctl.ruleset.players)
            rolls.append(await self.roll(roller, procedure.dice_per_roll, ROLL_DICE))
            ctl.presenter.dice(rolls)
        return rolls

    async def roll(self, seat: int, count: int, prompt: str) -> tuple[int, ...]:
        self.rolls_asked += 1
        self.ctl.presenter.prompt(seat, roll_prompt(self.rolls_asked) if prompt == ROLL_DICE else prompt)
        await self.ctl.next_key((seat, Panel.FRONT), (Key.DICE,))
        self.ctl.presenter.prompt(seat, "")
        return await self.ctl.roll_dice(count)

    async def _reveal_after_deal(self) -> None:
        hand = self.hand
        rolls = list(hand.rolls)
        for rule in hand.ruleset.indicators:
            if rule.timing is Timing.FIXED:
                self._record_reveal(Reveal(rule, (), (), rule.special_kinds(None)))
            if rule.timing is not Timing.AFTER_DEAL:
                continue
            roll: tuple[int, ...] = ()
            if rule.position_dice:
                roll = await self.roll(hand.dealer, rule.position_dice, ROLL_DICE)
                rolls.append(roll)
                self.ctl.presenter.dice(rolls)
            reveal = hand.reveal(rule, roll)
            self._record_reveal(reveal)
            self._show_public()
            hand.tracker.recount_flowers(hand.ruleset.flowers.kinds_for(hand.public_wilds()))
            if not rule.stays_in_play:                      # shown first; then the dealer takes it out
                slot = reveal.slots[0]
                hand.tracker.expect_set_aside(slot)
                await self.ctl.until(lambda: slot in hand.tracker.taken)
        self._show_public()

    def _record_reveal(self, reveal: Reveal) -> None:
        self.emit("indicator", **reveal.event_fields())

    def _show_public(self) -> None:
        shown = [r for r in self.hand.reveals if r.public and r.rule.timing is not Timing.AFTER_WIN]
        indicators = [t.zh for r in shown for t in r.tiles]
        wilds = [t.zh for t in self.hand.public_wilds()]
        self.ctl.presenter.public_indicators(indicators, wilds)

    # -- play ------------------------------------------------------------------------------------

    async def _play_loop(self) -> None:
        ctl = self.ctl
        hand = self.hand
        seats = tuple(s for s in ctl.ruleset.players)
        while not hand.over:
            press = await ctl.until(lambda: self._play_input(seats))
            if isinstance(press, BaoRoll):                  # the first ready seat rolls the 宝 die
                await self._choose_bao(press.seat)
                continue
            ctl.inputs.keys.remove(press)
            seat = int(press.panel)
            if press.key == Key.HU and seat not in hand.out_of_play:
                await self.win_check.win(seat)
                await self.win_check.more_winners_on_the_discard()
            elif press.key == Key.CONFIRM and hand.tracker.exhausted:
                return
            elif press.key == Key.DICE and hand.bao is not None and seat in hand.ready:
                await self._change_bao(seat)
            if hand.tracker.exhausted and not hand.over and self.last_tile_shown:
                ctl.presenter.phase(Phase.LAST_TILE)

    def _play_input(self, seats: tuple[int, ...]) -> "KeyPressed | BaoRoll | None":
        if self.bao_roller is not None and self.hand.bao is None:
            for press in self.ctl.inputs.keys:
                if press.panel == self.bao_roller and press.key == Key.DICE:
                    return BaoRoll(self.bao_roller)
        for press in self.ctl.inputs.keys:
            if press.panel in seats and press.key in (Key.HU, Key.CONFIRM, Key.DICE):
                if press.key == Key.CONFIRM and not self.hand.tracker.exhausted:
                    continue
                return press
        return None

    # -- 长春 宝 ----------------------------------------------------------------------------------

    def _bao_rule(self):
        return next((r for r in self.ctl.ruleset.indicators if r.timing is Timing.ON_READY), None)

    async def _choose_bao(self, seat: int) -> None:
        ctl = self.ctl
        press = next(p for p in ctl.inputs.keys if p.panel == seat and p.key == Key.DICE)
        ctl.inputs.keys.remove(press)
        rule = self._bao_rule()
        roll = await ctl.roll_dice(rule.position_dice)
        reveal = self.hand.choose_bao(rule, roll)
        self._record_reveal(reveal)
        for ready in self.hand.ready:
            self._show_bao(ready)

    async def _change_bao(self, seat: int) -> None:
        """换宝: roll again; the old 宝 stays where it lay (it was never moved: the seats saw it on
        their displays)."""
        rule = self._bao_rule()
        roll = await self.ctl.roll_dice(rule.position_dice)
        reveal = self.hand.choose_bao(rule, roll)
        self.emit("change_bao", seat=seat)
        self._record_reveal(reveal)
        for ready in self.hand.ready:
            self._show_bao(ready)

    def _show_bao(self, seat: int) -> None:
        bao = self.hand.bao
        if bao is None:
            return
        if seat not in bao.seats:
            bao.seats = bao.seats + (seat,)
            self.emit("indicator", **{**bao.event_fields(), "seat": [seat]})
        self.ctl.presenter.private(seat, f"{BAO}:{bao.tiles[0].zh} {CHANGE_BAO_HINT}")

    # -- the end of the hand ---------------------------------------------------------------------

    async def _settle(self) -> dict:
        ctl = self.ctl
        hand = self.hand
        await ctl.table.hand_over()
        count = hand.tracker.count()
        if not hand.wins:
            self.emit("exhausted", live=count.live, reserve=count.reserved_full_stacks, kongs=hand.tracker.kongs,
                      remaining=count.remaining, reserved_tiles=count.reserved)
            hand.draw_payments = ctl.ruleset.scoring.settle_draw(
                ctl.ruleset, DrawContext(hand.dealer, ctl.ruleset.players, tuple(hand.ready), hand.kongs_by_side()))
        payments = hand.payments()
        for side in range(4):
            ctl.totals[side] += payments[side]
        winners = tuple(w.seat for w in hand.wins)
        discarder = hand.wins[0].discarder if hand.wins else None
        next_dealer = ctl.ruleset.rotation.next_dealer(hand.dealer, ctl.ruleset.players, HandOutcome(winners, discarder))
        ctl.ledger.record_hand(ctl.session, HandRecord(hand.number, hand.dealer, "win" if winners else "draw",
                                                       winners, payments, hand.wall_hash()))
        end = self.emit("hand_end", result="win" if winners else "draw", winners=list(winners),
                        payments=list(payments), totals=list(ctl.totals), next_dealer=next_dealer,
                        **hand.hand_end_fields())
        ctl.dealer_repeats = ctl.dealer_repeats + 1 if next_dealer == hand.dealer else 0
        ctl.dealer = next_dealer
        ctl.presenter.scores(tuple(ctl.totals))
        ctl.presenter.dealer(ctl.dealer, ctl.dealer_repeats)
        result = "荒庄" if not winners else "胡 " + " ".join(f"座位{w}" for w in winners)
        ctl.presenter.phase(Phase.HAND_OVER, result)
        for side in ctl.ruleset.players:
            ctl.presenter.seat_status(side, side == ctl.dealer, ctl.totals[side])
            if side not in winners:
                ctl.presenter.prompt(side, "")              # a winner keeps "胡 +N" until the next hand
        ctl.hand = None
        return end


async def exchange_three(flow: HandFlow) -> None:
    """宜昌 换三张: the dice give the direction; the players exchange and confirm."""
    ctl = flow.ctl
    option = dict(ctl.ruleset.options).get("exchange_direction", "dice")
    if option == "dice":
        roll = await flow.roll(flow.hand.dealer, 2, ROLL_DICE)
        direction = {1: "next", 2: "previous", 0: "opposite"}[sum(roll) % 3]
    else:
        direction = option
    name = {"next": RELATIVE_SEATS[0], "opposite": RELATIVE_SEATS[1], "previous": RELATIVE_SEATS[2]}[direction]
    flow.emit("exchange", direction=direction)
    ctl.presenter.phase(Phase.EXCHANGE, f":{name}")
    await ctl.next_key(tuple(ctl.ruleset.players), (Key.CONFIRM,))


PHASE_HOOKS: dict[str, Callable[[HandFlow], Awaitable[None]]] = {
    "exchange_three": exchange_three,
}
