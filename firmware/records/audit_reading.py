"""Which reading of its region's rules settled a hand (rulesets/revisions.py), against the one this
audit scores by.

A hand's openers (`hand_start`, and `resumed` after a restart) say the number of the reading the
controller played (`rules`); the last of them settled the hand.  A hand settled by an earlier
reading is scored by today's: what the audit then finds otherwise in the hand's own checks is a
note naming both readings, not a problem (a rule read anew is not a changed file).  The chain, the
running totals and the ledger still judge it as any other hand.  A reading newer than this
version's is a problem: only that version or a later one can judge the hand.  Hands written before
hands carried the number have none, and are judged as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.definition import Ruleset
from rulesets.revisions import reading, revision

from .chain import HAND_OPENERS
from .stream import HandLog


@dataclass(frozen=True)
class Reading:
    settled: object         # the number the hand's last opener gives (None: none given)
    today: int              # this version's
    played_by: str | None = None    # the version that wrote that opener, as its recorder says (None: not said)

    @property
    def known(self) -> bool:
        return isinstance(self.settled, int) and not isinstance(self.settled, bool) and self.settled >= 1

    @property
    def earlier(self) -> bool:
        return self.known and self.settled < self.today         # type: ignore[operator]


def reading_of(hand: HandLog, ruleset: Ruleset) -> Reading:
    openers = [line.event for line in [hand.start, *hand.lines]
               if line.event is not None and line.event["event"] in HAND_OPENERS]
    return Reading(openers[-1].get("rules") if openers else None, revision(ruleset.id), hand.played_by)


def reading_problem(read: Reading, ruleset: Ruleset) -> str | None:
    """What is wrong with the number itself, if anything: not a reading's number, or one newer than
    this version's (the hand's checks would then judge it by rules it was not played by)."""
    if read.settled is None:
        return None
    if not read.known:
        return f"its `rules` is {read.settled!r}: not the number of a reading of the rules (1, 2, …)"
    if read.settled > read.today:                                 # type: ignore[operator]
        return (f"was settled by reading {read.settled} of {ruleset.region.name}'s rules, newer than this version's "
                f"reading {read.today}: audit it with the version that played it{_named(read.played_by)}, or a newer one")
    return None


def _named(version: str | None) -> str:
    return "" if version is None else f" (mahjong-table {version}, its recorder says)"


def earlier_reading_note(read: Reading, ruleset: Ruleset, findings: list[str]) -> str:
    """The hand's own findings, said as what today's reading gives otherwise."""
    return (f"was settled by reading {read.settled} of {ruleset.region.name}'s rules; this audit scores by reading "
            f"{read.today} ({reading(ruleset.id)}), which finds: " + "; ".join(findings))


__all__ = ["Reading", "earlier_reading_note", "reading_of", "reading_problem"]
