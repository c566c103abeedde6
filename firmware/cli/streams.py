"""stdout and stderr that go quiet once their reader has gone (`run … | head -1`).

A Unix tool whose pipe closes stops writing without a word.  Python raises BrokenPipeError at
each later write instead: the logging module printed `--- Logging error ---` and a traceback for
every line after the first, and a `print` in the middle of a run could end it.  The table goes on
(the recorder and the ledger keep everything); only the lines nobody can read any more are dropped.

Output that cannot be written for another reason (`… > /dev/full`, a full card, an I/O error) is not
dropped without a word: the write raises `OutputLost`, which the command line says in one line.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import sys
import termios
from typing import Iterator, TextIO


class OutputLost(OSError):
    """The command's output (stdout) refused a write for another reason than a reader gone: a full
    disk, an I/O error.  An OSError still, so code that handles its own write errors sees one."""


class QuietOnClosedPipe:
    """A text stream whose writes and flushes are dropped once its pipe has no reader; with
    `is_output`, any other write error is raised as `OutputLost`."""

    def __init__(self, stream: TextIO, is_output: bool = False) -> None:
        self._stream = stream
        self._closed_pipe = False
        self._is_output = is_output

    def write(self, text: str) -> int:
        if not self._closed_pipe:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
            except OSError as error:
                self._refused(error)
        return len(text)

    def flush(self) -> None:
        if not self._closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()
            except OSError as error:
                self._refused(error)

    def _refused(self, error: OSError) -> None:
        if not self._is_output:
            raise error
        self.silence()          # (the interpreter's last flush would fail again, with a traceback)
        raise OutputLost(error.errno, error.strerror) from None

    def _reader_gone(self) -> None:
        self.silence()

    def silence(self) -> None:
        """Stop writing; the descriptor goes to /dev/null so the interpreter's last flush, and any
        process writing to it directly, is quiet too (as Python's documentation advises)."""
        self._closed_pipe = True
        with contextlib.suppress(AttributeError, OSError, ValueError):
            fd = self._stream.fileno()
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, fd)
            os.close(null)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def terminal_gone() -> None:
    """Standard output and error, where they are a terminal that hung up (closed: an SSH session
    dropped), to /dev/null: every write to it fails with EIO, and the stop in order must not stop at
    a line it says.  (A hung-up terminal is no tty to `isatty` any more: its ioctl fails with EIO.)"""
    for fd in (1, 2):
        try:
            termios.tcgetattr(fd)
        except termios.error as error:
            if error.args[0] != errno.EIO:
                continue                # not a terminal (a file, a pipe, the journal): left as it is
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, fd)
                os.close(null)


def hangup_stops() -> bool:
    """Whether a hangup (SIGHUP) stops the program in order: not when it was started to ignore
    hangups (`nohup`, a supervisor that sets it so): that wish is kept, never overridden by a handler
    of ours (checked before any is installed, and none is then, so it stays true to the start)."""
    return signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN


def stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that stop a program in order besides Ctrl-C: SIGTERM, and a hangup (its terminal
    closed, an SSH session dropped: killed by it, a table stopped as a power cut does, its recorder
    without its clean end) unless hangups were ignored at start (`hangup_stops`)."""
    return (signal.SIGTERM, signal.SIGHUP) if hangup_stops() else (signal.SIGTERM,)


def stop_signal_heard(name: str) -> str:
    """A stop signal's name, as a stop hears it; after a hangup (SIGHUP) the terminal is no longer
    written to (`terminal_gone`)."""
    if name == "SIGHUP":
        terminal_gone()
    return name


@contextlib.contextmanager
def quiet_when_closed() -> Iterator[None]:
    """sys.stdout and sys.stderr quiet once their pipe closes, while the body runs."""
    before = sys.stdout, sys.stderr
    if before[0] is not None:                      # (None: a process started without the stream)
        sys.stdout = QuietOnClosedPipe(before[0], is_output=True)  # type: ignore[assignment]
    if before[1] is not None:
        sys.stderr = QuietOnClosedPipe(before[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = before


__all__ = ["OutputLost", "QuietOnClosedPipe", "hangup_stops", "quiet_when_closed", "stop_signal_heard", "stop_signals",
           "terminal_gone"]
