"""Enrolment: register a tile set's RFID tags, kind by kind, through a seat's read zone.

For each kind of the set the display asks the technician to lay its copies in the read zone of
one seat and press 确认 on the front panel; the zone's inventory must hold exactly that many new
tags.  Nothing is saved until the whole set is read, so a stopped enrolment leaves the registry
as it was.  A set enrolled already can have some kinds enrolled anew (a lost or damaged tile
replaced by one with a new tag): only those kinds are asked for, and saved in the same way.

A 确认 pressed before a kind's prompt was shown answers an earlier prompt (or none: the one a
person presses to clear a fault page, or a press sent again after a link episode), so it is
forgotten: taken for the new kind, it would read the tiles laid for the one before and register
them under the wrong name, one kind behind for the rest of the set.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from drivers.table_ui import Key, Panel, enroll_prompt
from rulesets.tiles import Tile
from rulesets.tilesets import TileSet

from ..hand.ports import Press
from .registry import Registered, TileRegistry


@dataclass(frozen=True)
class EnrollStep:
    kind_index: int
    kinds: int
    name: str
    copies: int
    problem: str = ""


class EnrollPorts(Protocol):
    """What enrolment needs of the table: the message line, the front panel, a read zone."""

    async def ask(self, seat: int, text: str) -> int:
        """Show `text` on `seat`'s display, then on the message line; where it stands among the
        motor board's events once on the seat's display (a press whose `Press.heard` is below it
        was made before)."""

    def done(self, seat: int, enrolled: bool) -> None:
        """The enrolment is over (`enrolled`: every kind was read): nothing asks any more."""

    async def next_key(self, panels: Sequence[int], keys: Sequence[Key]) -> Press: ...

    def passed_over(self, press: Press) -> None:
        """A press taken out that answers nothing (made before the prompt was up): recorded."""

    async def read_zone(self, seat: int) -> tuple[bytes, ...]: ...


async def enroll_set(ports: EnrollPorts, registry: TileRegistry, tile_set: TileSet, set_index: int, *,
                     seat: int = 0, on_step: Callable[[EnrollStep], None] = lambda step: None,
                     replacing: bool = False, kinds: Sequence[Tile] = ()) -> int:
    """Read every kind of `tile_set` through `seat`'s zone; register them as set `set_index`.  With
    `replacing`, the set's tags enrolled before count as new, and are forgotten only as the new ones
    are saved: an enrolment that fails or is stopped leaves the set as it was.

    With `kinds` (a lost or damaged tile replaced), only those kinds of the enrolled set are read,
    and their tags replace those kinds' old ones in the same way: an old tag counts as new for its
    own kind only (laid at another kind's prompt, it is that other tile's) and keeps its copy
    number, so that only the replaced tile's row changes."""
    asked = [(kind, _copies_of(tile_set, kind)) for kind in kinds] if kinds else list(tile_set.counts)
    entries: list[Registered] = []
    seen: set[bytes] = set()

    def replaced(known: Registered, kind: Tile) -> bool:
        """An old tag this enrolment replaces, read for `kind`."""
        return known.tile_set == set_index and (replacing or (bool(kinds) and known.kind == kind))

    def enrolled_to(kind: Tile) -> Callable[[bytes], int | None]:
        """The set a tag is enrolled to already in the registry (a tag replaced counts as none)."""
        def set_of(uid: bytes) -> int | None:
            known = registry.lookup(uid)
            return None if known is None or replaced(known, kind) else known.tile_set
        return set_of

    try:
        for index, (kind, copies) in enumerate(asked):
            set_of = enrolled_to(kind)
            fresh = await _read_kind(ports, _Kind(kind.zh, copies, set_index, bool(kinds)),
                                     lambda uid: uid in seen or set_of(uid) is not None, set_of, seat,
                                     lambda problem: on_step(EnrollStep(index, len(asked), kind.zh, copies, problem)))
            numbered = _kept_copies(registry, fresh, kind, set_index) if kinds else list(enumerate(fresh))
            entries += [Registered(uid, kind, set_index, copy) for copy, uid in numbered]
            seen.update(fresh)
        enrolled = registry.enroll(entries, replacing=(set_index,) if replacing else (),
                                   replacing_kinds=[(set_index, kind) for kind in kinds])
    except BaseException:
        ports.done(seat, False)
        raise
    ports.done(seat, True)
    on_step(EnrollStep(len(asked), len(asked), "", 0))
    return enrolled


