"""The suit win table kept in a file, so that a start maps it instead of building it.

The suit table (rulesets/winning/tables.py: 5**9 entries, 7.8 MB) is built from the shipped
automata in ≈70 ms here and about a second on a Pi Zero 2 W — by every process that judges hands:
the scoring worker at each start of the controller (and after each restart of the worker), the
simulated players.  Built once, it is written to the cache folder; later starts map the file
(`mmap`, read-only): nothing is built, and the processes that map it share one copy in memory.

- The file's name carries a key: a hash of the two modules that define the table
  (`rulesets/winning/tables.py`, `_tables.py`), the byte order and the entry size.  A table of
  another version of the code is never read; an upgrade builds and writes its own.
- The file ends with a trailer (magic, length, CRC-32 of the table).  A file cut short or damaged
  is not used: the table is built again and the file written anew.  A wrong win table would judge
  hands wrongly, with money on the table, so it is checked at every start (≈2 ms here).
- Written to a temporary file, then renamed: a reader never sees half a file.  What a write leaves
  behind is removed by the next one: another version's table, or a temporary file a power cut cut
  short, once it is an hour old (a table another version still uses is written again at its next
  start; a write under way is younger).
- The folder: `$CACHE_DIRECTORY` (systemd's `CacheDirectory=`, deploy/mahjong-table.service), else
  `$XDG_CACHE_HOME/mahjong-table`, else `~/.cache/mahjong-table`.  A folder that cannot be written
  costs only the build at each start (logged once per process).
"""

from __future__ import annotations

import hashlib
import logging
import mmap
import os
import struct
import sys
import time
import zlib
from pathlib import Path

from rulesets.winning import tables

log = logging.getLogger("firmware.win_tables")

_MAGIC = b"MJWT"
_TRAILER = struct.Struct("<4sII")              # magic, table bytes, CRC-32 of them
_TABLE_BYTES = tables.SUIT_KEYS * 4


def cache_folder() -> Path | None:
    """Where the table is kept (module docstring); None when no folder can be named."""
    for variable, below in (("CACHE_DIRECTORY", ""), ("XDG_CACHE_HOME", "mahjong-table")):
        value = os.environ.get(variable, "").split(":")[0]
        if value:
            return Path(value) / below
    home = os.environ.get("HOME")
    return Path(home) / ".cache" / "mahjong-table" if home else None


def table_key() -> str:
    """What the table is made of: the code that defines it, the byte order, the entry size."""
    digest = hashlib.sha256(f"{sys.byteorder} 4".encode())
    source = Path(tables.__file__ or "")
    for path in (source, source.with_name("_tables.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def use_kept_table(folder: Path | None = None) -> str:
    """Give rulesets the suit table: mapped from the folder's file if it holds a sound one, else
    built and written there for the next start.  Returns what was done ("mapped", "built and
    kept", "built") — for the tests and the log."""
    if tables.suit_table.ready:
        return "in use"
    folder = cache_folder() if folder is None else folder
    try:
        path = None if folder is None else folder / f"suit-table-{table_key()}.bin"
    except OSError as error:                    # the modules' files cannot be read (a frozen build)
        log.info("win tables: cannot name a kept copy (%s); built at each start", error)
        path = None
    if path is not None:
        table = _mapped(path)
        if table is not None:
            tables.suit_table.give(table)
            return "mapped"
    built = tables.build_suit_table()
    tables.suit_table.give(built)
    if path is None:
        return "built"
    try:
        _write(path, built)
    except OSError as error:
        log.info("win tables: cannot keep them in %s (%s); built at each start", path.parent, error)
        return "built"
    _tidy(path)
    return "built and kept"


def _mapped(path: Path) -> memoryview | None:
    """The table in `path`, mapped read-only, if the file is whole and its CRC holds."""
    try:
        with open(path, "rb") as file:
            if os.fstat(file.fileno()).st_size != _TABLE_BYTES + _TRAILER.size:
                raise ValueError("its size is wrong")
            mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        log.warning("win tables: %s is not usable (%s); building them again", path, error)
        return None
    view = memoryview(mapping)
    magic, size, crc = _TRAILER.unpack(view[_TABLE_BYTES:])
    table = view[:_TABLE_BYTES]
    if magic != _MAGIC or size != _TABLE_BYTES or zlib.crc32(table) != crc:
        table.release()
        view.release()
        mapping.close()
        log.warning("win tables: %s is damaged; building them again", path)
        return None
    return table.cast("I")


def _write(path: Path, table: memoryview) -> None:
    """The table and its trailer, written whole under a temporary name, then renamed."""
    import tempfile             # (only the first start writes: the others need not import it)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = table.cast("B")
    handle, temporary = tempfile.mkstemp(prefix=".suit-table-", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.write(_TRAILER.pack(_MAGIC, _TABLE_BYTES, zlib.crc32(data)))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_STALE_S = 3600.0


def _tidy(kept: Path) -> None:
    """Remove what earlier writes left in the folder: other versions' tables and temporary files cut
    short, an hour old or more (7.8 MB each, on a Pi's card)."""
    now = time.time()
    for other in (*kept.parent.glob("suit-table-*.bin"), *kept.parent.glob(".suit-table-*")):
        try:
            if other != kept and now - other.stat().st_mtime >= _STALE_S:
                other.unlink()
        except OSError:
            pass                    # gone already, or not ours to remove: the next write tries again
