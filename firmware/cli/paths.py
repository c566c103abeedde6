"""A path a person names, followed to the file it stands for.

`Path.resolve()` raises RuntimeError on a loop of symbolic links (`ln -s b a; ln -s a b`) in the
Python the table runs (3.11; OSError from 3.13 in strict mode): a 30-line traceback for a mistake a
person makes.  Here it is one line naming the path and what to do."""

from __future__ import annotations

import errno
from pathlib import Path

from .errors import UserError


def real_path(path: Path, named: str) -> Path:
    """`path` resolved; a loop of symbolic links is a UserError naming it as `named` (the flag and
    the value as given, e.g. `--events x.jsonl`, or the value alone for an argument)."""
    try:
        return path.resolve()
    except RuntimeError:
        raise symlink_loop(named) from None
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise symlink_loop(named) from None
        raise


def symlink_loop(named: str) -> UserError:
    return UserError(f"{named} is a loop of symbolic links (they lead back to each other, never to a file); "
                     "name the file itself")


__all__ = ["real_path", "symlink_loop"]
