"""The physical table: where every tile is, the lifts, the hatch, the dice, keys and read zones.

No I/O and no timing here; the boards (motor_board.py, rfid_board.py) move things over virtual
time, and players act through the methods below.  Whatever changes is announced to observers
(the boards), which turn it into events on their links.

Where a tile can be:
- in the **mixer** (under the table: shuffled, then pulled by the lanes);
- held in a lane's **stacking head** (the first tile of a pair, lifted, waiting for the second);
- in a side's **channel** (built stacks waiting under the table while the plate is up);
- on a side's **plate** (the lift: down = loaded from the channel, up = the wall on the table top,
  where the wall sensors see it);
- **out**: taken by a player (hand, discards, melds on the table top), possibly laid in a
  seat's **read zone**.

A stack is a list from bottom to top: [bottom, top].
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from drivers.motor_protocol import Key, LiftPosition, Panel

from .changes import Changes
from .tiles import PhysicalTile

SIDES = 4
Stack = list[PhysicalTile]


class SimulatorError(Exception):
    """A player or test asked the table for something physically impossible (one clear line)."""


class WorldObserver:
    """What a board hears of the physical world; every method is optional."""

    def tile_pushed(self, lane: int, tile: PhysicalTile) -> None: ...
    def wall_changed(self, side: int, stack: int, tiles: int) -> None: ...
    def key_pressed(self, panel: int, key: Key, long: bool) -> None: ...
    def hatch_changed(self, open: bool) -> None: ...


@dataclass
class Side:
    plate: list[Stack] = field(default_factory=list)
    channel: list[Stack] = field(default_factory=list)
    position: LiftPosition = LiftPosition.DOWN
    head: PhysicalTile | None = None      # the lane's stacking head holding a top tile

    def load_plate(self) -> None:
        """A plate at the bottom takes the stacks built in its channel."""
        if self.position == LiftPosition.DOWN and not any(self.plate):
            self.plate = self.channel
            self.channel = []


@dataclass
class World:
    mixer: list[PhysicalTile] = field(default_factory=list)
    sides: list[Side] = field(default_factory=lambda: [Side() for _ in range(SIDES)])
    out: dict[int, PhysicalTile] = field(default_factory=dict)       # serial -> tile
    zones: list[list[PhysicalTile]] = field(default_factory=lambda: [[] for _ in range(SIDES)])
    centre: LiftPosition = LiftPosition.UP
    hatch_open: bool = False
    hatch_locked: bool = True
    observers: list[WorldObserver] = field(default_factory=list)
    seat_displays: list[list[str]] = field(default_factory=lambda: [["", ""] for _ in range(SIDES)])
    leds: dict[int, int] = field(default_factory=dict)                 # panel -> lamp mask
    buzzer: list[tuple[int, int]] = field(default_factory=list)        # (pattern, ms), newest last
    dice: tuple[int, ...] = ()
    changes: Changes = field(default_factory=Changes)   # seat displays, lifts (and the display)

    def set_seat_text(self, seat: int, line: int, text: str) -> None:
        """Write one line of a seat display (what the motor board does for SeatText)."""
        if self.seat_displays[seat][line] != text:
            self.seat_displays[seat][line] = text
            self.changes.notify()

    def set_leds(self, panel: int, mask: int) -> None:
        """Light one panel's lamps (what the motor board does for SetLeds)."""
        if self.leds.get(panel, 0) != mask:
            self.leds[panel] = mask
            self.changes.notify()

    def lamps(self) -> list[int]:
        """Each panel's lamp mask as a person sees it: seats 0–3, then the front panel."""
        return [self.leds.get(panel, 0) for panel in Panel]

    def dark(self) -> None:
        """Every lamp out (the motor board restarted: they are driven from its RAM)."""
        lit = any(self.leds.values())
        self.leds.clear()
        if lit:
            self.changes.notify()

    def sound(self, pattern: int, duration_ms: int) -> None:
        """The buzzer sounds (the last 50 kept, newest last)."""
        self.buzzer.append((pattern, duration_ms))
        del self.buzzer[:-50]
        self.changes.notify()

    def set_centre(self, position: LiftPosition) -> None:
        """The centre lift arrives (players see the opening: they may push tiles in)."""
        self.centre = position
        self.changes.notify()

    def set_side_position(self, side: int, position: LiftPosition) -> None:
        self.sides[side].position = position
        self.changes.notify()

    # -- wall geometry ---------------------------------------------------------------------------

    def wall_counts(self, side: int) -> tuple[int, ...]:
        """What side's wall sensors see: tiles per stack position (0 when the plate is down)."""
        s = self.sides[side]
        if s.position != LiftPosition.UP:
            return ()
        return tuple(len(stack) for stack in s.plate)

    def stack_count(self, side: int, stack: int) -> int | None:
        """One stack position of `wall_counts` (None: the plate is down or has no such stack)."""
        s = self.sides[side]
        if s.position != LiftPosition.UP or not 0 <= stack < len(s.plate):
            return None
        return len(s.plate[stack])

    def wall_tiles(self, side: int) -> list[list[PhysicalTile]]:
        """The stacks on side's plate, bottom first (a copy: for tests and players' eyes)."""
        return [list(stack) for stack in self.sides[side].plate]

    def _raised_stack(self, side: int, stack: int) -> Stack:
        if not 0 <= side < SIDES:
            raise SimulatorError(f"no side {side}: sides are 0-3")
        s = self.sides[side]
        if s.position != LiftPosition.UP:
            raise SimulatorError(f"side {side}'s wall is not up (lift {s.position.name.lower()})")
        if not 0 <= stack < len(s.plate):
            raise SimulatorError(f"side {side} has stacks 0-{len(s.plate) - 1}, not {stack}")
        return s.plate[stack]

    # -- players -----------------------------------------------------------------------------------

    def take(self, side: int, stack: int) -> PhysicalTile:
        """Take the top tile of a stack (the bottom one if it stands alone)."""
        tiles = self._raised_stack(side, stack)
        if not tiles:
            raise SimulatorError(f"stack {stack} of side {side} is empty")
        tile = tiles.pop()
        self.out[tile.serial] = tile
        self._wall_changed(side, stack)
        return tile

    def put_back(self, side: int, stack: int, uid: bytes) -> PhysicalTile:
        """Put a taken tile back on a stack (on top if one tile lies there, else at the bottom)."""
        tiles = self._raised_stack(side, stack)
        if len(tiles) >= 2:
            raise SimulatorError(f"stack {stack} of side {side} already has two tiles")
        tile = self._out_tile(uid)
        del self.out[tile.serial]
        self._remove_from_zones(tile)
        tiles.append(tile)
        self._wall_changed(side, stack)
        return tile

    def lay(self, seat: int, uids: list[bytes]) -> None:
        """Lay taken tiles in a seat's read zone (replacing what lay there)."""
        if not 0 <= seat < SIDES:
            raise SimulatorError(f"no seat {seat}: seats are 0-3")
        tiles: list[PhysicalTile] = []
        for uid in uids:
            tile = self._out_tile(uid, exclude=tiles)
            tiles.append(tile)
        for tile in tiles:
            self._remove_from_zones(tile)
        self.zones[seat] = tiles

    def sweep(self) -> int:
        """Push every tile on the table top (taken tiles and the raised walls' remains) into the
        centre opening; they fall into the mixer.  Returns how many went in."""
        if self.centre != LiftPosition.DOWN:
            raise SimulatorError("the centre is up: lower the centre lift before pushing tiles in")
        moved = list(self.out.values())
        self.out.clear()
        self.zones = [[] for _ in range(SIDES)]
        for side, s in enumerate(self.sides):
            if s.position == LiftPosition.UP:
                for index, stack in enumerate(s.plate):
                    if stack:
                        moved.extend(stack)
                        stack.clear()
                        self._wall_changed(side, index)
        self.mixer.extend(moved)
        return len(moved)

    def take_out_on_top(self, unwanted: Callable[[PhysicalTile], bool]) -> list[PhysicalTile]:
        """A person takes the `unwanted` tiles off the table top and out of the raised walls (a
        wall's stack closes up over a bottom tile taken out)."""
        taken = [tile for tile in self.out.values() if unwanted(tile)]
        for tile in taken:
            del self.out[tile.serial]
            self._remove_from_zones(tile)
        for side, s in enumerate(self.sides):
            if s.position != LiftPosition.UP:
                continue
            for index, stack in enumerate(s.plate):
                found = [tile for tile in stack if unwanted(tile)]
                if found:
                    stack[:] = [tile for tile in stack if not unwanted(tile)]
                    taken += found
                    self._wall_changed(side, index)
        return taken

    def raised_set(self) -> int | None:
        """The set the raised walls are of (most of their tiles'), None while no wall is up."""
        counts = Counter(tile.set_index for s in self.sides if s.position == LiftPosition.UP
                         for stack in s.plate for tile in stack if tile.set_index >= 0)
        return counts.most_common(1)[0][0] if counts else None

    def replace_on_top(self, mended: Callable[[PhysicalTile], PhysicalTile | None]) -> list[PhysicalTile]:
        """A person mends tiles on the table top and in the raised walls in place (`mended` gives the
        mended tile, or None to leave it); the mended tiles."""
        done = []
        for serial, tile in list(self.out.items()):
            if (new := mended(tile)) is not None:
                self.out[serial] = new
                done.append(new)
        for s in self.sides:
            if s.position == LiftPosition.UP:
                for stack in s.plate:
                    for i, tile in enumerate(stack):
                        if (new := mended(tile)) is not None:
                            stack[i] = new
                            done.append(new)
        return done

    def press(self, panel: int, key: Key, long: bool = False) -> None:
        if panel not in tuple(Panel):
            raise SimulatorError(f"no panel {panel}: seats 0-3, front 4")
        for observer in self.observers:
            observer.key_pressed(panel, key, long)

    def set_hatch(self, open: bool, force: bool = False) -> None:
        """A person opens or closes the service hatch (opening a latched hatch needs force)."""
        if open and self.hatch_locked and not force:
            raise SimulatorError("the hatch is latched: release it (SetHatchLock off) or force it open")
        if open != self.hatch_open:
            self.hatch_open = open
            for observer in self.observers:
                observer.hatch_changed(open)

    # -- machine -----------------------------------------------------------------------------------

    def pull_from_mixer(self) -> PhysicalTile | None:
        return self.mixer.pop(0) if self.mixer else None

    def push(self, lane: int, tile: PhysicalTile, push_index: int) -> None:
        """A lane's head takes `tile` as push `push_index`: even = lifted top, odd = bottom,
        after which the pair is pushed into the side's channel as one stack."""
        s = self.sides[lane]
        for observer in self.observers:
            observer.tile_pushed(lane, tile)
        if push_index % 2 == 0:
            s.head = tile
        else:
            top, s.head = s.head, None
            s.channel.append([tile, top] if top is not None else [tile])

    def _wall_changed(self, side: int, stack: int) -> None:
        count = len(self.sides[side].plate[stack])
        for observer in self.observers:
            observer.wall_changed(side, stack, count)

    def _out_tile(self, uid: bytes, exclude: list[PhysicalTile] | None = None) -> PhysicalTile:
        for tile in self.out.values():
            if tile.uid == uid and (exclude is None or tile not in exclude):
                return tile
        raise SimulatorError(f"no taken tile has tag {uid.hex()}: only tiles taken from the wall "
                             "can be put back or laid")

    def _remove_from_zones(self, tile: PhysicalTile) -> None:
        for zone in self.zones:
            if tile in zone:
                zone.remove(tile)

    def all_tiles(self) -> list[PhysicalTile]:
        """Every tile anywhere on or in the table (for conservation checks)."""
        tiles = list(self.mixer) + list(self.out.values())
        for s in self.sides:
            tiles += [t for stack in s.plate + s.channel for t in stack]
            if s.head is not None:
                tiles.append(s.head)
        return tiles
