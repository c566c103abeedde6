"""A tile put back on the wall (docs/controller.md, "A tile put back").

A stack's sensor reading more tiles than the hand counts means a person put a tile back.  Where the
tiles put back are the hand's last takes and those takes changed nothing beyond the wall's count
(`HandState.put_back` decides), they are undone and recorded (`put_back`); a 请按顺序取牌 note is then
taken down, and 最后一张 goes back to 请出牌 if the last live tile came back.  Otherwise the take stands:
a `warning` says why and the screen asks for the tile to be taken again (！请取回放回的牌) until the
stack holds what the hand counts.
"""

from __future__ import annotations

from drivers.table_ui import TAKE_AGAIN, Phase
from rulesets.walls import StackPos

from .ports import HandPorts
from .state import HandState
from .tracker import TrackingError


class PutBackDesk:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports
        self._take_again: set[StackPos] = set()     # stacks a tile was put back on whose take stands

    def new_hand(self) -> None:
        self._take_again.clear()

    def put_back(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        """`pos` holds `tiles`, more than the hand counts."""
        try:
            undone = hand.put_back(pos, tiles)
        except TrackingError as error:
            self.ports.recorder.emit("warning", message=str(error))
            self._take_again.add(pos)
            self.ports.screens.phase(play_phase(hand), TAKE_AGAIN)
            return
        screens = self.ports.screens
        for take in undone:
            self.ports.recorder.emit("put_back", end=take.end.value, ring=take.slot.ring, layer=take.slot.layer.value,
                                     reason=take.reason, in_order=take.in_order, live=hand.tracker.live)
            if not take.in_order:
                screens.drop_note()                 # 请按顺序取牌 was heeded
        if hand.last_tile_shown and not hand.tracker.exhausted:     # the last tile was not drawn after all
            hand.last_tile_shown = False
            screens.phase(Phase.PLAY)
        screens.stacks_left(hand.tracker.live)

    def counted(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        """`pos` holds `tiles` and that made no take: a tile put back whose take stood, taken again?"""
        if pos in self._take_again and tiles == hand.tracker.stack_tiles(pos):
            self._take_again.discard(pos)
            if not self._take_again:
                self.ports.screens.drop_note()


def play_phase(hand: HandState) -> Phase:
    """The phase word of a hand being dealt or played."""
    if not hand.deal_complete:
        return Phase.DEAL
    return Phase.LAST_TILE if hand.last_tile_shown else Phase.PLAY
