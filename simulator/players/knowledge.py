"""What every player at the table knows: discards, shown melds, flowers, who is ready, who won.

Hands are not here: each `Player` keeps his own (player.py).  The players share this one object
the way people share a table top.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rulesets.hand import Meld, MeldKind
from rulesets.tiles import Tile


@dataclass
class SeatView:
    discards: list[Tile] = field(default_factory=list)   # the river (claimed tiles leave it)
    melds: list[Meld] = field(default_factory=list)      # shown melds and kongs
    flowers: list[Tile] = field(default_factory=list)
    ready: bool = False
    out: bool = False                                   # 血战到底: won and left the hand
    wins: int = 0


@dataclass
class TableView:
    sides: tuple[int, ...]
    dealer: int
    seats: dict[int, SeatView] = field(default_factory=dict)
    wilds: tuple[Tile, ...] = ()          # public wild kinds (t_wild)
    shown: tuple[Tile, ...] = ()          # public indicator tiles (t_ind)
    aside: list[Tile] = field(default_factory=list)   # tiles out of play: indicators, won tiles
    discard_log: list[tuple[int, Tile]] = field(default_factory=list)   # every discard, in order (跟庄)
    claims: list[tuple[int, int, str, int]] = field(default_factory=list)   # (claimer, discarder, 吃/碰/杠, discard's index)
    won_at: list[int] = field(default_factory=list)     # the indices of the discards won on (血流, 一炮多响)

    def __post_init__(self) -> None:
        for side in self.sides:
            self.seats.setdefault(side, SeatView())
        self._ordered = tuple(sorted(self.sides))     # turn order (asked at every discard)

    # -- seats in play order -------------------------------------------------------------------

    def in_play(self) -> tuple[int, ...]:
        return tuple(s for s in self.sides if not self.seats[s].out)

    def next_seat(self, seat: int) -> int:
        """下家 among the seats still in the hand."""
        ordered = self._ordered
        i = ordered.index(seat)
        for step in range(1, len(ordered) + 1):
            other = ordered[(i + step) % len(ordered)]
            if not self.seats[other].out:
                return other
        return seat

    def after(self, seat: int) -> tuple[int, ...]:
        """The other seats in the hand, in turn order from `seat`'s 下家."""
        ordered = self._ordered
        i = ordered.index(seat)
        seats = self.seats
        return tuple(o for o in ordered[i + 1:] + ordered[:i] if not seats[o].out)

    def upper(self, seat: int) -> int:
        """上家 (over all playing sides)."""
        ordered = self._ordered
        return ordered[(ordered.index(seat) - 1) % len(ordered)]

    # -- what is visible ---------------------------------------------------------------------

    def visible(self) -> Counter:
        tiles = [*self.shown, *self.aside]     # (counted at once: each Counter.update checks its argument's type)
        for view in self.seats.values():
            tiles += view.discards
            tiles += view.flowers
            for meld in view.melds:
                tiles += meld.tiles
        return Counter(tiles)

    def discarded(self) -> Counter:
        tiles: list[Tile] = []
        for view in self.seats.values():
            tiles += view.discards
        return Counter(tiles)

    def visible_in_play(self, kind: Tile) -> int:
        """Copies shown in discards, 碰 and 明杠 (the 长春 换宝 count)."""
        count = sum(view.discards.count(kind) for view in self.seats.values())
        for view in self.seats.values():
            for meld in view.melds:
                if meld.kind is not MeldKind.CONCEALED_KONG:
                    count += meld.tiles.count(kind)
        return count

    def kongs_by_side(self) -> tuple[tuple[int, int, int], ...]:
        out = []
        for side in self.sides:
            melds = self.seats[side].melds
            if not melds:
                continue
            exposed = sum(1 for m in melds if m.is_kong and not m.is_concealed)
            concealed = sum(1 for m in melds if m.is_concealed)
            if exposed or concealed:
                out.append((side, exposed, concealed))
        return tuple(out)

    def exposed_by_side(self) -> tuple[tuple[int, tuple[Meld, ...]], ...]:
        return tuple((side, tuple(self.seats[side].melds)) for side in self.sides)

    def ready_sides(self) -> tuple[int, ...]:
        return tuple(s for s in self.sides if self.seats[s].ready)

    # -- claims: 承包, 三吃承包, 冲锋鸡 / 责任鸡 ----------------------------------------------------------

    def claimed(self, claimer: int, discarder: int, what: str) -> None:
        """A claim of the last discard."""
        self.claims.append((claimer, discarder, what, len(self.discard_log) - 1))

    def fed_three(self, winner: int) -> int | None:
        """三吃承包: the side the winner claimed three melds or more from (the most, if two did)."""
        return _three_or_more(Counter(d for c, d, _, _ in self.claims if c == winner))

    def chengbao_side(self, winner: int) -> int | None:
        """上海 承包: the side with three claims or more between it and the winner, either way."""
        return _three_or_more(Counter(d if c == winner else c for c, d, _, _ in self.claims if winner in (c, d)))

    def first_yaoji(self) -> tuple[int, int | None, bool] | None:
        """(discarder, who 碰/杠'd it or None, won on) of the hand's first 1条 discarded; None: none was."""
        index = next((i for i, (_, kind) in enumerate(self.discard_log) if kind == Tile.S1), None)
        if index is None:
            return None
        claimer = next((c for c, _, what, at in self.claims if at == index and what in ("pung", "kong")), None)
        return self.discard_log[index][0], claimer, index in self.won_at

    # -- 跟庄 ------------------------------------------------------------------------------------

    def followed(self, round_number: int) -> bool:
        """跟庄 in round `round_number` (1 = the first): its four discards, one from each seat in turn,
        are of one kind, and no claim came before they were all made."""
        end = 4 * round_number
        if round_number < 1 or len(self.discard_log) < end or any(at < end for *_, at in self.claims):
            return False
        made = self.discard_log[end - 4:end]
        return len({kind for _, kind in made}) == 1 and len({seat for seat, _ in made}) == 4


def _three_or_more(counts: Counter) -> int | None:
    side, count = max(counts.items(), key=lambda item: (item[1], -item[0]), default=(None, 0))
    return side if count >= 3 else None
