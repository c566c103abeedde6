"""The order of recorder files named to the audit, read from their hash chain.

Each run's file begins by naming the chain head it goes on from (`recorder_start.chain`), and ends
where its last hand's seal leaves the head.  The audit used to take the files in the order it was
given, and a shell sorts them by name: their time.  On a Pi with no clock battery a restart can
come up with the clock hours behind (a probe: NTP not yet heard), and its file sorts first; the
audit then said a recorder was missing or its hands changed.  Here the files are put in the order
their links say, when the links give one.  When they do not (a file missing between two, a stray
file of another table), the files are put in the order of the hands they hold (hand numbers go on
from run to run), so the chain check names the one break and the rest reads true (a probe: in the
order given, a missing file made the hands after it read as settled but not recorded).
"""

from __future__ import annotations

from typing import Sequence

from .recorder_lines import Recorder


def chain_order(files: Sequence[Recorder]) -> list[Recorder]:
    """`files` in the order their chain links them (the given order among files that link the same
    way, and the given order itself when the links give none)."""
    if len(files) < 2:
        return list(files)          # (one file has one order: it is read once, its facts with its hands)
    links = [recorder.facts.links for recorder in files]
    if any(link is None for link in links):
        return list(files)          # a file without its recorder_start (empty, cut): as given, the chain check says it
    ordered = _linked(links)        # type: ignore[arg-type]
    if ordered is None:
        return _by_hands(files)
    return [files[index] for index in ordered]


def _by_hands(files: Sequence[Recorder]) -> list[Recorder]:
    """The files in the order of the first hand each begins or resumes; a file with no hand stays right
    after the file given before it (the sort is stable)."""
    keys: list[float] = []
    for recorder in files:
        keys.append(_first_hand(recorder, keys[-1] if keys else float("-inf")))
    return [recorder for _, recorder in sorted(zip(keys, files), key=lambda pair: pair[0])]


def _linked(links: list[tuple[str, str]]) -> list[int] | None:
    """The files' indexes in the order their links give, or None when they give none."""
    remaining = list(range(len(links)))
    ordered: list[int] = []
    head: str | None = None
    while remaining:
        index = _next(remaining, links, head)
        if index is None:
            return None
        ordered.append(index)
        remaining.remove(index)
        head = links[index][1]
    return ordered


def _first_hand(recorder: Recorder, otherwise: float) -> float:
    """The number of the first hand a file begins or resumes (`otherwise` for a file with none)."""
    first = recorder.facts.first_hand
    return otherwise if first is None else float(first)


def _next(remaining: list[int], links: list[tuple[str, str]], head: str | None) -> int | None:
    """The file that goes on from `head` (the first: the one no other remaining file leads to); a file
    with no hand (it leaves the head where it found it) before one that moves it on."""
    if head is None:
        leads_to = {links[i][1] for i in remaining if links[i][0] != links[i][1]}
        candidates = [i for i in remaining if links[i][0] not in leads_to]
    else:
        candidates = [i for i in remaining if links[i][0] == head]
    if not candidates:
        return None
    still = [i for i in candidates if links[i][0] == links[i][1]]
    return (still or candidates)[0]
