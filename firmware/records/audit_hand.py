"""One hand's recorder against the rules (`audit_hand`, called by `audit.py` for every hand that
ended): the wall hash and the wall's tiles, the break the dice give and the ring, every take in the draw
order with the live count and the reserve, 荒庄 at exactly the right tile, each indicator at the slot its
position rule names (standing then) making the wilds it says, and no take line naming its tile.
"""

from __future__ import annotations

from collections import Counter

from rulesets.definition import Ruleset
from rulesets.indicators import AfterWinFlips, RevealContext, Timing
from rulesets.reserve import wall_count
from rulesets.tiles import Tile
from rulesets.walls import Layer, Slot

from ..hand.state import wall_hash
from ..hand.tracker import UNDO_KEPT
from .stream import HandLog


class Unauditable(Exception):
    """A hand whose facts are too broken to check further (the message says which)."""


def audit_hand(ruleset: Ruleset, hand: HandLog, start: dict, end: dict) -> list[str]:
    problems: list[str] = []
    if start["sides"] != list(ruleset.players) or start["dealer"] not in ruleset.players:
        raise Unauditable(f"sides {start['sides']} and dealer {start['dealer']} are not {ruleset.id}'s players "
                          f"{list(ruleset.players)}")
    ring_tiles = end["ring"]
    if wall_hash(end["salt"], ring_tiles) != start["wall_hash"]:
        problems.append("the wall hash does not match the wall revealed at hand_end")
    built = Counter(_tile(t, "the revealed wall") for pair in ring_tiles for t in pair)
    if built != Counter(dict(ruleset.tiles.counts)):
        problems.append("the wall does not hold exactly the ruleset's tiles")
    rolls = [tuple(r) for r in start["dice"]]
    result = ruleset.dice.break_for(start["dealer"], ruleset.players, rolls)
    if [result.brk.wall, result.brk.skip] != [start["break"]["wall"], start["break"]["skip"]]:
        said = f"wall {start['break']['wall']} skip {start['break']['skip']}"
        problems.append(f"the break ({said}) is not what the dice {' '.join('+'.join(map(str, r)) for r in rolls)} give "
                        f"(wall {result.brk.wall} skip {result.brk.skip})")
    ring = ruleset.layout.ring(result.brk)
    if len(ring) != start["ring_stacks"]:
        problems.append("the ring has the wrong number of stacks")
    if len(ring_tiles) != len(ring):
        raise Unauditable(f"the revealed wall has {len(ring_tiles)} stacks, the ring {len(ring)}")
    problems += _revealed_indicators(ruleset, end, ring_tiles)
    if not hand.partial:                                  # the draws before a restart are in another file
        take_problems, live_left = _audit_takes(ruleset, ring, hand, ring_tiles)
        problems += take_problems + _ended_too_soon(ruleset, end, live_left)
    if sum(end["payments"]) != 0 and end["result"] == "win":
        problems.append(f"payments {end['payments']} do not sum to zero")
    for take in hand.all("take"):
        if "tile" in take or "uid" in take:
            problems.append("a take event names its tile")
            break
    return problems


TILES_BY_TEXT = {str(tile): tile for tile in Tile}          # how the recorder writes a tile


def _tile(text: str, where: str) -> Tile:
    tile = TILES_BY_TEXT.get(text)
    if tile is None:
        raise Unauditable(f"{where} holds {text!r}, which is not a tile")
    return tile


