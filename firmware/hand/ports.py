"""What a hand needs from the table, as small typed ports (never the controller itself).

The controller is the device hub; the hand flow, the win check and the phases see the table only
through `HandPorts`: wait for a condition, take a key, roll the dice, read a zone, look up a tag,
show, record, step the table's machine.  The hub calls back through `HandListener` with what
the boards report at once (a tile left the wall, 听 or 杠 pressed).

This module, `rulesets` and `drivers.table_ui` are all `firmware/hand/` may import: the import
rules test holds it, so the hand's logic can be read (and tested) without a device in sight.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

from drivers.table_ui import HAND_VOID, SCORING_FAILED, Key, Panel, Phase
from rulesets.definition import Ruleset
from rulesets.tiles import Tile
from rulesets.walls import Ring, Slot, StackPos

T = TypeVar("T")


@dataclass(frozen=True)
class Press:
    """A key pressed on a panel (seats 0-3, the front panel 4); `heard`: its place among the motor
    board's events (`HandPorts.shown`; -1: not known); `centre_closed`: the board's last word on the
    centre before this press was that it stood closed (up): no tile could be pushed in yet."""

    panel: int
    key: Key
    long: bool = False
    heard: int = -1
    centre_closed: bool = False

    @property
    def seat(self) -> int:
        return int(self.panel)

    def made_before(self, mark: int) -> bool:
        """Known to be sent by the board before `mark` (a line's place among its events, as
        `HandPorts.shown` gives it): pressed before that line was up.  A press of unknown place
        (-1) is not."""
        return 0 <= self.heard < mark

    @property
    def front(self) -> bool:
        return self.panel == Panel.FRONT


KeyMatch = Callable[[Press], bool]


def pressed(panels: Sequence[int], keys: Sequence[Key]) -> KeyMatch:
    """A matcher for one of `keys` on one of `panels`."""
    return lambda press: press.panel in panels and press.key in keys


SAME_KEY_LIMIT = 8      # presses of one key on one panel kept unconsumed; a ninth drops the oldest


class KeyQueue:
    """Presses nobody has consumed yet, oldest first.  The only place keys are consumed.

    Bounded: a key mashed (or a switch chattering) while nothing asks for it would otherwise grow the
    queue for the rest of the hand — or all night on an idle table — and every wait scans it.  Of one
    key on one panel the newest `SAME_KEY_LIMIT` are kept: a prompt takes the presses made after it
    was up, so the newest are the ones that can count."""

    def __init__(self) -> None:
        self._presses: list[Press] = []

    def put(self, press: Press) -> Press | None:
        """Queue `press`; returns the press it pushed out (the oldest of that key on that panel, when
        there were `SAME_KEY_LIMIT` already), which the caller records as dropped."""
        same = [p for p in self._presses if p.panel == press.panel and p.key == press.key and p.long == press.long]
        self._presses.append(press)
        if len(same) < SAME_KEY_LIMIT:
            return None
        self._presses.remove(same[0])
        return same[0]

    def peek(self, match: KeyMatch) -> Press | None:
        """The oldest press that matches, left in the queue."""
        return next((p for p in self._presses if match(p)), None)

    def peek_all(self, match: KeyMatch) -> tuple[Press, ...]:
        """Every press that matches, oldest first, left in the queue."""
        return tuple(p for p in self._presses if match(p))

    def take(self, match: KeyMatch) -> Press | None:
        """The oldest press that matches, taken out of the queue."""
        press = self.peek(match)
        if press is not None:
            self._presses.remove(press)
        return press

    def drop(self, match: KeyMatch) -> tuple[Press, ...]:
        """Take every press that matches out of the queue, oldest first (answering nothing: the caller
        says so, `record_dropped`)."""
        kept: list[Press] = []
        dropped: list[Press] = []
        for press in self._presses:
            (dropped if match(press) else kept).append(press)
        self._presses = kept
        return tuple(dropped)

    def take_all(self) -> tuple[Press, ...]:
        """Every press, oldest first, taken out of the queue (answering nothing: the caller says so)."""
        presses, self._presses = tuple(self._presses), []
        return presses

    def clear(self) -> None:
        self._presses.clear()

    def __len__(self) -> int:
        return len(self._presses)


class Screens(Protocol):
    """The display writer (firmware.presenter.Presenter) as the hand uses it."""

    def phase(self, phase: Phase, detail: str = "") -> None: ...
    def carry(self, detail: str) -> None: ...
    def drop_note(self) -> None: ...
    def round(self, text: str) -> None: ...
    def dice(self, rolls: list[tuple[int, ...]]) -> None: ...
    def stacks_left(self, live_tiles: int) -> None: ...
    def public_indicators(self, indicator_names: list[str], wild_names: list[str]) -> None: ...
    def seat_status(self, side: int, dealer: bool, score: int, ready: bool = False) -> None: ...
    def dealer(self, side: int, repeats: int) -> None: ...
    def prompt(self, side: int, text: str) -> None: ...
    def private(self, side: int, text: str) -> None: ...


class Recorder(Protocol):
    """The flight recorder: events carry the open hand's number (0 when none is open)."""

    def emit(self, event: str, **fields: Any) -> dict[str, Any]: ...
    def open_hand(self, number: int) -> None: ...


