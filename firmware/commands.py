"""Commands that must reach a board: held by the link across an outage, sent again to a board that
rebooted (its RAM lost them), and, for the mechanism, waited past a fault or the open hatch and sent
again until the move is made.  Never a spin: every wait is on the hub's state (`until`).

The hub (firmware/controller.py) composes one `Commands` from its own state, handed over as functions:
how many link episodes there were, whether the links are up, the boards' new sessions and halts (both
counted by the hub's pump as their events come), the fault desk and the latch's verdict.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from drivers.errors import CommandRejected, LinkError
from drivers.messages import Status

from .fault_desk import FaultDesk
from .links import is_episode

RESEND_AFTER_S = 1.0        # a command failed by a link episode the pump has not seen: sent again after this
Until = Callable[..., Awaitable[Any]]       # the hub's `until(predicate, timeout=None)`


class Commands:
    """The hub's way of sending commands (`send`, `ask`) and motions (`motion`, `move`)."""

    def __init__(self, *, until: Until, links_up: Callable[[], bool], episodes: Callable[[], int],
                 desk: FaultDesk, blocking: Callable[[], bool], request_snapshot: Callable[[], Awaitable[None]],
                 halts: Callable[[], int], resets: Callable[[str], int]) -> None:
        """`blocking`: whether a fault latched now refuses motion (one that needs a person);
        `request_snapshot`: the motor board asked for its state (its HatchChanged says when the hatch
        closed); `halts`: the motor board's SafeStops so far; `resets(source)`: that board's new sessions."""
        self._until = until
        self._links_up = links_up
        self._episodes = episodes
        self._desk = desk
        self._blocking = blocking
        self._request_snapshot = request_snapshot
        self._halts = halts
        self._resets = resets

    async def ask(self, source: str, command: Callable[[], Awaitable[None]], answered: Callable[[], bool]) -> None:
        """Send a command whose answer is an event, until `answered()`: a board that rebooted after
        accepting it lost the answer with its RAM, so the command is sent again once the link is back."""
        while True:
            resets = self._resets(source)
            await self.send(command)
            await self._until(lambda: answered() or self._resets(source) > resets)
            if answered():
                return
            await self._until(self._links_up)

    async def send(self, command: Callable[[], Awaitable[None]]) -> None:
        """Send a command; across a link episode it is held by the link and runs once, or — the board
        having rebooted — it is sent again once the link is back."""
        while True:
            episodes, was_down = self._episodes(), not self._links_up()
            try:
                await command()
                return
            except LinkError as error:
                if not is_episode(error):
                    raise
            # The command can fail before the pump has seen the episode begin: wait for one to begin
            # and end (never spin on a link that is still "up"), or resend after a while regardless.
            try:
                await self._until(lambda: self._links_up() and (was_down or self._episodes() > episodes),
                                 timeout=RESEND_AFTER_S)
            except asyncio.TimeoutError:
                pass

    async def motion(self, command: Callable[[], Awaitable[None]], blocked: Callable[[], bool] | None = None, *,
                     busy_is_under_way: bool = False) -> None:
        """Send a motion command; while a fault or the interlock refuses it, wait (never spin) and
        send it again (across a link episode too).  `blocked`: whether a fault latched here refuses
        it (default: any fault that needs a person).  `busy_is_under_way`: a BUSY answer means this
        very move is being made (`move` sending it again): it returns, sending nothing more."""
        blocked = blocked or self._blocking
        while True:
            clears, resets = self._desk.clears, self._resets("motor")
            try:
                await self.send(command)
                return
            except CommandRejected as error:
                if error.status == Status.INTERLOCK:
                    self._desk.interlock(True)
                    await self._request_snapshot()     # its HatchChanged says when it closed
                    await self._until(lambda: not self._desk.hatch_open)
                elif error.status == Status.FAULT_LATCHED:
                    # cleared, or forgotten by a reboot: the refusal may name a fault whose report the
                    # reboot lost, which this side never latched and so never sees cleared (campaign
                    # 51001, 螺山: the push-in waited for ever)
                    await self._until(lambda: (self._desk.clears > clears or self._resets("motor") > resets)
                                     and not blocked())
                elif error.status == Status.BUSY:
                    if busy_is_under_way:
                        return
                    await asyncio.sleep(0.05)             # the mechanism finishes its move by itself
                else:
                    raise

    async def move(self, command: Callable[[], Awaitable[None]], arrived: Callable[[], bool],
                   blocked: Callable[[], bool] | None = None) -> None:
        """A mechanism's move until it `arrived()`: a move the board halted (a fault, or our silence:
        SafeStop) or forgot (it rebooted: the move and its SafeStop are lost with its RAM) is sent
        again once the latch is clear (`blocked`, as `motion` has it) and the link back.

        A halt or a reboot counts only once the attempt the board took was sent: one while the move
        was refused (BUSY behind the last move, FAULT_LATCHED for that very stop) stopped something
        else.  Counted, it had a raise the board took after the stop sent twice more, and the walls
        left the table top as they were looked at (a probe: a controller paused at the hand over).
        A move sent again and answered BUSY is that move under way (a halt stops every motor, and
        nothing moves again until it is sent a move): waited for, never sent once more."""
        blocked = blocked or self._blocking
        sent_after: list[tuple[int, int]] = []       # the halts and reboots known as each attempt went

        async def attempt() -> None:
            sent_after.append((self._halts(), self._resets("motor")))
            await command()

        again = False
        while True:
            await self.motion(attempt, blocked, busy_is_under_way=again)
            halts, resets = sent_after[-1]
            await self._until(lambda: arrived() or self._halts() > halts or self._resets("motor") > resets)
            if arrived():
                return
            await self._until(lambda: not blocked() and self._links_up())
            again = True
