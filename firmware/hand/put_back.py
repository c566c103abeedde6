"""A tile put back on the wall (docs/controller.md, "A tile put back").

A stack's sensor reading more tiles than the hand counts means a person put a tile back.  Where the
tiles put back are the hand's last takes and those takes changed nothing beyond the wall's count
(`HandState.put_back` decides, and keeps the stacks read with tiles it could not yet explain, in its
journal), they are undone and recorded (`put_back`); the note (请按顺序取牌) is taken down once no
such stack is left, and 最后一张 goes back to 请出牌 if the last live tile came back.  A stack put back
before the tiles lifted after it by mistake is undone once they are back too.  Otherwise its take
stands: a `warning` says why and the screen asks for the tile to be taken again (！请取回放回的牌)
until the stack holds what the hand counts.  A tail tile taken with no 杠 pressed and put back too late
to be undone, taken again once its taker pressed 杠, is that seat's kong (`kong_credited`).
"""

from __future__ import annotations

from drivers.table_ui import TAKE_AGAIN, Phase
from rulesets.walls import StackPos

from .ports import HandPorts
from .state import BEFORE_PLAY, HandState
from .taking_back import PUT_BACK_EARLY, Undone


class PutBackDesk:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports

    def put_back(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        """`pos` holds `tiles`, more than the hand counts."""
        before = hand.tracker.stack_tiles(pos)
        undone, why = hand.put_back(pos, tiles)
        for each in undone:
            self._record(hand, each)
        if undone:
            self._after_undo(hand)
        said = f"stack {pos.wall}/{pos.stack} went from {before} to {tiles} tiles: a tile was put back"
        if not why:
            self._all_counted(hand)
        elif why == PUT_BACK_EARLY:     # (a block put back stack by stack: 请按顺序取牌 stays up until all are back)
            self.ports.recorder.emit("warning", message=f"{said} before the tiles lifted after it by mistake; "
                                                        "its take is undone once they are back too")
        else:
            self.ports.recorder.emit("warning", message=f"{said}, but its take stands ({why})")
            self.ports.screens.phase(play_phase(hand), TAKE_AGAIN)

    def unseen(self, hand: HandState, count: int) -> None:
        """The hand's last `count` takes were put back while nobody watched (a board rebooted, the
        controller restarted): undone, recorded as `unseen`."""
        for each in hand.take_back(count):
            self._record(hand, each, unseen=True)
        self._after_undo(hand)

    def counted(self, hand: HandState, pos: StackPos, tiles: int) -> None:
        """`pos` holds `tiles` and that made no take: a tile put back whose take stood, taken again?"""
        if hand.tiles_put_back_stand:
            if hand.stack_counted(pos, tiles) and not self._credit_retaken(hand, pos):
                self._astray_stands(hand, pos)
            self._all_counted(hand)

    def _credit_retaken(self, hand: HandState, pos: StackPos) -> bool:
        """A tail tile taken with no 杠 pressed, put back after later draws (its take stood), taken
        again with a 杠 pending: the kong is that seat's (`kong_credited`).  Returns whether it was."""
        credited = hand.credit_retaken(pos)
        if credited is not None:
            seat, concealed, slot = credited
            self.ports.recorder.emit("kong_credited", seat=seat, concealed=concealed, ring=slot.ring,
                                     layer=slot.layer.value)
        return credited is not None

    def _astray_stands(self, hand: HandState, pos: StackPos) -> None:
        """A tile taken out of order and put down on another stack (it waited there to be undone) was
        lifted off that stack again: the take out of order stands now, and the recorder says so (a
        probe: the note went down and nothing was said)."""
        last = hand.last_take
        if last is not None and not last.in_order and last.stack != pos:
            self.ports.recorder.emit("warning", message=f"the tile put down on stack {pos.wall}/{pos.stack} was "
                                                        f"lifted off it again: the take out of order at ring "
                                                        f"{last.slot.ring} {last.slot.layer.value} stands (its tile "
                                                        "was not put back where it was taken from)")

    def _after_undo(self, hand: HandState) -> None:
        if hand.last_tile_shown and not hand.tracker.exhausted:     # the last tile was not drawn after all
            hand.last_tile_shown = False
            self.ports.screens.phase(Phase.PLAY)
        self.ports.screens.stacks_left(hand.tracker.live)

    def _record(self, hand: HandState, undone: Undone, unseen: bool = False) -> None:
        """`put_back`; with the 杠 that stand again (`kongs_restored`): the audit reads them from here
        when the take's own lines came before a restart."""
        take = undone.take
        self.ports.recorder.emit("put_back", end=take.end.value, ring=take.slot.ring, layer=take.slot.layer.value,
                                 reason=take.reason, in_order=take.in_order, live=hand.tracker.live,
                                 **({"unseen": True} if unseen else {}),
                                 **({"kongs_restored": [[seat, concealed] for seat, concealed in undone.restored]}
                                    if undone.restored else {}))

    def _all_counted(self, hand: HandState) -> None:
        """No tile lies on the wall that the hand counts as taken: a note about it (请按顺序取牌 heeded,
        请取回放回的牌) is taken down."""
        if not hand.tiles_put_back_stand:
            self.ports.screens.drop_note()


def play_phase(hand: HandState) -> Phase:
    """The phase word of a hand being dealt or played (请配牌 until 请出牌 first shows)."""
    if not hand.deal_complete or hand.phase in BEFORE_PLAY:
        return Phase.DEAL
    return Phase.LAST_TILE if hand.last_tile_shown else Phase.PLAY
