"""The flight recorder: one JSON object a line for every event of the table.

Each line has `event`, `t` (seconds on the table clock) and `hand` (0 outside a hand).  The stream
is written live, so it must never reveal a hidden tile: `take` events carry no tile, a private
indicator's tile stays null until `hand_end`, and the whole wall (with the salt that proves
`wall_hash`) appears only in `hand_end`.  `check_public` enforces this on every event before it
is written, so a bug elsewhere cannot leak the wall.

The lines are bound by a hash chain (`chain.py`): the recorder opens with `recorder_start`, adds
`prev` to `hand_start`/`resumed` and `digest` to `hand_end`, and a clean stop writes `recorder_end`
(`close_cleanly`).  `chain_head()` is what a restarted controller passes back as `chain=` so the
next file continues the chain.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, TextIO, runtime_checkable

from .chain import CLEAN_END, GENESIS, HAND_SEAL, START, ChainState, canonical, is_hex_digest

PUBLIC_TILE_EVENTS = {"hand_end", "win", "indicator", "fault", "enroll", "set_check"}


class SecretLeak(Exception):
    """An event would have revealed a hidden tile before the hand ended."""


def check_public(event: dict[str, Any]) -> None:
    """Refuse an event that carries hidden tiles in the live stream."""
    name = event["event"]
    if name in ("take", "put_back") and ("tile" in event or "uid" in event):
        raise SecretLeak("a take event must not name the tile taken")
    if name == "indicator" and not event.get("public", True) and (event.get("tile") is not None or event.get("wilds") is not None):
        raise SecretLeak("a private indicator's tile and wilds stay hidden until hand_end")
    if name != "hand_end" and ("salt" in event or _is_wall(event.get("ring"))):
        raise SecretLeak(f"the wall and its salt appear only in hand_end, not in {name}")


def _is_wall(value: Any) -> bool:
    """The whole wall is a list of [top, bottom] pairs; a ring *index* (or list of them) is not."""
    return isinstance(value, list) and any(isinstance(item, list) for item in value)


@runtime_checkable
class RecorderFiles(Protocol):
    """A recorder's lines going to one file after another (firmware/cli/events_file.py's
    `EventsFolder`): a table left on for days begins a file a day, so the days before can be moved
    off the card (`records move`) without a restart."""

    def due(self) -> bool:
        """Whether the next file is due (a later day than the file now was begun on)."""

    def next_file(self) -> str:
        """Close the file now (its lines written) and go on in the next one; its name.  Blocking:
        on the store's thread, behind the lines of the file before."""


class FlightRecorder:
    """Writes events to a text stream (a file opened by the caller) and to live listeners.

    Every event carries the number of the hand open at the time (`open_hand` … `close_hand`),
    0 outside a hand: one place decides it, whoever emits.  `chain` is the head of the chain this
    recorder continues (`chain_head()` of the previous run's recorder; a fresh table starts from
    `GENESIS`).  The first event written is preceded by `recorder_start` (so listeners hear it too).
    """

    def __init__(self, sink: TextIO | None, clock: Callable[[], float], chain: str = GENESIS,
                 version: str | None = None) -> None:
        if not is_hex_digest(chain):
            raise ValueError(f"the recorder's chain head must be 64 hex digits (a chain_head()), not {chain!r}")
        self._sink = sink
        self._clock = clock
        # `recorder_start` says which version of the controller wrote the file: an audit by a later
        # version that reads a hand otherwise sends its reader to that one (firmware/records/audit_reading.py)
        self._start_fields = {} if version is None else {"version": version}
        self._chain = ChainState(chain)
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._since_end = 0             # lines written since the last recorder_end
        self._in_file = 0               # lines written in this file (its first is its recorder_start)
        self.events_written = 0
        self.hands_ended = 0            # in this file
        self.hand = 0

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> None:
        self._listeners.append(listener)

    def open_hand(self, number: int) -> None:
        self.hand = number

    def close_hand(self) -> None:
        self.hand = 0

    def hold_lines(self) -> None:
        """Keep the lines back until `release_lines` (a sink that cannot hold writes at once)."""
        hold = getattr(self._sink, "hold", None)
        if hold is not None:
            hold()

    def release_lines(self, keep_holding: bool = True) -> None:
        release = getattr(self._sink, "release", None)
        if release is not None:
            release(keep_holding)

    def _sync(self) -> None:
        """A hand's end (or the file's) on the card itself, not only in the kernel's cache: a power
        cut or an ext4 error kept the ledger's hand and lost every line of it (a probe: the file
        0 bytes, and the audit of what was left called it sound).  One sync a hand, off the loop."""
        sync = getattr(self._sink, "sync", None)
        if sync is not None:
            sync()

    def lines_owed(self) -> bool:
        """Lines the sink could not write yet (a full card): none for a sink that cannot tell."""
        owed = getattr(self._sink, "owed", None)
        return bool(owed is not None and owed())

    def continue_chain(self, head: str) -> None:
        """Go on from the chain of a previous run (the journal kept its head); before any event only."""
        if self.events_written:
            raise RuntimeError("a recorder continues a chain before its first event, not after")
        if not is_hex_digest(head):
            raise ValueError(f"the recorder's chain head must be 64 hex digits (a chain_head()), not {head!r}")
        self._chain = ChainState(head)

    def chain_head(self) -> str:
        """The hash of the last hand_end written (or the chain this recorder started from)."""
        return self._chain.head

    def close_cleanly(self) -> dict[str, Any] | None:
        """Write `recorder_end` (the chain head, the hands ended, the open hand if any): the file
        ends cleanly.  Nothing is written if nothing was written since the last `recorder_end`."""
        if self._since_end == 0 and self._in_file:
            return None
        return self._clean_end()

    def end_file(self) -> dict[str, Any]:
        """End this file cleanly for the next one (a table left on begins a file a day): its
        `recorder_end` says `continued` (the table plays on in the next file), and the next line
        written is the next file's `recorder_start`, going on from this chain's head, as a restarted
        controller's file does.  The caller moves the sink to the next file behind this line."""
        record = self._clean_end(continued=True)
        self._in_file = 0
        self.hands_ended = 0
        return record

    def _clean_end(self, **more: Any) -> dict[str, Any]:
        """`recorder_end`: the chain head (added by `emit`), the hands ended in this file, the open hand."""
        return self.emit(CLEAN_END, hand=0, hands=self.hands_ended, open_hand=self.hand, **more)

    def emit(self, event: str, *, hand: int | None = None, **fields: Any) -> dict[str, Any]:
        """Write one event; `hand` overrides the open hand (0 for table-level events in a hand)."""
        if self._in_file == 0 and event != START:
            self.emit(START, hand=0, **self._start_fields)
        # the chain fields come last, so a resumed hand that copies its old hand_start is linked anew
        record = {"event": event, "t": round(self._clock(), 3), "hand": self.hand if hand is None else hand, **fields,
                  **self._chain.fields_for(event)}
        check_public(record)
        line = canonical(record)
        if self._sink is not None:
            self._sink.write(line + "\n")
            self._sink.flush()
        if event in (HAND_SEAL, CLEAN_END):
            self._sync()
        self._chain.add(line, event)
        self.events_written += 1
        self._in_file += 1
        self.hands_ended += int(event == HAND_SEAL)
        self._since_end = 0 if event == CLEAN_END else self._since_end + 1
        for listener in self._listeners:
            listener(record)
        return record
