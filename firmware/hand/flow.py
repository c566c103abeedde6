"""One hand, from the dice to the outcome, as the table runs it (docs/table-flow.md).

The flow sees the table only through its ports (`ports.HandPorts`): it awaits what the players do
(keys, takes, read zones) and writes to the screens and the recorder.  The hub calls it back at
once with every tile that leaves the wall and with 听 and 杠 (`on_wall_change`, `on_key`).  A win
is checked by `win_check.WinCheck`, the 长春 宝 by `bao.BaoDesk`, a region's special phases by
`phases.PHASES`.  The flow returns a `HandOutcome`; applying it (ledger, recorder, display) is
the session's publish step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping
from drivers.table_ui import (EARLY_KEYS, NO_KONG, NO_TING, OUT_OF_ORDER, SET_ASIDE, RESEAT, Key, Panel, Phase, RESTARTED, ROLL_DICE,
                              TAIL_ONLY_ON_KONG_WIN, roll_prompt)
from rulesets.dice import SecondRollerPicksStart, count_seats
from rulesets.indicators import Timing
from rulesets.scoring import DrawContext
from rulesets.revisions import revision
from rulesets.walls import StackPos

from . import tail_tiles
from .bao import BaoDesk
from .first_dealer import roll_for_first_dealer
from .liang import LiangDesk
from .phases import run_phase
from .ports import BuiltWall, HandPorts, Press, pressed, record_dropped
from .put_back import PutBackDesk, play_phase
from .questions import Questions, drop_pressed_before
from .settlement import SettlementRound
from .state import BEFORE_PLAY, NO_UNSEEN, HandState, Reveal
from .wins import HandOutcome, Payout
from .tracker import Take, TrackingError, UnseenTakes
from .win_check import WinCheck


@dataclass(frozen=True)
class BaoRoll:
    """The first ready seat pressed 骰子 to choose the 宝 (a seat number alone could be 0, falsy)."""

    seat: int


@dataclass(frozen=True)
class TellAgain:
    """A seat that won already pressed 胡 again: his line says his win again (a seat number alone could be 0)."""

    seat: int


@dataclass(frozen=True)
class QuestionsDue:
    """The table has a question to ask (who gave a kong, 跟庄) before it handles any other key."""


class HandFlow:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports
        self.hand: HandState | None = None
        self.totals: tuple[int, ...] = (0, 0, 0, 0)     # the session's scores, for the seat displays
        self.rolls_asked = 0
        self.note = ""          # said with the next phase the flow shows (RESTARTED after a restart)
        self._opening = False   # the hand is in play but 请出牌 not shown yet (its journal write awaited)
        self.bao = BaoDesk(ports)
        self.win_check = WinCheck(ports)
        self.questions = Questions(ports)
        self.settlement = SettlementRound(ports)
        self.liang = LiangDesk(ports)
        self.owed_again: set[int] = set()   # seats whose 胡, pressed after their win, awaits its answer
        self.last_tile_mark = 0     # where the motor board's events stood as 最后一张 showed (0: not known)
        self.put_backs = PutBackDesk(ports)

    # -- what the hub reports at once (HandListener) -------------------------------------------------

    def on_wall_change(self, pos: StackPos, tiles: int) -> None:
        self._wall_changed(pos, tiles, seen_live=True)

    def _wall_changed(self, pos: StackPos, tiles: int, *, seen_live: bool, in_sequence: bool = True) -> None:
        """A stack holds `tiles` now.  `seen_live`: the board reported it as it happened (not read back
        from the sensors after a reboot: such takes were made before the note they would take down);
        `in_sequence`: in its order among the keys (not one of the takes a restart reconstructs)."""
        hand = self.hand
        if hand is None:
            return
        bao = hand.bao
        in_sequence = in_sequence and seen_live
        if seen_live and hand.tracker.in_wall(pos) and tiles > hand.tracker.stack_tiles(pos):
            self.put_backs.put_back(hand, pos, tiles)
            return
        try:
            takes = hand.on_wall_change(pos, tiles, in_sequence=in_sequence)
        except TrackingError as error:
            self.ports.recorder.emit("warning", message=str(error))
            return
        if not takes:
            self.put_backs.counted(hand, pos, tiles)
        screens = self.ports.screens
        if seen_live and hand.deal_complete and any(take.in_order for take in takes):
            screens.drop_note()             # play went on: a note said with 请出牌 has been read
        for take in takes:
            self.ports.recorder.emit("take", **take_fields(take), **({} if in_sequence else {"unseen": True}))
            if not take.in_order:
                screens.phase(play_phase(hand), OUT_OF_ORDER)
        for seat in hand.kongs_lapsed:
            self.ports.recorder.emit("kong_lapsed", seat=seat)
        self._reveal_on_kongs(hand)
        self._warn(tail_tiles.after_takes(hand, takes))
        if bao is not None and hand.bao is None:
            self.bao.died(hand)
        screens.stacks_left(hand.tracker.live)
        if hand.deal_complete and hand.tracker.exhausted and not hand.last_tile_shown and not hand.over:
            hand.last_tile_shown = True
            self.last_tile_mark = self.ports.mark()     # a 确认 pressed before this ends no hand
            # (a take out of order that spent the wall is still to be put back: its note stays up)
            screens.phase(Phase.LAST_TILE, OUT_OF_ORDER if any(not take.in_order for take in takes) else "")

    def resync(self, sensors: Mapping[int, tuple[int, ...]]) -> str | None:
        """A board came back in a new session (it rebooted): the sensors' takes since are takes; a
        wall that contradicts the hand voids it."""
        hand = self.hand
        if hand is None:
            return None
        unseen, problem = hand.blind_changes(sensors)
        if problem is not None:
            return problem
        if unseen.put_back:                             # tiles put back while the board was down
            self.put_backs.unseen(hand, unseen.put_back)
        hand.recount_standing(sensors)
        for pos, tiles in unseen.all:
            # taken while the board was down: the reboot's note (keys lost, press them again) stays up
            # (campaign 350002: taken down at once, behind a display cut, a lost 胡 never pressed again)
            self._wall_changed(pos, tiles, seen_live=False)
        return None

    def on_key(self, press: Press, *, live: bool = True) -> bool:
        """听 and 杠 change the hand's state at once; other keys wait in the queue for the flow.
        `live`: pressed as the board reports it (not one of the keys a restart applies again, whose
        takes came while nobody watched: several seats' 杠 may then wait for their replacements)."""
        hand = self.hand
        if hand is None or press.front or press.seat not in hand.ruleset.players:
            return False
        if hand.phase in BEFORE_PLAY or self._opening:   # nobody is ready or makes a kong on a hand still
            return False        # being dealt: it waits in the queue, dropped (and said) as play opens (`_open_play`)
        seat = press.seat
        if press.key == Key.TING and hand.ruleset.play.ready_declaration == "none":
            # no 报听 in these rules (a probe: 四川 lit the seat's 听 lamp and line for it, telling the
            # others a hand was ready when the rules have no such thing): refused, said, recorded
            record_dropped(self.ports.recorder, (press,), "no_ready_declaration")
            self.ports.screens.phase(play_phase(hand), NO_TING)
            return True
        if press.key == Key.TING and seat not in hand.ready:
            hand.ready.append(seat)
            self.ports.recorder.emit("ready", seat=seat)
            self.ports.screens.seat_status(seat, seat == hand.dealer, self.totals[seat], ready=True)
            self.bao.on_ready(hand, seat)
            return True
        if press.key == Key.KONG:
            if live and not self._kong_heard(hand, press):
                return True
            for other in hand.declare_kong(seat, press.long, one_at_a_time=live):
                self.ports.recorder.emit("kong_lapsed", seat=other, by=seat)
            self.ports.recorder.emit("kong_declared", seat=seat, concealed=press.long)
            credited = hand.credit_taken_before(seat) if live else None
            if credited is not None:
                concealed, slot = credited
                self.ports.recorder.emit("kong_credited", seat=seat, concealed=concealed, ring=slot.ring,
                                         layer=slot.layer.value)
                self.ports.screens.drop_note()      # 请按顺序取牌 was about this tile: it is the replacement
            return True
        if press.key == Key.HU and press.long:
            # a long 胡 takes a 胡 back (a check whose hand is not laid yet, which takes it from the
            # queue); it is never a claim
            if self.win_check.can_withdraw(seat):
                return False
            record_dropped(self.ports.recorder, (press,), "nothing_to_withdraw")
            return True
        if press.key == Key.HU and hand.won_already(seat):
            # Judged as it arrives, not when the flow gets to it: tiles taken meanwhile (the flow
            # waiting on his line) would make his repeated 胡 a new claim he never meant.
            self.owed_again.add(seat)
            return True
        return False

    def _kong_heard(self, hand: HandState, press: Press) -> bool:
        """Whether a 杠 pressed now declares a kong.  Not when no live tile would remain after its
        replacement (a probe: the replacement came out of the reserve or the 马, and the kong was
        paid): refused, said on the display, recorded.  Nor a second press of the same 杠 still
        waiting for its replacement (recorded, not declared twice)."""
        if press.seat in hand.pending_kong and hand.pending_kong[press.seat] == press.long:
            record_dropped(self.ports.recorder, (press,), "kong_pending")
            return False
        if not hand.kong_allowed:
            record_dropped(self.ports.recorder, (press,), "no_kong_at_wall_end")
            self.ports.screens.phase(play_phase(hand), NO_KONG)
            return False
        return True

    # -- the hand ------------------------------------------------------------------------------------

    async def play(self, wall: BuiltWall, *, number: int, dealer: int, totals: tuple[int, ...],
                   repeats: int = 0, started: float | None = None, recorder: str | None = None,
                   roll_for_dealer: bool = False) -> HandOutcome:
        """Play hand `number` on the built `wall` (`repeats`: the dealer's 连庄 count, from the session;
        `started`: the wall-clock time it began, and `recorder`: the flight recorder file its lines go
        to, journaled with it); the outcome is for the session to publish."""
        ports = self.ports
        ruleset = ports.ruleset
        screens = ports.screens
        self.totals = tuple(totals)
        self.rolls_asked = 0
        record_dropped(ports.recorder, ports.keys.take_all(), "before_hand")   # nothing pressed before this hand counts in it
        self.owed_again.clear()
        for side in ruleset.players:
            screens.prompt(side, "")
        screens.public_indicators([], [])                   # last hand's indicators are not this hand's
        screens.dice([])
        if ruleset.has_phase("reseat_after_four") and repeats and repeats % 4 == 0 and not self.note:
            self.note = RESEAT          # 十七张: 「庄家连庄四把之后，四位玩家重新排定位置」, before the dice
        dealer_roll: tuple[int, ...] = ()
        if roll_for_dealer:         # the session's first dealer by dice (house option first_dealer)
            roller = dealer
            dealer, dealer_roll = await roll_for_first_dealer(ports, self.roll, roller, self.totals, self.take_note())
        rolls = await self._dice(dealer)
        result = ruleset.dice.break_for(dealer, ruleset.players, rolls)
        ring = ruleset.layout.ring(result.brk)
        plan = ruleset.dealing.plan(dealer, ruleset.players)
        screens.round(f"第{number}局")
        hand = HandState(ruleset, number, dealer, rolls, result.brk, dict(wall.in_ring_order(ring)), plan.next_head,
                         rolls_asked=self.rolls_asked, started=started, recorders=[recorder] if recorder else [])
        hand.facts.repeats = repeats
        self.hand = hand
        ports.recorder.open_hand(number)
        ports.recorder.emit("hand_start", **start_fields(hand), tile_set=wall.tile_set)
        if dealer_roll:
            ports.recorder.emit("first_dealer", roller=roller, dice=list(dealer_roll), dealer=dealer)
        await self._advance(hand, "dice_done")
        return await self._run(hand)

    async def resume(self, hand: HandState, *, totals: tuple[int, ...], cause: str,
                     blind: UnseenTakes = NO_UNSEEN) -> HandOutcome:
        """Pick up a journaled hand where it stood (after a restart, or a board that rebooted):
        `blind` are the takes the wall sensors now show made while nobody watched; the screens are
        drawn again."""
        ports = self.ports
        self.totals = tuple(totals)
        self.rolls_asked = hand.rolls_asked
        self.hand = hand
        ports.recorder.open_hand(hand.number)
        ports.recorder.emit("resumed", cause=cause, phase=hand.phase, **start_fields(hand),
                            taken=[[t.slot.ring, t.slot.layer.value, t.end.value, t.reason]
                                   for t in hand.tracker.taken.values()],      # what the journal knew
                            kongs_without_takes=hand.tracker.kongs_without_takes,   # a kill may cut their lines
                            # …and the last take's: a self-drawn win after the restart is on that tile
                            last_take=take_fields(hand.last_take) if hand.last_take is not None else None,
                            replaced_for=hand.replaced_for,
                            indicators=[r.event_fields() for r in recorded_reveals(hand)],  # a private 宝 hidden
                            wins=[dict(w.event) for w in hand.wins if w.event is not None],    # their lines
                            **hand.declared_fields())
        if hand.phase == "win_check":                   # the win check restarts when the seat presses 胡 again
            hand.phase = "playing"
        if hand.phase == "dice":                        # journaled as it began: its dice were rolled
            hand.phase = "dealing"
        # keys pressed as it stopped may be lost: the first screen says so (a reveal asks again anyway),
        # and those that reached this controller do not count either: each is pressed again (recorded as
        # dropped) — but in a hand journaled in play (请出牌 shows only once the journal holds it) a 听 or
        # 杠 the boards sent again (never applied: its journal write did not commit) changes the hand at
        # once, as it would have, and nobody presses it again; a key sent on later was pressed in play
        self.note = RESTARTED if cause == "restart" and hand.phase in ("dealing", "revealing", "playing",
                                                                      "settling") else ""
        # the replacements owed as it stopped were taken first (the seat reads 杠/补花/亮牌补牌 and takes
        # them at once; after the keys, a 杠 among them would claim a 过杠's replacement as its own)
        if blind.put_back:                              # tiles put back while it was stopped
            self.put_backs.unseen(hand, blind.put_back)
        for pos, tiles in blind.owed:
            self._wall_changed(pos, tiles, seen_live=True, in_sequence=False)
        if cause == "restart":
            unanswered = [press for press in ports.keys.take_all() if not self.on_key(press, live=False)]
            record_dropped(ports.recorder, unanswered, "restart")
        # the other takes after the keys the boards sent again: a 杠 among them was pressed before the
        # takes the sensors now show (its replacement among them); taken first, its replacement was an
        # unowed tail take and the kong waited for another (no 第N杠来自, and the seat that owes its
        # answer never 确认s 荒庄)
        for pos, tiles in blind.rest:
            self._wall_changed(pos, tiles, seen_live=True, in_sequence=False)
        await ports.advance(f"resume_{hand.phase}")
        self._redraw(hand)
        # the seats' lines go through the motor board, the restart note through the display: people
        # answer what their line shows, so every old question is gone before the note asks for keys
        # (campaign 270050, 长沙: an old 起手小和 question answered with 胡 mid-hand stalled the table)
        for seat in hand.ruleset.players:
            await ports.shown(seat)
        return await self._run(hand)

    def _redraw(self, hand: HandState) -> None:
        """Everything the screens showed of this hand, as a restarted display must show it again."""
        screens = self.ports.screens
        screens.round(f"第{hand.number}局")
        screens.dealer(hand.dealer, hand.facts.repeats)      # (a first dealer rolled for is not the session's yet)
        screens.dice(hand.dice_shown())
        self._show_public(hand)
        screens.stacks_left(hand.tracker.live)
        for seat in hand.ruleset.players:
            screens.seat_status(seat, seat == hand.dealer, self.totals[seat], ready=seat in hand.ready)
            screens.prompt(seat, "")
        bao = hand.bao
        for seat in bao.seats if bao is not None else ():
            self.bao.show(hand, seat)                   # only the seats that had seen it
        if hand.bao_roller is not None and bao is None:
            self.bao.on_ready(hand, hand.bao_roller)

    async def _run(self, hand: HandState) -> HandOutcome:
        """The hand from its current phase to its outcome."""
        ports = self.ports
        screens = ports.screens
        ruleset = hand.ruleset
        early = ""
        if hand.phase == "dealing":
            screens.phase(Phase.DEAL, self.take_note())
            await ports.until(lambda: hand.deal_complete)
            plan = ruleset.dealing.plan(hand.dealer, ruleset.players)
            ports.recorder.emit("dealt", next_head=hand.tracker.next_head_position(),
                                hand_sizes={str(side): n for side, n in plan.hand_sizes().items()})
            await self._advance(hand, "dealt")
        if hand.phase == "revealing":
            if self.note:       # resumed here: keys pressed as it stopped (a special kong laid, 确认) are pressed again
                screens.phase(Phase.DEAL, self.note)
                screens.carry(self.take_note())     # and the opening phase's own line says it again (or 请出牌)
            await self._reveal_after_deal(hand)
            for phase in ruleset.phases:
                if f"phase:{phase.name}" not in hand.steps_done:
                    await run_phase(phase.name, ports, hand, self.roll)
                    hand.steps_done.append(f"phase:{phase.name}")
            # a 听 or 杠 pressed while the deal's line is still up, until 请出牌, is no 听 or kong (a probe:
            # one pressed during the journal write below counted, and 长春 asked that seat for the 宝)
            self._opening = True
            await self._advance(hand, "revealed")
            await ports.journaled()     # the players play once they read 请出牌: a restart must know it
            early = self._open_play(hand)       # no await from here to 请出牌: nothing comes in between
        if hand.phase == "playing":
            self._reveal_on_kongs(hand)                 # (a kong journaled before its 明鸡 was: turned up now)
            await self.liang.resume(hand)               # (a 亮牌's replacement is taken before play goes on)
            detail = " ".join(text for text in (self.take_note(), early) if text)
            screens.phase(Phase.LAST_TILE if hand.last_tile_shown else Phase.PLAY, detail)
            await self._play_loop(hand)
        return await self._finish(hand)

    def close(self) -> None:
        """The outcome is published: the hand no longer follows the wall."""
        self.hand = None

    def _open_play(self, hand: HandState) -> str:
        """Play opens, just before 请出牌 first shows.  A key still queued was pressed during the deal or
        an opening phase and answered nothing there: taken in play, a 胡 would start a win check the
        seat never meant (and never answers), a 确认 would end the hand at 最后一张, a 骰子 roll a 宝.
        Each is dropped and recorded; the public line's word naming the seats (a 胡 meant now is
        pressed again once 请出牌 shows: the dealer's win on his first turn too)."""
        self._opening = False
        presses = self.ports.keys.take_all()
        record_dropped(self.ports.recorder, presses, "before_play")
        seats = sorted({p.seat for p in presses if not p.front and p.seat in hand.ruleset.players})
        return f"{EARLY_KEYS}:{' '.join(hand.wind_name(seat) for seat in seats)}" if seats else ""

    def take_note(self) -> str:
        """The note for the phase being shown, said once."""
        note, self.note = self.note, ""
        return note

    async def _advance(self, hand: HandState, trigger: str) -> None:
        await self.ports.advance(trigger)
        hand.phase = self.ports.table_state

    async def _dice(self, dealer: int) -> list[tuple[int, ...]]:
        ports = self.ports
        procedure = ports.ruleset.dice
        rolls: list[tuple[int, ...]] = []
        ports.screens.phase(Phase.DICE, self.take_note())
        for index in range(procedure.rolls_needed):
            roller = dealer
            if index == 1 and isinstance(procedure, SecondRollerPicksStart):
                roller = count_seats(dealer, sum(rolls[0]), ports.ruleset.players)
            rolls.append(await self.roll(roller, procedure.dice_per_roll))
            ports.screens.dice(rolls)
        return rolls

    async def roll(self, seat: int, count: int, prompt: str = ROLL_DICE) -> tuple[int, ...]:
        """Prompt `seat` to press 骰子 (its panel or the front panel), then roll `count` dice."""
        self.rolls_asked += 1
        if self.hand is not None:
            self.hand.rolls_asked = self.rolls_asked
        screens = self.ports.screens
        screens.prompt(seat, roll_prompt(self.rolls_asked) if prompt == ROLL_DICE else prompt)
        # a 骰子 pressed before this prompt was up (pressed twice for the roll before) rolls nothing
        await drop_pressed_before(self.ports, seat, (Key.DICE,), (seat, Panel.FRONT))
        await self.ports.next_key((seat, Panel.FRONT), (Key.DICE,))
        screens.prompt(seat, "")
        return await self.ports.roll_dice(count)

    async def _reveal_after_deal(self, hand: HandState) -> None:
        for index, rule in enumerate(hand.ruleset.indicators):
            step = _reveal_step(index)
            if rule.timing not in (Timing.FIXED, Timing.AFTER_DEAL) or step in hand.steps_done:
                continue
            if rule.timing is Timing.FIXED:
                self._record(hand.fixed(rule))
                hand.steps_done.append(step)
                continue
            roll: tuple[int, ...] = ()
            if rule.position_dice:
                roll = await self.roll(hand.dealer, rule.position_dice)
            reveal = hand.reveal(rule, roll)
            if roll:
                self.ports.screens.dice(hand.dice_shown())
            hand.steps_done.append(step)
            self._record(reveal)
            hand.tracker.recount_flowers(hand.ruleset.flowers.kinds_for(hand.public_wilds()))
            if not rule.stays_in_play:                      # shown first; then the dealer takes it out
                hand.tracker.expect_set_aside(reveal.slots[0])
            # the dealer takes it out once it shows: a restart must know which tile that was, or it
            # takes it for a kong's replacement and rolls for another (a stall: the fault campaign, 河北)
            await self.ports.journaled()
            self._show_public(hand)
            await self._set_aside_by_dealer(hand)
        await self._set_aside_by_dealer(hand)           # one journaled before a restart
        self._show_public(hand)

    async def _set_aside_by_dealer(self, hand: HandState) -> None:
        """Wait for the dealer to take the indicator shown out of the wall; his line says so (a probe:
        nothing told him, and a hand was drawn on, every draw out of order, until a head draw reached
        the indicator's slot)."""
        if not hand.tracker.expected_aside:
            return
        name = next((r.rule.name_zh for r in reversed(hand.reveals) if not r.rule.stays_in_play), "")
        self.ports.screens.prompt(hand.dealer, f"{SET_ASIDE}{name}")
        await self.ports.until(lambda: not hand.tracker.expected_aside)
        self.ports.screens.prompt(hand.dealer, "")

    def _record(self, reveal: Reveal) -> None:
        self.ports.recorder.emit("indicator", **reveal.event_fields())

    def _reveal_on_kongs(self, hand: HandState) -> None:
        """贵州 明鸡 「而且有杠牌 就要翻第四墩～以此类推」: once a kong's replacement is taken, the next stack's
        top is turned up (option ming_ji_kong).  Done at once with the take, no await between: the journal
        that holds the take holds the reveal; a hand journaled between them (or whose takes a restart
        reconstructs) turns it up here as play goes on.  Only in play, before the hand is won."""
        if hand.phase not in ("playing", "win_check") or hand.over:
            return
        shown = False
        for index, rule, kong in hand.kong_reveals_due():
            reveal = hand.reveal_on_kong(index, rule, kong)
            if reveal is not None:
                self._record(reveal)
                shown = True
        if shown:
            self._show_public(hand)

    def _show_public(self, hand: HandState) -> None:
        shown = hand.standing_reveals()
        self.ports.screens.public_indicators([t.zh for r in shown for t in r.tiles],
                                             [t.zh for t in hand.public_wilds()])

    # -- play ----------------------------------------------------------------------------------------

    async def _play_loop(self, hand: HandState) -> None:
        ports = self.ports
        seats = tuple(hand.ruleset.players)
        while not hand.over:
            item = await ports.until(lambda: self._play_input(hand, seats))
            if isinstance(item, QuestionsDue):
                await self.questions.ask_due(hand)
                continue
            if isinstance(item, BaoRoll):                   # the first ready seat rolls the 宝 die
                await self.bao.choose(hand, item.seat)
                continue
            if isinstance(item, TellAgain):                 # answered here, not over a question's line
                self.owed_again.discard(item.seat)
                self.win_check.tell_again(hand, item.seat)
                continue
            ports.keys.take(lambda p: p == item)
            seat = item.seat
            if item.key == Key.HU and not hand.won_already(seat):
                wins_before = len(hand.wins)
                await self.win_check.win(hand, seat)
                await self.win_check.more_winners_on_the_discard(hand)
                self._warn(tail_tiles.after_win_check(hand, wins_before))
                hand.phase = ports.table_state
            elif item.key == Key.HU:                        # he won already (血战, or 血流 on this tile)
                self.win_check.tell_again(hand, seat)
            elif item.key == Key.CONFIRM and hand.tracker.exhausted:
                return
            elif item.key == Key.DICE and hand.bao is not None and seat in hand.ready:
                await self.bao.change(hand, seat)
            elif item.key == Key.RIGHT:                     # 沈阳 亮牌 (only offered where the card has it)
                await self.liang.declare(hand, seat)
            elif item.key == Key.DICE:                      # no 宝 this seat may change: it answers nothing
                record_dropped(ports.recorder, (item,), "in_play")
            if hand.tracker.exhausted and not hand.over and hand.last_tile_shown:
                ports.screens.phase(Phase.LAST_TILE)

    def _play_input(self, hand: HandState,
                    seats: tuple[int, ...]) -> Press | BaoRoll | QuestionsDue | TellAgain | None:
        if self.questions.due(hand):
            return QuestionsDue()
        if self.owed_again:
            return TellAgain(min(self.owed_again))
        keys = self.ports.keys
        if hand.bao_roller is not None and hand.bao is None and keys.peek(pressed((hand.bao_roller,), (Key.DICE,))):
            return BaoRoll(hand.bao_roller)
        if hand.tracker.exhausted:
            self._drop_confirms_before_last_tile(seats)
        playing = (Key.HU, Key.DICE, Key.CONFIRM) if hand.tracker.exhausted else (Key.HU, Key.DICE)
        if hand.ruleset.has_phase("liang_pai"):
            playing += (Key.RIGHT,)
        return keys.peek(pressed(seats, playing))

    def _drop_confirms_before_last_tile(self, seats: tuple[int, ...]) -> None:
        """A seat's 确认 pressed in play before 最后一张 showed (a question answered twice, a fault page,
        a slip) answers nothing and ends no hand: left queued, it ended the hand as 荒庄 the moment the
        last live tile was drawn, before its drawer could press 胡.  (Here, where the play loop waits:
        no question of the loop is open to take it.)"""
        mark = self.last_tile_mark
        confirm = pressed(seats, (Key.CONFIRM,))
        stale = self.ports.keys.drop(lambda p: confirm(p) and p.made_before(mark))
        record_dropped(self.ports.recorder, stale, "before_last_tile")

    # -- the end of the hand -------------------------------------------------------------------------

    async def _finish(self, hand: HandState) -> HandOutcome:
        if hand.phase != "settling":
            await self._advance(hand, "hand_over")
        self._warn(tail_tiles.at_end(hand))
        if not hand.wins and hand.draw is None:
            count = hand.tracker.count()
            if not hand.facts.round_done:                  # (a resumed hand said it before its round)
                self.ports.recorder.emit("exhausted", live=count.live, reserve=count.reserved_full_stacks,
                                         kongs=hand.tracker.kongs, remaining=count.remaining,
                                         reserved_tiles=count.reserved)
            await self.settlement.run(hand, settle_draw=draw_payout, note=self.take_note())
            if hand.draw is None:       # no round was asked (or it was done before a restart): settled as it stands
                hand.draw = draw_payout(hand)
        else:
            await self.settlement.run(hand, note=self.take_note())
        return hand.outcome()

    def _warn(self, warnings: list[str]) -> None:
        """云南 尾牌 taken without a 杠上开花: said on the public line while play goes on, and recorded."""
        hand = self.hand
        for message in warnings:
            self.ports.recorder.emit("warning", message=message, rule="weipai")
            if hand is not None and not hand.over and hand.phase == "playing":
                self.ports.screens.phase(Phase.LAST_TILE if hand.last_tile_shown else Phase.PLAY, TAIL_ONLY_ON_KONG_WIN)



def take_fields(take: Take) -> dict:
    """A take as its `take` line says it (never its tile: hidden until the hand ends), and
    `at_wall_end` on the rare take that has it (a 云南 尾牌 taken with no face-down tile left): the
    audit checks it against the wall it replays."""
    fields = {"end": take.end.value, "ring": take.slot.ring, "layer": take.slot.layer.value, "live": take.live,
              "reserve": take.reserve, "kongs": take.kongs, "reason": take.reason, "in_order": take.in_order}
    if take.at_wall_end:
        fields["at_wall_end"] = True
    return fields


def _reveal_step(index: int) -> str:
    """The step done once the ruleset's `index`-th indicator is found or announced (`steps_done`)."""
    return f"reveal:{index}"


def recorded_reveals(hand: HandState) -> list[Reveal]:
    """The indicators the recorder has told of: the fixed ones announced after the deal (杭州/广东 白板:
    no tile, the rule's own wilds; kept as a step done, not as a reveal) and those found in the wall.
    `resumed` names them all, so a view that starts at it shows the wilds the hand had shown."""
    fixed = [HandState.fixed(rule) for index, rule in enumerate(hand.ruleset.indicators)
             if rule.timing is Timing.FIXED and _reveal_step(index) in hand.steps_done]
    return fixed + list(hand.reveals)


def start_fields(hand: HandState) -> dict:
    """What `hand_start` says of a hand (and `resumed` says again): public, no tile.  `rules`: the number
    of the reading of its rules this version plays (rulesets/revisions.py), which the audit of a later
    version reads."""
    ruleset = hand.ruleset
    return {"ruleset": ruleset.id, "rules": revision(ruleset.id), "options": dict(ruleset.options), "dealer": hand.dealer,
            "sides": list(ruleset.players), "stacks_per_side": list(ruleset.stacks_per_side),
            "dice": [list(r) for r in hand.rolls], "break": {"wall": hand.brk.wall, "skip": hand.brk.skip},
            "ring_stacks": len(hand.ring), "wall_hash": hand.wall_hash(), "repeats": hand.facts.repeats}


def draw_payout(hand: HandState) -> Payout | None:
    """What a drawn hand pays by its rules (云南 查大叫: the ready hands the settlement round found, or
    the seats that declared 听), or None."""
    ruleset = hand.ruleset
    ready = hand.facts.round_ready if hand.facts.round_ready is not None else hand.ready
    settled = ruleset.scoring.settle_draw(
        ruleset, DrawContext(hand.dealer, ruleset.players, tuple(ready), hand.kongs_by_side()))
    return None if settled is None else Payout(settled.payments, settled.items)