def _audit_takes(ruleset: Ruleset, ring, hand: HandLog, ring_tiles: list[list[str]]) -> tuple[list[str], int]:
    """The takes against the draw order and the wall's count; and the live tiles left at the end."""
    problems: list[str] = []
    taken: set[Slot] = set()
    recorded: dict[Slot, tuple[str, str]] = {}     # the takes in order, with their end and reason as recorded
    head_order = [ring.head_slot(p) for p in range(ring.tile_count)]
    tail_order = [ring.tail_slot(t) for t in range(ring.tile_count)]
    shown: set[Slot] = set()
    next_head = _Next(head_order, lambda s: s in taken)

    def next_tail() -> Slot | None:
        """An ordinary replacement passes over shown tiles and the tiles under them (云南 尾牌); a
        bottom is uncovered again once its shown top is taken, so this is searched afresh."""
        return next((s for s in tail_order if s not in taken and not _covered(s, shown, taken)), None)

    astray: list[str] = []                                 # takes out of draw order: one missing puts all after astray
    miscounted: list[str] = []
    head = tail = kongs = untaken = 0                       # untaken: kongs counted without a take
    dealer = hand.start.event["dealer"]                   # type: ignore[index]
    kong_reveals: set[int] = set()                          # the kongs a 明鸡 was turned up for
    kongs_in_play: int | None = None                        # the kongs made before the first win
    short_by_flowers = 0    # reserved tiles gone to a flower's replacement owed as the live wall ran out
    last_drawn: Slot | None = None                          # the last tile drawn (长沙's bird when none is left)
    for event in hand.events:
        if event["event"] == "win" and kongs_in_play is None:
            kongs_in_play = kongs
        if event["event"] == "resumed" and "taken" in event:
            try:
                head, tail, kongs, problem = _put_back_unrecorded(event["taken"], recorded, head, tail, kongs)
                problems += problem
                taken.intersection_update(recorded)
                head, tail, kongs = _journaled_takes(event["taken"], taken, recorded, head, tail, kongs)
                last_drawn = _last_journaled_draw(event["taken"]) or last_drawn
            except (TypeError, ValueError, IndexError) as error:
                problems.append(f"resumed: its journaled takes do not read ({error})")
            missing, problem = _journaled_untaken(event, untaken)
            kongs, untaken = kongs + missing, untaken + missing
            problems += problem
            continue
        if event["event"] == "special_kong" and event["accepted"]:
            kongs += event["reserve_kongs"]                  # 长春: a special kong counted without a take
            untaken += event["reserve_kongs"]
        if event["event"] == "indicator" and event["ring"]:
            slots = _slots(event, len(ring))
            if slots is None:
                problems.append(f"indicator {event['kind']} names stacks {event['ring']}/{event['layer']} outside the ring")
                continue
            if event.get("kong") is not None:   # 贵州 明鸡 turned up for a kong: once each, never before it
                problems += _kong_reveal_order(event, kongs, kong_reveals)
            if not event.get("journaled"):      # one a `resumed` names: when it was shown is not known here
                problems += _audit_indicator(ruleset, ring, event, ring_tiles, dealer, taken, head_order, tail,
                                             last_drawn)
            if event.get("effect") == "shown":
                shown |= set(slots)
        if event["event"] == "put_back":        # (one that undid the take before it is gone from the events)
            problems.append(f"a tile put back at {event['ring']}/{event['layer']} undoes no take just made")
        if event["event"] != "take":
            continue
        if event["ring"] >= len(ring):
            problems.append(f"a take at stack {event['ring']}, outside the ring of {len(ring)}")
            continue
        slot = Slot(event["ring"], Layer(event["layer"]))
        if slot in taken:
            problems.append(f"slot {slot.ring}/{slot.layer.value} taken twice")
        expected_head, expected_tail = next_head(), next_tail()
        if event["in_order"] and event["reason"] != "set_aside":
            expected = expected_head if event["end"] == "head" else expected_tail
            if event["end"] == "tail" and slot in shown:
                expected = slot
            if slot != expected:
                astray.append(f"a {event['end']} take at {slot.ring}/{slot.layer.value} is out of draw order "
                              f"(expected {_slot_text(expected)})")
        problems += _wall_end_claim(event, slot, slot in shown and expected_tail is None)
        taken.add(slot)
        recorded[slot] = (event["end"], event["reason"])
        if event["reason"] != "set_aside":
            last_drawn = slot
        if event["end"] == "head":
            head += 1
        else:
            tail += 1
        if event["reason"] == "kong":
            kongs += 1
        count = wall_count(ruleset.reserve, ring.tile_count, head, tail, kongs)
        # (a take read back after nobody watched is in an order the controller guessed: its kong may
        # have been made, in fact, before the head draws it is put after)
        if event["reason"] == "kong" and event["in_order"] and not event.get("unseen") and count.live < 1:
            problems.append(f"a kong's replacement at {slot.ring}/{slot.layer.value} left no live tile: no kong is "
                            "made unless a live tile remains after its replacement")
        if event["reason"] == "flower":     # a flower's replacement is owed even out of the reserve
            short_by_flowers = max(short_by_flowers, count.reserved - count.remaining)
        if (count.live, count.reserved_full_stacks, kongs) != (event["live"], event["reserve"], event["kongs"]):
            miscounted.append(f"take {len(taken)}: live/reserve/kongs {event['live']}/{event['reserve']}/{event['kongs']} "
                              f"should be {count.live}/{count.reserved_full_stacks}/{kongs}")
    problems += _first_of(astray, "takes after it out of draw order") + _first_of(miscounted, "takes miscounted after it")
    if hand.end is not None and not hand.partial:
        problems += _kong_reveals_missing(ruleset, ring, dealer, taken, kong_reveals,
                                          kongs if kongs_in_play is None else kongs_in_play)
    exhausted = hand.first("exhausted")
    count = wall_count(ruleset.reserve, ring.tile_count, head, tail, kongs)
    if exhausted is not None:
        if count.live != 0 or exhausted["remaining"] != count.remaining:
            problems.append(f"荒庄 at the wrong tile: {count.live} live tiles were left ({count.remaining} remaining)")
        if exhausted["remaining"] != count.reserved - short_by_flowers and ruleset.reserve.name != "none":
            problems.append(f"荒庄 with {exhausted['remaining']} tiles left; the reserve holds {count.reserved}"
                            + (f", less {short_by_flowers} a flower's replacement took" if short_by_flowers else ""))
    return problems, count.live


