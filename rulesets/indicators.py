"""Indicator policies: where an indicator lies, when it is shown, what it makes special.

An `IndicatorRule` combines:
- a position rule (which slot of the ring holds the indicator tile, given the ring, the draws so
  far and the indicator's own dice),
- a derivation (which kinds the flipped tile makes special: its successor, its own kind, its own
  kind and the next, or a fixed kind),
- an effect (wild; a paying tile such as 鸡; a seat pick such as 马/鸟; or merely shown),
- timing, visibility (public, or private to one seat) and whether the tile stays in play.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import islice
from typing import Iterator, Sequence

from .cycles import SuccessorCycle
from .tiles import Tile
from .walls import End, Layer, Ring, Slot, StackPos, WallLayout, previous_side

# The names used in events and on the display.
KIND_NAMES_ZH = {
    "bao": "宝", "caishen": "财神", "zuanpai": "钻牌", "baida": "百搭", "hun": "混儿", "jing": "精",
    "laizi": "赖子", "ji": "鸡", "ma": "马", "niao": "鸟", "weipai": "尾牌",
}


class Timing(str, Enum):
    AFTER_DEAL = "after_deal"    # shown once the deal is complete
    ON_READY = "on_ready"        # chosen when the first player declares 听 (长春 宝)
    AFTER_WIN = "after_win"      # flipped once the hand is won (鸡 马 鸟)
    FIXED = "fixed"              # never flipped: a fixed kind (杭州 白板)


class Effect(str, Enum):
    WILD = "wild"                # stands for any tile
    PAYING = "paying"            # holders are paid (鸡)
    SEAT_PICK = "seat_pick"      # the tile's number picks a seat (马 鸟)
    SHOWN = "shown"              # only shown (云南 尾牌)


@dataclass(frozen=True)
class RevealContext:
    """What a position rule may look at.

    A slot that has left the wall can never be flipped (it is in someone's hand: flipping it is
    impossible, and naming it shows a hidden tile), so every position rule passes over such
    slots — but one: 长沙's bird when no tile is left names the last tile taken (`last_taken`),
    after a win that ends the hand, when nothing is hidden any more.  Takes follow the draw order,
    so `next_head` and `tail_taken` say which slots are gone; `taken` adds the slots taken out of
    order (a tile set aside, a shown tail tile taken by 杠上开花) when the caller knows them.
    """

    ring: Ring
    layout: WallLayout
    dealer: int
    next_head: int                 # the next head-draw sequence position
    tail_taken: int = 0            # tiles drawn from the tail so far
    roll: tuple[int, ...] = ()     # the indicator's own dice, if it uses any
    taken: frozenset[Slot] = frozenset()   # slots taken out of draw order
    kongs: int = 0                 # the kongs the indicator is turned up for (贵州 明鸡 「有杠牌就要翻第四墩」)
    last_taken: Slot | None = None  # the slot taken last (长沙's bird when the wall has run out)

    def gone(self, slot: Slot) -> bool:
        """Whether the slot has already left the wall."""
        if slot in self.taken or self.ring.slot_sequence(slot) < self.next_head:
            return True
        from_tail = 2 * (len(self.ring) - 1 - slot.ring) + (0 if slot.layer is Layer.TOP else 1)
        return from_tail < self.tail_taken

    def head_order(self, start: int) -> Iterator[Slot]:
        """Standing slots in head-draw order from sequence position `start`."""
        for position in range(max(start, 0), self.ring.tile_count):
            slot = self.ring.head_slot(position)
            if not self.gone(slot):
                yield slot

    def tail_order(self, start: int) -> Iterator[Slot]:
        """Standing slots in tail-draw order from the `start`-th tail draw."""
        for taken in range(max(start, 0), self.ring.tile_count):
            slot = self.ring.tail_slot(taken)
            if not self.gone(slot):
                yield slot

    def tail_tops(self) -> Iterator[Slot]:
        """The top tiles of the stacks still standing whole, from the tail towards the head: a
        lone tile left by an odd number of tail draws is not a stack (「杠完后留的单数海底牌不算一墩」)."""
        last_full = len(self.ring) - 1 - (self.tail_taken + 1) // 2
        for index in range(last_full, -1, -1):
            top = Slot(index, Layer.TOP)
            if not self.gone(top):
                yield top


class PositionError(ValueError):
    """The indicator's position cannot be found (e.g. the count runs past the wall)."""


