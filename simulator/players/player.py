"""One player's private side: the tiles in his hand (by tag), his melds, flowers and plans.

A player looks at the faces of the tiles he holds (the registry lookup stands for his eyes);
he never sees another hand or the wall's hidden tiles.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from rulesets.hand import Meld, MeldKind
from rulesets.tiles import Tile

Identify = Callable[[bytes], Tile]


@dataclass(frozen=True)
class HeldMeld:
    meld: Meld
    uids: tuple[bytes, ...]


class Player:
    def __init__(self, seat: int, identify: Identify, rng: random.Random) -> None:
        self.seat = seat
        self._identify = identify
        self.rng = rng
        self.new_hand()

    def new_hand(self, *, defensive: bool = False, keep_pairs: bool = False) -> None:
        self.hand: dict[bytes, Tile] = {}            # uid → kind, in the order received
        self.melds: list[HeldMeld] = []
        self.flowers: list[bytes] = []
        self.ready = False
        self.bao: Tile | None = None                 # a private 宝 read from my seat display
        self.void: str | None = None                 # the suit I keep out (缺一门)
        self.standing: set[bytes] = set()            # 立四: the first grab, standing apart
        self.dealt: set[bytes] = set()               # the tiles dealt to me (长春 特殊杠 are shown from them)
        self.last_drawn: bytes | None = None
        self.defensive = defensive
        self.keep_pairs = keep_pairs

    # -- tiles ---------------------------------------------------------------------------------

    def look(self, uid: bytes) -> Tile:
        return self._identify(uid)

    def receive(self, uid: bytes) -> Tile:
        kind = self.look(uid)
        self.hand[uid] = kind
        return kind

    def give(self, uid: bytes) -> Tile:
        self.standing.discard(uid)
        return self.hand.pop(uid)

    def kinds(self) -> list[Tile]:
        return list(self.hand.values())

    def counts(self) -> Counter:
        return Counter(self.hand.values())

    def count(self, kind: Tile) -> int:
        return list(self.hand.values()).count(kind)     # (asked of each seat at every discard)

    def uids_of(self, kind: Tile, n: int, prefer_free: bool = True) -> list[bytes]:
        """`n` of my tiles of `kind` (tiles not standing apart first)."""
        found = [u for u, k in self.hand.items() if k == kind]
        if prefer_free:
            found.sort(key=lambda u: u in self.standing)
        return found[:n]

    # -- melds -----------------------------------------------------------------------------------

    def add_meld(self, kind: MeldKind, uids: list[bytes], claimed: bytes | None = None,
                 claimed_kind: Tile | None = None) -> Meld:
        """Move tiles from my hand (plus a claimed discard) into a shown meld."""
        tiles = [self.give(u) for u in uids]
        all_uids = list(uids)
        if claimed is not None and claimed_kind is not None:
            tiles.append(claimed_kind)
            all_uids.append(claimed)
        meld = Meld(kind, tuple(sorted(tiles)))
        self.melds.append(HeldMeld(meld, tuple(all_uids)))
        return meld

    def take_back(self, meld: Meld) -> None:
        """A meld the table refused goes back into my hand (the last one of its kind and tiles)."""
        held = next(h for h in reversed(self.melds) if h.meld == meld)
        self.melds.remove(held)
        for uid in held.uids:
            self.receive(uid)

    def add_to_pung(self, uid: bytes) -> Meld:
        """补杠: the fourth tile onto my shown pung."""
        kind = self.give(uid)
        for i, held in enumerate(self.melds):
            if held.meld.kind is MeldKind.PUNG and held.meld.kind_tile == kind:
                meld = Meld(MeldKind.ADDED_KONG, held.meld.tiles + (kind,))
                self.melds[i] = HeldMeld(meld, held.uids + (uid,))
                return meld
        raise ValueError(f"no pung of {kind} to add to")

    def meld_tuple(self) -> tuple[Meld, ...]:
        return tuple(h.meld for h in self.melds)

    def claimed_melds(self) -> int:
        return sum(1 for h in self.melds if h.meld.kind is not MeldKind.CONCEALED_KONG)

    def pung_kinds(self) -> set[Tile]:
        return {h.meld.kind_tile for h in self.melds if h.meld.kind is MeldKind.PUNG}

    def flower_tiles(self) -> tuple[Tile, ...]:
        return tuple(self.look(u) for u in self.flowers)

    # -- what goes in the read zone --------------------------------------------------------------

    def shown_uids(self) -> list[bytes]:
        """Melds, concealed kongs and set-aside flowers (the first lay of a win)."""
        return [u for h in self.melds for u in h.uids] + list(self.flowers)

    def kong_uids(self, concealed_too: bool) -> list[bytes]:
        """My kongs of four tiles (长春 大蛋 round): the exposed ones, and with `concealed_too` the
        concealed ones beside them (the special kongs are not laid)."""
        kinds = (MeldKind.KONG, MeldKind.ADDED_KONG) + ((MeldKind.CONCEALED_KONG,) if concealed_too else ())
        return [u for h in self.melds if h.meld.kind in kinds for u in h.uids]

    def all_uids(self) -> list[bytes]:
        return self.shown_uids() + list(self.hand)
