"""Physical tiles with RFID tags, and the registry a controller is enrolled with.

Every physical tile has a serial number (its identity as an object) and a tag UID; normally the
UID is unique, but fault injection can write one tile's UID onto another (a duplicated tag).
UIDs are 8-byte ISO 15693 style (E0 04 + 6 bytes), drawn from the seed, so a seed always gives
the same tags.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rulesets.tiles import Tile
from rulesets.tilesets import TileSet

UID_PREFIX = b"\xe0\x04"


@dataclass(frozen=True)
class TileIdentity:
    """What the registry knows about a tag: face, set (0/1: back colour) and copy (0-based)."""

    kind: Tile
    set_index: int
    copy: int


@dataclass(frozen=True)
class PhysicalTile:
    serial: int            # the object's identity (unique, even when tags are duplicated)
    uid: bytes             # what its tag answers
    kind: Tile
    set_index: int         # 0 or 1; -1 for a stray tile that belongs to neither set
    copy: int

    def __str__(self) -> str:
        return f"{self.kind}#{self.set_index}.{self.copy} [{self.uid.hex()}]"


class UidSource:
    """Unique UIDs from one seeded generator (no UID is handed out twice)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._used: set[bytes] = set()

    def new(self) -> bytes:
        while True:
            uid = UID_PREFIX + self._rng.randbytes(6)
            if uid not in self._used:
                self._used.add(uid)
                return uid


def make_tiles(tile_sets: tuple[TileSet, ...], uids: UidSource, first_serial: int = 0) -> list[PhysicalTile]:
    """Every physical tile of the sets, set by set, kind by kind, copy by copy."""
    tiles: list[PhysicalTile] = []
    serial = first_serial
    for set_index, tile_set in enumerate(tile_sets):
        copies: dict[Tile, int] = {}
        for kind in tile_set.tiles():
            copy = copies.get(kind, 0)
            copies[kind] = copy + 1
            tiles.append(PhysicalTile(serial, uids.new(), kind, set_index, copy))
            serial += 1
    return tiles
