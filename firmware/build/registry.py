"""The tile registry: RFID tag UID → (tile kind, tile set, copy), stored in SQLite.

Tags are enrolled once per physical set (`mahjong-table enroll`).  Lookups never guess: an
unknown UID is reported as unknown.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from rulesets.tiles import Tile
from rulesets.tilesets import SET_144

from ..records.foreign_db import check_ours, create_schema, schema_columns

SCHEMA = """
CREATE TABLE IF NOT EXISTS tiles (
    uid BLOB PRIMARY KEY,
    kind TEXT NOT NULL,
    tile_set INTEGER NOT NULL,
    copy INTEGER NOT NULL,
    UNIQUE (tile_set, kind, copy)
);
"""

REGISTRY_TABLES = schema_columns(SCHEMA)


@dataclass(frozen=True)
class Registered:
    uid: bytes
    kind: Tile
    tile_set: int
    copy: int


class RegistryError(Exception):
    """An enrollment that would make the registry inconsistent."""


class ExportError(ValueError):
    """A registry export that is not one: which entry, and what is wrong with it."""


SETS = (0, 1)       # a table holds two sets (two back colours)


def export_entries(raw: object, most: Mapping[Tile, int] | None = None) -> list[Registered]:
    """The tags of a registry export ({uid hex: {"tile", "set", "copy"}}), each checked: a UID in
    hex, set 0 or 1, a tile kind a table can hold, a copy that kind has (`most`: the copies of each
    kind; by default those of the fullest set), and no tag or (set, tile, copy) twice — so that a
    wrong file is refused before anything is saved, never taken for a foreign tile at the table."""
    if most is None:
        most = {kind: SET_144.copies(kind) for kind in SET_144.kinds}
    if not isinstance(raw, dict):
        raise ExportError("it is not a JSON object of {uid: {tile, set, copy}}")
    if not raw:
        raise ExportError("it holds no tags")
    entries, seen, tags = [], {}, {}
    for uid, entry in raw.items():
        entries.append(_entry(uid, entry, most))
        place = (entries[-1].tile_set, entries[-1].kind, entries[-1].copy)
        if place in seen:
            raise ExportError(f"tags {seen[place]} and {uid} are both set {place[0]} {place[1]} copy {place[2]}")
        if entries[-1].uid in tags:         # hex is read in either case: one tag written twice
            raise ExportError(f"tags {tags[entries[-1].uid]} and {uid} are the same tag")
        seen[place], tags[entries[-1].uid] = uid, uid
    return entries


def _entry(uid: object, entry: object, most: Mapping[Tile, int]) -> Registered:
    if not isinstance(entry, dict) or entry.keys() != {"tile", "set", "copy"}:
        raise ExportError(f"tag {uid}: give {{\"tile\", \"set\", \"copy\"}}")
    try:
        tag = bytes.fromhex(str(uid))
    except ValueError:
        tag = b""
    if not tag:
        raise ExportError(f"tag {uid!r}: a UID is written in hex, e.g. e004010a21582f87")
    try:
        kind = Tile.parse(entry["tile"]) if isinstance(entry["tile"], str) else None
    except ValueError:
        kind = None
    if kind is None or kind not in most:
        raise ExportError(f"tag {uid}: tile {entry['tile']!r} is no tile a table holds (e.g. \"1m\", \"7z\", \"1f\")")
    tile_set, copy = entry["set"], entry["copy"]
    if type(tile_set) is not int or tile_set not in SETS:
        raise ExportError(f"tag {uid}: set {tile_set!r}: a table's sets are 0 and 1")
    if type(copy) is not int or not 0 <= copy < most[kind]:
        raise ExportError(f"tag {uid}: copy {copy!r} of {kind}: give 0 to {most[kind] - 1}")
    return Registered(tag, kind, tile_set, copy)


def _check_kinds_whole(held: Mapping[tuple[int, Tile], int], rows: list[Registered]) -> None:
    """Each kind enrolled anew is given back every copy it held: a set short of a tile is rejected at
    every build."""
    given = Counter((e.tile_set, e.kind) for e in rows)
    for (tile_set, kind), copies in held.items():
        if given[(tile_set, kind)] != copies:
            raise RegistryError(f"enrollment refused, nothing was saved: set {tile_set} held {copies} {kind}, "
                                f"{given[(tile_set, kind)]} were given; enrol every copy of the kind")


class TileRegistry:
    def __init__(self, path: str | Path = ":memory:") -> None:
        check_ours(path, REGISTRY_TABLES, "a tile registry")      # another file named by mistake stays as it was
        self._db = sqlite3.connect(str(path))
        self._db.execute("PRAGMA journal_mode=WAL")
        create_schema(self._db, SCHEMA)
        self._cache: dict[bytes, Registered] | None = None

    def enroll(self, entries: Iterable[Registered], replacing: Iterable[int] = (),
               replacing_kinds: Iterable[tuple[int, Tile]] = ()) -> int:
        """Register tags in one transaction; a UID already registered to another tile is refused.
        The sets in `replacing` are forgotten in the same transaction: a refusal keeps them (an
        enrolment that failed half-way had already forgotten the set, and the table then dealt a
        hand on tiles it could not read).  So are the (set, kind)s of `replacing_kinds` (a lost or
        damaged tile replaced): each must be given back as many copies as it held, so that the set
        stays whole."""
        rows = list(entries)
        kinds = sorted(set(replacing_kinds))
        try:
            with self._db:
                self._db.executemany("DELETE FROM tiles WHERE tile_set = ?", [(s,) for s in sorted(set(replacing))])
                held = {(s, kind): self._forget_kind(s, kind) for s, kind in kinds}
                self._db.executemany(
                    "INSERT INTO tiles (uid, kind, tile_set, copy) VALUES (?, ?, ?, ?)",
                    [(e.uid, str(e.kind), e.tile_set, e.copy) for e in rows])
                _check_kinds_whole(held, rows)          # (raised inside: the transaction is rolled back)
        except sqlite3.IntegrityError as error:
            raise RegistryError(f"enrollment refused, nothing was saved: {error} "
                                "(a tag or a (set, tile, copy) is already registered; use --replace to re-enroll the set)") from None
        finally:
            self._cache = None
        return len(rows)

    def _forget_kind(self, tile_set: int, kind: Tile) -> int:
        """Forget one kind's tags of one set; how many there were."""
        return self._db.execute("DELETE FROM tiles WHERE tile_set = ? AND kind = ?", (tile_set, str(kind))).rowcount

    def lookup(self, uid: bytes) -> Registered | None:
        return self._all().get(uid)

    def sets(self) -> dict[int, int]:
        """tile set → number of tags enrolled."""
        return {s: n for s, n in self._db.execute("SELECT tile_set, COUNT(*) FROM tiles GROUP BY tile_set")}

    def counts(self, tile_set: int) -> Counter[Tile]:
        """How many tags of each kind are enrolled in one set: what that physical set is made of."""
        return Counter(entry.kind for entry in self._all().values() if entry.tile_set == tile_set)

    def tags(self, tile_set: int) -> tuple[Registered, ...]:
        """Every tag enrolled in one set, in (kind, copy) order."""
        return tuple(sorted((e for e in self._all().values() if e.tile_set == tile_set), key=lambda e: (e.kind, e.copy)))

    def _all(self) -> dict[bytes, Registered]:
        if self._cache is None:
            self._cache = {bytes(uid): Registered(bytes(uid), Tile.parse(kind), tile_set, copy)
                           for uid, kind, tile_set, copy in self._db.execute("SELECT uid, kind, tile_set, copy FROM tiles")}
        return self._cache

    def __len__(self) -> int:
        return len(self._all())

    def close(self) -> None:
        self._db.close()
