"""The plates and the centre at a hand over: the push-in, the plates down, the new walls up.

Every lift moves through the hub's `move` (a move the board halted, or forgot in a reboot, is sent
again); the push-in waits for a person's 确认 and is asked again while the board refuses to lower
a plate that tiles still lie on.
"""

from __future__ import annotations

from typing import Awaitable, Callable

from drivers.errors import CommandRejected
from drivers.messages import Status
from drivers.motor_protocol import LiftPosition
from drivers.table_ui import Key, Panel, Phase

from .controller import TableController
from .hand.ports import record_dropped

CENTRE_LIFT = 4
# the tiles are in: 确认, or 升降 — the panels' key for the next hand (protocol.md §4.2), which a
# person at the push-in presses as readily, and which used to wait in the queue, answering nothing
PUSHED_IN_KEYS = (Key.CONFIRM, Key.LIFT)


class Plates:
    def __init__(self, hub: TableController, take_note: Callable[[], str | None]) -> None:
        self._hub = hub
        self._take_note = take_note      # the restart note, shown once with the next phase

    def sides(self) -> tuple[int, ...]:
        """The sides whose plates carry walls in this region (three-player tables leave one empty)."""
        ruleset = self._hub.ruleset
        return tuple(s for s in ruleset.players if ruleset.stacks_per_side[s])

    async def push_in(self) -> None:
        """The centre opens; the players push every tile in and press 确认 (or 升降, the panels' key for
        the next hand).  Then the message says the machine is at work, so a second push-in (after a
        clear-out) reads as a new request."""
        hub = self._hub
        # a 确认 that reached the table before this request pushed nothing in: pressed twice at 荒庄, or
        # one a board sent again — taken, it lowered the plates under the last hand's tiles (with no
        # dead wall nothing lay on them to refuse it: campaign 470018).  Not "before the centre
        # opened": a restarted controller that had not heard yet that the centre stood open counted
        # the 确认 the players pressed on its note as early, and waited for ever (campaign 510013)
        record_dropped(hub.recorder, hub.keys.drop(lambda p: p.key in PUSHED_IN_KEYS), "before_push_in")
        hub.presenter.phase(Phase.PUSH_IN, self._take_note())
        await self.centre(LiftPosition.DOWN)
        await self._tiles_in()
        hub.presenter.phase(Phase.BUILDING)

    async def _tiles_in(self) -> None:
        """The 确认 (or 升降) that says the tiles are in.  One the motor board sent while its last word
        on the centre was "closed" pushed nothing in, though it reached the table after the request:
        pressed twice at 荒庄 while the board's window was nearly full, it waited behind the board's
        other events (the board's own order, not the arrival, says when it was pressed)."""
        hub = self._hub
        while True:
            press = await hub.next_key(tuple(hub.ruleset.players) + (Panel.FRONT,), PUSHED_IN_KEYS)
            if not press.centre_closed:
                return
            record_dropped(hub.recorder, (press,), "centre_closed")

    async def push_in_and_lower(self, sides: tuple[int, ...],
                                pushed_in: Callable[[], Awaitable[None]] | None = None) -> None:
        """The push-in, then the plates down — asked again while the board refuses to lower a plate
        that tiles still lie on (NOT_READY: 确认 pressed before everything was pushed in; or a stale
        确认 after a restart at the push-in)."""
        await self.push_in()
        if pushed_in is not None:
            await pushed_in()
        while True:
            try:
                await self.lifts(sides, LiftPosition.DOWN)
                return
            except CommandRejected as refused:
                if refused.status != Status.NOT_READY:
                    raise
                self._hub.recorder.emit("warning", message=f"{refused}: tiles still lie on a raised wall; "
                                                           "the push-in is asked again")
            await self.push_in()

    async def raise_walls(self, sides: tuple[int, ...]) -> None:
        """The plates up with the walls on them, then the centre closed over the mixer."""
        await self.lifts(sides, LiftPosition.UP)
        await self.centre(LiftPosition.UP)

    async def centre(self, position: LiftPosition) -> None:
        await self._moved((CENTRE_LIFT,), lambda: self._hub.devices.motor.centre_lift(position), position)

    async def lifts(self, sides: tuple[int, ...], position: LiftPosition) -> None:
        await self._moved(sides, lambda: self._hub.devices.motor.side_lifts(position, sides), position)

    async def _moved(self, lifts: tuple[int, ...], command: Callable[[], Awaitable[None]],
                     position: LiftPosition) -> None:
        """`move`, not a bare command: a move the board halted or forgot in a reboot is sent again."""
        hub = self._hub
        await hub.move(command, lambda: all(hub.lifts.get(lift) == position for lift in lifts))


__all__ = ["CENTRE_LIFT", "Plates"]
