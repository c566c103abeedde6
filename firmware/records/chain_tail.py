"""Where a recorder file's chain ends, read from the file itself.

A restarted controller goes on with the chain from the last run's file.  The journal keeps the
head too, but it is written after the hand's seal reaches the file, so a SIGKILL between the two
leaves the journal one hand behind the file; going on from the journal then broke the chain at the
next file (the audit: "the chain does not go on from …").  What the next file must go on from is what
the last one holds, so it is read from there; the journal's head stays the answer when the file is
gone or says nothing.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from ..hand.state import wall_hash
from .chain import CLEAN_END, HAND_SEAL, START, is_hex_digest, line_hash

CHUNK = 1 << 16


def file_chain_head(path: str | Path) -> str | None:
    """The chain head `path` ends at: the hash of its last `hand_end`, or the `chain` of its last
    `recorder_end` or `recorder_start` if no hand was sealed after it.  None when the file cannot
    be read or holds none of these (a line a kill cut short is not a line)."""
    try:
        for line in lines_from_the_end(Path(path)):
            head = _head_of(line)
            if head is not None:
                return head
    except OSError:
        return None
    return None


def last_sealed_hand(path: str | Path) -> tuple[int, str] | None:
    """The number and wall hash (salt and ring, as its `hand_end` reveals them) of the last hand
    `path` seals; None when it seals none or cannot be read."""
    try:
        for line in lines_from_the_end(Path(path)):
            event = object_of(line)
            if event is not None and event.get("event") == HAND_SEAL:
                try:
                    return int(event["hand"]), wall_hash(str(event["salt"]), event["ring"])
                except (KeyError, TypeError, ValueError):
                    return None
    except OSError:
        return None
    return None


def object_of(line: bytes) -> dict | None:
    """A recorder line's JSON object; None for a damaged line (not UTF-8, not JSON, nested too deep)."""
    try:
        event = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        return None
    return event if isinstance(event, dict) else None


def _head_of(line: bytes) -> str | None:
    event = object_of(line)
    if event is None:
        return None
    name = event.get("event")
    if name == HAND_SEAL:
        return line_hash(line.decode("utf-8"))
    if name in (CLEAN_END, START) and is_hex_digest(event.get("chain")):
        return event["chain"]
    return None


def lines_from_the_end(path: Path):
    """The file's whole lines, last first, read in a window that grows from the end; an unterminated
    last line (a write a kill cut short) is left out.  Only a regular file is read (OSError for any
    other): a run given a named pipe for its recorder left the next start waiting for ever, deaf to
    SIGTERM, for a writer to open it (a probe)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)     # (a pipe opens at once, unread)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(f"{path} is not a regular file")
    with os.fdopen(fd, "rb") as file:
        size = file.seek(0, os.SEEK_END)
        seen = 0                                    # lines already given, counted from the end
        window = CHUNK
        while True:
            start = max(0, size - window)
            file.seek(start)
            lines = file.read(size - start).split(b"\n")
            lines.pop()                             # after the last newline: empty, or cut short
            if start > 0:
                lines.pop(0)                        # may begin before the window
            for line in reversed(lines[:len(lines) - seen]):
                seen += 1
                if line:
                    yield line
            if start == 0:
                return
            window *= 4
