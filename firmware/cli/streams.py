"""stdout and stderr that go quiet once their reader has gone (`run … | head -1`).

A Unix tool whose pipe closes stops writing without a word.  Python raises BrokenPipeError at
each later write instead: the logging module printed `--- Logging error ---` and a traceback for
every line after the first, and a `print` in the middle of a run could end it.  The table goes on
(the recorder and the ledger keep everything); only the lines nobody can read any more are dropped.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Iterator, TextIO


class QuietOnClosedPipe:
    """A text stream whose writes and flushes are dropped once its pipe has no reader."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._closed_pipe = False

    def write(self, text: str) -> int:
        if not self._closed_pipe:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._reader_gone()
        return len(text)

    def flush(self) -> None:
        if not self._closed_pipe:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._reader_gone()

    def _reader_gone(self) -> None:
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


@contextlib.contextmanager
def quiet_when_closed() -> Iterator[None]:
    """sys.stdout and sys.stderr quiet once their pipe closes, while the body runs."""
    before = sys.stdout, sys.stderr
    if before[0] is not None:                      # (None: a process started without the stream)
        sys.stdout = QuietOnClosedPipe(before[0])  # type: ignore[assignment]
    if before[1] is not None:
        sys.stderr = QuietOnClosedPipe(before[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = before


__all__ = ["QuietOnClosedPipe", "quiet_when_closed"]
