"""The event side of the host's link (protocol.md §3.4, and the durable acks of §3.1.1), owned
by `HostLink`.

- Events board→host are sequence-numbered, delivered in order exactly once; a gap (or a board
  heartbeat announcing events we have not seen) triggers a RESEND request; events are
  acknowledged cumulatively (EVENT_ACK) so the board can free its buffer.  An event counts as
  delivered only once the client decoded it: one that does not decode is asked for again, never
  acknowledged and dropped, and one that keeps failing ends the link with EventUndecodable.
- Durable acknowledgement (`hold_acks`): a client that must not lose an event to its own crash
  (the controller, whose journal follows the event by a few milliseconds) holds the acks; the
  link then acknowledges only through the last event the client `release`d (each event is marked
  with an `EventMark` as it is delivered), so the board keeps the rest and resends them on a
  RESUME — to a restarted process too, which skips those it already applied (`SessionRef.applied`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Callable, NamedTuple

from .errors import EventsUnrecoverable, EventUndecodable, MessageError
from .frame import Frame, Kind, encode_frame
from .link_session import LinkHooks

EventHandler = Callable[[int, bytes], None]   # raises MessageError if the payload does not decode


@dataclass(frozen=True)
class SessionRef:
    """A session to resume (`HostLink.session_ref`): what a controller journals so that, after a
    restart, it continues the session instead of opening a new one and losing the board's queue."""

    session: int
    boot_counter: int | None = None   # the board's boot counter in that session; None: not checked
    applied: int | None = None        # the last event seq of that session the client applied (None:
                                      # none known): on a resume, events through it are skipped


class EventMark(NamedTuple):
    """Where one delivered event stands: its session and seq (`HostLink.last_mark`); what a client
    holding acks `release`s once the event's effects are durable.  (A named tuple: one is made for
    every event delivered.)"""

    session: int
    seq: int


def first_unapplied(oldest: int, applied: int | None) -> int:
    """Where a resumed session's events start: the board's oldest held one, or — the client having
    applied some of them before (`SessionRef.applied`, journaled) — the one after those."""
    if applied is None:
        return oldest
    after = (applied + 1) & 0xFF
    return after if (after - oldest) & 0xFF < 128 else oldest


def _ignore_event(msg: int, payload: bytes) -> None:
    pass


