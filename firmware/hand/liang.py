"""沈阳 亮牌: a seat shows 东南西北 or 中发白 during play (RULES.md §32.3).

「①手中有“东南西北”各一张时可以亮出，并“过杠”，这与“杠”的操作基本相同。注意只有在本家摸牌之后才能亮出。」
「②手中有“中发白”各一张时可以亮出。即使没有轮到本家摸牌时也可以亮出。」 「“亮牌”为2番」
「（有时不允许亮出或从第二次摸牌起不允许亮出）」 (house option `liang_window`).

The table cannot see the hand, so the seat declares: it presses ▶ (a key play uses for nothing
else), lays the set on its read zone when line 1 reads `摆亮牌后确认`, and presses 确认.  The table
checks the tiles: one each of 东南西北, or one each of 中发白; a set this seat has not shown yet; tiles
that have left the wall and are not in anyone's earlier 亮牌; within the window.  It records the
亮牌 (`liang_pai`, public: the tiles are face up) and shows it on the public line and the seat's
line.  A 东南西北 亮牌 is a 过杠: like a kong it takes one replacement from the tail (`亮牌补牌 1`),
counted for the reserve as a kong replacement, and a win on that replacement is a win on a kong's
replacement.  A 中发白 亮牌 takes none: its three tiles are a set, so the hand size stays right.
The shown set is a meld the win check splits from the read zone (`HandFacts.special_melds`) and
the scorer counts (亮牌 2番).

What the table cannot check: whose draw came last (the players keep the turn, as with discards),
so 「只有在本家摸牌之后」 is the players' to keep; 「从第二次摸牌起」 is counted from the head draws
since the deal (a seat's first draw falls within the first round of draws when nobody claims).
"""

from __future__ import annotations

from collections import Counter

from drivers.table_ui import LAY_LIANG, LIANG, LIANG_REFUSED, LIANG_REPLACE, Phase
from rulesets.liang_pai import REPLACEMENTS, set_named
from rulesets.tiles import Tile

from .ports import HandPorts, stray_tags
from .questions import confirmed
from .state import HandState


def window_closed(hand: HandState) -> str | None:
    """Why the house option `liang_window` forbids a 亮牌 now, or None."""
    window = hand.ruleset.option("liang_window")
    if window == "off":
        return "亮牌 is not allowed at this table (liang_window=off)"
    if window == "first_draw" and hand.draws_after_deal() >= len(hand.ruleset.players):
        return "亮牌 is allowed only before one's second draw (liang_window=first_draw)"
    return None


def refusal(hand: HandState, seat: int, laid: list[Tile | None]) -> tuple[str | None, str | None]:
    """(the set's name, why it is refused or None)."""
    tiles = tuple(t for t in laid if t is not None)        # a stray tag near the antenna is no tile
    name = set_named(tiles)
    if name is None:
        return None, "the laid tiles are not one each of 东南西北 nor one each of 中发白"
    closed = window_closed(hand)
    if closed is not None:
        return name, closed
    if any(side == seat and shown == name for side, shown, _ in hand.facts.liang):
        return name, f"this seat has shown its {name} already"
    if REPLACEMENTS[name] and hand.tracker.exhausted:
        return name, "no live tile is left for the 过杠's replacement"
    out_of_wall = Counter(hand.wall[slot] for slot in hand.tracker.taken)
    out_of_wall.subtract(Tile.parse(t) for _, _, shown in hand.facts.liang for t in shown)
    if Counter(tiles) - +out_of_wall:
        return name, "a laid tile is still in the wall or already shown in a 亮牌"
    return name, None


class LiangDesk:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports
        self._told: set[tuple[int, int, str]] = set()    # (hand, seat, set) whose `亮牌 <set>` this process showed

    async def declare(self, hand: HandState, seat: int) -> None:
        """The seat pressed ▶: it lays its set; the table judges it, and waits for a 过杠's replacement."""
        ports = self.ports
        await confirmed(ports, seat, LAY_LIANG)
        laid = [ports.lookup(uid) for uid in await ports.read_zone(seat)]
        tiles = sorted(t for t in laid if t is not None)
        again = self._untold(hand, seat, laid)
        if again is not None:               # laid again after a restart: it never saw the judgement
            await self._replacement(hand, seat, again)
            return
        name, reason = refusal(hand, seat, laid)
        replacements = REPLACEMENTS[name] if name is not None and reason is None else 0
        ports.recorder.emit("liang_pai", seat=seat, name=name, tiles=[str(t) for t in tiles], accepted=reason is None,
                            reason=reason, replacements=replacements, **stray_tags(laid))
        if reason is not None or name is None:
            ports.screens.prompt(seat, LIANG_REFUSED)
            return
        hand.facts.liang.append([seat, name, [str(t) for t in tiles]])
        if replacements:
            hand.tracker.owe_special(replacements, replacements, counted=True)   # a 过杠: a kong's replacement
        # the seat counts its set shown, and takes a 过杠's replacement, once it reads the lines below:
        # a restart must know the 亮牌 they are for
        await ports.journaled()
        ports.screens.phase(Phase.LAST_TILE if hand.tracker.exhausted else Phase.PLAY,
                            f"{hand.wind_name(seat)}家{LIANG} {name}")
        await self._replacement(hand, seat, name)

    async def resume(self, hand: HandState) -> None:
        """After a restart, before play goes on: a 过杠 judged before it whose replacement is still
        owed (its line may never have been shown) is asked for again."""
        if hand.tracker.special_owed and hand.facts.liang:
            seat, name, _ = hand.facts.liang[-1]
            await self._replacement(hand, seat, name)

    def _untold(self, hand: HandState, seat: int, laid: list[Tile | None]) -> str | None:
        """The set's name when these are exactly the tiles of a 亮牌 this seat showed before a restart,
        whose `亮牌 <set>` this process never showed, else None.  A seat whose 确认 the restart may have
        lost lays it again (the note asks for unanswered keys again): the table answers as it did
        before, and records nothing new.  (Laid again otherwise, a set shown is refused: once each.)"""
        if None in laid:
            return None
        tiles = sorted(str(t) for t in laid)
        return next((name for side, name, shown in hand.facts.liang
                     if side == seat and sorted(shown) == tiles and (hand.number, seat, name) not in self._told), None)

    async def _replacement(self, hand: HandState, seat: int, name: str) -> None:
        """`亮牌补牌 N` until the seat took the tail tiles its 过杠 owes (none for 中发白); then `亮牌 <set>`."""
        ports = self.ports
        if hand.tracker.special_owed:
            ports.screens.prompt(seat, f"{LIANG_REPLACE} {hand.tracker.special_owed}")
            await ports.until(lambda: not hand.tracker.special_owed)
        ports.screens.prompt(seat, f"{LIANG} {name}")
        self._told.add((hand.number, seat, name))


__all__ = ["LiangDesk", "refusal", "window_closed"]
