"""The flight recorder's hash chain: what is hashed, in what order (docs/controller.md, "The chain").

Every line the recorder writes falls in a *block*: the lines after the previous seal up to the next
seal.  A seal is `hand_end` (it closes a hand) or `recorder_end` (a clean stop).  A seal carries
`digest`, the SHA-256 of its block's lines (each line's UTF-8 bytes followed by a newline, in file
order), so deleting, duplicating, reordering or editing any line of the block changes it.

The chain *head* is the SHA-256 of the last `hand_end` line as written (its `digest` included);
before any hand it is the value the recorder was started with (`GENESIS` for a fresh table).
`hand_start` (and `resumed`, which starts a hand picked up after a restart) carries the head as
`prev`; `recorder_start` and `recorder_end` carry it as `chain`.  Because each `hand_end` digests a
block that holds its hand's `prev`, each hand is bound to every hand before it: removing, reordering
or truncating hands breaks the link at the next hand or at the clean end.

The recorder and the audit both use `ChainState`, so the scheme is written once.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS = "0" * 64
HAND_SEAL = "hand_end"
CLEAN_END = "recorder_end"
START = "recorder_start"
HAND_OPENERS = ("hand_start", "resumed")
FORMAT = 4                         # 1: the recorder before the chain (no recorder_start); 2: the chain;
ASKED_AT_WIN = 3                   # 3: a win is preceded by the questions its rules ask then (财飘, 承包)
ASKED_OF_CLAIMS = 4                # 4: 三吃承包 asked at a win, 首张幺鸡 in the settlement round
# one encoder for every line (json.dumps with these options makes a new one per call; it holds no
# state between calls, so the store's thread may use it too); no circular check: the same text, and
# an event is a plain tree (the check costs at every list and object)
_ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"),
                           check_circular=False).encode


def canonical(event: dict[str, Any]) -> str:
    """One event as the recorder writes it: compact JSON, keys in the order given, UTF-8 kept (the
    ledger's journal values are written so too)."""
    return _ENCODE(event)


def line_hash(line: str) -> str:
    return hashlib.sha256(line.encode()).hexdigest()


class ChainState:
    """The running head and the digest of the block written since the last seal."""

    def __init__(self, head: str = GENESIS) -> None:
        self.head = head
        self._block = hashlib.sha256()

    def digest(self) -> str:
        """The digest a seal written now must carry."""
        return self._block.hexdigest()

    def add(self, line: str, event_name: str | None) -> None:
        """Account for one written line (`event_name` None for a line that is not an event)."""
        if event_name == HAND_SEAL:
            self.head = line_hash(line)
        if event_name in (HAND_SEAL, CLEAN_END):
            self._block = hashlib.sha256()
        else:
            self._block.update(line.encode() + b"\n")

    def fields_for(self, event_name: str) -> dict[str, str]:
        """The chain fields the recorder adds to an event before writing it."""
        if event_name in HAND_OPENERS:
            return {"prev": self.head}
        if event_name == START:
            return {"chain": self.head, "format": FORMAT}
        if event_name == HAND_SEAL:
            return {"digest": self.digest()}
        if event_name == CLEAN_END:
            return {"chain": self.head, "digest": self.digest()}
        return {}


def is_hex_digest(value: Any) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
