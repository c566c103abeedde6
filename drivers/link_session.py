"""The session around the host link's two streams (protocol.md §3.1, §3.5, §3.7, §3.8), for `HostLink`.

- `LinkConfig`, the host-side timing; `LinkStatistics`, the counters read as one (§3.8);
  `LinkHooks`, what a part of the link (the command window, the event inbox, the pieces here) may
  ask of the `HostLink` that owns it.
- `Handshake` (§3.1): HELLO (or RESUME) → IDENT with version, board kind, boot counter, build and
  constants; a version-1 board (another frame format) is recognised and refused by name.
- `Watch` (§3.5, §3.7): heartbeats both ways, no valid frame for `link_timeout` → LinkLost, and a
  changed boot counter → BoardReset.
- `Hold` (§3.5): commands held since a LinkLost wait while a reconnection is under way, else
  `hold_for`, then fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import struct
from dataclasses import dataclass
from typing import Callable, Iterator

from .errors import (BoardIncompatible, BoardReset, FrameError, LinkError, LinkLost, MessageError, NoResponse,
                     ProtocolVersionMismatch, SessionLost, WrongBoard)
from .frame import FRAME_FORMAT, HOST_KINDS, Frame, Kind, encode_frame
from .frame_v1 import decode_frame_v1, encode_frame_v1
from .messages import (USABLE_CONSTANTS, BeatInfo, BoardIdentity, BoardKind, Constant, Hello, PROTOCOL_VERSION,
                       SessionAnswer)


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
    max_gap_resends: int = 50      # a gap asked for this often (each an RTO apart) and never filled,
                                   # later events arriving → EventsUnrecoverable, never a silent stall
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


@dataclass(frozen=True)
class LinkHooks:
    """The owning link, as its parts see it: they write and fail through it and ask its state,
    never touching its fields (the link's failure and hold decide for all of them)."""

    device: str
    config: LinkConfig
    loop: asyncio.AbstractEventLoop
    write: Callable[[bytes], None]           # one frame onto the wire (counted as sent)
    fail: Callable[[LinkError], None]        # the link is down (HostLink._fail)
    failed: Callable[[], bool]               # the link has failed (perhaps held for a reconnection)
    up: Callable[[], bool]                   # neither failed nor held: frames may go out


@dataclass
class HeardMeanwhile:
    """What a handshake heard while no IDENT answered it: the advice of its "no answer" line differs for
    a silent port, a port that sends back our own frames (a loopback plug, a device that echoes), and one
    that sends bytes that are no frames (another device, the wrong baud rate).  It said "check that the
    board is powered" for all three (a probe)."""

    own: int = 0            # frames only a host sends
    damaged: int = 0        # bytes that made no frame

    def advice(self) -> str:
        if self.own:
            return ("the port sends back what it is sent (a loopback, or a device that echoes): it is not the "
                    "board's port; check the port in the configuration")
        if self.damaged:
            return ("bytes arrive but no frame: another device on this port, or the wrong baud rate; check the "
                    "port and devices.baudrate")
        return "check that the board is powered, the cable, and the port/baud rate"


class Handshake:
    """One link's HELLO/RESUME exchanges, and the session id the last one asked for."""

    def __init__(self, link: LinkHooks, prepare: Callable[[], None]) -> None:
        self._link = link
        self._prepare = prepare         # before each exchange: the port is there, nothing half-read
        self.session = 0
        self._waiter: asyncio.Future[bytes] | None = None
        self._asking = Kind.HELLO      # what the handshake under way sent: HELLO or RESUME
        self._heard = HeardMeanwhile()  # what came back while no IDENT did, for the "no answer" line

    @property
    def under_way(self) -> bool:
        """A handshake is under way: the session's frames wait until it says where it stands."""
        return self._waiter is not None

    async def open_new(self, expected_kind: BoardKind | None) -> BoardIdentity:
        """A new session under a fresh random id.  An IDENT showing progress means the id was
        the board's open session (another host's): pick another."""
        for _ in range(4):
            session = self.session
            while session in (0, self.session):
                session = int.from_bytes(os.urandom(2), "big")
            identity = await self.exchange(Kind.HELLO, session, expected_kind)
            if identity.state is None or (identity.state.next_command, identity.state.oldest_event) == (0, 0):
                return identity
        raise SessionLost(f"{self._link.device} kept answering as another host's session: check that "
                          "no other program uses the port")

    async def exchange(self, asking: Kind, session: int, expected_kind: BoardKind | None) -> BoardIdentity:
        """Send HELLO (or RESUME) for `session` until the IDENT answering it; check its version
        and board kind.  Frames other than that IDENT are ignored meanwhile."""
        self._prepare()
        self.session = session
        self._asking = asking
        self._heard = HeardMeanwhile()
        loop, config = self._link.loop, self._link.config
        payload = Hello(PROTOCOL_VERSION, session, int(config.heartbeat * 1000)).encode_payload()
        first = encode_frame(asking, 0, 0, payload)
        # From the second try on, also ask in frame format 1: a version-1 board cannot read our
        # frames, but answers this one, so it is refused by name instead of as "no answer".
        again = first + encode_frame_v1(Kind.HELLO, 0, 0, payload) if asking == Kind.HELLO else first
        waiter: asyncio.Future[bytes] = loop.create_future()
        self._waiter = waiter
        deadline = loop.time() + config.hello_timeout
        tries = 0
        try:
            while not waiter.done():
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise NoResponse(f"no answer from {self._link.device} within {config.hello_timeout:.1f} s: "
                                     f"{self._heard.advice()}")
                self._link.write(again if tries else first)
                tries += 1
                await asyncio.wait({waiter}, timeout=min(config.hello_interval, remaining))
            return self._check_identity(waiter.result(), expected_kind)
        finally:
            self._waiter = None
            if not waiter.done():
                waiter.cancel()

    def take(self, item: Frame | FrameError) -> None:
        """A frame received while the handshake is under way: only the IDENT answering it counts."""
        waiter = self._waiter
        assert waiter is not None
        if isinstance(item, FrameError):
            self._heard.damaged += 1
            if item.chunk:
                self._legacy_ident(item.chunk)
        elif item.kind == Kind.IDENT and not waiter.done() and self._answers_us(item.payload):
            waiter.set_result(item.payload)
        elif item.kind in HOST_KINDS:
            self._heard.own += 1

    def abort(self, error: LinkError) -> None:
        """The handshake under way, if any, fails with `error`."""
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_exception(error)

    def _check_identity(self, payload: bytes, expected_kind: BoardKind | None) -> BoardIdentity:
        version = BoardIdentity.peek_version(payload)
        if version != PROTOCOL_VERSION:
            raise ProtocolVersionMismatch(self._link.device, version, PROTOCOL_VERSION)
        identity = BoardIdentity.decode(payload)
        if expected_kind is not None and identity.kind != expected_kind:
            try:
                found = BoardKind(identity.kind).name
            except ValueError:
                found = f"kind {identity.kind}"
            raise WrongBoard(self._link.device, found, expected_kind.name)
        for tag, (low, high) in USABLE_CONSTANTS.items():
            value = identity.constants.get(tag)
            if value is not None and not low <= value <= high:
                raise BoardIncompatible(self._link.device, f"{self._link.device} reports {Constant(tag).name} "
                                        f"{value}, where this controller works with {low}–{high}: its firmware "
                                        "does not match this controller")
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
        if identity.session != self.session:
            return False
        answer = None if identity.state is None else identity.state.answer
        if self._asking == Kind.RESUME:
            return answer in (SessionAnswer.RESUMED, SessionAnswer.NOT_HELD)
        return answer in (None, SessionAnswer.HELLO)

    def _legacy_ident(self, chunk: bytes) -> None:
        """During the handshake, a frame we could not read may be a version-1 board's IDENT
        answering our format-1 HELLO (same session id): take it, so the board is refused by its
        version.  A newer board answering that HELLO too is ignored: its own IDENT follows."""
        try:
            frame = decode_frame_v1(chunk)
            if frame.kind != Kind.IDENT or BoardIdentity.peek_version(frame.payload) >= FRAME_FORMAT:
                return
            if BoardIdentity.decode(frame.payload).session != self.session:
                return
        except FrameError:
            return
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(frame.payload)


class Watch:
    """The watch on one link's session (§3.5, §3.7): a HOST_BEAT every `heartbeat`, no valid frame
    for `link_timeout` → LinkLost; a BOARD_BEAT, BOOT or NAK(NO_SESSION) with another boot counter
    → BoardReset, a BOARD_BEAT of another session → SessionLost."""

    def __init__(self, link: LinkHooks, *, identity: Callable[[], BoardIdentity | None],
                 session: Callable[[], int], ack_point: Callable[[], int], announced: Callable[[int], None]) -> None:
        self._link = link
        self._identity = identity       # the session's board (None: no session)
        self._session = session
        self._ack_point = ack_point     # what each HOST_BEAT acknowledges (EventInbox.beat_ack)
        self._announced = announced     # a BOARD_BEAT's next event seq (EventInbox.announced)
        self.flags = 0                  # the board's flags, as its IDENT or last BOARD_BEAT told them
        self.misses = 0                 # heartbeat misses (a statistic)
        self._last_rx = 0.0
        self._last_board_beat = 0.0
        self._board_heartbeat = link.config.heartbeat
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0                 # when the next beat was due (a late one: `loop_was_held`)

    def start(self, identity: BoardIdentity) -> None:
        """A session is open (or resumed): beat, and expect the board's beats at its own pace."""
        self.flags = identity.flags
        heartbeat_ms = int(self._link.config.heartbeat * 1000)
        self._board_heartbeat = identity.constant(Constant.HEARTBEAT_MS, heartbeat_ms) / 1000
        self._last_rx = self._last_board_beat = self._link.loop.time()
        self._arm()

    def _arm(self) -> None:
        heartbeat = self._link.config.heartbeat
        self._due = self._link.loop.time() + heartbeat
        self._timer = self._link.loop.call_later(heartbeat, self._beat)

    def heard(self) -> None:
        """A valid frame of the session came in."""
        self._last_rx = self._link.loop.time()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def on_board_beat(self, frame: Frame) -> None:
        identity = self._identity()
        if identity is None:
            return
        try:
            info = BeatInfo.decode_payload(frame.payload)
        except MessageError:
            return
        if info.boot_counter != identity.boot_counter:
            self._link.fail(BoardReset(self._link.device, identity.boot_counter, info.boot_counter))
            return
        if info.session != self._session():
            self._link.fail(SessionLost(f"{self._link.device} is in another session (another program opened "
                                        "the port, or the board lost it): reconnect"))
            return
        self._last_board_beat = self._link.loop.time()
        self.flags = info.flags
        self._announced(frame.seq)

    def on_boot(self, frame: Frame) -> None:
        identity = self._identity()
        if identity is None or len(frame.payload) < 4:
            return
        boot = struct.unpack(">I", frame.payload[:4])[0]
        self._link.fail(BoardReset(self._link.device, identity.boot_counter, boot))

    def on_no_session(self, boot_bytes: bytes) -> None:
        """A NAK(NO_SESSION): the board no longer knows the session; `boot_bytes`, its boot counter."""
        identity = self._identity()
        if identity is None:
            return
        if len(boot_bytes) == 4:
            boot = struct.unpack(">I", boot_bytes)[0]
            if boot != identity.boot_counter:
                self._link.fail(BoardReset(self._link.device, identity.boot_counter, boot))
                return
        self._link.fail(SessionLost(f"{self._link.device} no longer knows this session: reconnect"))

    def _beat(self) -> None:
        self._timer = None
        if self._link.failed():
            return
        loop, config = self._link.loop, self._link.config
        now = loop.time()
        if now - self._last_rx > config.link_timeout and not loop_was_held(self._due, now, config.link_timeout):
            silent = int((now - self._last_rx) * 1000)
            self._link.fail(LinkLost(f"{self._link.device}: nothing received for {silent} ms (link lost): "
                                     "check the cable and the board's power"))
            return
        if now - self._last_board_beat > 1.5 * self._board_heartbeat and \
                not loop_was_held(self._due, now, self._board_heartbeat):
            # (a tick late by half a beat: the board's beats may lie unread, held with the loop — a
            # slow Pi's own stall was logged as link trouble, pointing at the cable: a probe)
            self.misses += 1
        self._link.write(encode_frame(Kind.HOST_BEAT, self._ack_point()))
        self._arm()


def loop_was_held(due: float, now: float, timeout: float) -> bool:
    """A link's timer due at `due` ran at `now`, later by more than half its `timeout`: the loop was
    held (a long step, the process stopped) and read nothing meanwhile.  A silence it measured then
    is its own, not the other end's (a simulated board in the same process could not send either):
    the link is judged at the next beat instead, once the other end had time to be heard."""
    return now - due > timeout / 2


class Hold:
    """How long commands held since a LinkLost wait for a reconnection (§3.5): as long as one is
    under way (`reconnecting`), else `hold_for` for one to begin; then `expire` fails them."""

    def __init__(self, link: LinkHooks, *, held: Callable[[], bool], expire: Callable[[], None]) -> None:
        self._link = link
        self._held = held               # commands are held since a LinkLost
        self._expire = expire
        self.reconnectors = 0           # reconnections under way (reconnecting()): commands wait on
        self._timer: asyncio.TimerHandle | None = None

    @contextlib.contextmanager
    def reconnecting(self) -> Iterator[None]:
        self.reconnectors += 1
        self.stop()
        try:
            yield
        finally:
            self.reconnectors -= 1
            self.arm()

    def arm(self) -> None:
        """Commands held since a LinkLost fail with it if no reconnection begins in time."""
        if self._held() and self.reconnectors == 0 and self._timer is None:
            self._timer = self._link.loop.call_later(self._link.config.hold_for, self._expired)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self) -> None:
        self._timer = None
        if self.reconnectors == 0:
            self._expire()
