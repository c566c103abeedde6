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
from functools import cache

from drivers.messages import FaultCode
from drivers.rfid_protocol import push_slot
from rulesets.tiles import DRAGONS, FLOWERS, HONOURS, SUIT_NAMES_ZH, SUITED, WINDS, Tile
from rulesets.tilesets import TileSet
from rulesets.walls import Layer, Ring, Slot, StackPos

from .registry import SETS, TileRegistry

Position = tuple[StackPos, Layer]
LAYERS = (Layer.TOP, Layer.BOTTOM)


def describe(position: Position) -> str:
    pos, layer = position
    return f"slot side {pos.wall} stack {pos.stack} {layer.value}"


def describe_zh(position: Position) -> str:
    """The same slot for the display; sides and stacks numbered as in the English."""
    pos, layer = position
    return f"边{pos.wall} 墩{pos.stack} {'上层' if layer is Layer.TOP else '下层'}"


@cache
def _positions(stacks: tuple[int, int, int, int]) -> tuple[Position, ...]:
    return tuple((StackPos(side, stack), layer) for side in range(4) for stack in range(stacks[side])
                 for layer in LAYERS)


@dataclass(frozen=True)
class SetProblem:
    """One reason a built set may not reach play: English for the logs and the recorder, Chinese
    for the display's fault page."""

    code: FaultCode
    message: str
    text_zh: str


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
        known = []
        for uid in dict.fromkeys(uids):
            if self.registry.lookup(uid) is None:
                self.stray.append(uid)
            else:
                known.append(uid)
        if len(known) == 1:
            return known[0]         # one tag: this slot's tile (if it is placed already, a duplicated tag)
        placed = {u for u in self.uids.values() if u is not None}   # (only here: a set of every read so far)
        fresh = [uid for uid in known if uid not in placed]     # a doubled read: the previous tile's tag too
        return fresh[0] if len(fresh) == 1 else None

    def positions(self) -> tuple[Position, ...]:
        """Every slot of this table's walls (the same for every check of a build: made once)."""
        return _positions(self.stacks)

    def tile_at(self, pos: StackPos, layer: Layer) -> Tile | None:
        uid = self.uids.get((pos, layer))
        found = self.registry.lookup(uid) if uid else None
        return found.kind if found else None

    def unknown_tags(self) -> int:
        """How many of its slots hold a tag the registry does not know now: checked with tags that were
        enrolled then, it has been enrolled anew since (`enroll --replace`, while the table was stopped)."""
        return sum(1 for uid in self.uids.values() if uid is not None and self.registry.lookup(uid) is None)

    def uid_at(self, pos: StackPos, layer: Layer) -> bytes | None:
        return self.uids.get((pos, layer))

    def in_ring_order(self, ring: Ring) -> dict[Slot, Tile | None]:
        """Every slot of `ring` with the tile built there (None: unread)."""
        return {Slot(i, layer): self.tile_at(pos, layer) for i, pos in enumerate(ring.stacks) for layer in LAYERS}

    def check(self, expected: TileSet, expected_set: int | None = None, rules: str = "") -> list[SetProblem]:
        """Everything that keeps this set from play; [] when it may rise.  `rules` names the ruleset
        (its Chinese name) where the set is the wrong one for it."""
        problems: list[SetProblem] = []
        unread = [p for p in self.positions() if p in self.reads and self.uids.get(p) is None
                  and not self.only_unknown(p)]
        foreign = [p for p in self.positions() if p in self.reads and self.only_unknown(p)]
        unfilled = [p for p in self.positions() if p not in self.reads]
        if not self.reads:                            # not one tile built: every kind "missing" would hide why
            return [SetProblem(FaultCode.SET_MISMATCH,
                               "no tile was built: the mixer held none (are the tiles still on the table top? "
                               "push them into the centre), then press 确认",
                               "一张牌也没有建成：桌面上的牌推入中间后按确认")]
        if len(foreign) == len(self.reads):           # not one tag enrolled: 136 "foreign tiles" would hide why
            return [self._not_enrolled(len(foreign))]
        wrong_set = None if expected_set is None else \
            wrong_tile_set(self.registry.counts(expected_set), expected, rules)
        if wrong_set is not None:                     # the cause: the missing and extra tiles follow from it
            problems.append(wrong_set)
        for position in unread:
            seen = self.reads.get(position)
            why = "was not read" if not seen else f"read {len(seen)} tags and none can be told apart"
            why_zh = "没有读到" if not seen else f"读到{len(seen)}个标签，无法分辨"
            problems.append(SetProblem(FaultCode.SET_MISMATCH, f"{describe(position)} {why}; rebuild the set",
                                       f"{describe_zh(position)}{why_zh}：请重新洗牌"))
        placed = [u for u in (self.uids.get(p) for p in self.positions()) if u is not None]
        for uid, n in Counter(placed).items():
            if n > 1:
                problems.append(self._duplicated(uid, n))
        for position in foreign:
            uid = self.reads[position][0]
            # (the page names the slot, where a person finds the tile; a tag's number is for the log)
            problems.append(SetProblem(FaultCode.UNKNOWN_TAG,
                                       f"unknown tag {uid.hex()} at {describe(position)}: take the foreign tile out or enrol it",
                                       f"{describe_zh(position)}有未登记的牌"))
        found = [self.registry.lookup(u) for u in dict.fromkeys(placed)]
        if expected_set is not None:
            for entry in found:
                if entry and entry.tile_set != expected_set:
                    problems.append(SetProblem(FaultCode.WRONG_SET,
                                               f"{entry.kind.zh} ({entry.kind}) of set {entry.tile_set} in a build of set {expected_set}: take it out",
                                               f"混入另一副牌（第{entry.tile_set}副）的{entry.kind.zh}"))
        if wrong_set is not None:
            return problems
        kinds = Counter(e.kind for e in found if e and (expected_set is None or e.tile_set == expected_set))
        # a foreign tile does not hide what is missing (a probe: the page named only the foreign tile, the
        # person took it out, and the next build came up short); a slot not read does: it may be that tile
        problems += _multiset_problems(kinds, Counter(dict(expected.counts)), bool(unread), bool(foreign))
        if unfilled:                                  # after the named tiles: they say what to do
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"the build stopped with {len(unfilled)} empty slot(s): the set is short",
                                       f"有{len(unfilled)}个空位：牌不够"))
        return problems

    def _not_enrolled(self, read: int) -> SetProblem:
        """No tag of the build is in the registry: the set was never enrolled (a set not enrolled, a new
        set laid in), not a table of foreign tiles to take out one by one."""
        enrolled = self.registry.sets()
        missing = [s for s in SETS if not enrolled.get(s)]
        which = f"set {missing[0]}" if len(missing) == 1 else "this set"
        sets = ", ".join(f"set {s}: {enrolled[s]} tags" for s in sorted(enrolled)) or "none"
        return SetProblem(FaultCode.UNKNOWN_TAG,
                          f"none of the {read} tags read in this build is enrolled (enrolled: {sets}): {which} was "
                          f"never enrolled; enrol it (mahjong-table enroll --set {missing[0] if len(missing) == 1 else 'N'}), "
                          "then press 确认",
                          "这副牌未登记：请登记后按确认")

    def _duplicated(self, uid: bytes, n: int) -> SetProblem:
        """One tag read at `n` slots: the tile it is enrolled as and where, so a person finds both."""
        at = [p for p in self.positions() if self.uids.get(p) == uid]
        entry = self.registry.lookup(uid)
        kind, kind_zh = (f" ({entry.kind.zh}, {entry.kind})", entry.kind.zh) if entry else ("", "")
        return SetProblem(FaultCode.DUPLICATE_UID,
                          f"tag {uid.hex()}{kind} read at {n} slots ({', '.join(describe(p) for p in at)}): a "
                          "duplicated tag; take out the tile whose tag is a copy",
                          f"{kind_zh}标签重复：{'、'.join(describe_zh(p) for p in at)}")

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


