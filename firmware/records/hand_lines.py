"""A finished hand's flight-recorder lines, gathered from the files of the runs that played it.

A run writes a file of its own, and a session outlives a restart: a hand begun in one run and
settled in the next has its `hand_start` and its first takes in one file and its `resumed` and its
end in the next (or in several, after several restarts).  The hand's journal lists the files its
runs wrote, and the ledger keeps the list: the lines are read from those files in that order
(`listed_hand_lines`).  A ledger older than the list keeps only the file of the run that settled
the hand; the lines are read from it and, while they begin at a `resumed`, from the files before it
in the same folder, newest first (`hand_lines`: by their names, the start time — which a Pi without
a clock of its own can set back, hence the list).  A file's lines count only from an opener
(`hand_start` or `resumed`) carrying the hand's wall hash: a number shared by a hand of another
session, or a file another run wrote over, adds nothing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, BinaryIO, Iterator, Sequence

from .chain import HAND_OPENERS

EARLIER_FILES = 50          # at most this many earlier files are read for one hand (a restart each)


class RecorderUnreadable(Exception):
    """A recorder file could not be read, or a line of it is not JSON (the message names the file)."""


def hand_lines(settled_in: Path, number: int, wall_hash: str) -> list[dict[str, Any]]:
    """The hand's lines in order, from its opening (`hand_start`, or the earliest `resumed` the
    folder still holds) to its end; empty if no file holds an opener of this very hand."""
    lines: list[dict[str, Any]] = []
    for path in _settled_then_earlier(settled_in):
        # in the settling run's file, lines before any opener are this hand's: one voided as it was
        # resumed (its walls no longer matched) ends with no `resumed` before its `hand_void`
        found = _lines_in(path, number, wall_hash, leading=path == settled_in)
        lines = found + lines
        if lines and lines[0]["event"] == "hand_start":
            break
    return lines


def listed_hand_lines(files: Sequence[Path], number: int, wall_hash: str) -> list[dict[str, Any]]:
    """The hand's lines from the files its runs wrote, oldest first (the last one settled it); a
    file that is gone adds nothing, so the page then begins at a `resumed`."""
    once = [path for i, path in enumerate(files) if i == 0 or path != files[i - 1]]   # `--events FILE` again
    lines: list[dict[str, Any]] = []
    for path in once:
        try:
            lines += _lines_in(path, number, wall_hash, leading=path == once[-1])
        except RecorderUnreadable:
            if path.exists():
                raise
    return lines


def _settled_then_earlier(settled_in: Path) -> Iterator[Path]:
    yield settled_in
    try:
        earlier = sorted((p for p in settled_in.parent.glob("*.jsonl") if p.name < settled_in.name), reverse=True)
    except OSError:
        return
    yield from earlier[:EARLIER_FILES]


def _lines_in(path: Path, number: int, wall_hash: str, leading: bool = False) -> list[dict[str, Any]]:
    """This hand's lines in one file: those of `number` from an opener with its wall hash on (and,
    with `leading`, those before the file's first opener of `number`)."""
    try:
        with open(path, "rb") as handle:
            raw = _numbered_lines(handle, number)
    except OSError as error:
        raise RecorderUnreadable(f"cannot read its recorder {path.name} ({error.strerror})") from None
    lines = [line.decode("utf-8", "replace") for line in raw]
    if lines and not lines[-1].endswith("\n"):
        lines.pop()                         # the file's last line, cut short by a kill (the audit notes it)
    try:
        events = [json.loads(line) for line in lines]
    except json.JSONDecodeError:
        raise RecorderUnreadable(f"its recorder {path.name} is damaged (a line is not JSON)") from None
    ours, out = leading, []
    for event in events:
        if event.get("hand") != number:
            continue
        if event.get("event") in HAND_OPENERS:
            ours = event.get("wall_hash") == wall_hash
        if ours:
            out.append(event)
    return out


# Every line begins `{"event":…,"t":…,"hand":N,` (FlightRecorder.emit), and a run's file numbers its
# hands in the order they were played, never back (a restart writes a new file): so the hand's place
# in a file is found by halving, not by reading the file.  A table left on for a month writes one file
# of ~100 MB, and its hands' pages read all of it (1 s on a PC for a hand of a 55 MB file; a Pi is slower).
HAND_NUMBER = re.compile(rb'\{"event":"[^"]*","t":[^,]*,"hand":([0-9]+)[,}]')
NEAR = 1 << 16              # halving stops this close to the hand's first line: the rest is read


def _numbered_lines(handle: BinaryIO, number: int) -> list[bytes]:
    """The lines of the file carrying `"hand":number` (a line cut short at the end included).  A file
    whose lines do not say their hand as the recorder writes them is read whole."""
    needle = re.compile(rb'"hand":%d[,}]' % number)      # a line written otherwise: the JSON then decides
    start = _before_hand(handle, number)
    handle.seek(start or 0)
    if start:
        handle.readline()                   # a line begun before `start`: of an earlier hand, or of none
    found = []
    for line in handle:
        hand = _hand_of(line)
        if start is not None and hand is not None and hand > number:
            break                           # the next hand has begun: none of this one's lines follow
        if hand == number or (hand is None and needle.search(line)):
            found.append(line)
    return found


def _before_hand(handle: BinaryIO, number: int) -> int | None:
    """An offset at or before the hand's first line, and close to it; None when the file cannot be
    halved (a line that does not say its hand as the recorder writes it)."""
    handle.seek(0, 2)
    lo, hi = 0, handle.tell()
    while hi - lo > NEAR:
        middle = (lo + hi) // 2
        handle.seek(middle)
        handle.readline()
        seen = _next_hand(handle)
        if seen is False:
            return None
        if seen is None or seen >= number:
            hi = middle
        else:
            lo = middle
    return lo


def _next_hand(handle: BinaryIO) -> int | None | bool:
    """The number of the next line of a hand (not 0), None at the end, False if a line is not the recorder's."""
    for line in handle:
        hand = _hand_of(line)
        if hand is None:
            return None if not line.endswith(b"\n") else False
        if hand:
            return hand
    return None


def _hand_of(line: bytes) -> int | None:
    found = HAND_NUMBER.match(line)
    return int(found.group(1)) if found else None


__all__ = ["RecorderUnreadable", "hand_lines", "listed_hand_lines"]