class EventInbox:
    """The events of one link: their order, the RESENDs that fill gaps, and the acks."""

    def __init__(self, link: LinkHooks, session: Callable[[], int], rto: Callable[[], float]) -> None:
        self._link = link
        self._session = session         # the link's session id, for the marks
        self._rto = rto                 # the command window's RTO: a RESEND is repeated once per RTO
        self._on_event: EventHandler = _ignore_event
        # counted (LinkStatistics); `events`: delivered, over all the link's sessions
        self.events = self.event_gaps = self.resend_requests = self.duplicate_events = self.undecodable_events = 0
        self._ev_next = 0
        self._ev_held: dict[int, Frame] = {}
        self._ev_unacked = 0
        self._hold_acks = link.config.hold_acks    # acknowledge only through `_ev_released` (hold_acks())
        self._ev_released = 0          # the next event seq the client has not released
        self._ev_acked = 0             # the ack point last told to the board (EVENT_ACK, RESEND, HOST_BEAT)
        self.last_mark: EventMark | None = None     # the event being (or last) delivered
        self._last_resend: tuple[int, float] = (-1, 0.0)
        self._undecodable: tuple[int, int] = (-1, 0)   # (seq, failures) of the event that failed
        self._gap_asks = 0              # RESENDs for the next event since one was last delivered
        self._ack_timer: asyncio.TimerHandle | None = None

    def set_handler(self, on_event: EventHandler) -> None:
        self._on_event = on_event

    # -- durable acks ----------------------------------------------------------------------------

    def hold_acks(self) -> None:
        if not self._hold_acks:
            self._hold_acks = True
            self._ev_released = self._ev_next

    def release(self, mark: EventMark) -> None:
        if not self._hold_acks or mark.session != self._session():
            return
        through = (mark.seq + 1) & 0xFF
        ahead = (through - self._ev_released) & 0xFF
        if ahead == 0 or ahead > (self._ev_next - self._ev_released) & 0xFF:
            return
        self._ev_released = through
        if not self._link.up():
            return
        if (through - self._ev_acked) & 0xFF >= self._link.config.event_ack_every:
            self._send_event_ack()      # as for events not held: the board's window never waits on the timer
        elif self._ack_timer is None:
            self._ack_timer = self._link.loop.call_later(self._link.config.event_ack_delay, self._send_event_ack)

    def _telling_ack(self) -> int:
        """The ack point, as a frame about to be written tells it to the board."""
        self._ev_acked = self._ack_point()
        return self._ev_acked

    def _ack_point(self) -> int:
        """The event seq the board may forget up to: what was delivered, or what was released."""
        return self._ev_released if self._hold_acks else self._ev_next

    # -- the session -----------------------------------------------------------------------------

    def start_at(self, seq: int) -> None:
        """Expect event `seq` next, all before it acknowledged (a session resumed)."""
        self._ev_next = self._ev_released = self._ev_acked = seq
        self._gap_asks = 0

    def fits(self, oldest_event: int) -> bool:
        """The board holds no event after the ones we have not yet received."""
        return (self._ev_next - oldest_event) & 0xFF < 128

    def resume(self) -> None:
        """After a RESUME: a RESEND for every event not yet delivered here."""
        self._last_resend = (self._ev_next, self._link.loop.time())
        self.resend_requests += 1
        self._gap_asks = 0              # a new episode: its gap is asked for afresh
        self._ev_unacked = 0
        self._link.write(encode_frame(Kind.RESEND, self._telling_ack(), 0, b"\x00"))

    def beat_ack(self) -> int:
        """The ack point a HOST_BEAT about to be written tells (it acknowledges as an EVENT_ACK)."""
        self._ev_unacked = 0
        return self._telling_ack()

    def reset(self) -> None:
        """The session is forgotten: numbering restarts."""
        self._ev_next = self._ev_released = self._ev_acked = 0
        self._ev_held.clear()
        self._ev_unacked = 0
        self._undecodable = (-1, 0)
        self._gap_asks = 0

    def stop(self) -> None:
        if self._ack_timer is not None:
            self._ack_timer.cancel()
            self._ack_timer = None

    # -- frames from the board -------------------------------------------------------------------

    def announced(self, next_seq: int) -> None:
        """A BOARD_BEAT says the board's next event is `next_seq`."""
        if 0 < ((next_seq - self._ev_next) & 0xFF) < 128:
            self._request_resend()  # events were sent that never arrived

    def on_frame(self, frame: Frame) -> None:
        distance = (frame.seq - self._ev_next) & 0xFF
        if distance == 0:
            delivered = self._deliver(frame)
            while delivered and self._ev_next in self._ev_held:
                delivered = self._deliver(self._ev_held.pop(self._ev_next))
            if (self._ev_held or not delivered) and not self._link.failed():
                self._request_resend()
        elif distance < 128:
            if not self._ev_held or self._last_resend[0] != self._ev_next:
                self.event_gaps += 1
            if len(self._ev_held) < 128:
                self._ev_held[frame.seq] = frame
            self._request_resend()
        else:
            self.duplicate_events += 1
            if self._ack_timer is None:
                self._ack_timer = self._link.loop.call_later(self._link.config.event_ack_delay,
                                                             self._send_event_ack)

    def _deliver(self, frame: Frame) -> bool:
        """Hand the event to the client; it is delivered (and later acknowledged) only if the
        client could decode it.  False: not delivered, the caller asks for it again."""
        # (tuple.__new__: a named tuple's own constructor is one more Python call, for every event)
        self.last_mark = tuple.__new__(EventMark, (self._session(), frame.seq))
        try:
            self._on_event(frame.msg, frame.payload)
        except MessageError as error:
            self._not_decoded(frame, error)
            return False
        except Exception as error:  # a client bug must not stall the link: report and go on
            self._link.loop.call_exception_handler({"message": f"{self._link.device}: event handler failed",
                                                    "exception": error})
        self._undecodable = (-1, 0)
        self._gap_asks = 0
        self._ev_next = (self._ev_next + 1) & 0xFF
        self.events += 1
        self._ev_unacked += 1
        if self._hold_acks:
            pass                        # acknowledged once released
        elif self._ev_unacked >= self._link.config.event_ack_every:
            self._send_event_ack()
        elif self._ack_timer is None:
            self._ack_timer = self._link.loop.call_later(self._link.config.event_ack_delay,
                                                         self._send_event_ack)
        return True

    def _not_decoded(self, frame: Frame, error: MessageError) -> None:
        """An intact frame whose payload the client cannot read: a damage the CRC missed, or a
        board and host that disagree.  Ask again; fail the link if it keeps failing."""
        self.undecodable_events += 1
        seq, failures = self._undecodable
        failures = failures + 1 if seq == frame.seq else 1
        self._undecodable = (frame.seq, failures)
        if failures >= self._link.config.max_undecodable:
            self._link.fail(EventUndecodable(self._link.device, frame.msg, failures, str(error)))
            return
        self._last_resend = (-1, 0.0)  # this one is new news: ask at once

    # -- sending ---------------------------------------------------------------------------------

    def _send_event_ack(self) -> None:
        self.stop()
        self._ev_unacked = 0
        self._link.write(encode_frame(Kind.EVENT_ACK, self._telling_ack()))

    def _request_resend(self) -> None:
        seq, when = self._last_resend
        now = self._link.loop.time()
        if seq == self._ev_next and now - when < max(self._rto(), 0.02):
            return
        if self._gap_asks >= self._link.config.max_gap_resends:
            self._link.fail(EventsUnrecoverable(self._link.device, self._ev_next, self._gap_asks))
            return
        self._gap_asks += 1
        self._last_resend = (self._ev_next, now)
        self.resend_requests += 1
        # Ask only for the hole before the first event we hold (0 = everything from ev_next).  A
        # RESEND acknowledges what is before it: with acks held it starts at the last released event
        # (those between are resent too, and dropped here as duplicates).
        missing = min(((seq - self._ev_next) & 0xFF for seq in self._ev_held), default=0)
        start = self._telling_ack()
        if missing:
            missing += (self._ev_next - start) & 0xFF
        self._link.write(encode_frame(Kind.RESEND, start, 0, bytes((min(missing, 255),))))
