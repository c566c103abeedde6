"""A flight recorder's lines, from memory or read from its file line by line, and what the audit must
know of a whole file before it reads the files in order.

The audit used to read every file whole and keep every line parsed until the end: about 14 times
the files' size (a month of an unrestarted table, a 100 MB recorder, took 1.5 GB, more than a
Pi has).  A recorder on disk (`RecorderOnDisk`) is read a line at a time, and the audit holds one
hand at a time (`stream.walk_stream`).  One file is read once, its `FileFacts` (its malformed lines,
its clock, its chain's two ends, how it ends) gathered as its hands are read; several files are
read twice: once for their facts (their chain's ends give the order to read them in), then in that order.
Nothing here raises on a malformed line: each becomes a finding naming its file and line.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Iterator, Protocol

from .chain import CLEAN_END, HAND_OPENERS, START, ChainState, canonical
from .schema import shape_problem

CRLF = ("its lines end in CR LF (Windows line ends), the recorder writes LF alone: every line's hash differs; "
        "copy recorders as binary files")


class BadInput(Exception):
    """The input is not something the audit can read at all (not a flight recorder, not a ledger)."""


@dataclass(frozen=True)
class Finding:
    """One problem or note: where (`file:line`, or a file, or nothing) and what."""

    where: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text}" if self.where else self.text


@dataclass(frozen=True)
class Line:
    file: str
    number: int
    text: str                   # what the chain hashes: the line as written
    event: dict | None          # None: the line is malformed (and said so once)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.number}"

    @property
    def name(self) -> str | None:
        return None if self.event is None else self.event["event"]


@dataclass(frozen=True)
class FileFacts:
    """What the audit needs of a whole file before it reads the files in their order."""

    malformed: tuple[Finding, ...]
    cut_short: tuple[Finding, ...]          # an unterminated last line, left out (notes, not problems)
    clock: tuple[Finding, ...]              # the table clock going back within the file
    lines: int                              # its lines, malformed ones included (blank ones not)
    begins_hand: bool                       # a hand_start or a resumed among them
    first_hand: int | None                  # the number of the first hand it begins or resumes
    links: tuple[str, str] | None           # the chain head it goes on from and the one it leaves (None: no
    last_where: str | None                  # recorder_start first); where its last line is
    ends_cleanly: bool                      # its last line is recorder_end


class Recorder(Protocol):
    """A recorder file as the audit reads it: its facts, then its lines in order (as often as asked)."""

    @property
    def name(self) -> str: ...

    @property
    def facts(self) -> FileFacts: ...

    def each_line(self) -> Iterator[Line]: ...


@dataclass(frozen=True)
class RecorderFile:
    """A recorder held in memory (a test's log, a hand's page)."""

    name: str
    lines: tuple[Line, ...]
    malformed: tuple[Finding, ...]
    cut_short: tuple[Finding, ...] = ()     # an unterminated last line, left out (notes, not problems)

    def events(self) -> list[Line]:
        return [line for line in self.lines if line.event is not None]

    def each_line(self) -> Iterator[Line]:
        return iter(self.lines)

    @property
    def ends_cleanly(self) -> bool:
        return self.facts.ends_cleanly

    @cached_property
    def facts(self) -> FileFacts:
        walk = _FactsWalk()
        for line in self.lines:
            walk.line(line)
        return walk.facts(self.malformed, self.cut_short)


def read_recorder(name: str, data: bytes) -> RecorderFile:
    """Split a file into lines; each malformed one becomes a finding naming its line.  Raises
    BadInput when not a single line is an event (the file is not a flight recorder)."""
    lines: list[Line] = []
    malformed: list[Finding] = []
    raws = data.split(b"\n")
    cut_short = _cut_short(name, len(raws), raws.pop())     # after the last newline: empty, or cut short
    for line, problem in _lines(name, raws):
        lines.append(line)
        if problem is not None:
            malformed.append(problem)
    _refuse_no_event(name, any(line.event is not None for line in lines), malformed)
    if b"\r\n" in data:                    # the chain's problems that follow would not say why
        malformed.insert(0, Finding(name, CRLF))
    return RecorderFile(name, tuple(lines), tuple(malformed), cut_short)


def recorder_from_events(name: str, events: Iterable[dict]) -> RecorderFile:
    """Events already parsed (a test's log): numbered from 1, hashed as the recorder writes them."""
    lines: list[Line] = []
    malformed: list[Finding] = []
    for number, event in enumerate(events, start=1):
        problem = shape_problem(event)
        text = canonical(event) if isinstance(event, dict) else json.dumps(event)
        if problem is not None:
            malformed.append(Finding(f"{name}:{number}", problem))
        lines.append(Line(name, number, text, None if problem else event))
    return RecorderFile(name, tuple(lines), tuple(malformed))


# -- a recorder on disk, read a line at a time -------------------------------------------------------------


class RecorderOnDisk:
    """A recorder file read a line at a time, never held whole.  Its first read (of its lines, or of its
    facts alone) learns its facts; a read after it stops where that one did (the table may be writing
    on at its end) and must find the same bytes.  A file that cannot be read, or holds no event at
    all, is BadInput (at the end of the first read).  A pipe (`audit <(zcat old.jsonl.gz) new.jsonl`)
    can be read only once: when its facts are read first (as several files' are), its lines are held."""

    def __init__(self, path: str) -> None:
        self.name = path
        self._facts: FileFacts | None = None
        self._size = 0                      # the bytes the first read read
        self._digest = ""                   # and their SHA-256
        self._held: tuple[Line, ...] | None = None      # a pipe's lines, read with its facts

    @property
    def facts(self) -> FileFacts:
        if self._facts is None:
            for _ in self._first_read(hold=True):
                pass
        assert self._facts is not None
        return self._facts

    def each_line(self) -> Iterator[Line]:
        if self._facts is None:
            return self._first_read(hold=False)
        return iter(self._held) if self._held is not None else self._read_again()

    def _first_read(self, hold: bool) -> Iterator[Line]:
        read = _Bytes()
        walk = _FactsWalk()
        malformed: list[Finding] = []
        held: list[Line] = []
        try:
            with open(self.name, "rb") as handle:
                hold = hold and not stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
                for line, problem in _lines(self.name, read.terminated(handle)):
                    walk.line(line)
                    if problem is not None:
                        malformed.append(problem)
                    if hold:
                        held.append(line)
                    yield line
        except OSError as error:
            raise BadInput(f"cannot read {self.name} ({error.strerror})") from None
        _refuse_no_event(self.name, walk.any_event, malformed)
        if read.crlf:                       # the chain's problems that follow would not say why
            malformed.insert(0, Finding(self.name, CRLF))
        self._facts = walk.facts(tuple(malformed), _cut_short(self.name, read.count + 1, read.tail))
        self._size, self._digest = read.size, read.digest.hexdigest()
        self._held = tuple(held) if hold else None

    def _read_again(self) -> Iterator[Line]:
        read = _Bytes(self._size)
        try:
            with open(self.name, "rb") as handle:
                yield from (line for line, _ in _lines(self.name, read.terminated(handle)))
        except OSError as error:
            raise BadInput(f"cannot read {self.name} ({error.strerror}) while it was audited; audit it again") from None
        if read.size != self._size or read.digest.hexdigest() != self._digest:
            raise BadInput(f"{self.name} changed while it was audited (it is not as it was read first: was it copied "
                           "over, or cut?); audit it again")


@dataclass
class _Bytes:
    """A file's bytes read line by line (up to `limit`), hashed and counted as they go."""

    limit: int | None = None
    size: int = 0
    count: int = 0                          # the lines ended by a newline
    crlf: bool = False
    tail: bytes = b""                       # what follows the last newline
    digest: Any = field(default_factory=hashlib.sha256)      # (a hashlib hash: its type is not public)

    def terminated(self, handle) -> Iterator[bytes]:
        """The lines ended by a newline, without it; the rest is kept as `tail`."""
        for raw in handle:
            if self.limit is not None and self.size + len(raw) > self.limit:
                raw = raw[:self.limit - self.size]
            self.size += len(raw)
            self.digest.update(raw)
            if not raw.endswith(b"\n"):
                self.tail = raw
                return
            self.count += 1
            self.crlf = self.crlf or raw.endswith(b"\r\n")
            yield raw[:-1]
            if self.size == self.limit:
                return


# -- lines and the facts of a file ---------------------------------------------------------------------


def _lines(name: str, raws: Iterable[bytes]) -> Iterator[tuple[Line, Finding | None]]:
    """Each line that is not blank, numbered as in the file, with what is wrong with it if anything."""
    for number, raw in enumerate(raws, start=1):
        if not raw.strip():
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield Line(name, number, raw.decode("utf-8", "replace"), None), Finding(f"{name}:{number}", "not UTF-8 text")
            continue
        event, problem = _parse(text)
        yield Line(name, number, text, event), None if problem is None else Finding(f"{name}:{number}", problem)


def _parse(text: str) -> tuple[dict | None, str | None]:
    try:
        event = json.loads(text)
    except json.JSONDecodeError as error:
        return None, f"not JSON ({error.msg} at column {error.colno})"
    except RecursionError:
        return None, "not JSON (nested too deep)"
    problem = shape_problem(event)
    return (None, problem) if problem else (event, None)


def _refuse_no_event(name: str, any_event: bool, malformed: list[Finding]) -> None:
    if malformed and not any_event:
        raise BadInput(f"{malformed[0]}; is {name} a flight recorder?")


def _cut_short(name: str, number: int, tail: bytes) -> tuple[Finding, ...]:
    """What follows a file's last newline: nothing, or a line a kill or a power cut stopped while it
    was written (the kernel writes a page at a time).  Not a line: the chain that follows leaves it
    out too (`chain_tail.file_chain_head`), as it leaves out the lines a kill kept from the file."""
    if not tail.strip():
        return ()
    return (Finding(f"{name}:{number}", f"its last line ({len(tail)} bytes) has no end: a write cut short by a "
                                        "kill or a power cut, left out"),)


class _FactsWalk:
    """A file's facts gathered a line at a time."""

    def __init__(self) -> None:
        self.lines = 0
        self.any_event = False
        self.begins_hand = False
        self.first_hand: int | None = None
        self.start: str | None = None
        self.chain: ChainState | None = None
        self.clock: list[Finding] = []
        self.last_t: float | None = None
        self.last: Line | None = None

    def line(self, line: Line) -> None:
        name, event = line.name, line.event
        if self.lines == 0 and name == START:
            self.start = event["chain"]                       # type: ignore[index]
            self.chain = ChainState(self.start)
        self.lines += 1
        self.last = line
        if self.chain is not None:
            self.chain.add(line.text, name)
        if event is None:
            return
        self.any_event = True
        if name in HAND_OPENERS and not self.begins_hand:
            self.begins_hand, self.first_hand = True, event["hand"]
        t = event["t"]
        if self.last_t is not None and t < self.last_t:       # the table clock never goes back within one run
            self.clock.append(Finding(line.where, f"the table clock goes back from {self.last_t} to {t}"))
        self.last_t = t

    def facts(self, malformed: tuple[Finding, ...], cut_short: tuple[Finding, ...]) -> FileFacts:
        links = None if self.start is None or self.chain is None else (self.start, self.chain.head)
        last = self.last
        return FileFacts(malformed, cut_short, tuple(self.clock), self.lines, self.begins_hand, self.first_hand,
                         links, None if last is None else last.where, last is not None and last.name == CLEAN_END)


__all__ = ["BadInput", "FileFacts", "Finding", "Line", "Recorder", "RecorderFile", "RecorderOnDisk",
           "read_recorder", "recorder_from_events"]
