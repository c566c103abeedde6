"""What the players read: the public screen and the seat displays, as immutable snapshots.

Players act only on what is shown (docs/table-flow.md): the phase word on `main.t_msg`, the dice
in `t_dice`, the public indicators and wilds in `t_ind` / `t_wild`, the dealer (`庄`) on line 0
of the seat displays, and a seat's prompt or private 宝 on its line 1.  A player may also see
whether the centre is open (he pushes tiles into it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dataclasses import dataclass, field
from functools import lru_cache

from drivers.motor_protocol import LiftPosition
from drivers.table_ui import BAO, Phase, parse_choice
from rulesets.tiles import Tile, TileError

if TYPE_CHECKING:
    from ..table import SimulatedTable

_PHASES = tuple(sorted(Phase, key=lambda p: -len(p.value)))   # longest word first


def tiles_in(text: str) -> tuple[Tile, ...]:
    """Tiles named in a display text ("五万 六万"); words that are not tiles are skipped."""
    out: list[Tile] = []
    for word in text.replace(",", " ").split():
        try:
            out.append(Tile.parse(word))
        except TileError:
            continue
    return tuple(out)


def parse_rolls(text: str) -> tuple[tuple[int, ...], ...]:
    """"2+5 / 3+4" → ((2, 5), (3, 4)); anything unreadable ends the list."""
    rolls: list[tuple[int, ...]] = []
    for part in text.split("/"):
        part = part.strip()
        if not part:
            continue
        try:
            roll = tuple(int(v) for v in part.split("+"))
        except ValueError:
            break
        if not roll or any(not 1 <= v <= 6 for v in roll):
            break
        rolls.append(roll)
    return tuple(rolls)


@lru_cache(maxsize=256)      # a few message lines come back all hand long
def phase_of(msg: str) -> Phase | None:
    """The phase a message line begins with."""
    for phase in _PHASES:
        if msg.startswith(phase.value):
            return phase
    return None


@dataclass(frozen=True)
class Screen:
    version: int
    msg: str
    dice_text: str
    ind_text: str
    wild_text: str
    lines: tuple[tuple[str, str], ...]       # per seat 0–3: (status, prompt / private)
    centre_down: bool
    # read at every pause of every snapshot: worked out as it is made (a cached_property takes a lock)
    phase: Phase | None = field(init=False, repr=False, compare=False)
    any_prompt: bool = field(init=False, repr=False, compare=False)
    """Some seat's line 1 says something (most of play: none does)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "phase", phase_of(self.msg))
        object.__setattr__(self, "any_prompt", any(prompt for _, prompt in self.lines))

    @property
    def detail(self) -> str:
        """What follows the phase word (e.g. the 换三张 direction)."""
        phase = self.phase
        return self.msg[len(phase.value):].strip() if phase else self.msg

    def status(self, seat: int) -> str:
        return self.lines[seat][0]

    def prompt(self, seat: int) -> str:
        return self.lines[seat][1]

    def dealer(self, sides: tuple[int, ...]) -> int | None:
        for seat in sides:
            if self.status(seat).startswith("庄"):
                return seat
        return None

    def rolls(self) -> tuple[tuple[int, ...], ...]:
        return parse_rolls(self.dice_text)

    def indicators(self) -> tuple[Tile, ...]:
        return tiles_in(self.ind_text)

    def wilds(self) -> tuple[Tile, ...]:
        return tiles_in(self.wild_text)

    def question(self, seat: int) -> tuple[str, str] | None:
        """The question on this seat's line 1 that awaits its answer ("第1杠来自:下家"), or None: the
        private 宝 ("宝:五万 骰子=换宝") looks like one and is none."""
        choice = parse_choice(self.prompt(seat))
        return None if choice is None or choice[0] == BAO else choice

    def bao(self, seat: int) -> Tile | None:
        """The private 宝 on this seat's line 1 ("宝:五万 骰子=换宝"), if shown."""
        choice = parse_choice(self.prompt(seat))
        if choice is None or choice[0] != BAO:
            return None
        found = tiles_in(choice[1])
        return found[0] if found else None


class Eyes:
    """One table's screens, looked at and awaited (no polling: `table.changes`)."""

    def __init__(self, table: "SimulatedTable") -> None:
        self.table = table
        self._last: Screen | None = None

    @property
    def last_seen(self) -> Screen | None:
        """The screens as the players last looked at them."""
        return self._last

    def look(self) -> Screen:
        """A snapshot of the screens (the last one again while nothing has changed: every change
        of what it shows moves `table.changes.version`)."""
        version = self.table.changes.version
        if self._last is not None and self._last.version == version:
            return self._last
        display = self.table.display
        world = self.table.world
        self._last = Screen(
            version=version,
            msg=display.text("main", "t_msg"), dice_text=display.text("main", "t_dice"),
            ind_text=display.text("main", "t_ind"), wild_text=display.text("main", "t_wild"),
            lines=tuple((line[0], line[1]) for line in world.seat_displays),
            centre_down=world.centre == LiftPosition.DOWN)
        return self._last

    async def changed(self, since: int) -> int:
        return await self.table.changes.wait(since)
