"""The table's devices: the two boards and the display, opened and handshaken together.

A board that does not answer at the start (a link cut), or whose port is not there yet on a table
that ran before (a USB adapter not back yet), is tried again with back-off; the display is opened
patiently as well, its silence a fault of its own (E22) that the display watch mends.  The display is
opened first, so that while a board is waited for its message line says which, in the words of the
link fault (E23 连接中断 重连中（电机板）): the technician at the table sees what the table waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from dataclasses import dataclass
from typing import AsyncIterator, Awaitable, Callable, Mapping, TypeVar

from drivers.display import Display
from drivers.errors import LinkError, LinkLost, NoResponse, NotASerialPort, PortBusy, PortError, SessionLost
from drivers.link import LinkConfig, SessionRef
from drivers.messages import FaultCode
from drivers.motor import MotorBoard
from drivers.reconnect import Backoff
from drivers.rfid import RfidBoard
from drivers.serial_transport import DEFAULT_BAUDRATE

from .faults import BOARDS_ZH, HINTS
from .presenter import Presenter

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Devices:
    motor: MotorBoard
    rfid: RfidBoard
    display: Display | None = None


@contextlib.asynccontextmanager
async def open_devices(motor: str, rfid: str, display: str | None = None, baudrate: int = DEFAULT_BAUDRATE,
                       sessions: Mapping[str, SessionRef] | None = None, *, patient: bool = False,
                       say: Callable[[str], None] | None = None, hold_acks: bool = False,
                       patient_display: bool | None = None) -> AsyncIterator[Devices]:
    """Open and handshake the boards (and the display, if named); close every one that opened.
    `sessions` are the link sessions a previous run journaled: a board that still holds one goes
    on with it, and hands over what it queued while no controller listened (keys pressed, tiles
    taken during a restart).  `patient`: a board that does not answer yet (a link cut; a port not
    there yet, on a table with journaled sessions) is tried again with back-off, `say` hearing each wait,
    and a display that does not answer is opened all the same (E22 until it does); `patient_display`
    asks that of the display alone (default: as `patient`).
    `hold_acks`: a board's event is acknowledged only once released, its journal write committed
    (TableSession): a controller killed before that gets it again when it resumes the session."""
    opened: list = []
    sessions = sessions or {}
    screen: Display | None = None
    try:
        if display is not None:
            # first, to say on it which board the table waits for (below).  Patient: a display not
            # answering yet is no reason to stop; the display watch latches E22 and paints it once it
            # answers, as when it goes silent later (or opens its port once it is back, on a table
            # that ran before: an adapter not plugged in yet, as for the boards)
            waits = patient if patient_display is None else patient_display
            screen = await Display.open(display, baudrate=baudrate, must_answer=not waits,
                                       may_be_absent=patient and bool(sessions))
        awaited = BoardsAwaited(screen)
        for board, url, source in ((MotorBoard, motor, "motor"), (RfidBoard, rfid, "rfid")):
            opening = lambda: board.open(url, baudrate=baudrate, session=sessions.get(source),  # noqa: E731
                                         config=LinkConfig(hold_acks=hold_acks))
            # a port missing altogether is waited for only on a table that ran before (its ports were there:
            # a USB adapter not back yet); on a first start it is most likely a mistake in the configuration
            retried = _NOT_ANSWERING + ((PortError,) if sessions else ())
            told = functools.partial(_told, say, awaited, source)
            opened.append(await (_open_patiently(opening, retried, told, awaited.look_for_display)
                                 if patient else opening()))
        awaited.answered()
        yield Devices(opened[0], opened[1], screen)
    finally:
        await _close_all((*opened, screen))


async def _close_all(devices: tuple) -> None:
    """Close every device, whatever the closing of the one before did.  A cancellation that came as
    the motor board closed (a run stopped as it ended) left the RFID board's link open, its port held
    and the commands a lost link held waiting for a reconnection that never came; it goes on once all
    are closed.  Any other error of a close is dropped (the device is closed as far as it can be)."""
    stopped: BaseException | None = None
    for device in devices:
        if device is None:
            continue
        try:
            await device.close()
        except Exception:
            pass
        except BaseException as error:        # (a cancellation, a KeyboardInterrupt)
            stopped = stopped or error
    if stopped is not None:
        raise stopped


_NOT_ANSWERING = (NoResponse, LinkLost, SessionLost)


def awaited_line(source: str) -> str:
    """The public message line while the board `source` is waited for at start: the link fault's code
    and words (as its page shows them once the table runs), and which board."""
    return f"{FaultCode.LINK_LOST.label} {HINTS[FaultCode.LINK_LOST].name_zh}（{BOARDS_ZH[source]}）"


class BoardsAwaited:
    """The public display while the boards are waited for at start (none configured: nothing shown)."""

    def __init__(self, display: Display | None) -> None:
        self._display = display
        self._presenter = Presenter(display, lambda side, line, text: None, 0)
        self._waited = False

    def waiting(self, source: str) -> None:
        """Say which board is waited for: the message line, and the main page (the last run may have
        left another up: E25 shown as it exited).  Sent again at every try: the display acknowledges
        nothing, and it may have been powered on meanwhile."""
        self._waited = True
        self._presenter.phase_text(awaited_line(source))
        self._presenter.repaint(("main",))

    async def look_for_display(self) -> None:
        """A display whose port was not there (its adapter not plugged in yet) or died meanwhile is
        opened again before the wait is said once more: the technician reads the wait on it as soon
        as it is back, not only once the boards answer and the table runs."""
        display = self._display
        if display is None or display.failure is None:
            return
        try:
            await display.reopen()
        except PortError:
            return                      # not back yet: looked for again at the next try
        except LinkError as error:      # (opened from a stream, not a URL: nothing to reopen)
            log.debug("the display cannot be opened again while the boards are awaited: %s", error)
            return
        log.warning("the display's port is back while the boards are awaited: the wait is shown on it")

    def answered(self) -> None:
        """Both boards answered: the line cleared for the controller's own (a start that waited for
        none leaves the screen as it was, for the controller to paint).  A touch on the screen while
        it said the wait chose nothing (a finger poking a table that did not answer): dropped, not
        handed to the controller as the menu's button pressed once it runs."""
        if self._waited and self._display is not None:
            self._presenter.phase_text("")
            if self._display.drop_touches():
                log.info("the display was touched while a board was awaited: not taken as a choice")