def _ended_too_soon(ruleset: Ruleset, end: dict, live_left: int) -> list[str]:
    """A region that plays on after a win ends a hand only when it must: 血战到底 when one player is
    left (or the wall is spent: 荒庄, or its last tile won), 血流成河 when the wall is spent."""
    mode = ruleset.play.after_win
    if end["result"] not in ("win", "draw") or live_left <= 0:
        return []
    winners = len(set(end["winners"]))
    if mode == "xuezhan" and winners < len(ruleset.players) - 1:
        return [f"it ended with {winners} winner(s) and the wall not spent: 血战到底 plays on until one player is left"]
    if mode == "xueliu":
        return ["it ended before the wall was spent: 血流成河 plays on until then"]
    return []


def _slot_text(slot: Slot | None) -> str:
    return f"{slot.ring}/{slot.layer.value}" if slot is not None else "none: the wall was spent"


def _first_of(problems: list[str], more: str) -> list[str]:
    """The first of a run of problems that follow from it, and how many more there were (a take
    deleted from the recorder puts every later take out of order: one line says so, not a hundred)."""
    if len(problems) <= 1:
        return problems
    return [problems[0], f"… and {len(problems) - 1} more {more}"]


def _wall_end_claim(event: dict, slot: Slot, shown_at_end: bool) -> list[str]:
    """`at_wall_end` marks a shown tail tile taken when no face-down one was left (云南 尾牌, where the
    option lets it replace a kong without a win): the take must say so exactly when the wall says so."""
    claimed = event.get("at_wall_end", False) is True
    if claimed == (shown_at_end and event["end"] == "tail"):
        return []
    said = "says" if claimed else "does not say"
    return [f"the take at {slot.ring}/{slot.layer.value} {said} it took a shown tail tile with no face-down one left; "
            f"the wall {'had none' if shown_at_end else 'had one or it is no shown tile'}"]


def _put_back_unrecorded(journaled: list, recorded: dict[Slot, tuple[str, str]], head: int, tail: int,
                         kongs: int) -> tuple[int, int, int, list[str]]:
    """Takes the lines show that the journal at a restart no longer holds: tiles put back, whose
    takes were undone and journaled, their `put_back` lines cut by the kill that followed (a line
    reaches the file only behind the journal).  Only the last takes can be undone (`UNDO_KEPT`): they
    leave `recorded`, and the counts go back; any other is a problem."""
    known = {Slot(int(ring), Layer(layer)) for ring, layer, _end, _reason in journaled}
    order = list(recorded)
    undone = [slot for slot in order if slot not in known]
    problems = [f"resumed: the journal lacks the take at {slot.ring}/{slot.layer.value}, and it was not one of the "
                f"last {UNDO_KEPT} (only those are undone by a tile put back)"
                for slot in undone if order.index(slot) < len(order) - UNDO_KEPT]
    for slot in undone:
        end, reason = recorded.pop(slot)
        head, tail = (head - 1, tail) if end == "head" else (head, tail - 1)
        kongs -= reason == "kong"
    return head, tail, kongs, problems


