"""Whole sessions logged at DEBUG, the log scanned: no hidden tile, ever (DESIGN.md: secrets of the
table stay secret — the wall, a private 宝).

Until a hand's first win (when the winner lays the hand open) the only tiles anyone at the table
has seen are the public indicators; every tile a log line names before then must be one of those.
The salt that proves the wall hash, the wall itself and a private seat line never appear at all.
"""

import contextlib
import logging
import re

import pytest

from firmware.simulated import run_simulated
from rulesets.regions import get_region
from rulesets.tiles import Tile
from tests.asyncio_support import run

NOTATION = re.compile(r"(?<![0-9A-Za-z])[1-9][mpszf](?![0-9A-Za-z])")
NAMES = {tile.zh: str(tile) for tile in Tile if not tile.is_flower}     # 一万 … 红中 (flowers are one character)
NAMED = re.compile("|".join(NAMES))


def tiles_named(text: str) -> set[str]:
    return set(NOTATION.findall(text)) | {NAMES[name] for name in NAMED.findall(text)}


class Tape(logging.Handler):
    """Log records and recorder events, in the order they happened."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.items: list[tuple[str, object]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.items.append(("log", record.getMessage()))

    def event(self, event: dict) -> None:
        self.items.append(("event", event))


@contextlib.contextmanager
def logging_everything(tape: Tape):
    logger = logging.getLogger("firmware")
    level, propagate = logger.level, logger.propagate
    logger.addHandler(tape)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False                    # only the tape: pytest's capture need not format every take
    try:
        yield
    finally:
        logger.removeHandler(tape)
        logger.setLevel(level)
        logger.propagate = propagate


def scan(items) -> tuple[list[str], dict[str, int]]:
    """Every log line that names a tile nobody could have seen; counts of what was exercised."""
    leaks, seen = [], {"lines": 0, "private": 0, "public": 0, "hands": 0}
    public: set[str] = set()
    hidden = False                                  # inside a hand, before its first win
    salts, lines = [], []
    for kind, item in items:
        if kind == "event":
            name = item["event"]
            if name in ("hand_start", "resumed"):
                hidden, public = True, set()
                seen["hands"] += 1
            elif name == "indicator" and item["public"]:
                public |= set(item["tile"] or ()) | set(item["wilds"] or ())
                seen["public"] += 1
            elif name == "indicator":
                seen["private"] += 1
            elif name in ("win", "hand_end"):
                hidden = False
                salts += [item["salt"]] if name == "hand_end" else []
            continue
        lines.append(item)
        seen["lines"] += 1
        if hidden and not tiles_named(item) <= public:
            leaks.append(f"{item!r} names {sorted(tiles_named(item) - public)}; public: {sorted(public)}")
    for line in lines:
        if any(salt in line for salt in salts) or "宝:" in line or "[[" in line:
            leaks.append(f"{line!r} holds the wall, its salt or a private seat line")
    return leaks, seen


@pytest.mark.parametrize("region_id, options, hands", [
    ("changchun", {}, 3),                       # a private 宝, shown to ready seats only
    ("hangzhou", {"caishen": "flip"}, 2),        # a public indicator flipped after the deal
    ("guangdong_jihu", {"horses": "4"}, 2),      # after-win flips (马), flowers
])
def test_a_session_logged_at_debug_names_no_hidden_tile(region_id, options, hands):
    tape = Tape()
    with logging_everything(tape):
        run(run_simulated(get_region(region_id).resolve(options), hands=hands, seed=5, on_event=tape.event),
            timeout=240)
    leaks, seen = scan(tape.items)
    assert leaks == []
    assert seen["hands"] == hands and seen["lines"] > 40 * hands          # it did log: takes, phases, hands
    if region_id == "changchun":
        assert seen["private"] > 0, "no private 宝 was chosen: the test saw nothing to keep secret"
    if region_id == "hangzhou":
        assert seen["public"] > 0
    logged = "\n".join(item for kind, item in tape.items if kind == "log")
    assert "take (deal) from the head" in logged and "· 请出牌 (playing)" in logged


def test_the_scan_finds_a_leak_when_there_is_one():
    items = [("event", {"event": "hand_start"}), ("event", {"event": "indicator", "public": True, "tile": ["3p"],
                                                              "wilds": ["4p"]}),
             ("log", "财神 shown: 3p → wilds 4p"), ("log", "the 宝 is 五万"),
             ("event", {"event": "hand_end", "salt": "c0ffee"}), ("log", "salt c0ffee")]
    leaks, _ = scan(items)
    assert len(leaks) == 2 and "5m" in leaks[0] and "c0ffee" in leaks[1]
