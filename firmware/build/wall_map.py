"""The wall map: every stacking-head read lands in its (side, stack, layer) slot; the set check.

Reads are resolved with the tile registry.  A read with several UIDs is a doubled read (the
previous tile's tag still in the field) or a stray tag: the UIDs already placed, unknown ones and
tiles of another set are set aside, and exactly one candidate must remain.  Nothing is guessed:
a slot with no candidate is *unread*, one with several is *ambiguous*, and both stop the set
from reaching play.  Before the walls rise, `check()` compares the map with the ruleset's tile
set and names every missing, extra, duplicated, unknown or other-set tile.

One wall coordinate: a position is a `StackPos` and a `Layer`.  The hand asks for the tiles in
its ring's draw order (`in_ring_order`); that conversion lives here and nowhere else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from drivers.messages import FaultCode
from drivers.rfid_protocol import push_slot
from rulesets.tiles import Tile
from rulesets.tilesets import TileSet
from rulesets.walls import Layer, Ring, Slot, StackPos

from .registry import TileRegistry

Position = tuple[StackPos, Layer]
LAYERS = (Layer.TOP, Layer.BOTTOM)


def describe(position: Position) -> str:
    pos, layer = position
    return f"slot side {pos.wall} stack {pos.stack} {layer.value}"


@dataclass(frozen=True)
class SetProblem:
    """One reason a built set may not reach play, as the fault shows it."""

    code: FaultCode
    message: str


@dataclass
class WallMap:
    """The slots of one build: position → UID (None while unread or unresolved)."""

    tile_set: int | None
    stacks: tuple[int, int, int, int]
    registry: TileRegistry
    reads: dict[Position, tuple[bytes, ...]] = field(default_factory=dict)
    uids: dict[Position, bytes | None] = field(default_factory=dict)
    stray: list[bytes] = field(default_factory=list)        # unknown tags seen at the heads

    def on_head_read(self, lane: int, push_index: int, uids: tuple[bytes, ...]) -> None:
        slot = push_slot(lane, push_index)
        position = (StackPos(slot.side, slot.stack), Layer(slot.layer))
        self.reads[position] = tuple(uids)
        self.uids[position] = self._resolve(uids)

    def _resolve(self, uids: tuple[bytes, ...]) -> bytes | None:
        placed = {u for u in self.uids.values() if u is not None}
        known = []
        for uid in dict.fromkeys(uids):
            if self.registry.lookup(uid) is None:
                self.stray.append(uid)
            else:
                known.append(uid)
        if len(known) == 1:
            return known[0]         # one tag: this slot's tile (if it is placed already, a duplicated tag)
        fresh = [uid for uid in known if uid not in placed]     # a doubled read: the previous tile's tag too
        return fresh[0] if len(fresh) == 1 else None

    def positions(self) -> list[Position]:
        return [(StackPos(side, stack), layer) for side in range(4) for stack in range(self.stacks[side])
                for layer in LAYERS]

    def tile_at(self, pos: StackPos, layer: Layer) -> Tile | None:
        uid = self.uids.get((pos, layer))
        found = self.registry.lookup(uid) if uid else None
        return found.kind if found else None

    def uid_at(self, pos: StackPos, layer: Layer) -> bytes | None:
        return self.uids.get((pos, layer))

    def in_ring_order(self, ring: Ring) -> dict[Slot, Tile | None]:
        """Every slot of `ring` with the tile built there (None: unread)."""
        return {Slot(i, layer): self.tile_at(pos, layer) for i, pos in enumerate(ring.stacks) for layer in LAYERS}

    def check(self, expected: TileSet, expected_set: int | None = None) -> list[SetProblem]:
        """Everything that keeps this set from play; [] when it may rise."""
        problems: list[SetProblem] = []
        unread = [p for p in self.positions() if p in self.reads and self.uids.get(p) is None
                  and not self.only_unknown(p)]
        foreign = [p for p in self.positions() if p in self.reads and self.only_unknown(p)]
        unfilled = [p for p in self.positions() if p not in self.reads]
        for position in unread:
            seen = self.reads.get(position)
            why = "was not read" if not seen else f"read {len(seen)} tags and none can be told apart"
            problems.append(SetProblem(FaultCode.SET_MISMATCH, f"{describe(position)} {why}; rebuild the set"))
        placed = [u for u in (self.uids.get(p) for p in self.positions()) if u is not None]
        for uid, n in Counter(placed).items():
            if n > 1:
                problems.append(SetProblem(FaultCode.DUPLICATE_UID, f"tag {uid.hex()} read at {n} slots: a duplicated tag"))
        for position in foreign:
            uid = self.reads[position][0]
            problems.append(SetProblem(FaultCode.UNKNOWN_TAG,
                                       f"unknown tag {uid.hex()} at {describe(position)}: take the foreign tile out or enrol it"))
        found = [self.registry.lookup(u) for u in dict.fromkeys(placed)]
        if expected_set is not None:
            for entry in found:
                if entry and entry.tile_set != expected_set:
                    problems.append(SetProblem(FaultCode.WRONG_SET,
                                               f"{entry.kind.zh} ({entry.kind}) of set {entry.tile_set} in a build of set {expected_set}: take it out"))
        kinds = Counter(e.kind for e in found if e and (expected_set is None or e.tile_set == expected_set))
        problems += _multiset_problems(kinds, Counter(dict(expected.counts)), bool(unread or foreign))
        if unfilled:                                  # after the named tiles: they say what to do
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"the build stopped with {len(unfilled)} empty slot(s): the set is short"))
        return problems

    def only_unknown(self, position: Position) -> bool:
        """The slot's read held tags, none of them registered: a foreign tile lies there."""
        seen = self.reads.get(position, ())
        return bool(seen) and all(self.registry.lookup(uid) is None for uid in seen)

    def to_json(self) -> dict:
        """The reads and their resolution (the journal keeps a checked set across a restart)."""
        return {"tile_set": self.tile_set, "stacks": list(self.stacks),
                "slots": [[pos.wall, pos.stack, layer.value, [u.hex() for u in self.reads[(pos, layer)]],
                           uid.hex() if (uid := self.uids.get((pos, layer))) else None]
                          for pos, layer in self.positions() if (pos, layer) in self.reads],
                "stray": [u.hex() for u in self.stray]}

    @staticmethod
    def from_json(data: dict, registry: TileRegistry) -> "WallMap":
        wall_map = WallMap(data["tile_set"], tuple(data["stacks"]), registry)  # type: ignore[arg-type]
        for wall, stack, layer, reads, uid in data["slots"]:
            position = (StackPos(wall, stack), Layer(layer))
            wall_map.reads[position] = tuple(bytes.fromhex(u) for u in reads)
            wall_map.uids[position] = bytes.fromhex(uid) if uid else None
        wall_map.stray = [bytes.fromhex(u) for u in data["stray"]]
        return wall_map

    def stray_tags(self) -> list[bytes]:
        """Unregistered tags seen beside a slot's own tile (noise near an antenna): warned, not fatal."""
        return list(dict.fromkeys(self.stray))


def _multiset_problems(found: Counter, expected: Counter, unread: bool) -> list[SetProblem]:
    problems = []
    for kind in sorted(set(found) | set(expected)):
        have, want = found.get(kind, 0), expected.get(kind, 0)
        if have < want and not unread:
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"missing {want - have} × {kind.zh} ({kind}): find it and put it in the table"))
        elif have > want:
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"{have - want} extra {kind.zh} ({kind}) this ruleset does not use: take it out"))
    return problems