def _journaled_takes(journaled: list, taken: set[Slot], recorded: dict[Slot, tuple[str, str]], head: int, tail: int,
                     kongs: int) -> tuple[int, int, int]:
    """A restarted controller goes on from its journal, which a SIGKILL may leave a few takes ahead
    of the recorder it cut (the journal is written first): the takes it names that the recorder
    does not hold are takes all the same (added to `taken`, and with their end and reason to
    `recorded`).  Returns the head, tail and kong counts with them."""
    for ring, layer, end, reason in journaled:
        slot = Slot(int(ring), Layer(layer))
        recorded.setdefault(slot, (end, reason))
        if slot in taken:
            continue
        taken.add(slot)
        head, tail = (head + 1, tail) if end == "head" else (head, tail + 1)
        kongs += reason == "kong"
    return head, tail, kongs


def _last_journaled_draw(journaled: list) -> Slot | None:
    """The last tile drawn among a journal's takes (a set-aside indicator is no draw)."""
    draws = [row for row in journaled if row[3] != "set_aside"]
    return Slot(int(draws[-1][0]), Layer(draws[-1][1])) if draws else None


def _journaled_untaken(resumed: dict, seen: int) -> tuple[int, list[str]]:
    """The kongs counted without a take (长春's special kongs) that the journal knew at a resume and
    the lines before it did not show (a kill cut them), and a problem if the lines showed more than
    the journal knew (lines never go ahead of the journal).  A `resumed` of an older controller,
    without the count, adds none."""
    journaled = resumed.get("kongs_without_takes")
    if not isinstance(journaled, int):
        return 0, []
    if journaled < seen:
        return 0, [f"resumed: the journal counts {journaled} kong(s) without a take, the lines before it showed {seen}"]
    return journaled - seen, []


def _covered(slot: Slot, shown: set[Slot], taken: set[Slot]) -> bool:
    top = Slot(slot.ring, Layer.TOP)
    return slot in shown or (slot.layer is Layer.BOTTOM and top in shown and top not in taken)


class _Next:
    """The first slot of an order not yet passed over (what is passed over only grows)."""

    def __init__(self, order: list[Slot], passed) -> None:
        self._order, self._passed, self._index = order, passed, 0

    def __call__(self) -> Slot | None:
        while self._index < len(self._order) and self._passed(self._order[self._index]):
            self._index += 1
        return self._order[self._index] if self._index < len(self._order) else None


def _slots(event: dict, ring_size: int) -> list[Slot] | None:
    """An indicator's slots, or None if they are not slots of this ring."""
    if len(event["ring"]) != len(event["layer"]) or any(r >= ring_size for r in event["ring"]):
        return None
    return [Slot(r, Layer(layer)) for r, layer in zip(event["ring"], event["layer"])]


def _kong_reveal_order(event: dict, kongs: int, seen: set[int]) -> list[str]:
    """An indicator turned up for the k-th kong (贵州 「有杠牌就要翻第四墩」): after that kong's take, once."""
    k = event["kong"]
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        return [f"indicator {event['kind']} for kong {k!r}, which is not a kong's number"]
    problems = []
    if k > kongs:
        problems.append(f"indicator {event['kind']} turned up for kong {k} when {kongs} kong(s) had been made")
    if k in seen:
        problems.append(f"indicator {event['kind']} turned up twice for kong {k}")
    seen.add(k)
    return problems


def _kong_reveals_missing(ruleset: Ruleset, ring, dealer: int, taken: set[Slot], seen: set[int], kongs: int) -> list[str]:
    """Every kong made before the win turns up its 明鸡 (贵州 ming_ji_kong), unless its tile had left the
    wall: one still there at the end was there when the kong was made."""
    problems = []
    for rule in ruleset.indicators:
        if not rule.on_kong or rule.kong_position is None:
            continue
        for k in range(1, kongs + 1):
            if k in seen:
                continue
            slots = rule.kong_position.slots(RevealContext(ring, ruleset.layout, dealer, 0, 0, (), frozenset(taken), k))
            if slots:
                problems.append(f"kong {k} turned up no {rule.name_zh}: {slots[0].ring}/{slots[0].layer.value} was still in the wall")
    return problems