def _multiset_problems(found: Counter, expected: Counter, unread: bool, foreign: bool = False) -> list[SetProblem]:
    problems = []
    or_retagged = " (or it is the tile with an unknown tag, re-tagged: enrol its tag)" if foreign else ""
    for kind in sorted(set(found) | set(expected)):
        have, want = found.get(kind, 0), expected.get(kind, 0)
        if have < want and not unread:
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"missing {want - have} × {kind.zh} ({kind}): find it and put it in the "
                                       f"table{or_retagged}",
                                       f"缺 {want - have} 张 {kind.zh}"))
        elif have > want and want == 0:
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"{have - want} extra {kind.zh} ({kind}) this ruleset does not use: take it out",
                                       f"多了 {have - want} 张 {kind.zh}（本规则不用）"))
        elif have > want:
            problems.append(SetProblem(FaultCode.SET_MISMATCH,
                                       f"{have - want} extra {kind.zh} ({kind}): the set holds {want}; take it out",
                                       f"多了 {have - want} 张 {kind.zh}（一副牌只有{want}张）"))
    return problems


# Parts of a tile set a person can be told to take out or add, by name, largest first.
TILE_GROUPS: tuple[tuple[str, frozenset[Tile]], ...] = (
    ("字牌", frozenset(HONOURS)), ("风牌", frozenset(WINDS)), ("中发白", frozenset(DRAGONS)),
    ("花牌", frozenset(FLOWERS)), *((f"{SUIT_NAMES_ZH[s]}子", frozenset(t for t in SUITED if t.suit == s)) for s in "mps"),
)