async def next_press(ports: "HandPorts", match: KeyMatch) -> Press:
    """The oldest press `match` takes, out of the queue once there is one (waiting as the table waits)."""
    press = await ports.until(lambda: ports.keys.peek(match))
    ports.keys.take(lambda p: p is press)
    return press


def record_dropped(recorder: Recorder, presses: Sequence[Press], why: str) -> None:
    """Keys taken out of the queue unanswered — never silently: `keys_dropped` names each, with
    `why` (each reason is worded in firmware.table_log.DROPPED_WHY)."""
    if presses:
        recorder.emit("keys_dropped", why=why, presses=[
            {"panel": int(p.panel), "key": p.key.name, "long": p.long} for p in presses])


def stray_tags(laid: Sequence[Tile | None]) -> dict[str, int]:
    """Tags a read zone saw that are no registered tile (a card or a phone near the antenna, a stray
    tag): the laid tiles are judged without them, and the event counts them (`stray_tags`), as
    `set_check` counts those beside the walls."""
    strays = sum(tile is None for tile in laid)
    return {"stray_tags": strays} if strays else {}


class BuiltWall(Protocol):
    """A built set as the hand needs it: its tiles in a ring's draw order."""

    @property
    def tile_set(self) -> int | None: ...

    def in_ring_order(self, ring: Ring) -> Mapping[Slot, Tile | None]: ...


class HandPorts(Protocol):
    """Everything the hand flow may ask of the table."""

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def keys(self) -> KeyQueue: ...

    @property
    def screens(self) -> Screens: ...

    @property
    def recorder(self) -> Recorder: ...

    @property
    def table_state(self) -> str: ...

    async def advance(self, trigger: str) -> None:
        """Step the table's lifecycle machine (firmware.machines: dice_done, dealt, hu, …)."""

    async def until(self, predicate: Callable[[], T | None | bool], timeout: float | None = None) -> T:
        """Wait until `predicate()` is truthy (checked after every board event); returns its value."""

    async def next_key(self, panels: Sequence[int], keys: Sequence[Key]) -> Press:
        """Wait for and consume the oldest press of one of `keys` on one of `panels`."""

    async def shown(self, seat: int) -> int:
        """Until what the screens put on a seat's display is on it; then where its last line stands
        among the motor board's events: a press whose `heard` is below it was pressed before."""

    def mark(self) -> int:
        """Where the motor board's events stand now: a press whose `heard` is below it reached this
        controller before now (for what the public display asks: no seat's line to wait for)."""

    async def roll_dice(self, count: int) -> tuple[int, ...]: ...

    async def compute(self, fn: Callable[..., T], *args: Any) -> T:
        """Run CPU-heavy pure work (judging and scoring a hand) where it cannot hold the loop."""

    async def read_zone(self, seat: int) -> tuple[bytes, ...]:
        """The tags lying in a seat's read zone now (the hub joins two inventories: one can miss a tag)."""

    async def journaled(self) -> None:
        """Until the hand as it stands is in the journal, committed: what a restart must know before
        the table shows it (a win in a hand that goes on)."""

    def lookup(self, uid: bytes) -> Tile | None:
        """The tile a tag belongs to (None: not a registered tile)."""


class HandListener(Protocol):
    """What the hub tells the hand as soon as a board reports it."""

    def on_wall_change(self, pos: StackPos, tiles: int) -> None: ...

    def on_key(self, press: Press) -> bool:
        """True when the press changed the hand (听, 杠) and is consumed; False to queue it."""

    def resync(self, sensors: Mapping[int, tuple[int, ...]]) -> str | None:
        """A board came back in a new session: the wall sensors now say this.  Apply what was taken
        meanwhile; return why the hand can no longer be trusted, or None."""


class HandVoided(Exception):
    """The hand can no longer be trusted (walls that contradict it after a board restarted), or it
    cannot be scored (`scored`): the flow stops and the session voids it.  `reason` goes to the
    log and the recorder, `note` after 本局结束 on the display."""

    def __init__(self, reason: str, note: str = HAND_VOID) -> None:
        super().__init__(reason)
        self.reason = reason
        self.note = note


async def scored(ports: "HandPorts", fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` (a hand judged and scored) in the controller's worker.  An error there is a fault
    in the scoring itself, never a hand laid wrong (`judge_laid` makes that a 诈胡), and it would
    come again with the same tiles: were it to stop the table, the restarted table would resume
    the hand, the seat would lay it again, and the table would stop again, for ever.  So the hand
    is voided instead (no payments, the same dealer), the display asks for it to be settled by
    hand, the recorder says `scoring_failed`, and the log holds the error (the session logs it
    once the hand has ended).  A worker that died on every try (`firmware.worker.WorkerFailed`)
    is the same case."""
    try:
        return await ports.compute(fn, *args)
    except Exception as error:          # (a cancellation is no Exception: the table is stopping)
        # the error's words are logged once the hand has ended (it is its `__cause__`), never sent:
        # the recorder's lines are public, and a bug's message could quote anything it held
        ports.recorder.emit("scoring_failed", step=fn.__name__, error=type(error).__name__)
        raise HandVoided(f"scoring failed ({fn.__name__} raised {type(error).__name__}; the error is in the log): "
                         "settle the hand by hand", SCORING_FAILED) from error


__all__ = ["BuiltWall", "HandListener", "HandPorts", "HandVoided", "KeyMatch", "KeyQueue", "Press", "Recorder", "record_dropped",
           "Screens", "pressed", "scored"]
