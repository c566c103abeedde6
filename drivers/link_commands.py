"""The command side of the host's link (protocol.md §3.2–§3.3), owned by `HostLink`.

Commands host→board carry sequence numbers; at most CMD_WINDOW are unacknowledged, the rest
wait in order.  Cumulative ACKs carry each command's status.  A NAK, or a timeout, resends go-back-N
from the command concerned.  The retransmission timeout adapts: Jacobson/Karels SRTT + 4·RTTVAR,
with Karn's rule (no RTT sample from a retransmitted command) and a doubling back-off on timeout.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Callable

from .errors import LinkError, LinkLost
from .frame import Frame, Kind, encode_frame
from .link_session import LinkHooks
from .messages import CMD_WINDOW


@dataclass(eq=False)
class _Pending:
    """One command, from the call that sends it to the status that answers it."""

    msg: int
    payload: bytes
    future: asyncio.Future[int]
    seq: int = -1
    wire: bytes = b""
    first_sent: float = 0.0
    last_sent: float = 0.0
    sends: int = 0
    timeouts: int = 0
    heard: int = 0          # events delivered before it was first sent (`HostLink.events_delivered`)


class CommandWindow:
    """The commands of one link: numbering, the window, retransmission and the RTO timer."""

    def __init__(self, link: LinkHooks, heard: Callable[[], int]) -> None:
        self._link = link
        self._heard = heard             # events delivered so far (each command notes it when sent)
        self.commands = self.retransmits = self.timeouts = self.naks = 0    # counted (LinkStatistics)
        self._tx_next = 0
        self._unconfirmed: int | None = None   # first seq of commands failed unacknowledged
        self._outstanding: dict[int, _Pending] = {}
        self._waiting: deque[_Pending] = deque()
        self._srtt: float | None = None
        self._rttvar = 0.0
        self._rto = link.config.rto_initial
        # The RTO timer is re-armed lazily: `_due` is when the oldest command times out (None: none
        # can), and the timer is left to fire early rather than cancelled and pushed again for every
        # ACK; firing before `_due` it is armed again for `_due`, so no command is resent sooner or
        # later than before.
        self._due: float | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_when = 0.0

    @property
    def srtt(self) -> float | None:
        return self._srtt

    @property
    def rto(self) -> float:
        return self._rto

    @property
    def busy(self) -> bool:
        """Commands are sent and not yet acknowledged."""
        return bool(self._outstanding)

    async def run(self, msg: int, payload: bytes, *, held: bool) -> tuple[int, int]:
        """Send a command (or queue it: `held`, or the window full); its status once acknowledged,
        and the events delivered when it was first sent."""
        pending = _Pending(msg, payload, self._link.loop.create_future())
        self.commands += 1
        if not held and len(self._outstanding) < CMD_WINDOW and not self._waiting:
            self._transmit(pending)
        else:
            self._waiting.append(pending)
        return await pending.future, pending.heard

    # -- the session -----------------------------------------------------------------------------

    def start_at(self, next_command: int) -> None:
        """Number from the board's count (a session resumed)."""
        self._tx_next = next_command

    def begin(self) -> None:
        """A session is open: commands failed unacknowledged before it no longer count."""
        self._unconfirmed = None

    def fits(self, next_command: int) -> bool:
        """The board has run only commands we sent (perhaps not those not yet acknowledged, nor
        those failed unacknowledged)."""
        if self._outstanding:
            oldest = next(iter(self._outstanding.values())).seq
        else:
            oldest = self._tx_next if self._unconfirmed is None else self._unconfirmed
        ran = (next_command - oldest) & 0xFF
        return ran <= (self._tx_next - oldest) & 0xFF

    def resume(self) -> None:
        """After a RESUME: every unacknowledged command again (the board runs none twice), then
        those that waited."""
        config = self._link.config
        self._rto = self._computed_rto() if self._srtt is not None else config.rto_initial
        for pending in self._outstanding.values():
            pending.timeouts = 0        # the outage was not their doing
        if self._outstanding:
            self._retransmit_from(next(iter(self._outstanding)))
        while self._waiting and len(self._outstanding) < CMD_WINDOW:
            self._transmit(self._waiting.popleft())

    def fail_all(self, error: LinkError) -> None:
        """Every command sent or waiting fails with `error`."""
        if self._outstanding and self._unconfirmed is None:
            self._unconfirmed = next(iter(self._outstanding.values())).seq
        for pending in list(self._outstanding.values()) + list(self._waiting):
            if not pending.future.done():
                pending.future.set_exception(error)
                pending.future.exception()  # retrieved here: a cancelled caller must not warn
        self._outstanding.clear()
        self._waiting.clear()

    def reset(self, error: LinkError) -> None:
        """The session is forgotten: every command fails with `error`; numbering restarts."""
        self.fail_all(error)
        self._tx_next = 0
        self._unconfirmed = None
        self._rto = self._link.config.rto_initial

    def stop(self) -> None:
        self._due = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    # -- frames from the board -------------------------------------------------------------------

    def on_ack(self, frame: Frame) -> None:
        now = self._link.loop.time()
        statuses = frame.payload
        acked = []
        for pending in self._outstanding.values():
            distance = (frame.seq - pending.seq) & 0xFF
            if distance >= 128:
                break
            acked.append((pending, statuses[distance] if distance < len(statuses) else 0))
        if not acked:
            return
        for pending, status in acked:
            del self._outstanding[pending.seq]
            if pending.seq == frame.seq and pending.sends == 1:
                self._rtt_sample(now - pending.first_sent)
            elif self._srtt is not None:
                self._rto = self._computed_rto()  # progress again: drop the timeout back-off
            if not pending.future.done():
                pending.future.set_result(status)
        while self._waiting and len(self._outstanding) < CMD_WINDOW:
            self._transmit(self._waiting.popleft())
        self._arm_rto()

    def on_nak(self, seq: int) -> None:
        """A NAK (other than NO_SESSION, the link's) for command `seq`."""
        self.naks += 1
        pending = self._outstanding.get(seq)
        if pending is None:
            return
        # A NAK answers frames sent up to one RTT ago: skip it if we already resent since.
        if self._link.loop.time() - pending.last_sent >= (self._srtt or 0.005):
            self._retransmit_from(seq)

    def _rtt_sample(self, sample: float) -> None:
        if self._srtt is None:
            self._srtt, self._rttvar = sample, sample / 2
        else:
            self._rttvar = 0.75 * self._rttvar + 0.25 * abs(self._srtt - sample)
            self._srtt = 0.875 * self._srtt + 0.125 * sample
        self._rto = self._computed_rto()

    def _computed_rto(self) -> float:
        assert self._srtt is not None
        config = self._link.config
        return min(max(self._srtt + 4 * self._rttvar, config.rto_min), config.rto_max)

    # -- sending ---------------------------------------------------------------------------------

    def _transmit(self, pending: _Pending) -> None:
        pending.seq = self._tx_next
        self._tx_next = (self._tx_next + 1) & 0xFF
        pending.wire = encode_frame(Kind.COMMAND, pending.seq, pending.msg, pending.payload)
        pending.first_sent = pending.last_sent = self._link.loop.time()
        pending.sends = 1
        pending.heard = self._heard()
        self._outstanding[pending.seq] = pending
        self._link.write(pending.wire)
        if self._due is None:
            self._arm_rto()

    def _retransmit_from(self, seq: int) -> None:
        now = self._link.loop.time()
        started = False
        for pending in self._outstanding.values():
            started = started or pending.seq == seq
            if started:
                pending.last_sent = now
                pending.sends += 1
                self.retransmits += 1
                self._link.write(pending.wire)
        self._arm_rto()

    def _arm_rto(self) -> None:
        """The oldest command times out one RTO after it was last sent: the timer fires then, or
        earlier (an older deadline, since acknowledged) and is armed again."""
        if not (self._outstanding and self._link.up()):
            self._due = None            # an armed timer finds nothing to do
            return
        oldest = next(iter(self._outstanding.values()))
        self._due = due = oldest.last_sent + self._rto
        if self._timer is not None:
            if self._timer_when <= due:
                return
            self._timer.cancel()
        self._timer_when = due
        self._timer = self._link.loop.call_at(due, self._on_rto)

    def _on_rto(self) -> None:
        self._timer = None
        if self._due is None:
            return
        if self._timer_when < self._due:    # armed for an earlier deadline: wait for this one
            self._timer_when = self._due
            self._timer = self._link.loop.call_at(self._due, self._on_rto)
            return
        self._due = None
        if not self._outstanding or self._link.failed():
            return
        oldest = next(iter(self._outstanding.values()))
        if self._link.loop.time() < oldest.last_sent + self._rto - 0.001:
            self._arm_rto()  # resent meanwhile (after a NAK)
            return
        oldest.timeouts += 1
        self.timeouts += 1
        config = self._link.config
        if oldest.timeouts > config.max_retransmits:
            self._link.fail(LinkLost(f"{self._link.device}: command not acknowledged after "
                                     f"{config.max_retransmits} retransmissions (link lost)"))
            return
        self._rto = min(self._rto * 2, config.rto_max)
        self._retransmit_from(oldest.seq)
