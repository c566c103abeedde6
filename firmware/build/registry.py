"""The tile registry: RFID tag UID → (tile kind, tile set, copy), stored in SQLite.

Tags are enrolled once per physical set (`mahjong-table enroll`).  Lookups never guess: an
unknown UID is reported as unknown.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from rulesets.tiles import Tile

SCHEMA = """
CREATE TABLE IF NOT EXISTS tiles (
    uid BLOB PRIMARY KEY,
    kind TEXT NOT NULL,
    tile_set INTEGER NOT NULL,
    copy INTEGER NOT NULL,
    UNIQUE (tile_set, kind, copy)
);
"""


@dataclass(frozen=True)
class Registered:
    uid: bytes
    kind: Tile
    tile_set: int
    copy: int


class RegistryError(Exception):
    """An enrollment that would make the registry inconsistent."""


class TileRegistry:
    def __init__(self, path: str | Path = ":memory:") -> None:
        self._db = sqlite3.connect(str(path))
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._db.commit()
        self._cache: dict[bytes, Registered] | None = None

    def enroll(self, entries: Iterable[Registered]) -> int:
        """Register tags in one transaction; a UID already registered to another tile is refused."""
        rows = list(entries)
        try:
            with self._db:
                self._db.executemany(
                    "INSERT INTO tiles (uid, kind, tile_set, copy) VALUES (?, ?, ?, ?)",
                    [(e.uid, str(e.kind), e.tile_set, e.copy) for e in rows])
        except sqlite3.IntegrityError as error:
            raise RegistryError(f"enrollment refused, nothing was saved: {error} "
                                "(a tag or a (set, tile, copy) is already registered; use --replace to re-enroll the set)") from None
        self._cache = None
        return len(rows)

    def forget_set(self, tile_set: int) -> None:
        with self._db:
            self._db.execute("DELETE FROM tiles WHERE tile_set = ?", (tile_set,))
        self._cache = None

    def lookup(self, uid: bytes) -> Registered | None:
        return self._all().get(uid)

    def sets(self) -> dict[int, int]:
        """tile set → number of tags enrolled."""
        return {s: n for s, n in self._db.execute("SELECT tile_set, COUNT(*) FROM tiles GROUP BY tile_set")}

    def counts(self, tile_set: int) -> Counter[Tile]:
        """How many tags of each kind are enrolled in one set: what that physical set is made of."""
        return Counter(entry.kind for entry in self._all().values() if entry.tile_set == tile_set)

    def _all(self) -> dict[bytes, Registered]:
        if self._cache is None:
            self._cache = {bytes(uid): Registered(bytes(uid), Tile.parse(kind), tile_set, copy)
                           for uid, kind, tile_set, copy in self._db.execute("SELECT uid, kind, tile_set, copy FROM tiles")}
        return self._cache

    def __len__(self) -> int:
        return len(self._all())

    def close(self) -> None:
        self._db.close()
