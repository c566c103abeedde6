"""A win at the table: who discarded, the hand from the read zone, the winning tile, the verdict.

The winner answers choice prompts on the seat panel (docs/table-flow.md §4), lays the shown melds
and then the rest in the seat's read zone; the two inventories give the melds and the concealed
hand.  If the zone cannot read the hand, the seat panel takes it tile by tile.  After-win flips
(鸡, 马, 鸟) are read from the wall map.  The hand is judged and scored by the region's rules; the
scorer's `flipped` are the paying tiles turned up after the deal (贵州 打明鸡) and then the after-win
flips (`paying_flips`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from drivers.table_ui import (CUT_OFF, ENTRY, LAY_HAND, LAY_MELDS, NOT_A_WIN, SELF_DRAWN, WIN_DONE, WIN_FROM, WIN_TILE,
                              Key, Phase, relative_name)
from rulesets.hand import Hand, HandError, WinContext
from rulesets.indicators import Effect, Timing
from rulesets.judging import HandResult, evaluate_hand
from rulesets.rotation import nearest_winner
from rulesets.scoring import false_win_settlement
from rulesets.tiles import Tile
from rulesets.winrules import Verdict

from .facts import Extra
from .melds import kongs_from_entry, melds_from_tiles
from .ports import HandPorts, KeyMatch, Press, record_dropped, scored, stray_tags
from .questions import Withdrawn, ask, asked_at_win, confirmed
from .state import HandState, Reveal
from .win_facts import win_context_json


def judge_laid(ruleset, hand: Hand, context: WinContext) -> HandResult:
    """Judge a laid hand; tiles of the wrong count (entered by hand) are a 诈胡, not a crash."""
    try:
        return evaluate_hand(ruleset, hand, context)
    except HandError as error:
        return HandResult(Verdict(False, False, None, (str(error),)), None)


def standing_paying_flips(hand: HandState) -> tuple[Tile, ...]:
    """The paying tiles turned up before the win (贵州 打明鸡 「起牌后三墩翻起～如翻2条，3条就是鸡。有3条就有钱」,
    RULES.md §13.2), in the order shown: every payment that counts 鸡 counts theirs too.  Those a kong turned
    up (「而且有杠牌 就要翻第四墩～以此类推」) count as the option says: all of them (add), or only the latest (move)."""
    return tuple(t for r in hand.standing_reveals() if r.rule.effect is Effect.PAYING for t in r.tiles)


def paying_flips(hand: HandState) -> tuple[Tile, ...]:
    """Every flip the hand's 鸡 are derived from: the standing ones (明鸡), then the after-win flips."""
    return standing_paying_flips(hand) + tuple(t for r in hand.reveals if r.rule.timing is Timing.AFTER_WIN
                                               for t in r.tiles)


def false_win_penalty(hand: HandState, seat: int) -> tuple[int, int, int, int] | None:
    """What a 诈胡 pays where the region's scorer prices one (大包: 「诈胡等同于输给其他三家」), kept with
    the hand's other payments beyond its wins (journaled); None where it pays nothing."""
    settled = false_win_settlement(hand.ruleset, seat, hand.dealer)
    if settled is None:
        return None
    hand.facts.extras.append(Extra("false_win", seat, settled.payments, settled.items))
    return settled.payments


class CutOff(Exception):
    """截胡: a seat nearer the discarder claimed the same discard; this claim gives way to it."""

    def __init__(self, nearer: int, discarder: int) -> None:
        super().__init__(nearer, discarder)
        self.nearer, self.discarder = nearer, discarder


def withdraw_key(seat: int) -> KeyMatch:
    """A long 胡 of `seat`: it takes the seat's 胡 back (never a claim)."""
    return lambda p: p.panel == seat and p.key == Key.HU and p.long


def flowers_seen(bonus: frozenset[Tile], *reads: list[Tile]) -> tuple[Tile, ...]:
    """The bonus tiles a zone's reads saw, of each kind the most any one read saw: a hand entered on
    the panel (which enters no bonus tile) keeps the flowers laid in the zone, and their money (a
    probe: 上海, 花 4 points lost), even when one read missed one."""
    most: Counter[Tile] = Counter()
    for read in reads:
        most |= Counter(t for t in read if t in bonus)
    return tuple(most.elements())


