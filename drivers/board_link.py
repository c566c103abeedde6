"""The board side of the framed link: the reference behaviour of the boards' firmware.

The simulator runs it for its virtual boards; a firmware engineer reads it next to
protocol.md §3.  What a board does:

- answers HELLO with IDENT (its own version, even when the host's differs; a session opens only
  when the versions match), and sends BOOT once after power-up; answers a HELLO in frame
  format 1 with a format-1 IDENT, so a version-1 host can name this board's version;
- answers RESUME of the session it holds with IDENT saying RESUMED and where the session stands
  (the next command seq it expects, its oldest held event), changing nothing; a RESUME of any
  other session (after a reboot, or another host's HELLO) is answered NOT_HELD, opening nothing;
- accepts commands strictly in order: the expected one is handed to the application, whose
  status is returned in an ACK carrying the last CMD_WINDOW statuses; an old one is re-acked
  without running it again (exactly once); one from the future is refused with NAK(GAP);
  a damaged frame earns NAK(DAMAGED); a command without a session earns NAK(NO_SESSION, boot);
- numbers its events, keeps up to EVENT_WINDOW of them unacknowledged, queues the rest, and
  resends from any RESEND point.  It never drops an event it holds: a host acknowledges only what
  it made durable, and a restarted host gets every event it had not (protocol.md §3.4).  When the
  queue is full a new event is refused (a key press then does nothing: it is pressed again) and
  the count refused is told in band (EventsDropped) behind the events held;
- sends BOARD_BEAT every heartbeat and, when no valid frame came from the host for the link
  timeout, calls `on_host_lost` (the application stops its motors) until frames come again;
  meanwhile it keeps the session, its sequence numbers and its queued events for a RESUME.
"""

from __future__ import annotations

import asyncio
import struct
from collections import deque
from dataclasses import dataclass
from typing import Callable, Mapping

from .errors import FrameError, MessageError
from .frame import FRAME_FORMAT, Frame, FrameDecoder, Kind, decode_frame, encode_frame
from .frame_v1 import MAX_ENCODED as MAX_ENCODED_V1, decode_frame_v1, encode_frame_v1
from .messages import (CMD_WINDOW, EVENT_WINDOW, BeatInfo, BoardIdentity, EventsDropped, Hello,
                       Message, NakReason, PROTOCOL_VERSION, SessionAnswer, SessionState, Status)
from .link_session import loop_was_held
from .stream import ByteStream

CommandHandler = Callable[[int, bytes], int]

# The kinds met for every frame, bound once (an enum member's lookup is slow).
_ACK, _COMMAND, _EVENT, _EVENT_ACK, _HOST_BEAT, _RESEND = (Kind.ACK, Kind.COMMAND, Kind.EVENT, Kind.EVENT_ACK,
                                                         Kind.HOST_BEAT, Kind.RESEND)


@dataclass(frozen=True)
class BoardLinkConfig:
    heartbeat: float = 0.1
    link_timeout: float = 0.6
    event_window: int = EVENT_WINDOW
    queue_capacity: int = 512
    nak_interval: float = 0.02


@dataclass
class BoardLinkCounters:
    commands: int = 0
    duplicates: int = 0
    naks: int = 0
    events: int = 0
    events_resent: int = 0
    events_refused: int = 0            # not queued: the queue was full (none held is ever dropped)
    host_lost: int = 0
    resumed: int = 0


def _no_flags() -> int:
    return 0


def _nothing() -> None:
    pass


def _read_hello(payload: bytes) -> Hello:
    """A HELLO's payload; one too short for a session still shows its version (byte 0)."""
    try:
        return Hello.decode_payload(payload)
    except MessageError:
        return Hello(payload[0] if payload else 0, 0, 0)