# --- position rules --------------------------------------------------------------------------

@dataclass(frozen=True)
class NextHeadTile:
    """The next tile at the head after the deal: 「各家拿完跳牌的下一张牌」 (螺山 §31.3)."""

    name: str = "next_head_tile"

    def describe(self) -> str:
        return "the next head tile after the deal"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        return tuple(islice(ctx.head_order(ctx.next_head), 1))


@dataclass(frozen=True)
class TailTop:
    """The top tile of the last standing stack: 「开牌时将杠尾的一张牌翻开」 (百搭 §27)."""

    name: str = "tail_top"

    def describe(self) -> str:
        return "the top tile of the tail stack (杠尾)"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        return (_tail_top(ctx, 0),)


@dataclass(frozen=True)
class TailTops:
    """Two tail tiles shown at the start (云南 §29.3): by default the tops of the last two stacks."""

    reading: str = "tops_of_last_two"      # or "both_of_last_stack"
    name: str = "tail_tops"

    def describe(self) -> str:
        if self.reading == "tops_of_last_two":
            return "the top tiles of the last two stacks at the tail"
        return "both tiles of the last stack at the tail"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        if self.reading == "tops_of_last_two":
            return (_tail_top(ctx, 0), _tail_top(ctx, 1))
        top = _tail_top(ctx, 0)
        return (top, Slot(top.ring, Layer.BOTTOM))


@dataclass(frozen=True)
class CountFromTail:
    """Counted from the tail by dice (长春 宝 §1.3; 混儿 by dice): the n-th stack's top, or the n-th tile.

    `unit="stacks"` counts standing stacks from the tail and takes the top tile (「数几摞」);
    `unit="tiles"` counts tiles in tail-draw order (「倒数第5个牌位」).  `fixed` counts a fixed number
    instead of dice (贵州 打明鸡 「起牌后三墩翻起」).
    """

    unit: str = "stacks"
    fixed: int = 0
    name: str = "count_from_tail"

    def describe(self) -> str:
        what = f"{self.fixed}" if self.fixed else "the dice"
        if self.unit == "stacks":
            return f"count {what} stacks back from the tail; the top tile"
        return f"count {what} tiles back from the tail in tail-draw order"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        count = self.fixed or sum(ctx.roll)
        if count < 1:
            raise PositionError("counting from the tail needs the dice")
        if self.unit == "stacks":
            return (_tail_top(ctx, count - 1),)
        standing = list(ctx.tail_order(ctx.tail_taken))
        if not standing:
            raise PositionError("no tile is left to count from the tail")
        return (standing[(count - 1) % len(standing)],)


@dataclass(frozen=True)
class StackFromOriginalTail:
    """The top of the (`stack` + kongs)-th stack counted from the ring's original tail end (贵州 打明鸡
    「而且有杠牌 就要翻第四墩～以此类推」: the 3rd stack after the deal, the 4th after the first kong, …).

    Counted over the ring as built, not over the stacks still standing: a kong's replacement takes
    tiles from the tail, and the table's 4th stack is the one that was 4th when the wall was built
    (counted over standing stacks, the replacements would pull the 明鸡 back towards the tail).  The
    replacements reach the top of stack s + k only at the 2·(s + k − 1) + 1-th tail take, so after k
    kongs it is always there; the head may have drawn it at the end of a long hand: then nothing is
    turned up (no slot: `()`), never a tile already taken.
    """

    stack: int = 3
    name: str = "stack_from_original_tail"

    def describe(self) -> str:
        return f"the top of stack {self.stack} + the kongs so far, counted from the wall's original tail"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        index = len(ctx.ring) - self.stack - ctx.kongs
        if index < 0:
            return ()
        top = Slot(index, Layer.TOP)
        return () if ctx.gone(top) else (top,)


