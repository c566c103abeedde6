"""A tile put back on the wall (docs/controller.md, "A tile put back").

A stack's sensor reading more tiles than the hand counts means a person put a tile back.  Where the
tiles put back are the hand's last takes and those takes changed nothing beyond the wall's count
(`HandState.put_back` decides), they are undone and recorded (`put_back`); a 请按顺序取牌 note is then
taken down, and 最后一张 goes back to 请出牌 if the last live tile came back.  Otherwise the take stands:
a `warning` says why and the screen asks for the tile to be taken again (！请取回放回的牌) until the
stack holds what the hand counts — or until the takes after it are put back too (a block of the deal
taken from the wrong stacks, put back stack by stack in any order): it is then undone as well.
"""

from __future__ import annotations

from drivers.table_ui import TAKE_AGAIN, Phase
from rulesets.walls import StackPos

from .ports import HandPorts
from .state import HandState
from .tracker import Take, TrackingError


class PutBackDesk:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports
        self._standing: dict[StackPos, int] = {}    # stacks with tiles put back whose takes stand → tiles read

    def new_hand(self) -> None:
        self._standing.clear()

    def put_back(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        """`pos` holds `tiles`, more than the hand counts."""
        try:
            self._undo(hand, pos, tiles)
        except TrackingError as error:
            self.ports.recorder.emit("warning", message=str(error))
            self._standing[pos] = tiles
            self.ports.screens.phase(play_phase(hand), TAKE_AGAIN)
            return
        self._standing.pop(pos, None)
        while any(self._undone_now(hand, stack, read) for stack, read in list(self._standing.items())):
            pass
        self._after_undo(hand)
        self._all_counted()

    def _after_undo(self, hand: HandState) -> None:
        if hand.last_tile_shown and not hand.tracker.exhausted:     # the last tile was not drawn after all
            hand.last_tile_shown = False
            self.ports.screens.phase(Phase.PLAY)
        self.ports.screens.stacks_left(hand.tracker.live)

    def unseen(self, hand: HandState, count: int) -> None:
        """The hand's last `count` takes were put back while nobody watched (a board rebooted, the
        controller restarted): undone, recorded as `unseen`."""
        for take in hand.take_back(count):
            self._record(hand, take, unseen=True)
        self._after_undo(hand)

    def counted(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        """`pos` holds `tiles` and that made no take: a tile put back whose take stood, taken again?"""
        if pos in self._standing:
            self._standing[pos] = tiles
            if tiles == hand.tracker.stack_tiles(pos):
                del self._standing[pos]
                self._all_counted()

    def _undone_now(self, hand: HandState, pos: StackPos, tiles: int) -> bool:
        """A stack whose put-back stood, tried again now that later takes were undone."""
        try:
            self._undo(hand, pos, tiles)
        except TrackingError:
            return False
        del self._standing[pos]
        return True

    def _undo(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        for take in hand.put_back(pos, tiles):
            self._record(hand, take)

    def _record(self, hand: HandState, take: Take, unseen: bool = False) -> None:
        self.ports.recorder.emit("put_back", end=take.end.value, ring=take.slot.ring, layer=take.slot.layer.value,
                                 reason=take.reason, in_order=take.in_order, live=hand.tracker.live,
                                 **({"unseen": True} if unseen else {}))

    def _all_counted(self) -> None:
        """No tile lies on the wall that the hand counts as taken: a note about it (请按顺序取牌 heeded,
        请取回放回的牌) is taken down."""
        if not self._standing:
            self.ports.screens.drop_note()


def play_phase(hand: HandState) -> Phase:
    """The phase word of a hand being dealt or played."""
    if not hand.deal_complete:
        return Phase.DEAL
    return Phase.LAST_TILE if hand.last_tile_shown else Phase.PLAY
