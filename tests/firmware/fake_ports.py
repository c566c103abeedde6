"""A table made of lists, for testing the hand's parts without boards: `FakePorts` is a `HandPorts`.

Everything a person would do is written down beforehand: the keys pressed (in order), what lies in
each read zone when it is read, and the acts done while the table waits (`acts`, e.g. a tile taken
from the wall), one each time a condition waited for is not met yet.  Waiting never waits: a
condition still unmet when the acts are done is a time-out (`TimeoutError`), as it would be at a
table where nobody acts.  The screens and
the recorder keep everything shown and emitted, for the test to read.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Sequence

from drivers.table_ui import Key, Phase
from firmware.hand.ports import KeyQueue, Press, pressed
from rulesets.definition import Ruleset
from rulesets.tiles import Tile


class FakeScreens:
    def __init__(self) -> None:
        self.lines: dict[int, list[str]] = defaultdict(list)      # seat → every line 1 shown, in order
        self.phases: list[str] = []
        self.notes_dropped = 0
        self.carried = ""
        self.indicators: list[list[str]] = []        # every public indicator line shown, in order
        self.dice_shown: list[list[tuple[int, ...]]] = []   # every dice line shown, in order

    def phase(self, phase: Phase, detail: str = "") -> None:
        carried, self.carried = self.carried, ""
        detail = " ".join(part for part in (detail, carried) if part)
        self.phases.append(phase.value + (f" {detail}" if detail else ""))

    def carry(self, detail: str) -> None:
        self.carried = detail

    def prompt(self, side: int, text: str) -> None:
        self.lines[side].append(text)

    def private(self, side: int, text: str) -> None:
        self.lines[side].append(text)

    def last(self, side: int) -> str:
        return self.lines[side][-1] if self.lines[side] else ""

    def drop_note(self) -> None:
        self.notes_dropped += 1

    def round(self, text: str) -> None: ...
    def dice(self, rolls) -> None:
        self.dice_shown.append([tuple(roll) for roll in rolls])
    def stacks_left(self, live_tiles: int) -> None: ...
    def public_indicators(self, indicator_names, wild_names) -> None:
        self.indicators.append(list(indicator_names))

    def seat_status(self, side: int, dealer: bool, score: int, ready: bool = False) -> None: ...
    def dealer(self, side: int, repeats: int) -> None: ...


class FakeRecorder:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []

    def emit(self, event: str, **fields: Any) -> dict[str, Any]:
        record = {"event": event, **fields}
        self.events.append(record)
        return record

    def open_hand(self, number: int) -> None: ...

    def all(self, name: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["event"] == name]


class FakePorts:
    def __init__(self, ruleset: Ruleset, presses: Sequence[tuple[int, Key]] = (),
                 zones: dict[int, list[list[Tile]]] | None = None, acts: Sequence[Callable[[], None]] = ()) -> None:
        self.ruleset = ruleset
        self.keys = KeyQueue()
        for seat, key in presses:
            self.keys.put(Press(seat, key))
        self.screens = FakeScreens()
        self.recorder = FakeRecorder()
        self.table_state = "playing"
        self._zones = {seat: list(reads) for seat, reads in (zones or {}).items()}
        self._tiles: dict[bytes, Tile] = {}
        self._acts = list(acts)
        self.computed: list[str] = []

    async def advance(self, trigger: str) -> None: ...

    async def until(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        value = predicate()
        while not value and self._acts:
            self._acts.pop(0)()
            value = predicate()
        if not value:
            raise TimeoutError("nobody at the table does what is waited for")
        return value

    async def shown(self, seat: int) -> int:
        return -1                           # written down at once: no key is older than a line

    def mark(self) -> int:
        return -1                           # as `shown`

    async def next_key(self, panels: Sequence[int], keys: Sequence[Key]) -> Press:
        press = self.keys.take(pressed(panels, keys))
        if press is None:
            raise TimeoutError(f"no {[k.name for k in keys]} from {list(panels)} was written down")
        return press

    async def roll_dice(self, count: int) -> tuple[int, ...]:
        return (1,) * count

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        """The next read written down for this seat: each tile a tag of its own."""
        tiles = self._zones[seat].pop(0)
        uids = []
        for tile in tiles:
            uid = len(self._tiles).to_bytes(4, "big")
            self._tiles[uid] = tile
            uids.append(uid)
        return tuple(uids)

    def lookup(self, uid: bytes) -> Tile | None:
        return self._tiles.get(uid)

    async def journaled(self) -> None: ...

    async def compute(self, fn: Callable[..., Any], *args: Any) -> Any:
        self.computed.append(fn.__name__)   # what a real controller runs off its loop
        return fn(*args)                    # in line: the fake has no worker process