def _copies_of(tile_set: TileSet, kind: Tile) -> int:
    copies = tile_set.copies(kind)
    if not copies:         # (the command line refuses it first, naming the kind)
        raise ValueError(f"{kind} is no tile of the {tile_set.name} set")
    return copies


def _kept_copies(registry: TileRegistry, fresh: list[bytes], kind: Tile, set_index: int) -> list[tuple[int, bytes]]:
    """(copy, tag) of a kind enrolled anew: an old tag keeps its copy number, a new one takes a free one."""
    old = {}
    for uid in fresh:
        known = registry.lookup(uid)
        if known is not None and known.tile_set == set_index and known.kind == kind:
            old[uid] = known.copy
    free = (copy for copy in itertools.count() if copy not in old.values())
    return [(old[uid] if uid in old else next(free), uid) for uid in fresh]


@dataclass(frozen=True)
class _Kind:
    """The kind asked for: its name, how many copies a set holds, the set being enrolled, and whether
    only some kinds of it are (`--kinds`: the set's other tags are no new enrolment's business)."""
    name: str
    copies: int
    set_index: int
    some_kinds: bool = False


async def _read_kind(ports: EnrollPorts, kind: _Kind, taken: Callable[[bytes], bool],
                     enrolled_to: Callable[[bytes], int | None], seat: int,
                     on_attempt: Callable[[str], None]) -> list[bytes]:
    """Ask for one kind until a 确认 finds exactly its `copies` new tags in the zone; those tags."""
    problem = ""
    attempt = 0
    while True:
        attempt += 1
        on_attempt(problem)
        shown = await ports.ask(seat, enroll_prompt(kind.name, kind.copies, seat, attempt))
        await _confirmed(ports, seat, shown)
        uids = list(dict.fromkeys(await ports.read_zone(seat)))
        fresh = [u for u in uids if not taken(u)]
        if len(fresh) == kind.copies and len(uids) == kind.copies:
            return fresh
        problem = _not_taken(kind, uids, fresh, enrolled_to)


def _not_taken(kind: _Kind, uids: list[bytes], fresh: list[bytes], enrolled_to: Callable[[bytes], int | None]) -> str:
    """Why a read was not taken, and what to do.  The kind's tiles laid right but every tag enrolled
    already (the set enrolled before, or the other set's tiles) is said so: "0 new" alone sent the
    person laying the same tiles again, for ever."""
    sets = {enrolled_to(uid) for uid in uids}
    if len(uids) == kind.copies and not fresh and None not in sets:
        return _enrolled_already(kind, sorted(sets))
    return (f"read {len(uids)} tag(s), {len(fresh)} new: lay exactly the {kind.copies} {kind.name} "
            "of this set and nothing else, then press 确认 again")


def _enrolled_already(kind: _Kind, sets: list[int]) -> str:
    which = f"set {sets[0]}" if len(sets) == 1 else "sets " + " and ".join(map(str, sets))
    said = f"these {kind.copies} tags are enrolled already ({which})"
    if sets == [kind.set_index] and kind.some_kinds:        # another kind of this set, laid by mistake
        return (f"{said} as other tiles: lay the {kind.copies} {kind.name} of set {kind.set_index}, "
                "then press 确认 again")
    if sets == [kind.set_index]:                # no other tiles to lay: the set must be enrolled anew
        return f"{said}: to enrol set {kind.set_index} again, stop (Ctrl-C) and run with --replace"
    return (f"{said}: lay the {kind.copies} {kind.name} of set {kind.set_index}, the set being enrolled, "
            "then press 确认 again")


async def _confirmed(ports: EnrollPorts, seat: int, shown: int) -> None:
    """The first 确认 (front panel or the seat's) made once the prompt was up."""
    while True:
        press = await ports.next_key((Panel.FRONT, seat), (Key.CONFIRM,))
        if not press.made_before(shown):
            return
        ports.passed_over(press)
