"""The host side of the framed link (protocol.md §2–§3).

- Commands host→board: sequence numbers, a window of CMD_WINDOW unacknowledged commands,
  cumulative ACKs carrying each command's status, NAK-triggered and timeout-triggered go-back-N
  retransmission, and an adaptive retransmission timeout (Jacobson/Karels SRTT + 4·RTTVAR,
  Karn's rule: no RTT sample from a retransmitted command, doubling back-off on timeout).
- Events board→host: sequence-numbered, delivered in order exactly once; a gap (or a board
  heartbeat announcing events we have not seen) triggers a RESEND request; the host acknowledges
  events cumulatively so the board can free its buffer.  An event counts as delivered only once
  the client decoded it: one that does not decode is asked for again, never acknowledged and
  dropped, and one that keeps failing ends the link with EventUndecodable.
- Durable acknowledgement (`hold_acks`): a client that must not lose an event to its own crash
  (the controller, whose journal follows the event by a few milliseconds) holds the acks; the
  link then acknowledges only through the last event the client `release`d (each event is marked
  with an `EventMark` as it is delivered), so the board keeps the rest and resends them on a
  RESUME — to a restarted process too, which skips those it already applied (`SessionRef.applied`).
- Handshake: HELLO → IDENT with version, board kind, boot counter, build and constants; a
  version-1 board (another frame format) is recognised and refused by name.
- Heartbeat both ways; no valid frame for `link_timeout` → LinkLost; a changed boot counter →
  BoardReset.
- Resumption: a LinkLost is an episode.  Commands awaited then (and sent during it) are held;
  `reconnect()` asks the board to RESUME the session, resends what was not acknowledged (the
  board runs each command once) and picks the event stream up where it stood.  A board that
  rebooted or no longer holds the session gets a new one, and the held commands fail with
  BoardReset or SessionLost.  `connect(session)` resumes a session another HostLink (another
  process) opened: the board's IDENT says where it stands.

Timers are loop callbacks (no tasks), so a link leaves nothing running once closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import struct
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator, NamedTuple

from .errors import (BoardReset, EventUndecodable, FrameError, LinkClosed, LinkError, LinkLost,
                     MessageError, NoResponse, ProtocolVersionMismatch, SessionLost, WrongBoard)
from .frame import FRAME_FORMAT, Frame, FrameDecoder, Kind, encode_frame
from .frame_v1 import decode_frame_v1, encode_frame_v1
from .messages import (CMD_WINDOW, BeatInfo, BoardIdentity, BoardKind, Constant, Hello, NakReason,
                       PROTOCOL_VERSION, SessionAnswer)
from .stream import ByteStream, _ignore_data as _ignore_bytes, _ignore_lost

EventHandler = Callable[[int, bytes], None]   # raises MessageError if the payload does not decode
FailureHandler = Callable[[LinkError], None]


@dataclass(frozen=True)
class LinkConfig:
    """Host-side timing.  Defaults suit 115200 baud and the boards' 600 ms link timeout."""

    heartbeat: float = 0.1         # seconds between HOST_BEATs
    link_timeout: float = 0.6      # no valid frame from the board this long → LinkLost
    rto_initial: float = 0.1
    rto_min: float = 0.02
    rto_max: float = 1.0
    max_retransmits: int = 8       # timeouts of one command before LinkLost
    hello_interval: float = 0.2
    hello_timeout: float = 2.0
    event_ack_every: int = 8
    event_ack_delay: float = 0.03
    max_undecodable: int = 3       # an event that fails to decode this often → EventUndecodable
    hold_for: float = 5.0          # after a LinkLost, commands wait this long for a reconnection
                                   # to begin (longer while one is under way), then fail
    hold_acks: bool = False        # acknowledge events only once released (HostLink.hold_acks)


@dataclass(frozen=True)
class LinkStatistics:
    frames_sent: int
    frames_received: int
    bytes_received: int
    commands: int
    retransmits: int
    timeouts: int
    naks: int
    crc_errors: int
    framing_errors: int
    resyncs: int
    events: int
    event_gaps: int
    resend_requests: int
    duplicate_events: int
    undecodable_events: int
    heartbeat_misses: int
    resumptions: int
    srtt_ms: float | None
    rto_ms: float