@dataclass(frozen=True)
class UpperTilesOnWall:
    """钻牌 (§26.1): on the dealer's 上家's wall, count the third roll 逆时针 over upper tiles only.

    「钻牌为庄家的上家（顺时针未动过的第一家的牌墙）逆时针数至与掷骰数值对应的那张牌翻开（只数上层牌）」.
    Counting 逆时针 along a wall starts at its left end (the player's left), so the v-th upper tile
    is stack S−v; a count past the wall's end continues on the next wall 逆时针.
    `wall_rule="first_untouched"` reads the parenthesis as "the first wall clockwise from the
    break that the deal has not touched".  `extra` is added to the roll's value (「根据所打数值（+1循环）」
    read as counting the value + 1).
    """

    wall_rule: str = "upper_house"
    extra: int = 0
    name: str = "upper_tiles_on_wall"

    def describe(self) -> str:
        wall = "the dealer's 上家's wall" if self.wall_rule == "upper_house" else "the first wall clockwise the deal left untouched"
        value = "the indicator roll" if not self.extra else f"the indicator roll + {self.extra}"
        return f"{value} counted 逆时针 over upper tiles on {wall}"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        count = sum(ctx.roll) + self.extra
        if count < 1:
            raise PositionError("钻牌 needs the third roll")
        wall = previous_side(ctx.dealer) if self.wall_rule == "upper_house" else _first_untouched_wall(ctx)
        order = list(reversed(ctx.layout.clockwise_from(wall)))   # every stack, 逆时针
        start = order.index(StackPos(wall, ctx.layout.stacks_per_side[wall] - 1))  # the wall's left end
        tops = (Slot(ctx.ring.index_of(order[(start + i) % len(order)]), Layer.TOP) for i in range(len(order)))
        standing = [t for t in tops if not ctx.gone(t)]           # only the upper tiles still there count
        if not standing:
            raise PositionError("no upper tile is left to count")
        return (standing[(count - 1) % len(standing)],)


@dataclass(frozen=True)
class AfterWinFlips:
    """Tiles flipped after a win: 鸡 the next head tile (§13.2), 马 from the tail, 鸟 from the front."""

    count: int = 1
    end: End = End.HEAD
    last_when_out: bool = False    # no tile left: the last tile taken is the one flip (长沙 海底鸟)
    name: str = "after_win_flips"

    def describe(self) -> str:
        where = "next undrawn head tile(s)" if self.end is End.HEAD else "tile(s) at the tail"
        out = "; with none left, the last tile taken" if self.last_when_out else ""
        return f"after the win, flip {self.count} {where}{out}"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        flips = tuple(islice(self._standing(ctx), self.count))     # fewer when the wall has run out
        if not flips and self.last_when_out and ctx.last_taken is not None:
            return (ctx.last_taken,)
        return flips

    def names_a_taken_slot(self, slots: tuple[Slot, ...], ctx: RevealContext) -> bool:
        """Whether `slots` are the last-tile flip of a wall run out: the one flip that names a slot gone."""
        return self.last_when_out and slots == (ctx.last_taken,) == self.slots(ctx)

    def _standing(self, ctx: RevealContext) -> Iterator[Slot]:
        return ctx.head_order(ctx.next_head) if self.end is End.HEAD else ctx.tail_order(ctx.tail_taken)


@dataclass(frozen=True)
class NoPosition:
    """A fixed kind: nothing is flipped (杭州 白板 财神, RESEARCH.md §3.4)."""

    name: str = "none"

    def describe(self) -> str:
        return "nothing is flipped"

    def slots(self, ctx: RevealContext) -> tuple[Slot, ...]:
        return ()


PositionRule = (NextHeadTile | TailTop | TailTops | CountFromTail | StackFromOriginalTail | UpperTilesOnWall | AfterWinFlips
                | NoPosition)


def _tail_top(ctx: RevealContext, stacks_back: int) -> Slot:
    """The top of the stack `stacks_back` standing stacks before the last full stack at the tail.

    A count longer than the stacks still standing goes round them again (not stated by the texts;
    with the default one die the 长春 宝 always lies within the 7-stack reserve).
    """
    tops = list(ctx.tail_tops())
    if not tops:
        raise PositionError("no whole stack is left to count from the tail")
    return tops[stacks_back % len(tops)]


def _first_untouched_wall(ctx: RevealContext) -> int:
    taken_stacks = (ctx.next_head + 1) // 2
    touched = {ctx.ring[i].wall for i in range(min(taken_stacks, len(ctx.ring)))}
    for pos in ctx.ring.stacks:
        if pos.wall not in touched:
            return pos.wall
    raise PositionError("every wall has been touched by the deal")


