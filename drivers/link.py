"""The host side of the framed link (protocol.md §2–§3): `HostLink`, and every name its clients
import (`LinkConfig`, `LinkStatistics`, `SessionRef`, `EventMark`).

HostLink composes its parts and keeps the session's lifecycle: `connect` (a new session, or a
RESUME of one another HostLink, perhaps another process, opened: the board's IDENT says where it
stands), `reconnect`, failure and close.  A LinkLost is an episode: commands awaited then (and sent
during it) are held; `reconnect()` resumes the session, resends what was not acknowledged (the
board runs each command once) and picks the event stream up where it stood.  A board that rebooted
or no longer holds the session gets a new one, and the held commands fail with BoardReset or
SessionLost.  The parts, each in its own module:
- `link_commands` — the command window (§3.2–§3.3): numbering, ACK/NAK, retransmission, the RTO.
- `link_events` — the event inbox (§3.4): in-order delivery, RESEND, EVENT_ACK, durable acks.
- `link_session` — `LinkConfig`, `LinkStatistics` (§3.8), the handshake (§3.1), the watch on the
  board (heartbeats, lost link, board reset: §3.5, §3.7), and how long held commands wait (§3.5).

Timers are loop callbacks (no tasks), so a link leaves nothing running once closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Callable

from .errors import BoardReset, FrameError, LinkClosed, LinkError, LinkLost, NoResponse, SessionLost
from .frame import Frame, FrameDecoder, Kind
from .link_commands import CommandWindow
from .link_events import EventHandler, EventInbox, EventMark, SessionRef, first_unapplied
from .link_session import Handshake, Hold, LinkConfig, LinkHooks, LinkStatistics, Watch
from .messages import BoardIdentity, BoardKind, NakReason
from .stream import ByteStream, _ignore_data as _ignore_bytes, _ignore_lost

__all__ = ["EventHandler", "EventMark", "FailureHandler", "HostLink", "LinkConfig", "LinkStatistics",
           "SessionRef", "TROUBLE_COUNTERS"]

TROUBLE_COUNTERS = ("retransmits", "timeouts", "naks", "crc_errors", "framing_errors", "resyncs", "event_gaps",
                    "undecodable_events", "heartbeat_misses")
"""The `LinkStatistics` fields that count trouble on the wire (`HostLink.trouble` sums them)."""

FailureHandler = Callable[[LinkError], None]


def _ignore_failure(error: LinkError) -> None:
    pass


def _ignore_frame(frame: Frame) -> None:
    """A late IDENT: the answer to a handshake already done."""


@dataclass
class _Counters:
    """What the link itself counts; its parts count their own."""

    frames_sent: int = 0
    unknown_frames: int = 0
    resumptions: int = 0


class HostLink:
    """One board's link, host side.  Create inside a running event loop."""

    def __init__(self, stream: ByteStream, *, device: str, expected_kind: BoardKind | None = None,
                 config: LinkConfig = LinkConfig()) -> None:
        self.device = device
        self.config = config
        self.expected_kind = expected_kind
        self.identity: BoardIdentity | None = None
        self.stream_lost = False       # the port died (closed, device gone): reopen, reattach()
        self._stream = stream
        self._loop = asyncio.get_running_loop()
        self._decoder = FrameDecoder()
        self._count = _Counters()
        self._on_failure: FailureHandler = _ignore_failure
        self._failure: LinkError | None = None
        self._holding = False          # lost, or handshaking again: commands wait, none is sent
        self._closed = False
        # The parts: each keeps its own state and timer, and sees the link only through `hooks`.
        hooks = LinkHooks(device, config, self._loop, self._write, self._fail,
                          failed=lambda: self._failure is not None,
                          up=lambda: self._failure is None and not self._holding)
        self._handshake = Handshake(hooks, prepare=self._before_asking)
        self._inbox = EventInbox(hooks, session=lambda: self._handshake.session, rto=lambda: self._window.rto)
        self._window = CommandWindow(hooks, heard=lambda: self._inbox.events)
        self._hold = Hold(hooks, held=lambda: self._holding and isinstance(self._failure, LinkLost),
                          expire=self._release_held)
        self._watch = Watch(hooks, identity=lambda: self.identity, session=lambda: self._handshake.session,
                            ack_point=self._inbox.beat_ack, announced=self._inbox.announced)
        # What each kind of frame from the board goes to, once the session is up (a dict: an enum
        # member's lookup is slow, and this runs for every frame).
        self._on_kind: dict[int, Callable[[Frame], None]] = {
            Kind.EVENT: self._on_event, Kind.ACK: self._window.on_ack, Kind.BOARD_BEAT: self._watch.on_board_beat,
            Kind.NAK: self._on_nak, Kind.IDENT: _ignore_frame, Kind.BOOT: self._watch.on_boot}
        stream.set_receiver(self._on_bytes, self._on_stream_lost)

    # -- public ----------------------------------------------------------------------------------

    def set_handlers(self, on_event: EventHandler, on_failure: FailureHandler) -> None:
        """`on_event(msg_id, payload)` for each event in order; `on_failure(error)` once per failure.

        `on_event` decodes the event; if it raises MessageError the event is not delivered and
        the board is asked to send it again."""
        self._inbox.set_handler(on_event)
        self._on_failure = on_failure

    @property
    def failure(self) -> LinkError | None:
        return self._failure

    def hold_acks(self) -> None:
        """From now on acknowledge an event only once the client `release`s it (durable): the board
        keeps it until then and sends it again after a RESUME, to this process or the next."""
        self._inbox.hold_acks()

    def release(self, mark: EventMark) -> None:
        """The events through `mark` are durable: they may be acknowledged.  A mark of another
        session, or one already released, changes nothing."""
        self._inbox.release(mark)

    @property
    def last_mark(self) -> EventMark | None:
        """The event being (or last) delivered."""
        return self._inbox.last_mark

    @property
    def board_flags(self) -> int:
        """The board's flags, as its IDENT or last BOARD_BEAT told them."""
        return self._watch.flags

    @property
    def connected(self) -> bool:
        return self.identity is not None and self._failure is None and not self._holding

    @property
    def session(self) -> int:
        """The session id of the last handshake (0 before any)."""
        return self._handshake.session

    @property
    def session_ref(self) -> SessionRef | None:
        """What to journal to resume this session later, from this or another process; None
        before a handshake, or with a board that cannot resume sessions."""
        if self.identity is None or not self.identity.can_resume:
            return None
        return SessionRef(self.session, self.identity.boot_counter)

    async def connect(self, session: SessionRef | int | None = None) -> BoardIdentity:
        """Handshake: open a new session, or, given `session` (an earlier link's `session_ref`,
        perhaps another process's), resume it.

        Resuming needs no state here: the board's IDENT says which command seq it expects and
        which is the oldest event it still holds, and it resends every event not acknowledged.
        If the board rebooted (its boot counter is not `session.boot_counter`) or no longer holds
        the session, a new session is opened: `identity.resumed` says which happened.  Any
        command still waiting on this link fails with SessionLost."""
        self._check_open()
        self._abandon(SessionLost(f"{self.device}: a new handshake replaced the session"))
        ref = SessionRef(session) if isinstance(session, int) else session
        try:
            if ref is not None and ref.session:
                identity = await self._handshake.exchange(Kind.RESUME, ref.session, self.expected_kind)
                same_boot = ref.boot_counter in (None, identity.boot_counter)
                if identity.resumed and same_boot:
                    assert identity.state is not None
                    self._window.start_at(identity.state.next_command)
                    self._inbox.start_at(first_unapplied(identity.state.oldest_event, ref.applied))
                    self._begin(identity)
                    self._continue()
                    return identity
            return await self._open_session()
        except LinkError as error:
            self._failure = error
            raise

    def reconnecting(self) -> contextlib.AbstractContextManager[None]:
        """While inside, a reconnection is under way: commands held since a LinkLost keep
        waiting for it however long it takes (outside, they fail after `config.hold_for`).
        The reconnect helper holds this across its attempts and the pauses between them."""
        return self._hold.reconnecting()

    async def reconnect(self) -> BoardIdentity:
        """Resume this link's own session: after a LinkLost (a cable pulled and put back, the
        board silent for a while), or on a new stream (`reattach`).

        If the board still holds the session, commands not acknowledged are sent again (the
        board runs each one once), those that waited are sent, the event stream continues where
        it stood, and the commands awaited meanwhile complete.  If the board rebooted, or no
        longer holds the session, a new session is opened (`identity.resumed` is False, and the
        boot counter shows a reboot) and those commands fail with BoardReset or SessionLost.
        NoResponse or LinkLost (the port is gone) if the board does not answer: the link stays
        lost, its commands still held, and reconnect() may be tried again."""
        self._check_open()
        if self.identity is None or not self.session:
            raise LinkError(f"{self.device}: not connected (handshake first)")
        with self.reconnecting():
            return await self._resume_own()

    async def _resume_own(self) -> BoardIdentity:
        old = self.identity
        assert old is not None
        self._stop_timers()
        self._holding = True
        if not old.can_resume:
            self._abandon(SessionLost(f"{self.device} cannot resume a session (older board firmware): "
                                      "a new session was opened"))
            return await self._opened_or_failed()
        try:
            identity = await self._handshake.exchange(Kind.RESUME, self.session, self.expected_kind)
        except (NoResponse, LinkLost) as error:
            self._fail(error if isinstance(error, LinkLost) else LinkLost(str(error)))
            raise
        except asyncio.CancelledError:      # the caller gave up: the link is lost, not half-open
            self._fail(LinkLost(f"{self.device}: reconnection cancelled (link lost)"))
            raise
        except LinkError as error:      # another board answers on this port: nothing held can run
            self._abandon(error)
            self._failure = error
            raise
        if identity.boot_counter != old.boot_counter:
            lost: LinkError = BoardReset(self.device, old.boot_counter, identity.boot_counter)
        elif not identity.resumed or not self._consistent(identity):
            lost = SessionLost(f"{self.device} no longer holds this session: a new one was opened")
        else:
            if not self._window.busy:     # commands failed meanwhile: the board's count is the truth
                assert identity.state is not None
                self._window.start_at(identity.state.next_command)
            self._begin(identity)
            self._continue()
            return identity
        self._abandon(lost)
        return await self._opened_or_failed()

    async def release_stream(self) -> None:
        """Close the port now, before it is opened again (a device is opened exclusively: the new open
        would find this one holding it); the link counts as having lost its stream until reattach()."""
        self._stream.set_receiver(_ignore_bytes, _ignore_lost)
        self.stream_lost = True
        with contextlib.suppress(OSError):
            await self._stream.close()

    async def reattach(self, stream: ByteStream) -> None:
        """Run on a new byte stream from now on (the port was reopened after it vanished); the
        old one is closed.  Then reconnect()."""
        self._check_open()
        old, self._stream = self._stream, stream
        old.set_receiver(_ignore_bytes, _ignore_lost)
        self.stream_lost = False
        self._decoder.reset()
        stream.set_receiver(self._on_bytes, self._on_stream_lost)
        with contextlib.suppress(OSError):
            await old.close()

    async def command(self, msg: int, payload: bytes) -> int:
        """Send a command; return the board's status once it is acknowledged (exactly once).

        While the link is lost, the command waits for reconnect() (and fails with its error if
        the session cannot be resumed, or with LinkClosed at close())."""
        status, _ = await self.command_heard(msg, payload)
        return status

    async def command_heard(self, msg: int, payload: bytes) -> tuple[int, int]:
        """`command`, and how many events had been delivered when it was first sent: an event
        delivered before that was sent by the board before the command reached it (a key pressed
        before a line was on a seat's display).  (Not the acknowledgement's moment: an ack lost on
        the wire comes late, after keys pressed once the line was shown.)"""
        if self.identity is None and self._hold.reconnectors:
            # the old session is gone and a new one is being opened, however its last attempt ended
            # (a HELLO unanswered is NoResponse): the link is lost for now, not gone for good
            raise SessionLost(f"{self.device}: a new session is being opened: send the command again once it is")
        if self._failure is not None and not self._holding:
            raise self._failure
        if self.identity is None:
            raise LinkError(f"{self.device}: not connected (handshake first)")
        return await self._window.run(msg, payload, held=self._holding)

    @property
    def events_delivered(self) -> int:
        """Events delivered so far on this link, over all its sessions (the one being delivered not
        yet counted)."""
        return self._inbox.events

    def statistics(self) -> LinkStatistics:
        c, d, w, i = self._count, self._decoder, self._window, self._inbox
        return LinkStatistics(
            frames_sent=c.frames_sent, frames_received=d.frames, bytes_received=d.bytes,
            commands=w.commands, retransmits=w.retransmits, timeouts=w.timeouts, naks=w.naks,
            crc_errors=d.crc_errors, framing_errors=d.framing_errors, resyncs=d.resyncs,
            events=i.events, event_gaps=i.event_gaps, resend_requests=i.resend_requests,
            duplicate_events=i.duplicate_events, undecodable_events=i.undecodable_events,
            heartbeat_misses=self._watch.misses, resumptions=c.resumptions,
            srtt_ms=None if w.srtt is None else w.srtt * 1000, rto_ms=w.rto * 1000)

    def trouble(self) -> int:
        """How much trouble the link has met: the sum of the `statistics()` counters of
        TROUBLE_COUNTERS.  It grows exactly when one of them does, so a watcher comparing it tells
        "nothing went wrong since" without building the statistics (it looks at nearly every change
        of the table)."""
        d, w = self._decoder, self._window
        return (w.retransmits + w.timeouts + w.naks + d.crc_errors + d.framing_errors + d.resyncs
                + self._inbox.event_gaps + self._inbox.undecodable_events + self._watch.misses)

    async def close(self) -> None:
        """Stop timers, fail pending (and held) commands with LinkClosed, release the port."""
        if self._closed:
            return
        self._closed = True
        error = LinkClosed(f"{self.device}: link closed")
        self._handshake.abort(error)
        self._holding = False
        self._failure = None
        self._fail(error)
        await self._stream.close()

    # -- the session -----------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise LinkClosed(f"{self.device}: link closed")

    def _before_asking(self) -> None:
        """A handshake starts on a port that is there, with nothing half-read."""
        if self.stream_lost:
            raise LinkLost(f"{self.device}: the port is gone: reopen it and reattach")
        self._decoder.reset()

    async def _open_session(self) -> BoardIdentity:
        return self._begin(await self._handshake.open_new(self.expected_kind))

    async def _opened_or_failed(self) -> BoardIdentity:
        try:
            return await self._open_session()
        except LinkError as error:
            self._failure = error
            raise

    def _begin(self, identity: BoardIdentity) -> BoardIdentity:
        """The session is open (or resumed): beat, and let commands go."""
        self.identity = identity
        self._failure = None
        self._holding = False
        self._window.begin()
        self._watch.start(identity)
        return identity

    def _continue(self) -> None:
        """After a RESUME: every unacknowledged command again (the board runs none twice), those
        that waited, and a RESEND for every event not yet delivered here."""
        self._count.resumptions += 1
        self._window.resume()
        self._inbox.resume()

    def _consistent(self, identity: BoardIdentity) -> bool:
        """The board's view of the resumed session fits ours: it has run only commands we sent
        (perhaps not those not yet acknowledged, nor those failed unacknowledged), and holds no
        event after the ones we have not yet received."""
        assert identity.state is not None
        return self._window.fits(identity.state.next_command) and self._inbox.fits(identity.state.oldest_event)

    def _abandon(self, error: LinkError) -> None:
        """Forget the session: every command still waiting fails with `error`; numbering restarts."""
        self._stop_timers()
        self._failure = None
        self._holding = False
        self.identity = None
        self._decoder.reset()
        self._window.reset(error)
        self._inbox.reset()

    # -- the wire --------------------------------------------------------------------------------

    def _write(self, wire: bytes) -> None:
        self._count.frames_sent += 1
        self._stream.write(wire)

    def _on_stream_lost(self, exc: Exception | None) -> None:
        reason = f": {exc}" if exc else ""
        error = LinkLost(f"{self.device}: the port closed{reason}; check the cable/adapter")
        self.stream_lost = True
        self._handshake.abort(error)
        self._fail(error)

    def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if self._handshake.under_way:
                self._handshake.take(item)
                continue    # the session's frames wait until the handshake says where it stands
            if isinstance(item, FrameError):
                continue  # counted by the decoder; the board resends what matters
            if self._failure is not None or self._holding:
                return
            self._watch.heard()
            handler = self._on_kind.get(item.kind)
            if handler is None:
                self._count.unknown_frames += 1
            else:
                handler(item)

    def _on_event(self, frame: Frame) -> None:
        if self.identity is not None:
            self._inbox.on_frame(frame)

    def _on_nak(self, frame: Frame) -> None:
        reason = frame.payload[0] if frame.payload else 0
        if reason == NakReason.NO_SESSION:
            self._watch.on_no_session(frame.payload[1:5])
            return
        self._window.on_nak(frame.seq)

    # -- failure ---------------------------------------------------------------------------------

    def _fail(self, error: LinkError) -> None:
        """The link is down.  A LinkLost is an episode: commands are held for reconnect().  Any
        other failure (a reboot, another session, a closed link) fails them."""
        if self._failure is not None:
            return
        self._failure = error
        self._stop_timers()
        if isinstance(error, LinkLost) and not self._closed:
            self._holding = True
            self._hold.arm()
        else:
            self._window.fail_all(error)
        self._on_failure(error)

    def _stop_timers(self) -> None:
        """Every timer of the link and its parts: a link down or starting over leaves none running."""
        self._window.stop()
        self._watch.stop()
        self._inbox.stop()
        self._hold.stop()

    def _release_held(self) -> None:
        """No reconnection began in time: the held commands fail with the LinkLost."""
        if self._holding and self._failure is not None:
            self._holding = False
            self._window.fail_all(self._failure)