def _told(say: Callable[[str], None] | None, awaited: BoardsAwaited, source: str, line: str) -> None:
    """A wait for the board `source`: said in the log, shown on the display."""
    if say is not None:
        say(line)
    awaited.waiting(source)


async def _open_patiently(opening: Callable[[], Awaitable[T]], retried: tuple[type[Exception], ...],
                          say: Callable[[str], None] | None, between: Callable[[], Awaitable[None]] | None = None,
                          backoff: Backoff = Backoff(first=0.5, most=5.0)) -> T:
    """`opening()` until a board answers; any error but the `retried` ones (another board on the
    port, a protocol this controller does not speak) is raised at once.  `between`: awaited after a
    try fails, before the wait is said (the display looked for again)."""
    attempt = 0
    while True:
        attempt += 1
        try:
            return await opening()
        except PortBusy:
            raise                   # another controller holds the port: waiting would fight it for the board
        except NotASerialPort:
            raise                   # a file or /dev/null named as the port: no wait mends the configuration
        except retried as error:
            delay = backoff.delay(attempt)
            if between is not None:
                await between()
            if say is not None:
                say(f"{error}: 连接中断 重连中 — trying again in {delay:.1f} s (attempt {attempt})")
            await asyncio.sleep(delay)


__all__ = ["BoardsAwaited", "Devices", "awaited_line", "open_devices"]