def name_tiles(kinds: set[Tile]) -> str:
    """Kinds as a person names them: whole groups by their name (字牌, 花牌, 万子 …), the rest one by one."""
    left = set(kinds)
    names = []
    for name, group in TILE_GROUPS:
        if group <= left:
            names.append(name)
            left -= group
    return "、".join(names + [kind.zh for kind in sorted(left)])


def wrong_tile_set(table: Counter, expected: TileSet, rules: str = "") -> SetProblem | None:
    """The set on the table (its enrolled kinds) is another kind of set than the ruleset plays
    (136 tiles for 四川's 108): one problem naming the cause, instead of the missing and extra
    tiles it makes.  None when the table's set has the kinds the ruleset plays."""
    want = dict(expected.counts)
    unused = {kind for kind, n in table.items() if n and not want.get(kind)}
    absent = {kind for kind, n in want.items() if n and not table.get(kind)}
    holds, plays = sum(table.values()), expected.size
    if not table or not (unused or absent) or (holds == plays and not (unused and absent)):
        return None                                   # the kinds it plays (a tile may be missing: said as such)
    who = rules.removesuffix("麻将") or rules
    todo_en = " and ".join([f"take out the {name_tiles(unused)}"] * bool(unused)
                           + [f"add the {name_tiles(absent)} (and enrol them)"] * bool(absent))
    todo_zh = "，".join([f"请取出{name_tiles(unused)}"] * bool(unused) + [f"请加入{name_tiles(absent)}并登记"] * bool(absent))
    if holds != plays:
        return SetProblem(FaultCode.SET_MISMATCH, f"this table holds {holds} tiles; {who or 'this ruleset'} plays {plays}: {todo_en}",
                          f"牌桌有{holds}张牌，{who or '本规则'}用{plays}张：{todo_zh}")
    return SetProblem(FaultCode.SET_MISMATCH, f"this table's {holds} tiles are not the set {who or 'this ruleset'} plays: {todo_en}",
                      f"牌桌的牌与{who or '本规则'}不符：{todo_zh}")