@dataclass
class _Counters:
    frames_sent: int = 0
    commands: int = 0
    retransmits: int = 0
    timeouts: int = 0
    naks: int = 0
    events: int = 0
    event_gaps: int = 0
    resend_requests: int = 0
    duplicate_events: int = 0
    undecodable_events: int = 0
    heartbeat_misses: int = 0
    unknown_frames: int = 0
    resumptions: int = 0


@dataclass(eq=False)
class _Pending:
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


def _first_unapplied(oldest: int, applied: int | None) -> int:
    """Where a resumed session's events start: the board's oldest held one, or — the client having
    applied some of them before (`SessionRef.applied`, journaled) — the one after those."""
    if applied is None:
        return oldest
    after = (applied + 1) & 0xFF
    return after if (after - oldest) & 0xFF < 128 else oldest


def _ignore_event(msg: int, payload: bytes) -> None:
    pass


def _ignore_failure(error: LinkError) -> None:
    pass


@dataclass
class _Timers:
    rto: asyncio.TimerHandle | None = None
    beat: asyncio.TimerHandle | None = None
    event_ack: asyncio.TimerHandle | None = None
    hold: asyncio.TimerHandle | None = None

    def cancel(self) -> None:
        for name in ("rto", "beat", "event_ack", "hold"):
            handle = getattr(self, name)
            if handle is not None:
                handle.cancel()
                setattr(self, name, None)


