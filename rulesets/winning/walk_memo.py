"""The collapsed walk's answers, kept for the next judgement of the same tiles.

The simulated players judge a hand twice in a row — won self-drawn, then on a discard — and the
walk of readings.standard_classes is the larger half of a judgement with several wilds.  The
walk depends on the tiles, the wilds and what the region's views compute; not on who discarded.
Views are made afresh for every judgement (closures over its context), so they are compared by
what they are (`view_key`): their code and what they captured.  A view that captured something
that cannot be compared (a dict) keys nothing, and its walk is not kept.

Kept answers are immutable (tuples of classes and of builders over witnesses); at most
`WALKS_KEPT` are kept, the least recently used forgotten first.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from types import FunctionType
from typing import Any, TypeVar

T = TypeVar("T")

WALKS_KEPT = 256
UNKEYABLE = object()            # what `view_key` says of a view it cannot compare
_MISSING = object()


def view_key(view: Any) -> Hashable:
    """A view as a key: two views compute alike when their code, defaults, attributes (`as_set`,
    `reduce`) and captured values are equal, views among them keyed alike.  None for no view;
    UNKEYABLE when something in it cannot be compared."""
    if view is None:
        return None
    if not isinstance(view, FunctionType):
        return _value_key(view)
    parts: list[Hashable] = [view.__code__, _value_key(view.__defaults__)]
    for cell in view.__closure__ or ():
        try:
            parts.append(_value_key(cell.cell_contents))
        except ValueError:                      # a cell not yet filled
            return UNKEYABLE
    parts += [(name, _value_key(value)) for name, value in sorted(vars(view).items())]
    return UNKEYABLE if any(part is UNKEYABLE for part in parts) else tuple(parts)


def _value_key(value: Any) -> Hashable:
    if isinstance(value, FunctionType):
        return view_key(value)
    if isinstance(value, tuple):
        keys = tuple(_value_key(item) for item in value)
        return UNKEYABLE if any(key is UNKEYABLE for key in keys) else (tuple, keys)
    try:
        hash(value)
    except TypeError:
        return UNKEYABLE
    return (type(value), value)                 # 1, 1.0 and True are equal, and not alike


class WalkMemo:
    """Answers by key, the `size` used last.  Threads may share it without a lock (rulesets take
    none): each step is one dict operation, and a race costs at most a walk made twice or an
    eviction put off to the next answer."""

    def __init__(self, size: int = WALKS_KEPT) -> None:
        self._size = size
        self._kept: dict[Hashable, Any] = {}

    def answer(self, key: Hashable, walk: Callable[[], T]) -> T:
        """The answer kept for `key`, or `walk()`'s (kept)."""
        found = self._kept.pop(key, _MISSING)
        if found is _MISSING:
            found = walk()
        self._kept[key] = found                 # the most recently used goes last
        try:
            while len(self._kept) > self._size:
                del self._kept[next(iter(self._kept))]
        except (KeyError, RuntimeError):        # another thread changed it meanwhile
            pass
        return found

    def __len__(self) -> int:
        return len(self._kept)


__all__ = ["UNKEYABLE", "WALKS_KEPT", "WalkMemo", "view_key"]
