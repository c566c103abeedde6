"""A file a command writes for a person (`diagram --out`, `sim --registry`, `sim --write-config`):
there whole, or not at all (a picture Graphviz draws for `diagram --out` as well).

Written in place, a full card or a failing write left a half-written file at the name (a probe: a
4096-byte DOT file, an empty configuration) and had already destroyed the earlier one.  So the
bytes go to a temporary name in the same folder, onto the card (fsync), and only then is that
renamed over the target: a rename within one folder is all or nothing."""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def write_whole(path: Path, data: str | bytes) -> None:
    """`data` (text is UTF-8) at `path`, whole, or an OSError with nothing left behind: the temporary
    removed, and an earlier file at `path` as it was.  The caller says the error in its own words."""
    content = data.encode("utf-8") if isinstance(data, str) else data
    with written_by_another(path) as target:       # (a device or a pipe, /dev/stdout: written straight)
        _write_into(target, content)


@contextmanager
def written_by_another(path: Path) -> Iterator[Path]:
    """A temporary name beside `path` to write (`write_whole`, or Graphviz's `dot -o`), put at
    `path` whole once the block ends without an error, and removed if it ends with one: a `dot` cut
    short by a full card leaves no half a picture either.  (`path` itself when it is no regular file.)"""
    earlier = _earlier(path)
    if earlier is not None and not stat.S_ISREG(earlier.st_mode):
        yield path
        return
    target = Path(os.path.realpath(path))
    temporary = _make_temporary(target, earlier)
    try:
        yield temporary
        _sync_file(temporary)
        os.replace(temporary, target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    _sync_folder(target.parent)


def _earlier(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except FileNotFoundError:
        return None


def _make_temporary(target: Path, earlier: os.stat_result | None) -> Path:
    """A new hidden file beside `target`, with the earlier file's permissions (or the umask's, as a
    file written in place would have had)."""
    while True:
        temporary = target.with_name(f".{target.name}.{os.urandom(4).hex()}.part")
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
        break
    try:
        if earlier is not None:
            os.fchmod(fd, stat.S_IMODE(earlier.st_mode))
    except OSError:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)
    return temporary


def write_all(fd: int, content: bytes) -> None:
    """Every byte: a write may take fewer than it is given."""
    view = memoryview(content)
    while view:
        view = view[os.write(fd, view):]


def _write_into(path: Path, content: bytes) -> None:
    """`content` into the file there (the temporary made beside the target, or a device)."""
    fd = os.open(path, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC)
    try:
        write_all(fd, content)
    finally:
        os.close(fd)


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    """The rename onto the card as well (a power cut after it must not bring the old name back);
    a file system that cannot sync a folder has done what it can."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