class WinCheck:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports
        self._withdrawable: set[int] = set()     # seats whose check a long 胡 may still end
        self._cut_off: dict[int, set[int]] = {}  # a nearer claimant → the seats whose line says it cut them off

    def can_withdraw(self, seat: int) -> bool:
        """A long 胡 from `seat` now ends its check, nothing judged (its hand not laid yet: a 胡 pressed
        by mistake, or one a link delivered late after the seat's last check)."""
        return seat in self._withdrawable

    def _other_hu(self, hand: HandState, *excluded: int | None):
        players = hand.ruleset.players
        return lambda p: p.key == Key.HU and p.panel in players and p.panel not in excluded

    def winners_on(self, hand: HandState, discarder: int | None, seat: int) -> int:
        """How many win on this discard: those already judged, this seat, and those who pressed 胡 too."""
        if discarder is None:
            return 1
        # on this discard: no tile taken since (a 血战 seat that won on an earlier discard of the same
        # discarder counted too, and the win line said two winners where there was one)
        judged = sum(1 for w in hand.wins if w.discarder == discarder and w.takes == len(hand.tracker.taken))
        pressing = {p.seat for p in self.ports.keys.peek_all(self._other_hu(hand, seat, discarder))}
        return judged + 1 + len(pressing)

    async def more_winners_on_the_discard(self, hand: HandState) -> None:
        """一炮多响: other seats that pressed 胡 on the same discard are judged too."""
        if not hand.wins or hand.wins[-1].discarder is None or not hand.ruleset.play.multiple_winners:
            return
        discarder = hand.wins[-1].discarder
        while True:
            press: Press | None = self.ports.keys.take(self._other_hu(hand, discarder, *(w.seat for w in hand.wins)))
            if press is None:
                return
            await self.win(hand, press.seat)

    def _drop_stale(self, seat: int, keys: tuple[Key, ...], before: int | None = None) -> None:
        """Presses of this seat that belong to no question (pressed before it was asked: a 胡 pressed
        twice — again after a restart lost the first, the first then resent by the board); with
        `before`, only those pressed before that place among the board's events (`Press.heard`)."""
        stale = self.ports.keys.drop(lambda p: p.panel == seat and p.key in keys and (before is None or p.heard < before))
        record_dropped(self.ports.recorder, stale, "win_check")

    async def win(self, hand: HandState, seat: int) -> None:
        self._drop_stale(seat, (Key.HU, Key.LEFT, Key.RIGHT, Key.CONFIRM))
        answered = None
        try:
            await self._check(hand, seat)
            answered = await self.ports.shown(seat)     # his verdict on his line: what came before, it answers
        finally:
            self._drop_stale(seat, (Key.HU,), answered)     # one 胡, one check

    def tell_again(self, hand: HandState, seat: int) -> None:
        """A seat that won already (`HandState.won_already`) pressed 胡 again — after a reboot note, not
        knowing whether his win was heard: his line says it again (胡 +N), so the press gets an answer."""
        won = [w for w in hand.wins if w.seat == seat]
        if won:
            self.ports.screens.prompt(seat, "")          # written again, not only kept: the line blinks
            self.ports.screens.prompt(seat, f"{WIN_DONE} {won[-1].payout.payments[seat]:+d}")

    async def _check(self, hand: HandState, seat: int) -> None:
        ports = self.ports
        if ports.table_state == "playing":
            await ports.advance("hu")
        ports.screens.phase(Phase.WIN_CHECK)
        try:
            discarder = await self._before_laying(hand, seat)
        except Withdrawn:
            ports.recorder.emit("win_withdrawn", seat=seat)
            ports.screens.prompt(seat, "")
            self._cut_off_lifted(seat)
        except CutOff as cut:
            ports.recorder.emit("win_cut_off", seat=seat, by=cut.nearer, discarder=cut.discarder)
            ports.screens.prompt(seat, f"{CUT_OFF} {relative_name(seat, cut.nearer, hand.ruleset.players)}")
            self._cut_off.setdefault(cut.nearer, set()).add(seat)
        else:
            wins = len(hand.wins)
            await self._judge(hand, seat, discarder)
            if hand.over:
                return
            if len(hand.wins) == wins:              # 诈胡: the seats it cut off may claim the tile again
                self._cut_off_lifted(seat)
        if ports.table_state == "win_check":
            await ports.advance("judged")
        ports.screens.phase(Phase.LAST_TILE if hand.tracker.exhausted else Phase.PLAY)

    def _cut_off_lifted(self, nearer: int) -> None:
        """The claim that cut other seats off came to no win (withdrawn, or 诈胡): their `截胡 …` lines
        go, since the discard is theirs to claim again (it had stayed up to the hand's end, telling a
        seat it had lost a claim it could now make)."""
        for seat in sorted(self._cut_off.pop(nearer, ())):
            self.ports.screens.prompt(seat, "")

    async def _before_laying(self, hand: HandState, seat: int) -> int | None:
        """Who gave the winning tile, and the 确认 once the shown melds lie in the zone: nothing of
        the hand is read yet, so a long 胡 may still take the claim back (`Withdrawn`).  One that
        comes after is left to nothing (recorded): a long 胡 is never a claim."""
        withdraw = withdraw_key(seat)
        self._withdrawable.add(seat)
        try:
            discarder = await self._ask_discarder(hand, seat, withdraw) if hand.ruleset.play.discard_win else None
            nearer = self._nearer_claimant(hand, seat, discarder)
            if nearer is not None:
                raise CutOff(nearer, discarder)
            await confirmed(self.ports, seat, LAY_MELDS, withdraw)
            return discarder
        finally:
            self._withdrawable.discard(seat)
            record_dropped(self.ports.recorder, self.ports.keys.drop(withdraw), "nothing_to_withdraw")

    def _nearer_claimant(self, hand: HandState, seat: int, discarder: int | None) -> int | None:
        """截胡, where one discard makes one winner: a seat nearer the discarder in play order whose 胡
        waits (pressed since this check began, or just before) is judged instead of this one
        (「从点炮者按逆时针方向，顺序在前者胡牌」); None when this seat is the nearest claimant."""
        play = hand.ruleset.play
        if discarder is None or play.multiple_winners or play.claim_order != "nearest":
            return None
        claimants = {p.panel for p in self.ports.keys.peek_all(self._other_hu(hand, seat, discarder))
                     if not p.long and p.panel not in hand.out_of_play} | {seat}
        nearest = nearest_winner(discarder, tuple(claimants), hand.ruleset.players)
        return None if nearest == seat else nearest

    async def _judge(self, hand: HandState, seat: int, discarder: int | None) -> None:
        ports = self.ports
        melds, concealed, flowers = await self._read_hand(hand, seat)
        win_tile = await self._win_tile(hand, seat, discarder, concealed)
        flips = self._after_win_flips(hand, discarder)     # read from the wall map, shown only for a win
        flipped = standing_paying_flips(hand) + tuple(tile for flip in flips for tile in flip.tiles)
        laid, context = hand.laid_hand(seat, discarder, melds, concealed, flowers, win_tile, flipped,
                                       self.winners_on(hand, discarder, seat))
        result = await scored(ports, judge_laid, hand.ruleset, laid, context)     # scoring can take a while
        if result.verdict.legal:
            # what the table cannot see, asked of the seats (拉庄, 财飘, 承包, 三吃承包): it changes what is
            # paid now, so the win is scored again, once, with every answer
            answers = await asked_at_win(ports, hand, laid, context, result.settlement.items if result.settlement else ())
            if answers:
                context = replace(context, extra=context.extra + answers)
                result = await scored(ports, judge_laid, hand.ruleset, laid, context)
        verdict = result.verdict
        if verdict.legal and result.settlement is not None:
            settlement = result.settlement
            line = {"seat": seat, "from": discarder, "tiles": [str(t) for t in laid.concealed],
                    "melds": [str(m) for m in laid.melds], "flowers": [str(t) for t in flowers],
                    "win_tile": str(win_tile) if win_tile is not None else None,
                    "wilds_as": [[str(a), str(b)] for a, b in verdict.shape.assignment],
                    "items": [{"name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit}
                              for i in settlement.items],
                    "payments": list(settlement.payments),
                    "context": win_context_json(context, private=hand.bao.special if hand.bao is not None else ())}
            self._show_flips(hand, flips)
            hand.record_win(seat, discarder, laid, win_tile, result, line)
            ports.recorder.emit("win", **line)
            await ports.journaled()         # shown only once a restart would know it (血战: the hand goes on)
            ports.screens.prompt(seat, f"{WIN_DONE} {settlement.payments[seat]:+d}")
        else:
            penalty = false_win_penalty(hand, seat)
            if hand.private_bao_in_force():     # judged with it: any reason may tell the 宝 (told at hand_end)
                hand.withheld_reasons.append((seat, tuple(verdict.failures)))
                reasons: dict = {"withheld": True}
            else:
                reasons = {"failures": list(verdict.failures)}
            ports.recorder.emit("false_win", seat=seat, tiles=[str(t) for t in laid.concealed],
                                melds=[str(m) for m in laid.melds], **reasons,
                                **({"payments": list(penalty)} if penalty is not None else {}))
            await ports.journaled()
            ports.screens.prompt(seat, NOT_A_WIN if penalty is None else f"{NOT_A_WIN} {penalty[seat]:+d}")

    async def _ask_discarder(self, hand: HandState, seat: int, withdraw: KeyMatch | None = None) -> int | None:
        """Who gave the winning tile: 自摸 or a seat.  Only what can be true is offered: not 自摸 to a
        seat that cannot have drawn (the last tile taken was another seat's kong replacement: a ▶
        pressed once too often confirmed 自摸 for a win on a discard, and everyone paid for it; or it
        was drawn past the live wall, into the reserve), and
        not a seat out of play (血战: a winner discards no more)."""
        sides = hand.ruleset.players
        others = [s for s in sides if s != seat and s not in hand.out_of_play]
        may_self_draw = hand.replaced_for == seat or (hand.replaced_for is None and not hand.last_take_astray)
        sources: list[int | None] = ([None] if may_self_draw else []) + others
        names = [SELF_DRAWN if s is None else relative_name(seat, s, sides) for s in sources]
        return sources[await ask(self.ports, seat, WIN_FROM, names, withdraw)]

    async def choose(self, seat: int, question: str, choices: list[str]) -> int:
        """A choice prompt on one seat: ◀ ▶ move, 确认 accepts."""
        return await ask(self.ports, seat, question, choices)

    async def _read_hand(self, hand: HandState, seat: int):
        """Two reads of the seat's zone: the shown melds (laid and confirmed before), then melds and
        hand together."""
        ports = self.ports
        shown = await ports.read_zone(seat)
        await confirmed(ports, seat, LAY_HAND)
        everything = await ports.read_zone(seat)
        (shown_tiles, _), (all_tiles, strays) = self._tiles_of(shown), self._tiles_of(everything)
        if strays:          # a card or a phone near the antenna: no tile, left out, and said once
            ports.recorder.emit("warning", seat=seat, **strays,
                                message=f"seat {seat}'s read zone saw {strays['stray_tags']} tag(s) of no registered "
                                        "tile (a card or a phone near the antenna?): left out of the hand")
        bonus = hand.ruleset.flowers.kinds_for(hand.wilds_for(seat))
        kongs = hand.kongs.get(seat, [])
        try:
            remaining = list(all_tiles)
            for tile in shown_tiles:
                if tile not in remaining:
                    raise ValueError(f"the second read of the zone missed a {tile.zh} the first one saw")
                remaining.remove(tile)
            melds = melds_from_tiles([t for t in shown_tiles if t not in bonus], len(kongs), sum(kongs),
                                     hand.facts.special_melds(seat), hand.hua_peng(seat))
            held = [t for t in remaining if t not in bonus]
            expected = 3 * ((hand.ruleset.hand_size - 1) // 3 - len(melds)) + 2
            if len(held) != expected:
                raise ValueError(f"the read zone saw {len(held)} concealed tile(s), a winning hand holds {expected}")
        except ValueError as error:
            ports.recorder.emit("zone_fallback", seat=seat, reason=str(error))
            entered = await self._manual_entry(hand, seat, bonus)
            melds, held = kongs_from_entry(entered, kongs, hand.ruleset.hand_size + 1)
            return melds, tuple(held), flowers_seen(bonus, shown_tiles, all_tiles)
        flowers = tuple(t for t in remaining + shown_tiles if t in bonus)
        concealed = tuple(t for t in remaining if t not in bonus)
        return melds, concealed, flowers

    def _tiles_of(self, uids: tuple[bytes, ...]) -> tuple[list[Tile], dict[str, int]]:
        """The registered tiles read, and the tags of no registered tile left out (`stray_tags`)."""
        laid = [self.ports.lookup(uid) for uid in uids]
        return [t for t in laid if t is not None], stray_tags(laid)

    async def _manual_entry(self, hand: HandState, seat: int, bonus: frozenset[Tile]) -> list[Tile]:
        """The read zone could not read the hand: enter it on the seat panel, tile by tile (◀ ▶ choose,
        确认 adds, a long ◀ takes the last one back: a 确认 pressed twice entered a tile twice, 胡 ends).
        No kind set aside as a bonus tile (`bonus`, the zone's reads keep those) is offered: 钻牌's
        shown 发 entered as held was a 杠牌 in the hand, and its win a 诈胡; a wild flower is offered."""
        kinds = [k for k in hand.ruleset.tiles.kinds if k not in bonus]
        entered: list[Tile] = []
        index = 0
        while True:
            self.ports.screens.prompt(seat, f"{ENTRY}:{kinds[index].zh} {len(entered)}")
            press = await self.ports.next_key((seat,), (Key.LEFT, Key.RIGHT, Key.CONFIRM, Key.HU))
            if press.key == Key.HU:
                return entered
            if press.key == Key.CONFIRM:
                entered.append(kinds[index])
            elif press.key == Key.LEFT and press.long:
                if entered:
                    entered.pop()
            else:
                index = (index + (1 if press.key == Key.RIGHT else -1)) % len(kinds)

    async def _win_tile(self, hand: HandState, seat: int, discarder: int | None,
                        concealed: tuple[Tile, ...]) -> Tile | None:
        take = hand.last_take
        if discarder is None:
            return take.tile if take is not None and take.tile in concealed else None
        kinds = sorted(set(concealed))
        if not kinds:
            return None
        return kinds[await self.choose(seat, WIN_TILE, [t.zh for t in kinds])]

    @staticmethod
    def _after_win_flips(hand: HandState, discarder: int | None) -> list[Reveal]:
        """鸡 / 马 / 鸟 as the wall map holds them — nobody touches the wall — not yet shown: a 诈胡
        shows none (a probe: the 马 of a false win were on the public display, and play went on)."""
        return [hand.find_reveal(rule) for rule in hand.rules_at(Timing.AFTER_WIN)
                if not (rule.only_self_drawn and discarder is not None)]

    def _show_flips(self, hand: HandState, flips: list[Reveal]) -> None:
        """The win's flips recorded and shown."""
        flipped: list[Tile] = []
        for reveal in flips:
            hand.record_reveal(reveal)
            self.ports.recorder.emit("indicator", **reveal.event_fields())
            flipped += reveal.tiles
        if flipped:         # the 明鸡 stays on the line beside the flip: its 鸡 are paid too
            paying = [r for r in hand.standing_reveals() + [r for r in hand.reveals if r.rule.timing is Timing.AFTER_WIN]
                      if r.public and r.rule.effect is Effect.PAYING]
            self.ports.screens.public_indicators([t.zh for t in standing_paying_flips(hand) + tuple(flipped)],
                                                 [t.zh for t in sorted({t for r in paying for t in r.special})])
