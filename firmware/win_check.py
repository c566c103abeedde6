"""A win at the table: who discarded, the hand from the read zone, the winning tile, the verdict.

The winner answers choice prompts on the seat panel (docs/table-flow.md §4), lays the shown melds
and then the rest in the seat's read zone; the two inventories give the melds and the concealed
hand.  If the zone cannot read the hand, the seat panel takes it tile by tile.  After-win flips
(鸡, 马, 鸟) are read from the wall map.  The hand is judged and scored by the region's rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drivers.motor_protocol import Key
from drivers.table_ui import (ENTRY, LAY_HAND, LAY_MELDS, NOT_A_WIN, SELF_DRAWN, WIN_DONE, WIN_FROM, WIN_TILE, Phase,
                              choice_text, relative_name)
from rulesets.indicators import Effect, Timing
from rulesets.tiles import Tile

from .hand_state import HandState, melds_from_tiles

if TYPE_CHECKING:
    from .hand_flow import HandFlow


class WinCheck:
    def __init__(self, flow: "HandFlow") -> None:
        self.flow = flow

    @property
    def ctl(self):
        return self.flow.ctl

    @property
    def hand(self) -> HandState:
        return self.flow.hand

    def emit(self, event: str, **fields) -> dict:
        return self.flow.emit(event, **fields)

    def _record_reveal(self, reveal) -> None:
        self.flow._record_reveal(reveal)

    def winners_on(self, discarder: int | None, seat: int) -> int:
        """How many win on this discard: those already judged, this seat, and those who pressed 胡 too."""
        if discarder is None:
            return 1
        judged = sum(1 for w in self.hand.wins if w.discarder == discarder)
        pressed = {int(p.panel) for p in self.ctl.inputs.keys if p.key == Key.HU and p.panel != seat
                   and p.panel != discarder and p.panel in self.ctl.ruleset.players}
        return judged + 1 + len(pressed)

    async def more_winners_on_the_discard(self) -> None:
        """一炮多响: other seats that pressed 胡 on the same discard are judged too."""
        hand = self.hand
        if not hand.wins or hand.wins[-1].discarder is None or not self.ctl.ruleset.play.multiple_winners:
            return
        discarder = hand.wins[-1].discarder
        while True:
            winners = {w.seat for w in hand.wins}
            press = next((p for p in self.ctl.inputs.keys if p.key == Key.HU and p.panel in self.ctl.ruleset.players
                          and p.panel not in winners and p.panel != discarder), None)
            if press is None:
                return
            self.ctl.inputs.keys.remove(press)
            await self.win(int(press.panel))

    async def win(self, seat: int) -> None:
        ctl = self.ctl
        hand = self.hand
        if ctl.table.state == "playing":
            await ctl.table.hu()
        ctl.presenter.phase(Phase.WIN_CHECK)
        discarder = await self._ask_discarder(seat) if ctl.ruleset.play.discard_win else None
        melds, concealed, flowers = await self._read_hand(seat)
        win_tile = await self._win_tile(seat, discarder, concealed)
        flipped = self._after_win_flips(discarder)
        record = hand.judge_win(seat, discarder, melds, concealed, flowers, win_tile, flipped,
                                self.winners_on(discarder, seat))
        verdict = record.result.verdict
        if verdict.legal:
            settlement = record.result.settlement
            self.emit("win", seat=seat, **{"from": discarder}, tiles=[str(t) for t in record.hand.concealed],
                      melds=[str(m) for m in record.hand.melds], flowers=[str(t) for t in flowers],
                      win_tile=str(win_tile) if win_tile is not None else None,
                      wilds_as=[[str(a), str(b)] for a, b in verdict.shape.assignment],
                      items=[{"name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit} for i in settlement.items],
                      payments=list(settlement.payments))
            ctl.presenter.prompt(seat, f"{WIN_DONE} {settlement.payments[seat]:+d}")
        else:
            self.emit("false_win", seat=seat, tiles=[str(t) for t in record.hand.concealed],
                      melds=[str(m) for m in record.hand.melds], failures=list(verdict.failures))
            ctl.presenter.prompt(seat, NOT_A_WIN)
        if hand.over:
            return
        if ctl.table.state == "win_check":
            await ctl.table.judged()
        ctl.presenter.phase(Phase.LAST_TILE if hand.tracker.exhausted else Phase.PLAY)

    async def _ask_discarder(self, seat: int) -> int | None:
        sides = self.ctl.ruleset.players
        others = [s for s in sides if s != seat]
        names = [SELF_DRAWN] + [relative_name(seat, s, sides) for s in others]
        index = await self.choose(seat, WIN_FROM, names)
        return None if index == 0 else others[index - 1]

    async def choose(self, seat: int, question: str, choices: list[str]) -> int:
        """A choice prompt on one seat: ◀ ▶ move, 确认 accepts."""
        index = 0
        while True:
            self.ctl.presenter.prompt(seat, choice_text(question, choices[index]))
            press = await self.ctl.next_key((seat,), (Key.LEFT, Key.RIGHT, Key.CONFIRM))
            if press.key == Key.CONFIRM:
                return index
            index = (index + (1 if press.key == Key.RIGHT else -1)) % len(choices)

    async def _read_hand(self, seat: int):
        """Two reads of the seat's zone: the shown melds, then melds and hand together."""
        ctl = self.ctl
        ctl.presenter.prompt(seat, LAY_MELDS)
        await ctl.next_key((seat,), (Key.CONFIRM,))
        shown = await ctl.read_zone(seat)
        ctl.presenter.prompt(seat, LAY_HAND)
        await ctl.next_key((seat,), (Key.CONFIRM,))
        everything = await ctl.read_zone(seat)
        shown_tiles = self._tiles_of(shown.uids)
        all_tiles = self._tiles_of(everything.uids)
        bonus = self.ctl.ruleset.flowers.kinds_for(self.hand.wilds_for(seat))
        kongs = self.hand.kongs.get(seat, [])
        try:
            if shown_tiles is None or all_tiles is None:
                raise ValueError("a tag in the read zone is not a registered tile")
            remaining = list(all_tiles)
            for tile in shown_tiles:
                remaining.remove(tile)
            melds = melds_from_tiles([t for t in shown_tiles if t not in bonus], len(kongs), sum(kongs))
            held = [t for t in remaining if t not in bonus]
            expected = 3 * ((self.ctl.ruleset.hand_size - 1) // 3 - len(melds)) + 2
            if len(held) != expected:
                raise ValueError(f"the read zone saw {len(held)} concealed tile(s), a winning hand holds {expected}")
        except ValueError as error:
            self.emit("zone_fallback", seat=seat, reason=str(error))
            return (), tuple(await self._manual_entry(seat)), ()
        flowers = tuple(t for t in remaining + shown_tiles if t in bonus)
        concealed = tuple(t for t in remaining if t not in bonus)
        return melds, concealed, flowers

    def _tiles_of(self, uids) -> list[Tile] | None:
        tiles = []
        for uid in uids:
            entry = self.ctl.registry.lookup(uid)
            if entry is None:
                return None
            tiles.append(entry.kind)
        return tiles

    async def _manual_entry(self, seat: int) -> list[Tile]:
        """The read zone could not read the hand: enter it on the seat panel, tile by tile."""
        kinds = [k for k in self.ctl.ruleset.tiles.kinds if not k.is_flower]
        entered: list[Tile] = []
        index = 0
        while True:
            self.ctl.presenter.prompt(seat, f"{ENTRY}:{kinds[index].zh} {len(entered)}")
            press = await self.ctl.next_key((seat,), (Key.LEFT, Key.RIGHT, Key.CONFIRM, Key.HU))
            if press.key == Key.HU:
                return entered
            if press.key == Key.CONFIRM:
                entered.append(kinds[index])
            else:
                index = (index + (1 if press.key == Key.RIGHT else -1)) % len(kinds)

    async def _win_tile(self, seat: int, discarder: int | None, concealed: tuple[Tile, ...]) -> Tile | None:
        take = self.hand.last_take
        if discarder is None:
            return take.tile if take is not None and take.tile in concealed else None
        kinds = sorted(set(concealed))
        if not kinds:
            return None
        return kinds[await self.choose(seat, WIN_TILE, [t.zh for t in kinds])]

    def _after_win_flips(self, discarder: int | None) -> tuple[Tile, ...]:
        """鸡 / 马 / 鸟: read from the wall map and shown — nobody touches the wall."""
        flipped: list[Tile] = []
        for rule in self.hand.rules_at(Timing.AFTER_WIN):
            if rule.only_self_drawn and discarder is not None:
                continue
            reveal = self.hand.reveal(rule)
            self._record_reveal(reveal)
            flipped += reveal.tiles
        if flipped:
            self.ctl.presenter.public_indicators([t.zh for t in flipped],
                                                 [t.zh for r in self.hand.reveals if r.rule.timing is Timing.AFTER_WIN
                                                  and r.rule.effect is Effect.PAYING for t in r.special])
        return tuple(flipped)