class HostLink:
    """One board's link, host side.  Create inside a running event loop."""

    def __init__(self, stream: ByteStream, *, device: str, expected_kind: BoardKind | None = None,
                 config: LinkConfig = LinkConfig()) -> None:
        self.device = device
        self.config = config
        self.expected_kind = expected_kind
        self.identity: BoardIdentity | None = None
        self.board_flags = 0
        self.stream_lost = False       # the port died (closed, device gone): reopen, reattach()
        self._stream = stream
        self._loop = asyncio.get_running_loop()
        self._decoder = FrameDecoder()
        self._count = _Counters()
        self._timers = _Timers()
        self._on_event: EventHandler = _ignore_event
        self._on_failure: FailureHandler = _ignore_failure
        self._failure: LinkError | None = None
        self._holding = False          # lost, or handshaking again: commands wait, none is sent
        self._reconnectors = 0         # reconnections under way (reconnecting()): commands wait on
        self._closed = False
        self._session = 0
        self._hello_waiter: asyncio.Future[bytes] | None = None
        self._asking = Kind.HELLO      # what the handshake under way sent: HELLO or RESUME
        # commands
        self._tx_next = 0
        self._unconfirmed: int | None = None   # first seq of commands failed unacknowledged
        self._outstanding: dict[int, _Pending] = {}
        self._waiting: deque[_Pending] = deque()
        self._srtt: float | None = None
        self._rttvar = 0.0
        self._rto = config.rto_initial
        # events
        self._ev_next = 0
        self._ev_held: dict[int, Frame] = {}
        self._ev_unacked = 0
        self._hold_acks = config.hold_acks    # acknowledge only through `_ev_released` (hold_acks())
        self._ev_released = 0          # the next event seq the client has not released
        self._ev_acked = 0             # the ack point last told to the board (EVENT_ACK, RESEND, HOST_BEAT)
        self.last_mark: EventMark | None = None     # the event being (or last) delivered
        self._last_resend: tuple[int, float] = (-1, 0.0)
        self._undecodable: tuple[int, int] = (-1, 0)   # (seq, failures) of the event that failed
        # liveness
        self._last_rx = 0.0
        self._last_board_beat = 0.0
        self._board_heartbeat = config.heartbeat
        stream.set_receiver(self._on_bytes, self._on_stream_lost)

    # -- public ----------------------------------------------------------------------------------

    def set_handlers(self, on_event: EventHandler, on_failure: FailureHandler) -> None:
        """`on_event(msg_id, payload)` for each event in order; `on_failure(error)` once per failure.

        `on_event` decodes the event; if it raises MessageError the event is not delivered and
        the board is asked to send it again."""
        self._on_event = on_event
        self._on_failure = on_failure

    @property
    def failure(self) -> LinkError | None:
        return self._failure

    def hold_acks(self) -> None:
        """From now on acknowledge an event only once the client `release`s it (durable): the board
        keeps it until then and sends it again after a RESUME, to this process or the next."""
        if not self._hold_acks:
            self._hold_acks = True
            self._ev_released = self._ev_next

    def release(self, mark: EventMark) -> None:
        """The events through `mark` are durable: they may be acknowledged.  A mark of another
        session, or one already released, changes nothing."""
        if not self._hold_acks or mark.session != self._session:
            return
        through = (mark.seq + 1) & 0xFF
        ahead = (through - self._ev_released) & 0xFF
        if ahead == 0 or ahead > (self._ev_next - self._ev_released) & 0xFF:
            return
        self._ev_released = through
        if self._failure is not None or self._holding:
            return
        if (through - self._ev_acked) & 0xFF >= self.config.event_ack_every:
            self._send_event_ack()      # as for events not held: the board's window never waits on the timer
        elif self._timers.event_ack is None:
            self._timers.event_ack = self._loop.call_later(self.config.event_ack_delay, self._send_event_ack)

    def _telling_ack(self) -> int:
        """The ack point, as a frame about to be written tells it to the board."""
        self._ev_acked = self._ack_point()
        return self._ev_acked

    def _ack_point(self) -> int:
        """The event seq the board may forget up to: what was delivered, or what was released."""
        return self._ev_released if self._hold_acks else self._ev_next

    @property
    def connected(self) -> bool:
        return self.identity is not None and self._failure is None and not self._holding

    @property
    def session(self) -> int:
        """The session id of the last handshake (0 before any)."""
        return self._session

    @property
    def session_ref(self) -> SessionRef | None:
        """What to journal to resume this session later, from this or another process; None
        before a handshake, or with a board that cannot resume sessions."""
        if self.identity is None or not self.identity.can_resume:
            return None
        return SessionRef(self._session, self.identity.boot_counter)

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
                identity = await self._handshake(Kind.RESUME, ref.session)
                same_boot = ref.boot_counter in (None, identity.boot_counter)
                if identity.resumed and same_boot:
                    assert identity.state is not None
                    self._tx_next = identity.state.next_command
                    self._ev_next = self._ev_released = self._ev_acked = _first_unapplied(identity.state.oldest_event,
                                                                                            ref.applied)
                    self._begin(identity)
                    self._continue()
                    return identity
            return await self._open_session()
        except LinkError as error:
            self._failure = error
            raise

    @contextlib.contextmanager
    def reconnecting(self) -> Iterator[None]:
        """While inside, a reconnection is under way: commands held since a LinkLost keep
        waiting for it however long it takes (outside, they fail after `config.hold_for`).
        The reconnect helper holds this across its attempts and the pauses between them."""
        self._reconnectors += 1
        if self._timers.hold is not None:
            self._timers.hold.cancel()
            self._timers.hold = None
        try:
            yield
        finally:
            self._reconnectors -= 1
            self._arm_hold()

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
        if self.identity is None or not self._session:
            raise LinkError(f"{self.device}: not connected (handshake first)")
        with self.reconnecting():
            return await self._resume_own()

    async def _resume_own(self) -> BoardIdentity:
        old = self.identity
        assert old is not None
        self._timers.cancel()
        self._holding = True
        if not old.can_resume:
            self._abandon(SessionLost(f"{self.device} cannot resume a session (older board firmware): "
                                      "a new session was opened"))
            return await self._opened_or_failed()
        try:
            identity = await self._handshake(Kind.RESUME, self._session)
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
            if not self._outstanding:   # commands failed meanwhile: the board's count is the truth
                assert identity.state is not None
                self._tx_next = identity.state.next_command
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
        if self.identity is None and self._reconnectors:
            # the old session is gone and a new one is being opened, however its last attempt ended
            # (a HELLO unanswered is NoResponse): the link is lost for now, not gone for good
            raise SessionLost(f"{self.device}: a new session is being opened: send the command again once it is")
        if self._failure is not None and not self._holding:
            raise self._failure
        if self.identity is None:
            raise LinkError(f"{self.device}: not connected (handshake first)")
        pending = _Pending(msg, payload, self._loop.create_future())
        self._count.commands += 1
        if not self._holding and len(self._outstanding) < CMD_WINDOW and not self._waiting:
            self._transmit(pending)
        else:
            self._waiting.append(pending)
        return await pending.future, pending.heard

    @property
    def events_delivered(self) -> int:
        """Events delivered so far on this link, over all its sessions (the one being delivered not
        yet counted)."""
        return self._count.events

    def statistics(self) -> LinkStatistics:
        c, d = self._count, self._decoder
        return LinkStatistics(
            frames_sent=c.frames_sent, frames_received=d.frames, bytes_received=d.bytes,
            commands=c.commands, retransmits=c.retransmits, timeouts=c.timeouts, naks=c.naks,
            crc_errors=d.crc_errors, framing_errors=d.framing_errors, resyncs=d.resyncs,
            events=c.events, event_gaps=c.event_gaps, resend_requests=c.resend_requests,
            duplicate_events=c.duplicate_events, undecodable_events=c.undecodable_events,
            heartbeat_misses=c.heartbeat_misses, resumptions=c.resumptions,
            srtt_ms=None if self._srtt is None else self._srtt * 1000, rto_ms=self._rto * 1000)

    async def close(self) -> None:
        """Stop timers, fail pending (and held) commands with LinkClosed, release the port."""
        if self._closed:
            return
        self._closed = True
        error = LinkClosed(f"{self.device}: link closed")
        if self._hello_waiter is not None and not self._hello_waiter.done():
            self._hello_waiter.set_exception(error)
        self._holding = False
        self._failure = None
        self._fail(error)
        await self._stream.close()

    # -- handshake -------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise LinkClosed(f"{self.device}: link closed")

    async def _handshake(self, asking: Kind, session: int) -> BoardIdentity:
        """Send HELLO (or RESUME) for `session` until the IDENT answering it; check its version
        and board kind.  Frames other than that IDENT are ignored meanwhile."""
        if self.stream_lost:
            raise LinkLost(f"{self.device}: the port is gone: reopen it and reattach")
        self._session = session
        self._asking = asking
        self._decoder.reset()
        payload = Hello(PROTOCOL_VERSION, session, int(self.config.heartbeat * 1000)).encode_payload()
        first = encode_frame(asking, 0, 0, payload)
        # From the second try on, also ask in frame format 1: a version-1 board cannot read our
        # frames, but answers this one, so it is refused by name instead of as "no answer".
        again = first + encode_frame_v1(Kind.HELLO, 0, 0, payload) if asking == Kind.HELLO else first
        waiter: asyncio.Future[bytes] = self._loop.create_future()
        self._hello_waiter = waiter
        deadline = self._loop.time() + self.config.hello_timeout
        tries = 0
        try:
            while not waiter.done():
                remaining = deadline - self._loop.time()
                if remaining <= 0:
                    raise NoResponse(
                        f"no answer from {self.device} within {self.config.hello_timeout:.1f} s: check "
                        "that the board is powered, the cable, and the port/baud rate")
                self._write(again if tries else first)
                tries += 1
                await asyncio.wait({waiter}, timeout=min(self.config.hello_interval, remaining))
            return self._check_identity(waiter.result())
        finally:
            self._hello_waiter = None
            if not waiter.done():
                waiter.cancel()

    async def _open_session(self) -> BoardIdentity:
        """A new session under a fresh random id.  An IDENT showing progress means the id was
        the board's open session (another host's): pick another."""
        for _ in range(4):
            session = self._session
            while session in (0, self._session):
                session = int.from_bytes(os.urandom(2), "big")
            identity = await self._handshake(Kind.HELLO, session)
            if identity.state is None or (identity.state.next_command, identity.state.oldest_event) == (0, 0):
                return self._begin(identity)
        raise SessionLost(f"{self.device} kept answering as another host's session: check that "
                          "no other program uses the port")

    async def _opened_or_failed(self) -> BoardIdentity:
        try:
            return await self._open_session()
        except LinkError as error:
            self._failure = error
            raise

    def _begin(self, identity: BoardIdentity) -> BoardIdentity:
        """The session is open (or resumed): beat, and let commands go."""
        self.identity = identity
        self.board_flags = identity.flags
        self._board_heartbeat = identity.constant(Constant.HEARTBEAT_MS, int(self.config.heartbeat * 1000)) / 1000
        self._failure = None
        self._holding = False
        self._unconfirmed = None
        now = self._loop.time()
        self._last_rx = self._last_board_beat = now
        self._timers.beat = self._loop.call_later(self.config.heartbeat, self._beat)
        return identity

    def _continue(self) -> None:
        """After a RESUME: every unacknowledged command again (the board runs none twice), those
        that waited, and a RESEND for every event not yet delivered here."""
        self._count.resumptions += 1
        self._rto = self._computed_rto() if self._srtt is not None else self.config.rto_initial
        for pending in self._outstanding.values():
            pending.timeouts = 0        # the outage was not their doing
        if self._outstanding:
            self._retransmit_from(next(iter(self._outstanding)))
        while self._waiting and len(self._outstanding) < CMD_WINDOW:
            self._transmit(self._waiting.popleft())
        self._last_resend = (self._ev_next, self._loop.time())
        self._count.resend_requests += 1
        self._ev_unacked = 0
        self._write(encode_frame(Kind.RESEND, self._telling_ack(), 0, b"\x00"))

    def _consistent(self, identity: BoardIdentity) -> bool:
        """The board's view of the resumed session fits ours: it has run only commands we sent
        (perhaps not those not yet acknowledged, nor those failed unacknowledged), and holds no
        event after the ones we have not yet received."""
        assert identity.state is not None
        if self._outstanding:
            oldest = next(iter(self._outstanding.values())).seq
        else:
            oldest = self._tx_next if self._unconfirmed is None else self._unconfirmed
        ran = (identity.state.next_command - oldest) & 0xFF
        behind = (self._ev_next - identity.state.oldest_event) & 0xFF
        return ran <= (self._tx_next - oldest) & 0xFF and behind < 128

    def _check_identity(self, payload: bytes) -> BoardIdentity:
        version = BoardIdentity.peek_version(payload)
        if version != PROTOCOL_VERSION:
            raise ProtocolVersionMismatch(self.device, version, PROTOCOL_VERSION)
        identity = BoardIdentity.decode(payload)
        if self.expected_kind is not None and identity.kind != self.expected_kind:
            try:
                found = BoardKind(identity.kind).name
            except ValueError:
                found = f"kind {identity.kind}"
            raise WrongBoard(f"{self.device} answers as the {found} board, not the "
                             f"{self.expected_kind.name} board: check which port is which")
        return identity

    def _answers_us(self, payload: bytes) -> bool:
        """An IDENT answering the handshake under way: our session id, and an answer to what we
        sent (a late answer to an earlier HELLO or RESUME is not).  Another version's IDENT is
        taken whatever it says: the host refuses that board by name."""
        try:
            if BoardIdentity.peek_version(payload) != PROTOCOL_VERSION:
                return True
            identity = BoardIdentity.decode(payload)
        except MessageError:
            return True     # _check_identity names what is wrong with it
        if identity.session != self._session:
            return False
        answer = None if identity.state is None else identity.state.answer
        if self._asking == Kind.RESUME:
            return answer in (SessionAnswer.RESUMED, SessionAnswer.NOT_HELD)
        return answer in (None, SessionAnswer.HELLO)

    def _abandon(self, error: LinkError) -> None:
        """Forget the session: every command still waiting fails with `error`; numbering restarts."""
        self._timers.cancel()
        self._failure = None
        self._holding = False
        self.identity = None
        self._decoder.reset()
        self._fail_commands(error)
        self._tx_next = 0
        self._unconfirmed = None
        self._ev_next = self._ev_released = self._ev_acked = 0
        self._ev_held.clear()
        self._ev_unacked = 0
        self._undecodable = (-1, 0)
        self._rto = self.config.rto_initial

    # -- sending ---------------------------------------------------------------------------------

    def _write(self, wire: bytes) -> None:
        self._count.frames_sent += 1
        self._stream.write(wire)

    def _transmit(self, pending: _Pending) -> None:
        pending.seq = self._tx_next
        self._tx_next = (self._tx_next + 1) & 0xFF
        pending.wire = encode_frame(Kind.COMMAND, pending.seq, pending.msg, pending.payload)
        pending.first_sent = pending.last_sent = self._loop.time()
        pending.sends = 1
        pending.heard = self._count.events
        self._outstanding[pending.seq] = pending
        self._write(pending.wire)
        if self._timers.rto is None:
            self._arm_rto()

    def _retransmit_from(self, seq: int) -> None:
        now = self._loop.time()
        started = False
        for pending in self._outstanding.values():
            started = started or pending.seq == seq
            if started:
                pending.last_sent = now
                pending.sends += 1
                self._count.retransmits += 1
                self._write(pending.wire)
        self._arm_rto()

    def _arm_rto(self) -> None:
        if self._timers.rto is not None:
            self._timers.rto.cancel()
            self._timers.rto = None
        if self._outstanding and self._failure is None and not self._holding:
            oldest = next(iter(self._outstanding.values()))
            self._timers.rto = self._loop.call_at(oldest.last_sent + self._rto, self._on_rto)

    def _on_rto(self) -> None:
        self._timers.rto = None
        if not self._outstanding or self._failure is not None:
            return
        oldest = next(iter(self._outstanding.values()))
        if self._loop.time() < oldest.last_sent + self._rto - 0.001:
            self._arm_rto()  # resent meanwhile (after a NAK)
            return
        oldest.timeouts += 1
        self._count.timeouts += 1
        if oldest.timeouts > self.config.max_retransmits:
            self._fail(LinkLost(f"{self.device}: command not acknowledged after "
                                f"{self.config.max_retransmits} retransmissions (link lost)"))
            return
        self._rto = min(self._rto * 2, self.config.rto_max)
        self._retransmit_from(oldest.seq)

    def _send_event_ack(self) -> None:
        if self._timers.event_ack is not None:
            self._timers.event_ack.cancel()
            self._timers.event_ack = None
        self._ev_unacked = 0
        self._write(encode_frame(Kind.EVENT_ACK, self._telling_ack()))

    def _request_resend(self) -> None:
        seq, when = self._last_resend
        now = self._loop.time()
        if seq == self._ev_next and now - when < max(self._rto, 0.02):
            return
        self._last_resend = (self._ev_next, now)
        self._count.resend_requests += 1
        # Ask only for the hole before the first event we hold (0 = everything from ev_next).  A
        # RESEND acknowledges what is before it: with acks held it starts at the last released event
        # (those between are resent too, and dropped here as duplicates).
        missing = min(((seq - self._ev_next) & 0xFF for seq in self._ev_held), default=0)
        start = self._telling_ack()
        if missing:
            missing += (self._ev_next - start) & 0xFF
        self._write(encode_frame(Kind.RESEND, start, 0, bytes((min(missing, 255),))))

    def _beat(self) -> None:
        self._timers.beat = None
        if self._failure is not None:
            return
        now = self._loop.time()
        if now - self._last_rx > self.config.link_timeout:
            silent = int((now - self._last_rx) * 1000)
            self._fail(LinkLost(f"{self.device}: nothing received for {silent} ms (link lost): "
                                "check the cable and the board's power"))
            return
        if now - self._last_board_beat > 1.5 * self._board_heartbeat:
            self._count.heartbeat_misses += 1
        self._ev_unacked = 0
        self._write(encode_frame(Kind.HOST_BEAT, self._telling_ack()))
        self._timers.beat = self._loop.call_later(self.config.heartbeat, self._beat)

    # -- receiving -------------------------------------------------------------------------------

    def _on_stream_lost(self, exc: Exception | None) -> None:
        reason = f": {exc}" if exc else ""
        error = LinkLost(f"{self.device}: the port closed{reason}; check the cable/adapter")
        self.stream_lost = True
        if self._hello_waiter is not None and not self._hello_waiter.done():
            self._hello_waiter.set_exception(error)
        self._fail(error)

    def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, FrameError):
                if self._hello_waiter is not None and item.chunk:
                    self._legacy_ident(item.chunk)
                continue  # counted by the decoder; the board resends what matters
            if self._hello_waiter is not None:
                if item.kind == Kind.IDENT and not self._hello_waiter.done() \
                        and self._answers_us(item.payload):
                    self._hello_waiter.set_result(item.payload)
                continue    # the session's frames wait until the handshake says where it stands
            if self._failure is not None or self._holding:
                return
            self._last_rx = self._loop.time()
            kind = item.kind
            if kind == Kind.EVENT:
                self._on_event_frame(item)
            elif kind == Kind.ACK:
                self._on_ack(item)
            elif kind == Kind.BOARD_BEAT:
                self._on_board_beat(item)
            elif kind == Kind.NAK:
                self._on_nak(item)
            elif kind == Kind.IDENT:
                pass    # a late answer to a handshake already done
            elif kind == Kind.BOOT:
                self._on_boot(item)
            else:
                self._count.unknown_frames += 1

    def _legacy_ident(self, chunk: bytes) -> None:
        """During the handshake, a frame we could not read may be a version-1 board's IDENT
        answering our format-1 HELLO (same session id): take it, so the board is refused by its
        version.  A newer board answering that HELLO too is ignored: its own IDENT follows."""
        try:
            frame = decode_frame_v1(chunk)
            if frame.kind != Kind.IDENT or BoardIdentity.peek_version(frame.payload) >= FRAME_FORMAT:
                return
            if BoardIdentity.decode(frame.payload).session != self._session:
                return
        except FrameError:
            return
        if self._hello_waiter is not None and not self._hello_waiter.done():
            self._hello_waiter.set_result(frame.payload)

    def _on_ack(self, frame: Frame) -> None:
        now = self._loop.time()
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

    def _rtt_sample(self, sample: float) -> None:
        if self._srtt is None:
            self._srtt, self._rttvar = sample, sample / 2
        else:
            self._rttvar = 0.75 * self._rttvar + 0.25 * abs(self._srtt - sample)
            self._srtt = 0.875 * self._srtt + 0.125 * sample
        self._rto = self._computed_rto()

    def _computed_rto(self) -> float:
        assert self._srtt is not None
        return min(max(self._srtt + 4 * self._rttvar, self.config.rto_min), self.config.rto_max)

    def _on_nak(self, frame: Frame) -> None:
        reason = frame.payload[0] if frame.payload else 0
        if reason == NakReason.NO_SESSION:
            self._session_gone(frame.payload[1:5])
            return
        self._count.naks += 1
        pending = self._outstanding.get(frame.seq)
        if pending is None:
            return
        # A NAK answers frames sent up to one RTT ago: skip it if we already resent since.
        if self._loop.time() - pending.last_sent >= (self._srtt or 0.005):
            self._retransmit_from(frame.seq)

    def _session_gone(self, boot_bytes: bytes) -> None:
        if self.identity is None:
            return
        if len(boot_bytes) == 4:
            boot = struct.unpack(">I", boot_bytes)[0]
            if boot != self.identity.boot_counter:
                self._fail(BoardReset(self.device, self.identity.boot_counter, boot))
                return
        self._fail(SessionLost(f"{self.device} no longer knows this session: reconnect"))

    def _on_boot(self, frame: Frame) -> None:
        if self.identity is None or len(frame.payload) < 4:
            return
        boot = struct.unpack(">I", frame.payload[:4])[0]
        self._fail(BoardReset(self.device, self.identity.boot_counter, boot))

    def _on_board_beat(self, frame: Frame) -> None:
        if self.identity is None:
            return
        try:
            info = BeatInfo.decode_payload(frame.payload)
        except MessageError:
            return
        if info.boot_counter != self.identity.boot_counter:
            self._fail(BoardReset(self.device, self.identity.boot_counter, info.boot_counter))
            return
        if info.session != self._session:
            self._fail(SessionLost(f"{self.device} is in another session (another program opened "
                                   "the port, or the board lost it): reconnect"))
            return
        self._last_board_beat = self._loop.time()
        self.board_flags = info.flags
        if 0 < ((frame.seq - self._ev_next) & 0xFF) < 128:
            self._request_resend()  # events were sent that never arrived

    def _on_event_frame(self, frame: Frame) -> None:
        if self.identity is None:
            return
        distance = (frame.seq - self._ev_next) & 0xFF
        if distance == 0:
            delivered = self._deliver(frame)
            while delivered and self._ev_next in self._ev_held:
                delivered = self._deliver(self._ev_held.pop(self._ev_next))
            if (self._ev_held or not delivered) and self._failure is None:
                self._request_resend()
        elif distance < 128:
            if not self._ev_held or self._last_resend[0] != self._ev_next:
                self._count.event_gaps += 1
            if len(self._ev_held) < 128:
                self._ev_held[frame.seq] = frame
            self._request_resend()
        else:
            self._count.duplicate_events += 1
            if self._timers.event_ack is None:
                self._timers.event_ack = self._loop.call_later(self.config.event_ack_delay,
                                                               self._send_event_ack)

    def _deliver(self, frame: Frame) -> bool:
        """Hand the event to the client; it is delivered (and later acknowledged) only if the
        client could decode it.  False: not delivered, the caller asks for it again."""
        self.last_mark = EventMark(self._session, frame.seq)
        try:
            self._on_event(frame.msg, frame.payload)
        except MessageError as error:
            self._not_decoded(frame, error)
            return False
        except Exception as error:  # a client bug must not stall the link: report and go on
            self._loop.call_exception_handler({"message": f"{self.device}: event handler failed",
                                               "exception": error})
        self._undecodable = (-1, 0)
        self._ev_next = (self._ev_next + 1) & 0xFF
        self._count.events += 1
        self._ev_unacked += 1
        if self._hold_acks:
            pass                        # acknowledged once released
        elif self._ev_unacked >= self.config.event_ack_every:
            self._send_event_ack()
        elif self._timers.event_ack is None:
            self._timers.event_ack = self._loop.call_later(self.config.event_ack_delay,
                                                           self._send_event_ack)
        return True

    def _not_decoded(self, frame: Frame, error: MessageError) -> None:
        """An intact frame whose payload the client cannot read: a damage the CRC missed, or a
        board and host that disagree.  Ask again; fail the link if it keeps failing."""
        self._count.undecodable_events += 1
        seq, failures = self._undecodable
        failures = failures + 1 if seq == frame.seq else 1
        self._undecodable = (frame.seq, failures)
        if failures >= self.config.max_undecodable:
            self._fail(EventUndecodable(self.device, frame.msg, failures, str(error)))
            return
        self._last_resend = (-1, 0.0)  # this one is new news: ask at once

    # -- failure ---------------------------------------------------------------------------------

    def _fail(self, error: LinkError) -> None:
        """The link is down.  A LinkLost is an episode: commands are held for reconnect().  Any
        other failure (a reboot, another session, a closed link) fails them."""
        if self._failure is not None:
            return
        self._failure = error
        self._timers.cancel()
        if isinstance(error, LinkLost) and not self._closed:
            self._holding = True
            self._arm_hold()
        else:
            self._fail_commands(error)
        self._on_failure(error)

    def _arm_hold(self) -> None:
        """Commands held since a LinkLost fail with it if no reconnection begins in time."""
        if self._holding and self._reconnectors == 0 and self._timers.hold is None \
                and isinstance(self._failure, LinkLost):
            self._timers.hold = self._loop.call_later(self.config.hold_for, self._release_held)

    def _release_held(self) -> None:
        self._timers.hold = None
        if self._holding and self._reconnectors == 0 and self._failure is not None:
            self._holding = False
            self._fail_commands(self._failure)

    def _fail_commands(self, error: LinkError) -> None:
        if self._outstanding and self._unconfirmed is None:
            self._unconfirmed = next(iter(self._outstanding.values())).seq
        for pending in list(self._outstanding.values()) + list(self._waiting):
            if not pending.future.done():
                pending.future.set_exception(error)
                pending.future.exception()  # retrieved here: a cancelled caller must not warn
        self._outstanding.clear()
        self._waiting.clear()
