"""The wall as the players count it: the ring from the dice, every tile that left it, the live
count by the region's reserve policy.

Real players know the ring from the dice and the dealer, see every tile leave the wall and count
the kongs; so do these.  Counting follows docs/table-flow.md §5: the live wall is the tiles still
in the ring less what the reserve policy keeps for (kongs, tail draws); an indicator set aside
counts as a take at the end of the ring it is nearer to (never as a kong).  A head draw is made
only while the live count is above zero.  A tile shown face up at the tail (云南 尾牌) is taken only
for a 杠上开花; an ordinary replacement is the last tile neither shown nor lying under a shown one —
until none is left: then, where the table's option says so (`weipai_wall_end`), a shown one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.definition import Ruleset
from rulesets.reserve import WallCount, live_after_a_kong, wall_count
from rulesets.tiles import Tile
from rulesets.walls import Layer, Ring, Slot

if TYPE_CHECKING:
    from ..table import SimulatedTable


class WallMismatch(RuntimeError):
    """The physical wall is not as the players count it (or a draw would cut into the reserve)."""


class LiveWall:
    def __init__(self, table: "SimulatedTable", ruleset: Ruleset, ring: Ring) -> None:
        self.table = table
        self.ruleset = ruleset
        self.ring = ring
        self.total = ring.tile_count
        self.taken: set[Slot] = set()
        self.head_taken = 0
        self.tail_taken = 0
        self.kongs = 0
        self.tail_draws = 0            # kong and flower replacements (set-asides not included)
        self._shown: dict[Slot, Tile] = {}   # tail tiles shown face up (云南 尾牌) → their kind
        # …and whether one replaces a kong once no face-down tail tile is left (the rule card says)
        self.shown_replace_at_end = ruleset.shown_tile_replaces_at_wall_end
        # Where the search for the next head (tail) tile starts: slots are only ever taken, so
        # every position before it stays taken.
        self._head_from = 0
        self._tail_from = 0
        self._counted = (0, 0, 0)
        self._count = wall_count(ruleset.reserve, self.total, 0, 0, 0)
        self._live = self._count.live
        self._after_kong: tuple[tuple[int, int, int], int] | None = None    # (takes, live after a kong)
        self._replacement: tuple[tuple[int, int], Slot | None] | None = None   # (tiles taken and shown, the slot)

    @property
    def shown(self) -> dict[Slot, Tile]:
        return self._shown

    @shown.setter
    def shown(self, shown: dict[Slot, Tile]) -> None:
        self._shown = shown
        self._replacement = None        # the replacement passes over other tiles now

    # -- counting ------------------------------------------------------------------------------

    def count(self) -> WallCount:
        key = (self.head_taken, self.tail_taken, self.kongs)
        if key != self._counted:     # asked many times between two takes (each player, each decision)
            self._counted = key
            self._count = wall_count(self.ruleset.reserve, self.total, *key)
            self._live = self._count.live
        return self._count

    @property
    def live(self) -> int:
        self.count()
        return self._live

    @property
    def remaining(self) -> int:
        return self.total - len(self.taken)

    def next_head(self) -> Slot | None:
        for position in range(self._head_from, self.total):
            slot = self.ring.head_slot(position)
            if slot not in self.taken:
                self._head_from = position
                return slot
        self._head_from = self.total
        return None

    def next_tail(self) -> Slot | None:
        """The next ordinary replacement: shown tiles and the tiles under them are passed over."""
        first = None
        for position in range(self._tail_from, self.total):
            slot = self.ring.tail_slot(position)
            if slot in self.taken:
                continue
            if first is None:       # every position before the first tile still there is taken
                first = self._tail_from = position
            if not self._shown or not self.covered(slot):
                return slot
        if first is None:
            self._tail_from = self.total
        return None

    def replacement(self) -> Slot | None:
        """The tile an ordinary replacement takes: the last face-down tail tile; with none left and the
        option `weipai_wall_end=drawn_last`, the last shown tile (the tail's first tile still there).
        Asked after every discard and before every kong: found again only once a tile was taken (or
        other tiles are shown: `shown`)."""
        state = (len(self.taken), len(self._shown))     # (slots are only ever taken, shown tiles added)
        if self._replacement is None or self._replacement[0] != state:
            self._replacement = (state, self._find_replacement())
        return self._replacement[1]

    def _find_replacement(self) -> Slot | None:
        slot = self.next_tail()
        if slot is None and self.shown_replace_at_end:
            slot = next((s for s in map(self.ring.tail_slot, range(self.total)) if s not in self.taken), None)
        return slot

    def covered(self, slot: Slot) -> bool:
        """Shown face up, or lying under a shown tile still on the wall."""
        top = Slot(slot.ring, Layer.TOP)
        return slot in self.shown or (slot.layer is Layer.BOTTOM and top in self.shown and top not in self.taken)

    def shown_on_top(self) -> list[tuple[Slot, Tile]]:
        """The shown tiles still on the wall and on top of their stacks (a 杠上开花 may take one)."""
        return [(slot, kind) for slot, kind in self.shown.items()
                if slot not in self.taken and (slot.layer is Layer.TOP or Slot(slot.ring, Layer.TOP) in self.taken)]

    def next_head_position(self) -> int:
        slot = self.next_head()
        return self.ring.slot_sequence(slot) if slot is not None else self.total

    def live_after_kong(self) -> int:
        """The live count once a kong's replacement has been drawn (a kong needs one left)."""
        key = (self.head_taken, self.tail_taken, self.kongs)
        if self._after_kong is None or self._after_kong[0] != key:    # asked after every discard
            self._after_kong = (key, live_after_a_kong(self.ruleset.reserve, self.total, self.head_taken,
                                                       self.tail_taken, self.kongs))
        return self._after_kong[1]

    # -- taking ----------------------------------------------------------------------------------

    def take_head(self) -> bytes:
        if self.live <= 0:
            raise WallMismatch("the live wall is exhausted: a head draw would cut into the reserve")
        slot = self.next_head()
        assert slot is not None
        self.head_taken += 1
        return self._take(slot)

    def take_deal(self, position: int) -> bytes:
        """One dealt tile: the deal takes head positions in order."""
        slot = self.ring.head_slot(position)
        if slot != self.next_head():
            raise WallMismatch(f"deal position {position} is not the next head tile")
        self.head_taken += 1
        return self._take(slot)

    def declare_kongs(self, count: int) -> None:
        """Kongs that take no tile (长春's 3-tile special kongs, where they count for the reserve)."""
        self.kongs += count

    def take_tail(self, kong: bool, shown: Slot | None = None) -> bytes:
        """A replacement from the tail: for a kong (counted) or a flower (not counted); `shown`: the
        shown tile a 杠上开花 takes instead."""
        slot = self.replacement() if shown is None else shown
        if slot is None or self.next_head() is None:
            raise WallMismatch("no tile is left at the tail")
        self.tail_taken += 1
        self.tail_draws += 1
        if kong:
            self.kongs += 1
        return self._take(slot)

    def set_aside(self, slot: Slot) -> bytes:
        """An indicator that leaves play: counted at the end of the ring it is nearer to."""
        if slot in self.taken:
            raise WallMismatch(f"ring {slot.ring} {slot.layer.value} is already taken")
        head, tail = self.next_head(), self.next_tail()
        head_index = head.ring if head else len(self.ring)
        tail_index = tail.ring if tail else 0
        if abs(tail_index - slot.ring) < abs(slot.ring - head_index):
            self.tail_taken += 1
        else:
            self.head_taken += 1
        return self._take(slot)

    def _take(self, slot: Slot) -> bytes:
        pos = self.ring[slot.ring]
        bottom_only = Slot(slot.ring, Layer.TOP) in self.taken
        if slot.layer is Layer.BOTTOM and not bottom_only:
            raise WallMismatch(f"ring {slot.ring}: the bottom tile lies under its top")
        seen = self.table.stack_tiles(pos.wall, pos.stack)
        expected = 1 if bottom_only else 2
        if seen != expected:
            raise WallMismatch(f"side {pos.wall} stack {pos.stack} holds {'no' if seen is None else seen} tile(s); "
                            f"the players count {expected}")
        self.taken.add(slot)
        return self.table.take(pos.wall, pos.stack)
