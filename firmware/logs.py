"""Python `logging` for a person: the terminal, or systemd's journal.

`run` configures it for the length of the command (`configured`); the lines themselves come from
the table (firmware/table_log.py) and from wherever a module logs.  Two shapes:

- **Under systemd** (`$JOURNAL_STREAM` naming our stream, or `$INVOCATION_ID`): plain lines, each
  prefixed with its syslog priority (`<3>` error, `<4>` warning, `<6>` info, `<7>` debug), which
  journald reads as the line's level (`SyslogLevelPrefix=`, on by default) and strips; no time
  stamp, journald adds its own.  `journalctl -u mahjong-table -p warning` then shows the faults.
- **In a terminal**: one short line per phase, with the time: `12:03:04 hand 3 · 配牌 dealing`;
  warnings and errors say so first (`12:03:09 error: E01 …`).

Lines a command prints on stderr under systemd get a priority too (`journal_stderr`, set up for
every command by firmware/cli): error, unless they carry one.

Lines are written to the stream the command's other human lines go to (stdout, or stderr when the
recorder writes JSON Lines to stdout), looked up at each line so a replaced stream is followed.
Only the loggers under `firmware` and `drivers` are configured, and only while the command runs:
nothing is left behind in the process (two tables, or many tests, share it).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import threading
from typing import Callable, Iterator, Mapping, TextIO

LEVELS: dict[str, int] = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
                          "error": logging.ERROR}
DEFAULT_LEVEL = "info"
NAMESPACES = ("firmware", "drivers")

# syslog(3) priorities, as journald reads them from a "<N>" prefix (sd-daemon(3)).
PRIORITIES = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))
DEBUG_PRIORITY = 7


def priority(levelno: int) -> int:
    """The syslog priority of a logging level (a level between two takes the lower one's)."""
    return next((prio for level, prio in PRIORITIES if levelno >= level), DEBUG_PRIORITY)


def under_journal(environ: Mapping[str, str], stream: TextIO) -> bool:
    """Whether lines written to `stream` reach systemd's journal.

    systemd.exec(5): `$JOURNAL_STREAM` is "device:inode" of the journal stream the service's
    stdout/stderr are connected to; a process compares it with its own stream.  `$INVOCATION_ID`
    is set for every unit: output with no JOURNAL_STREAM to compare goes to the journal by default.
    """
    named = environ.get("JOURNAL_STREAM", "")
    if named:
        try:
            status = os.fstat(stream.fileno())
        except (AttributeError, OSError, ValueError):     # not a real file (a test's capture)
            return True
        return named == f"{status.st_dev}:{status.st_ino}"
    return bool(environ.get("INVOCATION_ID"))


class JournalFormatter(logging.Formatter):
    """`<N>message`, every line of a record prefixed (a traceback is several lines)."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines() or [""])


_PRIORITISED = re.compile(r"<[0-7]>")
_LINES = re.compile(r"[^\n]*\n|[^\n]+")


class PrioritisedStream:
    """A stream to the journal whose every line starts with a syslog priority: a line that has none
    (a `print` of an error, a traceback) gets `default`'s.  journald would file it at info, and
    `journalctl -p warning` would hide why the table stopped.  Anything else is the stream's."""

    def __init__(self, stream: TextIO, default: int) -> None:
        self._stream = stream
        self._default = default
        self._at_line_start = True
        self._lock = threading.Lock()         # the recorder's thread and the loop may both write

    def write(self, text: str) -> int:
        with self._lock:
            self._stream.write("".join(self._prioritised(piece) for piece in _LINES.findall(text)))
        return len(text)

    def _prioritised(self, piece: str) -> str:
        marked = piece if not self._at_line_start or _PRIORITISED.match(piece) else f"<{self._default}>{piece}"
        self._at_line_start = piece.endswith("\n")
        return marked

    def at(self, levelno: int) -> "PrioritisedStream":
        """The same stream, its unmarked lines at `levelno`'s priority (`run`'s banner on stderr is info)."""
        return PrioritisedStream(self._stream, priority(levelno))

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def at_level(stream: TextIO, levelno: int) -> TextIO:
    """`stream` writing its unmarked lines at `levelno` under the journal; itself in a terminal."""
    return stream.at(levelno) if isinstance(stream, PrioritisedStream) else stream


@contextlib.contextmanager
def journal_stderr(environ: Mapping[str, str] | None = None) -> Iterator[None]:
    """Under systemd, sys.stderr gives each line it carries a priority: error unless the line says
    otherwise (a log line's own, or `at_level`'s).  The one place a command's stderr is marked, so
    no `print` of an error can reach the journal at info.  Undone afterwards."""
    env = os.environ if environ is None else environ
    original = sys.stderr
    if original is None or isinstance(original, PrioritisedStream) or not under_journal(env, original):
        yield
        return
    sys.stderr = PrioritisedStream(original, priority(logging.ERROR))  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stderr = original


class TerminalFormatter(logging.Formatter):
    """`HH:MM:SS message`; a level above info (or debug) is named before the message."""

    def __init__(self) -> None:
        super().__init__(datefmt="%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        level = "" if record.levelno == logging.INFO else f"{record.levelname.lower()}: "
        return f"{self.formatTime(record, self.datefmt)} {level}{text}"


class _FollowingHandler(logging.StreamHandler):
    """A stream handler that asks for its stream at every record (sys.stdout may be replaced)."""

    def __init__(self, stream: Callable[[], TextIO]) -> None:
        super().__init__(stream())
        self._stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = self._stream()
        super().emit(record)


class Repeats:
    """A warning about a condition that lasts (a loop held again and again, a card that keeps slowing):
    said at once, then at most once every `quiet_s`, with how many more came meanwhile and the worst
    of them — a slow Pi warned five times a second, and the other warnings drowned (a probe)."""

    def __init__(self, quiet_s: float, worst: Callable[[float], str]) -> None:
        self.quiet_s = quiet_s
        self._worst = worst                   # the worst held back, as the warning words it
        self._said_at: float | None = None
        self._unsaid: list[float] = []

    def say(self, value: float, now: float) -> str | None:
        """None while quiet (`value` counted); else what the warning adds: nothing the first time, how
        many more since the last one and the worst of them after."""
        if self._said_at is not None and now - self._said_at < self.quiet_s:
            self._unsaid.append(value)
            return None
        more = (f"; {len(self._unsaid)} more since the last such warning, {self._worst(max(self._unsaid))}"
                if self._unsaid else "")
        self._said_at, self._unsaid = now, []
        return more


def parse_level(name: str) -> int:
    """A level from its name ('debug', 'info', 'warning', 'error'); ValueError naming the choices."""
    try:
        return LEVELS[name.lower()]
    except KeyError:
        raise ValueError(f"no log level {name!r}; choose one of {', '.join(LEVELS)}") from None


@contextlib.contextmanager
def configured(level: str = DEFAULT_LEVEL, stream: Callable[[], TextIO] = lambda: sys.stdout,
               environ: Mapping[str, str] | None = None) -> Iterator[logging.Handler]:
    """Log the `firmware` and `drivers` loggers at `level` to `stream()` while the body runs,
    as journal lines under systemd and terminal lines otherwise; undone afterwards."""
    env = os.environ if environ is None else environ
    handler = _FollowingHandler(stream)
    handler.setFormatter(JournalFormatter() if under_journal(env, stream()) else TerminalFormatter())
    number = parse_level(level)
    loggers = [logging.getLogger(name) for name in NAMESPACES]
    before = [(logger, logger.level, logger.propagate) for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(number)
        logger.propagate = False          # one line per record, whatever the root logger does
    try:
        yield handler
    finally:
        for logger, old_level, old_propagate in before:
            logger.removeHandler(handler)
            logger.setLevel(old_level)
            logger.propagate = old_propagate


__all__ = ["DEFAULT_LEVEL", "JournalFormatter", "LEVELS", "PrioritisedStream", "TerminalFormatter", "at_level",
           "configured", "journal_stderr", "parse_level", "priority", "under_journal"]