def _audit_indicator(ruleset: Ruleset, ring, event: dict, ring_tiles, dealer: int, taken: set[Slot],
                     head_order: list[Slot], tail_taken: int, last_drawn: Slot | None = None) -> list[str]:
    rule = _indicator_rule(ruleset, event)
    if rule is None:
        return [f"indicator {event['kind']} is not one of the ruleset's"]
    problems: list[str] = []
    dice = tuple(event["dice"])
    kong = event.get("kong")
    next_head = next((ring.slot_sequence(s) for s in head_order if s not in taken), ring.tile_count)
    context = RevealContext(ring, ruleset.layout, dealer, next_head, tail_taken, dice, frozenset(taken),
                            kong if isinstance(kong, int) else 0, last_drawn)
    named = tuple(Slot(r, Layer(layer)) for r, layer in zip(event["ring"], event["layer"]))
    gone = [f"{s.ring}/{s.layer.value}" for s in named if s in taken]
    if gone and not (isinstance(rule.position, AfterWinFlips) and rule.position.names_a_taken_slot(named, context)):
        problems.append(f"indicator {event['kind']} at {', '.join(gone)}: that slot has already left the wall")
    if rule.timing is not Timing.ON_READY:
        if len(dice) != rule.position_dice or not all(1 <= d <= 6 for d in dice):
            return [f"indicator {event['kind']} with dice {list(dice)}; its rule rolls {rule.position_dice} die/dice"]
        if kong is not None and (not rule.on_kong or rule.kong_position is None):
            return [f"indicator {event['kind']} turned up for a kong; its rule turns up nothing on a kong"]
        slots = (rule.kong_position if kong is not None else rule.position).slots(context)  # type: ignore[union-attr]
        expected = [[s.ring for s in slots], [s.layer.value for s in slots]]
        if [event["ring"], event["layer"]] != expected:
            problems.append(f"indicator {event['kind']} at {event['ring']}/{event['layer']}, the rules put it at {expected}")
    if event["tile"] is not None:
        problems += _shows_the_wall(rule, event, ring_tiles)
    elif event["public"]:
        problems.append(f"a public indicator {event['kind']} without its tile")
    return problems


def _indicator_rule(ruleset: Ruleset, event: dict):
    """The ruleset's indicator rule an indicator event (or hand_end's reveal) names, or None."""
    return next((r for r in ruleset.indicators if r.kind == event["kind"]
                 and r.timing.value == event.get("timing", r.timing.value)), None)


def _shows_the_wall(rule, event: dict, ring_tiles, when: str = "") -> list[str]:
    """An indicator's tiles are the wall's at its slots, and its wilds the rule's for them."""
    problems = []
    tiles = [ring_tiles[r][0 if layer == "top" else 1] for r, layer in zip(event["ring"], event["layer"])]
    if event["tile"] != tiles:
        problems.append(f"indicator {event['kind']}{when} shows {event['tile']} but the wall holds {tiles} there")
    wilds = [str(t) for t in rule.special_kinds(Tile.parse(tiles[0]) if tiles else None)]
    if event["wilds"] != wilds:
        problems.append(f"indicator {event['kind']}{when} makes {event['wilds']}, the rules say {wilds}")
    return problems


def _revealed_indicators(ruleset: Ruleset, end: dict, ring_tiles) -> list[str]:
    """The indicators hand_end reveals (a private 宝 is shown nowhere before) against the wall revealed
    with them: a win scored with a 宝 the wall did not hold was called sound (a probe)."""
    problems = []
    for event in end["indicators"]:
        rule = _indicator_rule(ruleset, event)
        if rule is None:
            problems.append(f"hand_end reveals an indicator {event['kind']} that is not one of the ruleset's")
        elif _slots(event, len(ring_tiles)) is None:
            problems.append(f"hand_end reveals indicator {event['kind']} at stacks {event['ring']}/{event['layer']} "
                            "outside the ring")
        elif event["tile"] is not None:
            problems += _shows_the_wall(rule, event, ring_tiles, " (revealed at hand_end)")
    return problems
