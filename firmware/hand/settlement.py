"""The settlement round at the end of a hand: every seat the rules name lays its hand (issue 16).

Where a region settles every seat (贵州 鸡, 云南 查大叫, 宜昌 查花猪; `rulesets.rounds` says which seats
and what is judged), the table cannot see the hands, so it asks, as a person at a manual table
would be asked: the public line reads `请亮牌结算`, and each seat asked is prompted on its display
`亮副露后确认` (lay the shown melds and kongs, 确认) and then `亮手牌后确认` (the rest beside them,
确认).  A seat with nothing to show presses 确认 on an empty zone.  The seats answer in any order;
each read is its own.  When no seat has answered for `timeout` seconds, the seats still asked are
settled as hands not shown, and the recorder says so (`timed_out`).  Then every hand is judged, each seat's line is
shown on its display (有叫/无叫, 花猪, 鸡, the amount), and the result — the hands, what was judged,
the payments — is recorded as `settlement` before the hand's outcome goes to the ledger.

长春 with house option `dadan=laid` asks, at the end of every hand, each seat that pressed 杠 for a kong:
`亮明杠后确认` (its exposed kongs), then `亮暗杠后确认` (its concealed kongs beside them); what it laid
must be exactly those kongs (`rulesets.rounds.kongs_laid`), and the 大蛋 among them are paid.
"""

from __future__ import annotations

from typing import Callable, Sequence

from drivers.table_ui import (FLOWER_PIG, LAY_CLOSED_KONGS, LAY_OPEN_KONGS, NOT_READY, NOT_SHOWN, READY_MARK, ROUND_PAID,
                              SHOW_HAND, SHOW_MELDS, WIN_DONE, Key, Phase)
from rulesets.hand import Hand
from rulesets.settlement import add_payments
from rulesets.rounds import (RoundContext, RoundResult, SeatShown, judge_round, kong_counts, kongs_laid, lays_kongs,
                             pressed_kongs, round_seats)
from rulesets.tiles import Tile

from .facts import Extra
from .melds import melds_from_tiles
from .ports import HandPorts, pressed, scored
from .questions import ask_first_yaoji
from .state import HandState
from .win_check import paying_flips
from .wins import Payout

DEFAULT_TIMEOUT = 180.0        # seconds without an answer before the seats still asked are settled as not shown


