"""Enrolment: register a tile set's RFID tags, kind by kind, through a seat's read zone.

For each kind of the set the display asks the technician to lay its copies in the read zone of
one seat and press 确认 on the front panel; the zone's inventory must hold exactly that many new
tags.  Nothing is saved until the whole set is read, so a stopped enrolment leaves the registry
as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

from drivers.table_ui import Key, Panel, enroll_prompt
from rulesets.tilesets import TileSet

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

    def show_message(self, text: str) -> None: ...

    async def next_key(self, panels: Sequence[int], keys: Sequence[Key]) -> object: ...

    async def read_zone(self, seat: int) -> tuple[bytes, ...]: ...


async def enroll_set(ports: EnrollPorts, registry: TileRegistry, tile_set: TileSet, set_index: int, *,
                     seat: int = 0, on_step: Callable[[EnrollStep], None] = lambda step: None) -> int:
    """Read every kind of `tile_set` through `seat`'s zone; register them as set `set_index`."""
    entries: list[Registered] = []
    seen: set[bytes] = set()
    kinds = tile_set.counts
    for index, (kind, copies) in enumerate(kinds):
        problem = ""
        attempt = 0
        while True:
            attempt += 1
            ports.show_message(enroll_prompt(kind.zh, copies, seat, attempt))
            on_step(EnrollStep(index, len(kinds), kind.zh, copies, problem))
            await ports.next_key((Panel.FRONT, seat), (Key.CONFIRM,))
            uids = list(dict.fromkeys(await ports.read_zone(seat)))
            fresh = [u for u in uids if u not in seen and registry.lookup(u) is None]
            if len(fresh) == copies and len(uids) == copies:
                break
            problem = (f"read {len(uids)} tag(s), {len(fresh)} new: lay exactly the {copies} {kind.zh} "
                       "of this set and nothing else, then press 确认 again")
        for copy, uid in enumerate(fresh):
            entries.append(Registered(uid, kind, set_index, copy))
            seen.add(uid)
    on_step(EnrollStep(len(kinds), len(kinds), "", 0))
    return registry.enroll(entries)
