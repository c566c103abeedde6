"""Each region's reading of its rules, numbered.

A later version of the controller may read a region's rules anew (长春's 夹胡 was, on 6 December
2026): it then judges or pays some hands of that region otherwise than the version that settled
them.  The flight recorder writes the region's number with every hand (`hand_start` and `resumed`:
`rules`), so an audit by a later version can tell a hand settled by an earlier reading (a note,
naming both readings) from a changed file (a problem).

Raise a region's number, with a line saying what was read anew, whenever a change makes the scorer
judge or pay any hand of that region otherwise.  `tests/rulesets/test_rules_revisions.py` keeps a
digest of every region's judgements and settlements, under every house option, on seeded hands: a
change that moves one fails there until the number is raised and the digest written again.  A house
option added (or a value of one) moves no earlier hand: its digest is written, the number stays.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from .regions import REGION_IDS, UnknownRegion

FIRST = "the rules as read on 7 December 2026, when hands began to carry their reading's number"

# region -> (number, what that reading changed); a region not listed is at its first reading
READINGS: Mapping[str, tuple[int, str]] = MappingProxyType({})


def revision(region_id: str) -> int:
    """The number of the reading of `region_id`'s rules this version plays and audits by."""
    return _reading_of(region_id)[0]


def reading(region_id: str) -> str:
    """What the reading `revision(region_id)` changed, in a line."""
    return _reading_of(region_id)[1]


def _reading_of(region_id: str) -> tuple[int, str]:
    if region_id not in REGION_IDS:
        raise UnknownRegion(region_id)
    return READINGS.get(region_id, (1, FIRST))


__all__ = ["FIRST", "READINGS", "reading", "revision"]
