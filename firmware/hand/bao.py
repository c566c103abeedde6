"""The 长春 宝 (and every region whose 宝 follows it): chosen privately, shown only to ready seats.

The first seat to declare 听 rolls the 宝 die (`ROLL_BAO`); the 宝 is found counting from the tail
(`HandState.choose_bao`) and shown on the displays of the ready seats only — nobody lifts the
tile.  A ready seat may ask for 换宝 with 骰子; a seat that declares 听 later sees the 宝 in force.
"""

from __future__ import annotations

from drivers.table_ui import BAO, CHANGE_BAO_HINT, Key, ROLL_BAO
from rulesets.indicators import IndicatorRule, Timing

from .ports import HandPorts, pressed
from .state import HandState, Reveal


def bao_rule(hand: HandState) -> IndicatorRule | None:
    return next((r for r in hand.ruleset.indicators if r.timing is Timing.ON_READY), None)


class BaoDesk:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports

    def on_ready(self, hand: HandState, seat: int) -> None:
        """A seat declared 听: show it the 宝 in force, or make it the 宝 roller and ask for the die
        (asked again of the roller when a restarted controller redraws the hand: his prompt may never
        have reached him)."""
        if hand.bao is not None:
            self.show(hand, seat)
        elif bao_rule(hand) is not None and hand.bao_roller in (None, seat):
            hand.bao_roller = seat
            self.ports.screens.prompt(seat, ROLL_BAO)

    def died(self, hand: HandState) -> None:
        """The 宝's tile left the wall (a replacement draw took it): the ready seats' 宝 is gone and
        the first ready seat rolls for a new one, as for 换宝 (RULES.md §1.9 C4: the texts do not
        say; choosing again keeps the rule that the 宝 lies in the wall)."""
        for seat in hand.ready:
            self.ports.screens.private(seat, "")
        if hand.bao_roller is not None:
            self.ports.recorder.emit("bao_dead", seat=hand.bao_roller)
            self.ports.screens.prompt(hand.bao_roller, ROLL_BAO)

    async def choose(self, hand: HandState, seat: int) -> None:
        """The 宝 roller pressed 骰子: roll and choose the first 宝."""
        self.ports.keys.take(pressed((seat,), (Key.DICE,)))
        self._show_new(hand, await self._roll_for_bao(hand))

    async def change(self, hand: HandState, seat: int) -> None:
        """换宝: roll again; the old 宝 stays where it lay (it was never moved: the seats saw it on
        their displays)."""
        reveal = await self._roll_for_bao(hand)
        self.ports.recorder.emit("change_bao", seat=seat)
        self._show_new(hand, reveal)

    async def _roll_for_bao(self, hand: HandState) -> Reveal:
        rule = bao_rule(hand)
        assert rule is not None, "only a region with a 宝 rolls for one"
        return hand.choose_bao(rule, await self.ports.roll_dice(rule.position_dice))

    def _show_new(self, hand: HandState, reveal: Reveal) -> None:
        self.ports.recorder.emit("indicator", **reveal.event_fields())
        for ready in hand.ready:
            self.show(hand, ready)

    def show(self, hand: HandState, seat: int) -> None:
        """The 宝 on one ready seat's display (private: that seat's line only)."""
        shown = hand.show_bao_to(seat)
        if shown is not None:
            self.ports.recorder.emit("indicator", **{**shown.event_fields(), "seat": [seat]})
        bao = hand.bao
        if bao is not None:
            self.ports.screens.private(seat, f"{BAO}:{bao.tiles[0].zh} {CHANGE_BAO_HINT}")