class BoardLink:
    """One board's end of a link.  Create inside a running event loop, then `start()`.

    `version` below 2 plays a board of protocol version 1, frame format and all (the simulator
    uses it to show how a controller refuses an old board)."""

    def __init__(self, stream: ByteStream, *, kind: int, build: str, constants: Mapping[int, int],
                 boot_counter: int, handler: CommandHandler,
                 flags: Callable[[], int] = _no_flags,
                 on_host_lost: Callable[[], None] = _nothing,
                 on_host_back: Callable[[], None] = _nothing,
                 version: int = PROTOCOL_VERSION, config: BoardLinkConfig = BoardLinkConfig()) -> None:
        self.kind = kind
        self.build = build
        self.constants = dict(constants)
        self.boot_counter = boot_counter
        self.version = version
        self.config = config
        self.counters = BoardLinkCounters()
        self._stream = stream
        self._handler = handler
        self._flags = flags
        self._on_host_lost = on_host_lost
        self._on_host_back = on_host_back
        self._loop = asyncio.get_running_loop()
        if version < FRAME_FORMAT:
            self._encode = encode_frame_v1
            self._decoder = FrameDecoder(decode_frame_v1, MAX_ENCODED_V1)
        else:
            self._encode = encode_frame
            self._decoder = FrameDecoder(decode_frame)
        self._beat_handle: asyncio.TimerHandle | None = None
        self._beat_due = 0.0         # when the next beat was due (a late one: `loop_was_held`)
        self._started = False
        self._reset()
        stream.set_receiver(self._on_bytes, self._on_stream_lost)

    def _reset(self) -> None:
        self.session = 0
        self.host_lost = False
        self._rx_next = 0
        self._statuses: deque[int] = deque([0] * CMD_WINDOW, maxlen=CMD_WINDOW)
        self._ev_next = 0
        self._unacked: deque[tuple[int, bytes]] = deque()
        self._queue: deque[tuple[int, bytes]] = deque()
        self._refused = 0
        self._last_rx = self._loop.time()
        self._last_nak = (-1, 0.0)

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Power-up: announce BOOT and start the heartbeat."""
        self._started = True
        self._stream.write(self._encode(Kind.BOOT, 0, 0, struct.pack(">I", self.boot_counter)))
        self._schedule_beat()

    def stop(self) -> None:
        self._started = False
        if self._beat_handle is not None:
            self._beat_handle.cancel()
            self._beat_handle = None

    def reboot(self, boot_counter: int) -> None:
        """The board restarted: RAM (session, sequence numbers, queued events) is gone."""
        self.stop()
        self.boot_counter = boot_counter
        self._reset()
        self._decoder.reset()
        self.start()

    @property
    def unacked_events(self) -> int:
        return len(self._unacked) + len(self._queue)

    # -- events ----------------------------------------------------------------------------------

    def emit(self, message: Message) -> bool:
        """Queue an event for the host; False if it was not: no host session is open, or the queue
        is full (the events held are kept: a host acknowledges only what it made durable)."""
        if not self.session:
            return False
        self.counters.events += 1
        if self._refused:
            self._tell_refused()
        if len(self._queue) >= self.config.queue_capacity:
            self._refused += 1
            self.counters.events_refused += 1
            return False
        self._queue.append((message.ID, message.encode_payload()))
        self._pump()
        return True

    def _tell_refused(self) -> None:
        """Once there is room, the count of events refused goes in their place, behind those held."""
        if self._refused and len(self._queue) < self.config.queue_capacity:
            self._queue.append((EventsDropped.ID, EventsDropped(min(self._refused, 0xFFFF)).encode_payload()))
            self._refused = 0

    def _pump(self) -> None:
        """Send what the window allows; the frames of one burst (a window freed by an ack) go in
        one write, as a UART's transmit buffer would send them back to back."""
        unacked, queue, window = self._unacked, self._queue, self.config.event_window
        if not queue or len(unacked) >= window:
            return
        burst: list[bytes] = []
        while len(unacked) < window and queue:
            msg, payload = queue.popleft()
            seq = self._ev_next
            wire = self._encode(_EVENT, seq, msg, payload)
            unacked.append((seq, wire))
            self._ev_next = (seq + 1) & 0xFF
            burst.append(wire)
        self._stream.write(b"".join(burst))

    def _release(self, ack: int) -> None:
        while self._unacked and 0 < ((ack - self._unacked[0][0]) & 0xFF) < 128:
            self._unacked.popleft()
        self._pump()
        if self._refused:
            self._tell_refused()
            self._pump()

    # -- receiving -------------------------------------------------------------------------------

    def _on_stream_lost(self, exc: Exception | None) -> None:
        pass  # a UART has no "closed": the host may come back; the link timeout handles silence

    def _on_bytes(self, data: bytes) -> None:
        for item in self._decoder.feed(data):
            if isinstance(item, FrameError):
                if self._old_hello(item.chunk):
                    continue
                if self.session:
                    self._nak(NakReason.DAMAGED)
                continue
            self._on_frame(item)

    def _old_hello(self, chunk: bytes) -> bool:
        """A HELLO in frame format 1 (a version-1 host, or a host probing for an old board):
        answer a format-1 IDENT with this board's version; no session opens."""
        if self.version < FRAME_FORMAT or not chunk:
            return False
        try:
            frame = decode_frame_v1(chunk)
        except FrameError:
            return False
        if frame.kind != Kind.HELLO:
            return False
        identity = self._identity(_read_hello(frame.payload).session)
        self._stream.write(encode_frame_v1(Kind.IDENT, 0, 0, identity.encode()))
        return True

    def _on_frame(self, frame: Frame) -> None:
        self._last_rx = self._loop.time()
        if self.host_lost and self.session:
            self.host_lost = False
            self._on_host_back()
        kind = frame.kind
        if kind == _COMMAND:
            self._on_command(frame)
        elif kind == _EVENT_ACK or kind == _HOST_BEAT:
            if self.session:
                self._release(frame.seq)
        elif kind == _RESEND:
            if self.session:
                self._release(frame.seq)
                count = frame.payload[0] if frame.payload else 0
                for index, (_, wire) in enumerate(self._unacked):
                    if count and index >= count:
                        break  # the host already holds the events after the hole
                    self.counters.events_resent += 1
                    self._stream.write(wire)
        elif kind == Kind.HELLO:
            self._on_hello(frame)
        elif kind == Kind.RESUME and self.version >= FRAME_FORMAT:
            self._on_resume(frame)

    def _on_hello(self, frame: Frame) -> None:
        hello = _read_hello(frame.payload)
        state = None
        if hello.version == self.version:
            if hello.session != self.session:
                self._reset()  # a new session; a repeated HELLO of the open session changes nothing
                self.session = hello.session
            state = self._state(SessionAnswer.HELLO)
        self._stream.write(self._encode(Kind.IDENT, 0, 0, self._identity(hello.session, state).encode()))

    def _on_resume(self, frame: Frame) -> None:
        """A host continues the session it had (perhaps another process of it): nothing changes
        here; IDENT tells it where the session stands, and it asks for the events it lacks."""
        hello = _read_hello(frame.payload)
        state = None
        if hello.version == self.version:
            if hello.session and hello.session == self.session:
                self.counters.resumed += 1
                state = self._state(SessionAnswer.RESUMED)
            else:
                state = SessionState(SessionAnswer.NOT_HELD, 0, 0)
        self._stream.write(self._encode(Kind.IDENT, 0, 0, self._identity(hello.session, state).encode()))

    def _state(self, answer: SessionAnswer) -> SessionState:
        oldest = self._unacked[0][0] if self._unacked else self._ev_next
        return SessionState(answer, self._rx_next, oldest)

    def _identity(self, session: int, state: SessionState | None = None) -> BoardIdentity:
        """What IDENT says: this board's own version, whatever the HELLO's, its session id, and
        (for a host of its version) where that session stands."""
        return BoardIdentity(self.version, self.kind, self.boot_counter, session, self._flags(),
                             self.build, self.constants, state)

    def _on_command(self, frame: Frame) -> None:
        if not self.session:
            self._stream.write(self._encode(Kind.NAK, self._rx_next, 0, bytes((NakReason.NO_SESSION,))
                                            + struct.pack(">I", self.boot_counter)))
            return
        behind = (self._rx_next - frame.seq) & 0xFF
        if behind == 0:
            try:
                status = int(self._handler(frame.msg, frame.payload))
            except MessageError:
                status = Status.BAD_PAYLOAD
            except Exception as error:  # the application's bug must not kill the link
                self._loop.call_exception_handler({"message": "board command handler failed",
                                                   "exception": error})
                status = Status.INTERNAL
            self.counters.commands += 1
            self._statuses.appendleft(status)
            self._stream.write(self._encode(_ACK, self._rx_next, 0, bytes(self._statuses)))
            self._rx_next = (self._rx_next + 1) & 0xFF
        elif behind <= 2 * CMD_WINDOW:
            self.counters.duplicates += 1  # its ACK was lost: acknowledge again, do not run again
            self._stream.write(self._encode(Kind.ACK, (self._rx_next - 1) & 0xFF, 0, bytes(self._statuses)))
        else:
            self._nak(NakReason.GAP)

    def _nak(self, reason: int) -> None:
        now = self._loop.time()
        seq, when = self._last_nak
        if seq == self._rx_next and now - when < self.config.nak_interval:
            return
        self._last_nak = (self._rx_next, now)
        self.counters.naks += 1
        self._stream.write(self._encode(Kind.NAK, self._rx_next, 0, bytes((reason,))))

    # -- heartbeat -------------------------------------------------------------------------------

    def _schedule_beat(self) -> None:
        self._beat_due = self._loop.time() + self.config.heartbeat
        self._beat_handle = self._loop.call_later(self.config.heartbeat, self._beat)

    def _beat(self) -> None:
        self._beat_handle = None
        if not self._started:
            return
        now = self._loop.time()
        if self.session and not self.host_lost and now - self._last_rx > self.config.link_timeout \
                and not loop_was_held(self._beat_due, now, self.config.link_timeout):
            self.host_lost = True
            self.counters.host_lost += 1
            self._on_host_lost()
        info = BeatInfo(self.boot_counter, self.session, self._flags())
        self._stream.write(self._encode(Kind.BOARD_BEAT, self._ev_next, 0, info.encode_payload()))
        self._schedule_beat()
