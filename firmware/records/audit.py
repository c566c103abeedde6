"""Audit a flight recorder against the rules: anyone can check a hand after it ended.

For every hand in a JSON Lines event log this checks what the issue asks of the table:
- the wall hash of `hand_start` is the SHA-256 of the salt and the wall revealed in `hand_end`;
- the wall holds exactly the ruleset's tiles (tile conservation);
- the break and the ring follow the ruleset's dice procedure and wall layout;
- every take follows the draw order (head in sequence, tail from the end), each slot once;
- the live count and the reserve of each take match the ruleset's reserve policy;
- 荒庄 came at exactly the right tile (live 0, the reserve untouched);
- each indicator lies where the ruleset's position rule puts it, on a slot still in the wall at that
  moment, and makes the wilds it says;
- payments sum to zero and the totals add up;
- nothing hidden leaked before `hand_end` (no tile in a take, no private indicator's tile).

`audit_events` returns the problems found (empty when the log is sound).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from rulesets.definition import Ruleset
from rulesets.indicators import RevealContext, Timing
from rulesets.regions import get_region
from rulesets.reserve import wall_count
from rulesets.tiles import Tile
from rulesets.walls import Layer, Slot

from ..hand.state import wall_hash


@dataclass
class HandLog:
    number: int
    events: list[dict] = field(default_factory=list)

    def first(self, name: str) -> dict | None:
        return next((e for e in self.events if e["event"] == name), None)

    def all(self, name: str) -> list[dict]:
        return [e for e in self.events if e["event"] == name]


def read_events(lines: Iterable[str]) -> list[dict]:
    return [json.loads(line) for line in lines if line.strip()]


def split_hands(events: list[dict]) -> list[HandLog]:
    hands: dict[int, HandLog] = {}
    for event in events:
        if event.get("hand"):
            hands.setdefault(event["hand"], HandLog(event["hand"])).events.append(event)
    return [hands[n] for n in sorted(hands)]


def audit_events(events: list[dict]) -> list[str]:
    """Every finished hand against the rules, and the running totals (which start at 0 with each
    `session_start`) against the payments."""
    problems: list[str] = []
    hands = {hand.number: hand for hand in split_hands(events)}
    totals = [0, 0, 0, 0]
    for event in events:
        if event["event"] == "session_start":
            totals = [0, 0, 0, 0]
        if event["event"] != "hand_end":
            continue
        hand = hands[event["hand"]]
        start, end = hand.first("hand_start"), event
        if start is None:
            continue                                    # the hand began before this recorder
        ruleset = get_region(start["ruleset"]).resolve(start["options"])
        problems += [f"hand {hand.number}: {p}" for p in audit_hand(ruleset, hand, start, end)]
        totals = [t + p for t, p in zip(totals, end["payments"])]
        if end["totals"] != totals:
            problems.append(f"hand {hand.number}: totals {end['totals']} are not the sum of the payments {totals}")
        totals = list(end["totals"])
    return problems


def audit_hand(ruleset: Ruleset, hand: HandLog, start: dict, end: dict) -> list[str]:
    problems: list[str] = []
    ring_tiles = end["ring"]
    if wall_hash(end["salt"], ring_tiles) != start["wall_hash"]:
        problems.append("the wall hash does not match the wall revealed at hand_end")
    built = Counter(Tile.parse(t) for pair in ring_tiles for t in pair)
    if built != Counter(dict(ruleset.tiles.counts)):
        problems.append("the wall does not hold exactly the ruleset's tiles")
    rolls = [tuple(r) for r in start["dice"]]
    result = ruleset.dice.break_for(start["dealer"], ruleset.players, rolls)
    if [result.brk.wall, result.brk.skip] != [start["break"]["wall"], start["break"]["skip"]]:
        problems.append(f"the break {start['break']} is not what the dice {rolls} give ({result.brk})")
    ring = ruleset.layout.ring(result.brk)
    if len(ring) != start["ring_stacks"]:
        problems.append("the ring has the wrong number of stacks")
    problems += _audit_takes(ruleset, ring, hand, ring_tiles)
    if sum(end["payments"]) != 0 and end["result"] == "win":
        problems.append(f"payments {end['payments']} do not sum to zero")
    for take in hand.all("take"):
        if "tile" in take or "uid" in take:
            problems.append("a take event names its tile")
            break
    return problems


def _audit_takes(ruleset: Ruleset, ring, hand: HandLog, ring_tiles: list[list[str]]) -> list[str]:
    problems: list[str] = []
    taken: set[Slot] = set()
    head_order = [ring.head_slot(p) for p in range(ring.tile_count)]
    tail_order = [ring.tail_slot(t) for t in range(ring.tile_count)]
    shown: set[Slot] = set()
    head = tail = kongs = 0
    start = hand.first("hand_start")
    dealer = start["dealer"]
    for event in hand.events:
        if event["event"] == "indicator" and event["ring"]:
            problems += _audit_indicator(ruleset, ring, event, ring_tiles, dealer, taken, head_order, tail)
            if event.get("effect") == "shown":
                shown |= {Slot(r, Layer(layer)) for r, layer in zip(event["ring"], event["layer"])}
        if event["event"] != "take":
            continue
        slot = Slot(event["ring"], Layer(event["layer"]))
        if slot in taken:
            problems.append(f"slot {slot.ring}/{slot.layer.value} taken twice")
        expected_head = next((s for s in head_order if s not in taken), None)
        expected_tail = next((s for s in tail_order if s not in taken and s not in shown), None)
        if event["in_order"] and event["reason"] != "set_aside":
            expected = expected_head if event["end"] == "head" else expected_tail
            if event["end"] == "tail" and slot in shown:
                expected = slot
            if slot != expected:
                problems.append(f"a {event['end']} take at {slot.ring}/{slot.layer.value} is out of draw order (expected {expected})")
        taken.add(slot)
        if event["end"] == "head":
            head += 1
        else:
            tail += 1
        if event["reason"] == "kong":
            kongs += 1
        count = wall_count(ruleset.reserve, ring.tile_count, head, tail, kongs)
        if (count.live, count.reserved_full_stacks, kongs) != (event["live"], event["reserve"], event["kongs"]):
            problems.append(f"take {len(taken)}: live/reserve/kongs {event['live']}/{event['reserve']}/{event['kongs']} "
                            f"should be {count.live}/{count.reserved_full_stacks}/{kongs}")
    exhausted = hand.first("exhausted")
    if exhausted is not None:
        count = wall_count(ruleset.reserve, ring.tile_count, head, tail, kongs)
        if count.live != 0 or exhausted["remaining"] != count.remaining:
            problems.append(f"荒庄 at the wrong tile: {count.live} live tiles were left ({count.remaining} remaining)")
        if exhausted["remaining"] != count.reserved and ruleset.reserve.name != "none":
            problems.append(f"荒庄 with {exhausted['remaining']} tiles left; the reserve holds {count.reserved}")
    return problems


def _audit_indicator(ruleset: Ruleset, ring, event: dict, ring_tiles, dealer: int, taken: set[Slot],
                     head_order: list[Slot], tail_taken: int) -> list[str]:
    rule = next((r for r in ruleset.indicators if r.kind == event["kind"]
                 and r.timing.value == event.get("timing", r.timing.value)), None)
    if rule is None:
        return [f"indicator {event['kind']} is not one of the ruleset's"]
    problems: list[str] = []
    gone = [f"{r}/{layer}" for r, layer in zip(event["ring"], event["layer"]) if Slot(r, Layer(layer)) in taken]
    if gone:
        problems.append(f"indicator {event['kind']} at {', '.join(gone)}: that slot has already left the wall")
    next_head = next((ring.slot_sequence(s) for s in head_order if s not in taken), ring.tile_count)
    context = RevealContext(ring, ruleset.layout, dealer, next_head, tail_taken, tuple(event.get("dice") or ()),
                            frozenset(taken))
    if rule.timing is not Timing.ON_READY:
        slots = rule.position.slots(context)
        expected = [[s.ring for s in slots], [s.layer.value for s in slots]]
        if [event["ring"], event["layer"]] != expected:
            problems.append(f"indicator {event['kind']} at {event['ring']}/{event['layer']}, the rules put it at {expected}")
    if event["tile"] is not None:
        tiles = [ring_tiles[r][0 if layer == "top" else 1] for r, layer in zip(event["ring"], event["layer"])]
        if event["tile"] != tiles:
            problems.append(f"indicator {event['kind']} shows {event['tile']} but the wall holds {tiles} there")
        wilds = [str(t) for t in rule.special_kinds(Tile.parse(tiles[0]) if tiles else None)]
        if event["wilds"] != wilds:
            problems.append(f"indicator {event['kind']} makes {event['wilds']}, the rules say {wilds}")
    elif event["public"]:
        problems.append(f"a public indicator {event['kind']} without its tile")
    return problems