class SettlementRound:
    def __init__(self, ports: HandPorts, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.ports = ports
        self.timeout = timeout

    async def run(self, hand: HandState, settle_draw: Callable[[HandState], Payout | None] | None = None,
                  note: str = "") -> None:
        """The round, once per hand (a resumed hand does not run it again).  `settle_draw`: a drawn
        hand's settlement once the round has found the ready hands (云南 查大叫): kept as the hand's
        draw, and in each seat's line with what the round itself pays.  `note`: said with its phase
        (the restart's: a 确认 pressed as the controller stopped is pressed again)."""
        facts = hand.facts
        if facts.round_done:
            return
        winners = tuple(w.seat for w in hand.wins)
        kongs = pressed_kongs(hand.kongs)
        seats = round_seats(hand.ruleset, winners, (side for side, *_ in kongs))
        if not seats:
            facts.round_done = True
            return
        self.ports.screens.phase(Phase.SETTLE, note)
        of_kongs = lays_kongs(hand.ruleset)
        prompts = (LAY_OPEN_KONGS, LAY_CLOSED_KONGS) if of_kongs else (SHOW_MELDS, SHOW_HAND)
        for seat in seats:                  # (they lay while the winner answers 首张幺鸡: their 确认 wait in the queue)
            self.ports.screens.prompt(seat, prompts[0])
        # 贵州's 冲锋鸡/责任鸡: unanswered for the round's time between keys, neither is paid
        first_yaoji = await ask_first_yaoji(self.ports, hand, winners[0], idle=self.timeout) if winners else None
        laid, late = await self._collect(seats, prompts)
        build = self._kongs_of if of_kongs else self._hand_of
        shown = tuple(SeatShown(seat, build(hand, seat, *laid[seat]) if seat in laid else None,
                                seat in late) for seat in seats)
        flipped = paying_flips(hand)        # the 明鸡 (打明鸡) too, then the after-win flips
        context = RoundContext(hand.dealer, tuple(hand.ruleset.players), winners, shown, flipped, hand.public_wilds(),
                               kongs, first_yaoji)
        result = await scored(self.ports, judge_round, hand.ruleset, context)     # every hand judged: CPU, off the loop
        settlement = result.settlement
        if settlement.items or any(settlement.payments):
            facts.extras.append(Extra("round", None, settlement.payments, settlement.items))
        facts.round_ready = None if result.ready is None else list(result.ready)
        facts.round_done = True
        self.ports.recorder.emit("settlement", **round_fields(context, result))
        paid = settlement.payments
        if settle_draw is not None:
            hand.draw = settle_draw(hand)
            paid = add_payments(paid, hand.draw.payments) if hand.draw is not None else paid
        for seat in seats:
            if seat not in winners:
                self.ports.screens.prompt(seat, seat_line(result, seat, paid[seat]))
        for seat in dict.fromkeys(winners):       # his line said the win's money alone (胡 +N): the round's beside it
            if seat in seats or paid[seat]:
                self.ports.screens.prompt(seat, winner_line(hand, seat, paid[seat]))

    async def _collect(self, seats: Sequence[int], prompts: tuple[str, str]
                       ) -> tuple[dict[int, tuple[list[Tile] | None, list[Tile] | None]], set[int]]:
        """Read every seat's zone twice, each prompted already (melds, then everything; or 明杠, then the
        暗杠 beside them: `prompts`); returns the reads of the seats that answered, and the seats that
        did not answer in time."""
        ports = self.ports
        step = {seat: 0 for seat in seats}
        first: dict[int, list[Tile] | None] = {}
        laid: dict[int, tuple[list[Tile] | None, list[Tile] | None]] = {}
        while len(laid) < len(seats):
            waiting = tuple(s for s in seats if s not in laid)
            try:
                press = await ports.until(lambda: ports.keys.peek(pressed(waiting, (Key.CONFIRM,))), timeout=self.timeout)
            except TimeoutError:
                break
            ports.keys.take(lambda p: p == press)
            seat = press.seat
            tiles = self._tiles(await ports.read_zone(seat))
            if step[seat] == 0:
                first[seat] = tiles
                step[seat] = 1
                ports.screens.prompt(seat, prompts[1])
            else:
                laid[seat] = (first[seat], tiles)
        late = {s for s in seats if s not in laid}
        for seat in late:
            ports.screens.prompt(seat, "")
        return laid, late

    def _tiles(self, uids: tuple[bytes, ...]) -> list[Tile] | None:
        tiles = [self.ports.lookup(uid) for uid in uids]
        return None if None in tiles else tiles  # type: ignore[return-value]

    def _hand_of(self, hand: HandState, seat: int, shown: list[Tile] | None, everything: list[Tile] | None) -> Hand | None:
        """The hand a seat laid, or None when it laid nothing (or a tag the registry does not know)."""
        if shown is None or everything is None:
            self.ports.recorder.emit("warning", message=f"seat {seat}'s read zone holds a tag that is not a "
                                                        "registered tile: its hand counts as not shown")
            return None
        return laid_hand(hand, seat, shown, everything) if everything else None

    def _kongs_of(self, hand: HandState, seat: int, shown: list[Tile] | None, everything: list[Tile] | None) -> Hand | None:
        """The kongs a seat laid (its 明杠, then its 暗杠 beside them), or None when they are not the
        kongs it pressed 杠 for: the recorder says so."""
        if shown is None or everything is None:
            return self._hand_of(hand, seat, shown, everything)
        laid = kongs_laid(shown, everything, *kong_counts(hand.kongs.get(seat, [])))
        if laid is None and everything:
            self.ports.recorder.emit("warning", message=f"seat {seat} laid {' '.join(t.zh for t in everything)}, "
                                                        "not the kongs it pressed 杠 for: no 大蛋 is paid it")
        return laid


def laid_hand(hand: HandState, seat: int, shown: list[Tile], everything: list[Tile]) -> Hand:
    """Melds from the first read (split with the seat's kongs), the rest concealed, bonus tiles apart.
    Tiles that do not split into melds count as concealed (the judge then finds what they are)."""
    bonus = hand.ruleset.flowers.kinds_for(hand.public_wilds())
    rest = list(everything)
    for tile in shown:
        if tile in rest:
            rest.remove(tile)
    kongs = hand.kongs.get(seat, [])
    meld_tiles = [t for t in shown if t not in bonus]
    try:
        melds = melds_from_tiles(meld_tiles, len(kongs), sum(kongs), hand.facts.special_melds(seat), hand.hua_peng(seat))
    except ValueError:
        melds, rest = (), rest + meld_tiles
    flowers = tuple(t for t in everything if t in bonus)
    return Hand(tuple(sorted(t for t in rest if t not in bonus)), melds, flowers)


def seat_line(result: RoundResult, seat: int, payment: int) -> str:
    """What a seat's display shows after the round: 有叫 / 无叫, 花猪, 未亮牌, and what it gets or pays."""
    verdict = result.verdict(seat)
    parts = []
    if verdict is not None and not verdict.shown:
        parts.append(NOT_SHOWN)
    if verdict is not None and verdict.ready is not None:
        parts.append(READY_MARK if verdict.ready else NOT_READY)
    if verdict is not None and verdict.flower_pig:
        parts.append(FLOWER_PIG)
    return " ".join(parts + [f"{payment:+d}"])


def winner_line(hand: HandState, seat: int, payment: int) -> str:
    """A winner's line after the round: his (last) win's money as the win showed it, and the round's."""
    won = [w.payout.payments[seat] for w in hand.wins if w.seat == seat]
    return f"{WIN_DONE} {won[-1]:+d} {ROUND_PAID} {payment:+d}" if won else f"{ROUND_PAID} {payment:+d}"


def round_fields(context: RoundContext, result: RoundResult) -> dict:
    """The `settlement` event: every hand laid (or not), what was judged, what the round pays."""
    settlement = result.settlement
    return {
        "seats": [s.side for s in context.shown],
        "hands": [{"seat": s.side, "shown": s.hand is not None, "timed_out": s.timed_out,
                   "tiles": [str(t) for t in s.hand.concealed] if s.hand else [],
                   "melds": [str(m) for m in s.hand.melds] if s.hand else [],
                   "flowers": [str(t) for t in s.hand.flowers] if s.hand else []} for s in context.shown],
        "ready": None if result.ready is None else list(result.ready),
        "flower_pigs": [v.side for v in result.verdicts if v.flower_pig],
        "flipped": [str(t) for t in context.flipped],
        "items": [{"name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit} for i in settlement.items],
        "payments": list(settlement.payments),
        **({"first_yaoji": list(context.first_yaoji)} if context.first_yaoji is not None else {}),
    }


__all__ = ["DEFAULT_TIMEOUT", "SettlementRound", "laid_hand", "round_fields", "seat_line", "winner_line"]
