"""Play tracking: every tile that leaves the wall, matched to the head or the tail of the ring.

The wall sensors say only "stack (side, k) now holds n tiles".  The tracker knows the ring and
what it expects next at each end; a tile leaving the expected head stack is a head draw, one
leaving the expected tail stack a tail draw, anything else is out of order (warned about,
recorded, and counted at the nearer end).  A tail draw replaces a flower when a flower is owed
(known from the drawn tiles' identities in the wall map; a 杠 pressed meanwhile takes the tail after
it, and before a flower left unreplaced), otherwise it counts as a kong (out of order when nothing
was owed: no 杠 was pressed).  A shown tile (云南 尾牌) taken while a replacement
is owed is that replacement, marked `at_wall_end` when no face-down tail tile was left (whether it
then needs a 杠上开花 is the option's: tail_tiles.py).  The live
count and the reserve follow the ruleset's reserve policy; 荒庄 is declared when the next head draw
would cut into the reserve.  The last takes can be undone as if never made (`take_back`: the hand
decides which, when a person puts tiles back on the wall); a sensor reading more tiles than counted
is no take (`TrackingError`).

Pure logic: no I/O, no clock.  Its changing state (`to_json` / `restore`) is part of the hand's
state, so a restarted controller picks the wall up where it stood.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Generic, Iterable, Mapping, NamedTuple, Sequence, TypeVar

from rulesets.reserve import ReservePolicy, WallCount, live_after_a_kong, wall_count
from rulesets.tiles import Tile
from rulesets.walls import End, Layer, Ring, Slot, StackPos


class TrackingError(Exception):
    """A sensor change that cannot be a take (e.g. a stack reported with more tiles than it had)."""


@dataclass(frozen=True)
class Take:
    """One tile that left the wall."""

    end: End                # the end it was counted at
    slot: Slot
    stack: StackPos
    reason: str             # "deal", "draw", "kong", "flower", "set_aside"
    in_order: bool          # False: the tile was not the one expected at that end
    live: int               # tiles left to draw before the reserve, after this take
    reserve: int            # full stacks reserved now
    kongs: int
    tile: Tile | None       # from the wall map; never shown in public events before the hand ends
    at_wall_end: bool = False   # a shown tail tile taken when no face-down one was left (云南 尾牌 at the wall end)

    def to_json(self) -> dict[str, Any]:
        data = {"end": self.end.value, "slot": slot_json(self.slot), "stack": [self.stack.wall, self.stack.stack],
                "reason": self.reason, "in_order": self.in_order, "live": self.live, "reserve": self.reserve,
                "kongs": self.kongs, "tile": tile_json(self.tile)}
        if self.at_wall_end:                # rare: the journal's rows stay as they were without it
            data["at_wall_end"] = True
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> "Take":
        return Take(End(data["end"]), slot_from(data["slot"]), StackPos(*data["stack"]), data["reason"],
                    data["in_order"], data["live"], data["reserve"], data["kongs"], tile_from(data["tile"]),
                    data.get("at_wall_end", False))


def _undo_row(before: _Before) -> list[int]:
    """A take's undo as the journal keeps it (an older journal's rows have no `flowers_left`)."""
    return list(before if before.flowers_left else before[:-1])


def slot_json(slot: Slot) -> list:
    return [slot.ring, slot.layer.value]


def slot_from(data: list) -> Slot:
    return Slot(int(data[0]), Layer(data[1]))


_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"),
                           check_circular=False).encode   # (made once: see below)


def compact_json(value: Any) -> str:
    """JSON as the journal keeps it: compact, UTF-8 text kept (the ledger writes its values so too,
    with records.chain.canonical; the hand imports only its ports, the rules and the table words).
    One encoder for every call: json.dumps with these options would make a new one each time.  No
    circular check (the same text; the state is plain trees, and the check costs at every list)."""
    return _ENCODE(value)


def hole(name: str) -> str:
    """A stand-in for a part encoded apart (`encode_with`): no journal value holds its marks."""
    return f"\u2063{name}\u2063"


_HOLES = re.compile('"\u2063(\\w+)\u2063"')


def encode_with(value: Any, parts: Mapping[str, str]) -> str:
    """`compact_json(value)` where `value` holds `hole(name)` in the place of parts whose texts
    `parts[name]` were encoded apart (once each, as they were made), so they are not encoded again:
    the small rest is encoded, then cut at its holes and joined with the parts in one pass."""
    pieces = _HOLES.split(compact_json(value))
    pieces[1::2] = [parts[name] for name in pieces[1::2]]
    return "".join(pieces)


R = TypeVar("R")


class _KeptRows(Generic[R]):
    """Rows kept for the journal, read as a list (`rows`, as given: a journal's, read back) and
    given as `to_json` gives them (`json`)."""

    def __init__(self, row_json: Callable[[R], Any], rows: Iterable[R] = ()) -> None:
        self._row_json = row_json
        self.rows: list[R] = list(rows)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> R:
        return self.rows[index]

    def json(self) -> list[Any]:
        return [self._row_json(row) for row in self.rows]


class EncodedRows(_KeptRows[R]):
    """Rows kept with their journal text (`row_json`, then `compact_json`), each row encoded once:
    the rows added since the journal last asked are encoded together when it asks again (`text`,
    spliced by `encode_with`) and kept as one piece of the text.  The journal is written every few
    takes; each row encoded as it was kept cost a call of the encoder each, several times what
    the row itself adds to a batch."""

    def __init__(self, row_json: Callable[[R], Any], rows: Iterable[R] = ()) -> None:
        super().__init__(row_json, rows)
        self._pieces: list[str] = []    # the rows encoded so far, a batch a piece (without its brackets)
        self._ends: list[int] = []      # …and how many rows the pieces hold up to each one's end

    def append(self, row: R) -> None:
        self.rows.append(row)

    def pop(self) -> R:
        row = self.rows.pop()
        if self._ends and self._ends[-1] > len(self.rows):    # (rare: a take taken back) its batch is encoded again
            del self._pieces[-1], self._ends[-1]
        return row

    def text(self) -> str:
        """`json()` encoded as `compact_json` does."""
        encoded = self._ends[-1] if self._ends else 0
        if encoded < len(self.rows):
            batch = compact_json([self._row_json(row) for row in self.rows[encoded:]])
            self._pieces.append(batch[1:-1])
            self._ends.append(len(self.rows))
        return f"[{','.join(self._pieces)}]"


class LastRows(_KeptRows[R]):
    """The last `keep` rows (the last takes' undo), encoded together when the journal asks (`text`):
    they change at every take and the journal is written every few, so each row encoded as it was
    kept cost more than the few kept, encoded at each write."""

    def __init__(self, row_json: Callable[[R], Any], keep: int, rows: Iterable[R] = ()) -> None:
        super().__init__(row_json, rows)
        self._keep = keep

    def append(self, row: R) -> None:
        self.rows.append(row)
        del self.rows[:-self._keep]

    def pop(self) -> R:
        return self.rows.pop()

    def replace_last(self, row: R) -> None:
        self.rows[-1] = row

    def text(self) -> str:
        """`json()` encoded as `compact_json` does."""
        return compact_json(self.json())


def tile_json(tile: Tile | None) -> str | None:
    return None if tile is None else str(tile)


def tile_from(text: str | None) -> Tile | None:
    return None if text is None else Tile.parse(text)


UNDO_KEPT = 8      # the takes a tile put back can undo: the last ones (a block of the deal is four)


class _Before(NamedTuple):
    """The tracker's counts before a take: what taking it back restores."""

    head_taken: int
    tail_taken: int
    kongs: int
    flowers_owed: int
    special_owed: int
    head_from: int
    tail_from: int
    flowers_left: int = 0       # (an older journal's rows have no such field)


class UnseenTakes(NamedTuple):
    """Takes the wall sensors show made while the controller was not watching, one tile per step
    (stack, tiles it holds after): the replacements owed when it stopped watching, then the rest;
    `put_back`: how many of the hand's last takes were put back meanwhile (undone before these)."""

    owed: tuple[tuple[StackPos, int], ...]
    rest: tuple[tuple[StackPos, int], ...]
    put_back: int = 0

    @property
    def all(self) -> tuple[tuple[StackPos, int], ...]:
        return self.owed + self.rest


class WallTracker:
    """Tracks one hand's wall from its ring, its wall map and its reserve policy."""

    def __init__(self, ring: Ring, reserve: ReservePolicy, wall_map: Mapping[Slot, Tile | None],
                 flower_kinds: tuple[Tile, ...] = (), deal_size: int = 0) -> None:
        self.ring = ring
        self.reserve = reserve
        self.wall_map = dict(wall_map)
        self.flower_kinds = frozenset(flower_kinds)
        self.deal_size = deal_size              # head draws that belong to the deal
        self._ring_index = {pos: i for i, pos in enumerate(ring.stacks)}
        # each stack's (top, bottom) slots, made once: a take looks at its stack's several times
        self._stack_slots = tuple((Slot(i, Layer.TOP), Slot(i, Layer.BOTTOM)) for i in range(len(ring)))
        self._head_order = ring.head_order()
        self._tail_order = ring.tail_order()
        self._head_from = self._tail_from = 0   # every slot before these in the orders is taken
        self.taken: dict[Slot, Take] = {}
        self._take_rows: EncodedRows[dict[str, Any]] = EncodedRows(dict)   # `taken` as JSON, in order: a take never changes
        self.shown: set[Slot] = set()           # face-up slots ordinary tail draws skip (云南 尾牌)
        self.expected_aside: set[Slot] = set()  # indicator tiles the players are taking out of play
        self.head_taken = 0
        self.tail_taken = 0
        self.kongs = 0
        self.flowers_owed = 0
        self.flowers_left = 0                   # of those, owed since a head draw passed them (left unreplaced)
        self.kong_pending = False               # a 杠 was pressed: its replacement is the next tail take
        self.play_open = True                   # 请出牌 has shown: draws after the deal may be made
        self.special_owed = 0                   # 长春 opening special kongs: replacements still to be taken
        self.special_reason = "kong"            # …counted as kongs for the reserve ("kong") or not ("special")
        self._before: LastRows[_Before] = LastRows(_undo_row, UNDO_KEPT)   # the last takes' undo, oldest first
        # the last count and what it was counted from (taken, tail_taken, kongs): a take and the flow
        # around it ask for the same count several times
        self._counted: tuple[tuple[int, int, int], WallCount] | None = None

    # -- what is expected ---------------------------------------------------------------------

    def next_head(self) -> Slot | None:
        self._head_from = self._first_untaken(self._head_order, self._head_from)
        return self._head_order[self._head_from] if self._head_from < len(self._head_order) else None

    def next_tail(self, include_shown: bool = False) -> Slot | None:
        """The next tail tile of an ordinary replacement: shown tiles, and tiles lying under a shown
        tile, are passed over (云南 「不能杠上开花的从最后面未翻开的取牌」) unless `include_shown`."""
        self._tail_from = self._first_untaken(self._tail_order, self._tail_from)
        if include_shown or not self.shown:     # (nothing is passed over: the first still in the wall)
            return self._tail_order[self._tail_from] if self._tail_from < len(self._tail_order) else None
        return next((s for s in islice(self._tail_order, self._tail_from, None)
                     if s not in self.taken and (include_shown or not self.covered(s))), None)

    def _first_untaken(self, order: Sequence[Slot], start: int) -> int:
        """The index of the first slot of `order` from `start` on that is still in the wall.  Slots
        come back only by `take_back`, which restores where the search stood, so it goes on from where
        the last one stopped instead of passing over every taken slot again at each take."""
        while start < len(order) and order[start] in self.taken:
            start += 1
        return start

    def covered(self, slot: Slot) -> bool:
        """Shown face up, or lying under a shown tile still in the wall."""
        if slot in self.shown:
            return True
        top = self._stack_slots[slot.ring][0]
        return slot.layer is Layer.BOTTOM and top in self.shown and top not in self.taken

    def next_head_position(self) -> int:
        slot = self.next_head()
        return self.ring.slot_sequence(slot) if slot else self.ring.tile_count

    def count(self) -> WallCount:
        key = (len(self.taken), self.tail_taken, self.kongs)
        if self._counted is None or self._counted[0] != key:
            self._counted = key, wall_count(self.reserve, self.ring.tile_count, key[0] - key[1], key[1], key[2])
        return self._counted[1]

    @property
    def live(self) -> int:
        return self.count().live

    def live_after_kong(self) -> int:
        """The live count once one more kong's replacement is taken from the tail (a kong is made only
        while one would remain: docs/table-flow.md §5)."""
        return live_after_a_kong(self.reserve, self.ring.tile_count, len(self.taken) - self.tail_taken,
                                 self.tail_taken, self.kongs)

    @property
    def exhausted(self) -> bool:
        """The next head draw would cut into the reserve (荒庄 if no one wins now)."""
        return self.count().exhausted

    def last_drawn(self) -> Slot | None:
        """The slot of the last tile drawn (a set-aside indicator is no draw); None before any."""
        return next((slot for slot, take in reversed(self.taken.items()) if take.reason != "set_aside"), None)

    def in_wall(self, pos: StackPos) -> bool:
        return pos in self._ring_index

    def stack_tiles(self, pos: StackPos) -> int:
        top, bottom = self._stack_slots[self._ring_index[pos]]
        return (top not in self.taken) + (bottom not in self.taken)

    # -- sensor changes -----------------------------------------------------------------------

    def on_stack_change(self, pos: StackPos, tiles: int, seen: bool = True) -> list[Take]:
        """The wall sensor of `pos` now reads `tiles`; return the takes this means (in order).
        `seen`: reported as it happened (not read back from the sensors after nobody watched)."""
        if pos not in self._ring_index:
            raise TrackingError(f"stack {pos.wall}/{pos.stack} is not part of this wall")
        before = self.stack_tiles(pos)
        if tiles > before:
            raise TrackingError(f"stack {pos.wall}/{pos.stack} went from {before} to {tiles} tiles: a tile was put back")
        return [self._take_one(pos, seen) for _ in range(before - tiles)]

    def unseen_order(self, lower: Mapping[StackPos, int], owed: int, put_back: Sequence[Take] = ()) -> UnseenTakes:
        """The stacks the sensors now read lower (stack → tiles left) than this tracker knows, as
        single takes in the order a table most likely made them while nobody watched: the `owed`
        replacements first (the seat that owed them took them at once), then the head's draws (the
        run of gone tiles from the head on), then the rest from the tail, in the tail's draw order
        (backwards round the ring, shown tiles passed over as a replacement does).  The sensors say
        only how many tiles left each stack, never when.  `put_back`: the hand's last takes, put back
        meanwhile (`last_takes`): ordered as if already undone (they stand in the wall again)."""
        returned = {take.slot for take in put_back}
        gone: set[Slot] = set()
        for pos, tiles in lower.items():
            index = self._ring_index[pos]
            left = [s for s in (Slot(index, Layer.TOP), Slot(index, Layer.BOTTOM)) if s not in self.taken]
            gone.update(left[:max(0, len(left) - tiles)])        # a stack gives its top tile first
        heads: list[Slot] = []
        self.next_head()                        # (moves `_head_from` up to the first tile still in the wall)
        start = min([self._head_from] + [self.ring.slot_sequence(slot) for slot in returned])
        for slot in islice(self._head_order, start, None):
            if slot in gone:
                heads.append(slot)
            elif slot not in self.taken or slot in returned:
                break
        tail_rank = {slot: i for i, slot in enumerate(self._tail_order)}
        tails = sorted(gone.difference(heads), key=lambda slot: (self.covered(slot), tail_rank[slot]))
        counts = {pos: self.stack_tiles(pos) for pos in lower}
        return UnseenTakes(self._steps(tails[:owed], counts), self._steps(heads + tails[owed:], counts), len(put_back))

    def last_takes(self, count: int) -> list[Take]:
        """The hand's last `count` takes that a tile put back can undo, the last first (fewer if fewer)."""
        return list(islice(reversed(self.taken.values()), min(count, len(self._before))))

    def take_back(self) -> Take:
        """Undo the last take (`last_takes(1)`), as if it had not been made."""
        before = self._before.pop()
        slot = next(reversed(self.taken))
        take = self.taken.pop(slot)
        self._take_rows.pop()
        (self.head_taken, self.tail_taken, self.kongs, self.flowers_owed, self.special_owed,
         self._head_from, self._tail_from, self.flowers_left) = before
        return take

    def _steps(self, slots: list[Slot], counts: dict[StackPos, int]) -> tuple[tuple[StackPos, int], ...]:
        """One sensor change per slot taken: (stack, tiles it holds after), counting down `counts`."""
        steps = []
        for slot in slots:
            pos = self.ring[slot.ring]
            counts[pos] -= 1
            steps.append((pos, counts[pos]))
        return tuple(steps)

    def set_aside(self, slot: Slot) -> Take:
        """An indicator tile taken out of play (it will not be drawn)."""
        return self._record(slot, End.TAIL if self._is_tail_side(slot) else End.HEAD, "set_aside", True)

    def recount_flowers(self, kinds: frozenset[Tile]) -> None:
        """The bonus kinds changed (钻牌: 发 became the wild, 红中 takes its role): recount what is owed."""
        self.flower_kinds = frozenset(kinds)
        drawn = sum(1 for take in self.taken.values() if take.tile in self.flower_kinds and take.reason != "set_aside")
        replaced = sum(1 for take in self.taken.values() if take.reason == "flower")
        self.flowers_owed = max(0, drawn - replaced)
        self.flowers_left = min(self.flowers_left, self.flowers_owed)

    def expect_set_aside(self, slot: Slot) -> None:
        """An indicator tile is about to be taken out of play: the next take at its stack is it."""
        self.expected_aside.add(slot)

    def show(self, slot: Slot) -> None:
        """A tile turned face up in place; ordinary tail draws pass over it."""
        self.shown.add(slot)

    def _take_one(self, pos: StackPos, seen: bool) -> Take:
        index = self._ring_index[pos]
        aside = next((s for s in self.expected_aside if s.ring == index), None) if self.expected_aside else None
        if aside is not None:
            self.expected_aside.discard(aside)
            return self.set_aside(aside)
        head, tail = self.next_head(), self.next_tail()
        slot = self._first_untaken_slot(index)
        owed = self.kong_pending or self.flowers_owed or self.special_owed
        # A replacement owed is the next tail take: the last face-down tile, or a shown one on top
        # (杠上开花; at the wall end the head may stand at a shown tile's stack too).
        replacing = owed and (slot in self.shown or (tail is not None and tail.ring == index))
        if head is not None and head.ring == index and not replacing:   # (at the end both may be the last stack)
            return self._record(head, End.HEAD, self._head_reason(), self._head_in_order(seen))
        if tail is not None and tail.ring == index:
            # With nothing owed (no 杠 pressed, no flower drawn) the table expected a head draw: out of
            # order, said at once, so the tile is put back while it can still be undone.  Read back
            # after nobody watched it may be the replacement of a 杠 whose key comes after it.
            return self._record(tail, End.TAIL, self._tail_reason(tail), bool(owed) or not seen)
        if slot in self.shown:              # a shown tile taken (杠上开花): the flow checks a win follows
            return self._record(slot, End.TAIL, self._tail_reason(slot), bool(owed) or not seen,
                                at_wall_end=tail is None)
        end = End.TAIL if self._is_tail_side(slot) else End.HEAD
        reason = self._tail_reason(slot) if end is End.TAIL else self._head_reason()
        return self._record(slot, end, reason, False)

    def _head_in_order(self, seen: bool) -> bool:
        """A head take the draw order expects: every one of the deal; after it, none before play opens
        (an indicator still to be rolled, a special kong to be shown), none while a flower's
        replacement is owed (the tail first: a flower drawn and not replaced would take the next 杠's
        replacement), nor once the live wall is spent (the reserve is no one's to draw).  Read back
        after nobody watched, the order of the takes is this tracker's own guess: in order."""
        if not seen or self.head_taken < self.deal_size:
            return True
        return self.play_open and not self.flowers_owed and not self.exhausted

    def _head_reason(self) -> str:
        return "deal" if self.head_taken < self.deal_size else "draw"

    def _tail_reason(self, slot: Slot) -> str:
        """A flower just drawn is replaced before a 杠 pressed meanwhile: people press the kong key to
        补花, and its one tail take is then the flower's (the 杠 lapses at the next head draw,
        HandState; before, the 杠 took it and the flower stayed owed for the rest of the hand); a
        genuine kong made meanwhile takes a second tail tile, the kong's.  A flower left unreplaced
        (a head draw went past it) would swallow a later kong's one replacement: the 杠 comes first."""
        if self.flowers_owed > (self.flowers_left if self.kong_pending else 0):
            return "flower"
        return self.special_reason if self.special_owed else "kong"

    def owe_special(self, replacements: int, kongs: int, counted: bool) -> None:
        """An opening special kong was shown: `replacements` tail takes are its, and when special kongs
        count for the reserve it counts `kongs` kongs — those its replacements do not count, at once."""
        self.special_owed += replacements
        self.special_reason = "kong" if counted else "special"
        if counted:
            self.kongs += kongs - replacements

    @property
    def kongs_without_takes(self) -> int:
        """The kongs counted for the reserve that no take stands for: 长春's opening special kongs
        beyond their replacements (every other kong is counted at its tail take)."""
        return self.kongs - sum(1 for take in self.taken.values() if take.end is End.TAIL and take.reason == "kong")

    def _record(self, slot: Slot, end: End, reason: str, in_order: bool, at_wall_end: bool = False) -> Take:
        tile = self.wall_map.get(slot)
        self._before.append(_Before(self.head_taken, self.tail_taken, self.kongs, self.flowers_owed,
                                  self.special_owed, self._head_from, self._tail_from, self.flowers_left))
        if end is End.HEAD:
            self.head_taken += 1
        else:
            self.tail_taken += 1
            if reason == "flower":
                self.flowers_owed -= 1
                self.flowers_left = min(self.flowers_left, self.flowers_owed)
            elif self.special_owed:
                self.special_owed -= 1
                self.kongs += reason == "kong"
            elif reason == "kong":
                self.kongs += 1
        if end is End.HEAD and reason == "draw" and not in_order and self.play_open:
            self.flowers_left = self.flowers_owed   # play went on past them (a draw with none owed is in order)
        if tile is not None and tile in self.flower_kinds and reason != "set_aside":
            self.flowers_owed += 1
        taken = len(self.taken) + 1
        count = wall_count(self.reserve, self.ring.tile_count, taken - self.tail_taken, self.tail_taken, self.kongs)
        take = Take(end, slot, self.ring[slot.ring], reason, in_order, count.live,
                    count.reserved_full_stacks, self.kongs, tile, at_wall_end)
        self.taken[slot] = take
        self._counted = (taken, self.tail_taken, self.kongs), count     # (the count after it: asked next)
        self._take_rows.append(take.to_json())
        return take

    def takes_text(self) -> str:
        """`to_json()["takes"]` encoded as `compact_json` would, each row encoded once (`EncodedRows`)."""
        return self._take_rows.text()

    # -- state ---------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """What changes as the hand is played (the ring, reserve and wall come from the hand)."""
        return self._state_json(self._take_rows.json(), self._before.json())

    def journal_parts(self) -> tuple[dict[str, Any], dict[str, str]]:
        """`to_json()` with holes where its takes and undo rows go, and their texts (`encode_with`):
        each take's row is encoded once (the journal writes the tracker every few takes); the few undo
        rows kept, together at each write."""
        parts = {"takes": self.takes_text(), "undo": self._before.text()}
        return self._state_json(hole("takes"), hole("undo")), parts

    def _state_json(self, takes: Any, undo: Any) -> dict[str, Any]:
        return {"takes": takes,
                "shown": sorted(slot_json(s) for s in self.shown),
                "expected_aside": sorted(slot_json(s) for s in self.expected_aside),
                "head_taken": self.head_taken, "tail_taken": self.tail_taken, "kongs": self.kongs,
                "flowers_owed": self.flowers_owed, **self._flowers_left_json(),
                "flower_kinds": sorted(str(t) for t in self.flower_kinds),
                "special_owed": self.special_owed, "special_reason": self.special_reason, "undo": undo}

    def _flowers_left_json(self) -> dict[str, int]:
        """Rare: the journal stays as it was without it."""
        return {"flowers_left": self.flowers_left} if self.flowers_left else {}

    def restore(self, data: Mapping[str, Any]) -> None:
        self.taken = {take.slot: take for take in map(Take.from_json, data["takes"])}
        self._head_from = self._tail_from = 0
        self._take_rows = EncodedRows(dict, (take.to_json() for take in self.taken.values()))
        self._before = LastRows(_undo_row, UNDO_KEPT, (_Before(*before) for before in data.get("undo", ())))
        self.shown = {slot_from(s) for s in data["shown"]}
        self.expected_aside = {slot_from(s) for s in data["expected_aside"]}
        self.head_taken, self.tail_taken = data["head_taken"], data["tail_taken"]
        self.kongs, self.flowers_owed = data["kongs"], data["flowers_owed"]
        self.flowers_left = data.get("flowers_left", 0)
        self.flower_kinds = frozenset(Tile.parse(t) for t in data["flower_kinds"])
        self.special_owed, self.special_reason = data.get("special_owed", 0), data.get("special_reason", "kong")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WallTracker) and (self.ring, self.reserve, self.wall_map, self.deal_size) == \
            (other.ring, other.reserve, other.wall_map, other.deal_size) and self.to_json() == other.to_json()

    def _first_untaken_slot(self, index: int) -> Slot:
        for slot in self._stack_slots[index]:
            if slot not in self.taken:
                return slot
        raise TrackingError(f"stack {self.ring[index].wall}/{self.ring[index].stack} is already empty")

    def _is_tail_side(self, slot: Slot) -> bool:
        """Nearer the tail than the head, counting untaken stacks."""
        head = self.next_head()
        head_index = head.ring if head else len(self.ring)
        tail = self.next_tail(include_shown=True)
        tail_index = tail.ring if tail else 0
        return abs(tail_index - slot.ring) < abs(slot.ring - head_index)
