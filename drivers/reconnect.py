"""Reconnecting a board client after a lost link: back-off, reopening a vanished port, resuming.

    outcome = await reconnect(client, on_attempt=show)     # retries until it works or is cancelled
    if not outcome.resumed:                                # the board rebooted or lost the session
        ...resynchronise from a snapshot...

Each attempt reopens the port first when it is gone (a USB serial adapter re-enumerated under
its /dev/serial/by-id path, a socket closed) or when the last attempt got no answer, then asks
the board to resume the session (`BoardClient.reconnect`, or `connect(session)` for a client that
never connected: a restarted controller resuming its journaled session).  Attempts are spaced
0.1 s, 0.2 s, 0.4 s … up to 2 s.  `on_attempt` hears every attempt, so the caller can show
"连接中断 重连中" and log.  Commands awaited since the link was lost wait as long as this runs
(`HostLink.reconnecting`).  Everything runs in the caller's task: cancelling it leaves nothing
behind (a port being opened in a worker thread when cancelled is closed again).

Errors no retry can mend — another board or protocol version answering on the port, a closed
client, a lost port with no URL to reopen — are raised at once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Callable

from .client import BoardClient
from .errors import DriverError, LinkError, LinkLost, NoResponse, PortError, SessionLost
from .link import SessionRef
from .messages import BoardIdentity

# What a later attempt may mend: silence, a port not back yet, a board busy with another host.
RETRYABLE = (NoResponse, LinkLost, PortError, SessionLost)


@dataclass(frozen=True)
class Backoff:
    """Delays between attempts: `first`, then doubled up to `most`; `attempts` None = forever."""

    first: float = 0.1
    factor: float = 2.0
    most: float = 2.0
    attempts: int | None = None

    def delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        return min(self.first * self.factor ** (attempt - 1), self.most)


@dataclass(frozen=True)
class Attempt:
    """One reconnection attempt, as `on_attempt` hears it."""

    device: str
    number: int                     # 1, 2, …
    reopened: bool                  # the port was opened again for it
    error: DriverError | None       # why it failed; None: it succeeded
    retry_in: float | None          # seconds until the next attempt; None: no further attempt


@dataclass(frozen=True)
class Reconnected:
    """How a reconnection ended: the session resumed, or a new one (the board rebooted, or it
    no longer held the session: the caller must re-read the board's state)."""

    device: str
    identity: BoardIdentity
    resumed: bool
    old_boot: int | None            # the board's boot counter before (None: not known)
    new_boot: int
    attempts: int

    @property
    def rebooted(self) -> bool:
        return self.old_boot is not None and self.old_boot != self.new_boot


AttemptHandler = Callable[[Attempt], None]


def _ignore_attempt(attempt: Attempt) -> None:
    pass


async def reconnect(client: BoardClient, url: str | None = None, *, session: SessionRef | None = None,
                    backoff: Backoff = Backoff(), on_attempt: AttemptHandler = _ignore_attempt) -> Reconnected:
    """Reconnect `client` (its port at `url`, default the URL it was opened from), retrying
    with back-off until it works, `backoff.attempts` run out (the last error is raised) or the
    caller is cancelled.  A client that never connected resumes `session` if given (a restarted
    controller's journaled one), else opens a new session."""
    with client.link.reconnecting():    # held commands wait for us, however long it takes
        return await _attempts(client, url if url is not None else client.url, session, backoff, on_attempt)


async def _attempts(client: BoardClient, url: str | None, session: SessionRef | None, backoff: Backoff,
                    on_attempt: AttemptHandler) -> Reconnected:
    link = client.link
    old_boot = link.identity.boot_counter if link.identity is not None else (
        session.boot_counter if session is not None else None)
    number = 0
    unanswered = False
    while True:
        number += 1
        reopened = link.stream_lost or (unanswered and url is not None)
        try:
            if reopened:
                if url is None:
                    raise LinkError(f"{client.device}: the port is gone and there is no URL to "
                                    "reopen it: open the board again")
                await client.reopen(url)
            # no session to resume: never connected, or the board rebooted and the new session's
            # HELLO went unanswered last time (a board still starting): open one
            fresh = link.identity is None
            identity = await (client.connect(session) if fresh else client.reconnect())
        except RETRYABLE as error:
            unanswered = isinstance(error, NoResponse)
            last = backoff.attempts is not None and number >= backoff.attempts
            delay = None if last else backoff.delay(number)
            on_attempt(Attempt(client.device, number, reopened, error, delay))
            if delay is None:
                raise
            await asyncio.sleep(delay)
            continue
        on_attempt(Attempt(client.device, number, reopened, None, None))
        return Reconnected(client.device, identity, identity.resumed, old_boot, identity.boot_counter, number)

