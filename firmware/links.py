"""Each board's link kept up: a lost link is an episode, not the end (issue 10).

When a board's link fails (silence past the link timeout, a port that vanished, the board's own
reboot), the hub's pump hands it here.  The episode is shown (E23 连接中断 重连中, a fault that
clears itself), logged and recorded (`link_lost`); the link is reconnected with back-off, reopening
the port when it is gone (drivers.reconnect).  Then:

- the board kept the session: the link resumes it — commands not acknowledged are sent again and
  run once, events queued meanwhile (keys pressed, tiles taken) arrive in order — and the table
  goes on; the board's own safe stop (E13 latched while no host spoke) is cleared as our doing;
- the board rebooted, or no longer holds the session: a new session; the table reads the board's
  state again (walls, lifts, latched faults) and the hub reconciles it (`resync`): takes made while
  nobody watched are takes; a hand the walls now contradict is voided; a build the reboot broke
  goes on (the set builder's `board_restarted`: Build(resume), every slot re-read).

Errors no reconnection can mend (another board on the port, a protocol the host does not speak, a
board that sends what the host cannot decode) are not episodes: the table stops with one line.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

from drivers.client import BoardClient
from drivers.errors import BoardReset, LinkError, LinkLost, SessionLost
from drivers.link import SessionRef
from drivers.reconnect import Attempt, Reconnected, reconnect

log = logging.getLogger("firmware.link")

EPISODES = (LinkLost, BoardReset, SessionLost)
STILL_DOWN_S = 10.0     # a reconnection still under way is said after this long (then at doubling waits)


def is_episode(error: LinkError) -> bool:
    """A failure a reconnection can mend."""
    return isinstance(error, EPISODES)


class LinkKeeper:
    """Runs the episodes of the hub's boards; the hub gives what it needs as plain callables:
    `on_down` (show and record that a board's link is down), `on_up` (it is back: resumed, or to be
    resynchronised first), `on_session` (the session to journal, resumed after a restart),
    `on_new_session` (at once, before any new event: the board lost its state)."""

    def __init__(self, on_down: Callable[[str, LinkError], None],
                 on_up: Callable[[str, Reconnected], Awaitable[None]],
                 on_session: Callable[[str, SessionRef], None],
                 on_new_session: Callable[[str], None], still_down_every: float = STILL_DOWN_S) -> None:
        self.on_down = on_down
        self.on_up = on_up
        self.on_session = on_session
        self.on_new_session = on_new_session
        self.still_down_every = still_down_every
        self.down: set[str] = set()
        self.episodes = 0
        self._after: set[asyncio.Task] = set()

    async def episode(self, source: str, client: BoardClient, error: LinkError) -> Reconnected:
        """From the failure to the link back (this task waits; the others wait on their commands)."""
        self.down.add(source)
        self.episodes += 1
        log.warning("%s link lost (%s): reconnecting", source, error)
        self.on_down(source, error)
        tries = _Tries()

        def heard(attempt: Attempt) -> None:
            tries.last = attempt
            _said(source, attempt)
        watch = asyncio.get_running_loop().create_task(self._say_still_down(source, tries), name=f"still-down-{source}")
        try:
            outcome = await reconnect(client, on_attempt=heard)
        finally:
            watch.cancel()
        if outcome.resumed:
            log.warning("%s link back after %d attempt(s): the session went on, nothing lost", source,
                        outcome.attempts)
        else:
            log.warning("%s link back after %d attempt(s) in a new session (%s): reading its state again",
                        source, outcome.attempts, "the board restarted" if outcome.rebooted else "the session was gone")
        self.on_session(source, client.link.session_ref)
        if not outcome.resumed:
            self.on_new_session(source)        # before the pump reads the board's first new events
        self.down.discard(source)
        # the board's events flow again in the caller's task (the pump): what the link being back
        # asks for (a snapshot to wait for) runs beside it, never in it
        task = asyncio.get_running_loop().create_task(self.on_up(source, outcome), name=f"link-up-{source}")
        self._after.add(task)
        task.add_done_callback(self._after.discard)
        return outcome

    async def _say_still_down(self, source: str, tries: "_Tries") -> None:
        """While a reconnection runs, say that the link is still down and how far the attempts got,
        after `still_down_every` s, then at twice the wait each time up to 30 times it (10 s, 20 s,
        40 s … every 5 min: a board left unplugged does not fill the log): an attempt that hangs (a
        port that will not close or open) is then seen, not 60 silent seconds (only attempts 1, 5
        and every 20th are said as they end)."""
        waited, pause = 0.0, self.still_down_every
        while True:
            await asyncio.sleep(pause)
            waited += pause
            pause = min(pause * 2, self.still_down_every * 30)
            last = tries.last
            ended = f"; attempt {last.number} failed ({last.error})" if last is not None and last.error else ""
            log.warning("%s link still down after %.0f s: attempt %d under way%s", source, waited,
                        (last.number if last is not None else 0) + 1, ended)

    async def close(self) -> None:
        for task in list(self._after):
            task.cancel()
        await asyncio.gather(*self._after, return_exceptions=True)


class _Tries:
    """How far one episode's reconnection got: the last attempt that ended (None: none yet)."""

    def __init__(self) -> None:
        self.last: Attempt | None = None


def _said(source: str, attempt: Attempt) -> None:
    if attempt.error is not None and attempt.number in (1, 5) or attempt.number % 20 == 0:
        log.info("%s: reconnection attempt %d%s", source, attempt.number,
                 f" failed ({attempt.error}); next in {attempt.retry_in:.1f} s" if attempt.error and attempt.retry_in
                 else "")


__all__ = ["EPISODES", "LinkKeeper", "is_episode"]