# --- derivations -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Derivation:
    """Which kinds a flipped tile makes special.

    rule: "successor" (the next kind in `cycle`), "same" (the flipped kind itself),
    "same_and_next" (both: 南昌 正精 + 副精; 河北 混儿 reading (a)), "fixed" (always `fixed`),
    "none" (the tile is only shown).
    """

    rule: str
    cycle: SuccessorCycle | None = None
    fixed: Tile | None = None
    extra: tuple[Tile, ...] = ()       # kinds always special besides (贵州 英雄鸡 1条)

    def describe(self) -> str:
        text = {
            "successor": f"the next kind after the flipped tile ({self.cycle.describe() if self.cycle else ''})",
            "same": "the flipped tile's own kind",
            "same_and_next": f"the flipped kind and the next ({self.cycle.describe() if self.cycle else ''})",
            "fixed": f"always {self.fixed.zh if self.fixed is not None else '?'}",
            "none": "nothing: the tile is only shown",
        }[self.rule]
        if self.extra:
            text += "; always also " + " ".join(t.zh for t in self.extra)
        return text

    def kinds(self, flipped: Tile | None) -> tuple[Tile, ...]:
        """The special kinds, in a stable order (for 正精/副精: the flipped kind first)."""
        out: list[Tile] = []
        if self.rule == "fixed" and self.fixed is not None:
            out.append(self.fixed)
        elif flipped is not None and self.rule != "none":
            if self.rule in ("same", "same_and_next"):
                out.append(flipped)
            if self.rule in ("successor", "same_and_next") and self.cycle is not None:
                nxt = self.cycle.successor(flipped)
                if nxt is not None:
                    out.append(nxt)
        for tile in self.extra:
            if tile not in out:
                out.append(tile)
        return tuple(out)


@dataclass(frozen=True)
class IndicatorRule:
    """One indicator of a region."""

    kind: str                         # "bao", "caishen", … (KIND_NAMES_ZH)
    timing: Timing
    position: PositionRule
    derivation: Derivation
    effect: Effect
    public: bool = True
    stays_in_play: bool = True        # the flipped tile is later drawn like any other
    stand_in: Tile | None = None      # a kind that plays the wild kind's natural face
    stand_in_limit: int | None = None  # 1: only one tile of it may (the others are themselves); None: every one
    position_dice: int = 0            # dice rolled to find the position (0 = none)
    redraw_when_dead: bool = False    # 换宝: choose again when the kind is dead (长春)
    only_self_drawn: bool = False     # an after-win flip only after a self-drawn win (贵州 自抠后翻鸡)
    replaces_at_wall_end: bool = False  # a shown tile (云南 尾牌) is a kong's replacement once no face-down tail tile is left
    # after each kong's replacement another tile is turned up at `kong_position` (贵州 明鸡 「有杠牌就要翻第四墩」):
    # "add" — every one turned up counts (§13.3 a2); "move" — only the latest counts (a1); "" — none
    on_kong: str = ""
    kong_position: PositionRule | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def name_zh(self) -> str:
        return KIND_NAMES_ZH[self.kind]

    def special_kinds(self, flipped: Tile | None) -> tuple[Tile, ...]:
        return self.derivation.kinds(flipped)

    def describe(self) -> str:
        parts = [f"{self.name_zh} ({self.kind})", f"when: {self.timing.value}",
                 f"where: {self.position.describe()}", f"makes: {self.derivation.describe()}",
                 f"effect: {self.effect.value}", "public" if self.public else "private to the ready seat",
                 "the tile stays in play" if self.stays_in_play else "the tile is set aside"]
        if self.stand_in is not None:
            one = "one " if self.stand_in_limit == 1 else ""
            parts.append(f"{one}{self.stand_in.zh} plays the wild kind's natural face"
                         + (f" (any other {self.stand_in.zh} is itself)" if one else ""))
        if self.position_dice:
            parts.append(f"{self.position_dice} die/dice rolled for the position")
        if self.on_kong and self.kong_position is not None:
            counted = "every one counts" if self.on_kong == "add" else "only the latest counts"
            parts.append(f"after each kong's replacement another is turned up ({self.kong_position.describe()}); {counted}")
        if self.replaces_at_wall_end:
            parts.append("once no face-down tail tile is left, a kong's replacement is a shown tile")
        return "; ".join(parts)


def seat_for_number(number: int, start: int, sides: Sequence[int]) -> int:
    """The side a tile number picks, counting `start` as 1 逆时针 (买马 §7.3, 扎鸟 1/5/9)."""
    ordered = sorted(sides)
    return ordered[(ordered.index(start) + number - 1) % len(ordered)]
