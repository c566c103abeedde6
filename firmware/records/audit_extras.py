"""Payments beyond the wins, scored again from the log (issue 16): 起手小和, 跟庄, the settlement round.

Each is recorded as its own event with what the table read or was told, and each is checked here
the way a win is: from the recorded facts, by the ruleset's own rules.
- `opening_win` (长沙 起手小和): the tiles laid must be exactly the seat's dealt tiles (the deal plan
  over the wall revealed at `hand_end`), and `rulesets.scoring.changsha.settle_opening` must pay
  what the event says — or, for a refusal, find nothing to pay.
- `follow_dealer` (大包 跟庄): asked round after round from the first while every answer was 有;
  each 有 pays `rulesets.scoring.dabao.follow_dealer`, each 无 nothing.
- `settlement` (the round): the seats asked are those `rulesets.rounds.round_seats` names for the
  hand's winners, the flips are the hand's after-win flips, and `judge_round` over the recorded
  hands gives the same ready sides, 花猪, items and payments.  A drawn hand pays by the ready sides
  the round judged.
- 云南 尾牌: every shown tail tile taken is followed at once by a self-drawn win, or by a warning.
- `special_kong` (长春): the tiles laid are the special kong named, from the seat's dealt tiles, with
  no addition by the dealer; its 明杠, replacements and reserve kongs are what the rules count.
- `first_dealer` (house option first_dealer): two dice, where the rules roll for the first dealer, and
  the dealer they name (`rulesets.dice.dealer_by_roll`) deals the hand.
- 沈阳 亮牌 and 十六张 拉庄: audit_declared.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rulesets.definition import Ruleset
from rulesets.dice import dealer_by_roll, exchange_direction_of
from rulesets.hand import Hand, WinContext, parse_meld
from rulesets.regions.common import rolls_for_first_dealer
from rulesets.rounds import RoundContext, SeatShown, judge_round, round_seats
from rulesets.scoring import false_win_settlement
from rulesets.scoring.changsha import settle_opening
from rulesets.scoring.dabao import follow_dealer
from rulesets.settlement import add_payments
from rulesets.special_kongs import kind_named, kongs_of, replacements_of, special_meld
from rulesets.tiles import Tile

from .audit_declared import audit_declared
from .stream import HandLog

ZERO = [0, 0, 0, 0]


@dataclass
class Extras:
    problems: list[str] = field(default_factory=list)
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)
    round_ready: tuple[int, ...] | None = None      # the ready sides a settlement round judged

    def pay(self, payments) -> None:
        self.payments = add_payments(self.payments, tuple(payments))


def audit_extras(ruleset: Ruleset, hand: HandLog, start: dict, end: dict, winners: list[int],
                 public_wilds: list[str], kongs: tuple[tuple[int, int, int], ...] = ()) -> Extras:
    """`kongs`: (seat, exposed, concealed) ordinary kongs the log shows pressed (the 大蛋 round's seats)."""
    found = Extras()
    dealer = start["dealer"]
    for event in hand.all("opening_win"):
        _opening(ruleset, event, dealer, end, found)
    _follow_dealer(ruleset, hand.all("follow_dealer"), dealer, found)
    rounds = hand.all("settlement")
    if len(rounds) > 1:
        found.problems.append(f"{len(rounds)} settlement rounds in one hand")
    for event in rounds[:1]:
        _round(ruleset, event, dealer, tuple(winners), end, public_wilds, kongs, found)
    found.problems += _tail_tiles(hand, ruleset.shown_tile_replaces_at_wall_end)
    found.problems += _special_kongs(ruleset, [e for e in hand.events if e["event"] in ("special_kong", "resumed")],
                                     dealer, end)
    found.problems += audit_declared(ruleset, hand, dealer)
    found.problems += [problem for problem in (_exchange(ruleset, e) for e in hand.all("exchange")) if problem]
    for event in hand.all("false_win"):
        _false_win(ruleset, event, dealer, found)
    found.problems += [problem for problem in (_first_dealer(ruleset, e, dealer) for e in hand.all("first_dealer"))
                       if problem]
    return found


def _first_dealer(ruleset: Ruleset, event: dict, dealer: int) -> str:
    """A roll for the session's first dealer: rolled where the rules say so, and obeyed."""
    dice = event["dice"]
    if not rolls_for_first_dealer(dict(ruleset.options)):
        return f"a roll for the first dealer ({dice}), where {ruleset.id}'s options choose none"
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        return f"the first dealer's roll {dice} is not two dice"
    named = dealer_by_roll(event["roller"], dice, ruleset.players)
    if event["dealer"] != named or dealer != named:
        return (f"the first dealer's roll {'+'.join(map(str, dice))} from seat {event['roller']} names seat {named}; "
                f"the table said seat {event['dealer']} and seat {dealer} dealt")
    return ""


def moves_on_kong(ruleset: Ruleset) -> bool:
    """Whether a standing paying indicator turned up for a kong replaces the ones before (贵州
    ming_ji_kong=move, §13.3 a1) rather than adding to them (add, a2)."""
    return any(r.on_kong == "move" and r.effect.value == "paying" for r in ruleset.indicators)


def standing_paying(indicators: list[dict], moves: bool) -> list[str]:
    """The paying tiles in force from the indicator events so far, in order (贵州 明鸡, as HandState's
    `standing_reveals`): one a kong turned up stands beside the others, or (`moves`) in their place."""
    standing: list[str] = []
    for event in indicators:
        if event["timing"] != "after_win" and event["effect"] == "paying" and event["public"]:
            tiles = list(event["tile"] or ())
            standing = tiles if moves and event.get("kong") is not None else standing + tiles
    return standing


def _false_win(ruleset: Ruleset, event: dict, dealer: int, found: Extras) -> None:
    """大包 诈胡: what it pays is the scorer's for that seat (an older recorder's, with no payments, paid nothing)."""
    settled = false_win_settlement(ruleset, event["seat"], dealer)
    expected = list(settled.payments) if settled is not None else None
    if "payments" not in event:
        return                  # nothing paid (a recorder from before stop 45 too): hand_end's sum says if it should
    if event["payments"] != expected:
        found.problems.append(f"seat {event['seat']}'s 诈胡 pays {event['payments']}; the rules give {expected}")
    found.pay(event["payments"])


def _exchange(ruleset: Ruleset, event: dict) -> str:
    """宜昌 换三张: the direction is the option's, or the recorded dice's ("" when it is)."""
    option = dict(ruleset.options).get("exchange_direction", "dice")
    if "dice" not in event:
        return ""                       # a recorder from before the dice were recorded (stop 45)
    dice = event["dice"]
    if option != "dice":
        expected = option
    elif len(dice) == 2 and all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        expected = exchange_direction_of(tuple(dice))
    else:
        return f"换三张 by the dice records the dice {dice}: two dice of 1–6 were rolled"
    if event.get("direction") != expected:
        return f"换三张 went {event.get('direction')!r}; the rules send it {expected!r}"
    return ""


def _dealt(ruleset: Ruleset, dealer: int, seat: int, end: dict) -> list[Tile]:
    """The tiles `seat` was dealt: its deal positions over the wall revealed at hand_end."""
    ring = end["ring"]
    positions = ruleset.dealing.plan(dealer, ruleset.players).positions_of(seat)
    if any(p // 2 >= len(ring) for p in positions):          # (the audit of the hand names the wall's size)
        raise ValueError(f"the revealed wall has {len(ring)} stacks: too few for the deal")
    return sorted(Tile.parse(ring[p // 2][p % 2]) for p in positions)


def _special_kongs(ruleset: Ruleset, events: list[dict], dealer: int, end: dict) -> list[str]:
    problems: list[str] = []
    if any(e["event"] == "special_kong" for e in events) and not ruleset.has_phase("opening_kongs"):
        return [f"special kongs shown at a {ruleset.id} table, which has none"]
    shown: dict[int, Counter] = {}
    for event in events:
        if event["event"] == "resumed":
            _journaled_specials(event, shown)
            continue
        seat, who = event["seat"], f"seat {event['seat']}'s {event['name']}"
        kind = kind_named(event["name"], ruleset.option("win_version"))
        tiles = [Tile.parse(t) for t in event["tiles"]]
        meld = special_meld(kind, tiles, additions_allowed=seat != dealer) if kind is not None else None
        left = Counter(_dealt(ruleset, dealer, seat, end)) - shown.get(seat, Counter())
        good = meld is not None and not Counter(tiles) - left
        if event["accepted"] != good:
            problems.append(f"{who} {event['tiles']} was {'accepted' if event['accepted'] else 'refused'}; the rules "
                            f"and the deal say it {'is' if good else 'is not'} one")
        if not event["accepted"] or meld is None or kind is None:
            continue
        shown[seat] = shown.get(seat, Counter()) + Counter(tiles)
        counted = ruleset.option("special_kongs_count") == "yes"
        expected = (kongs_of(meld, kind), replacements_of(meld, kind),
                    kongs_of(meld, kind) - replacements_of(meld, kind) if counted else 0)
        if (event["kongs"], event["replacements"], event["reserve_kongs"]) != expected:
            problems.append(f"{who} counts kongs/replacements/reserve {event['kongs']}/{event['replacements']}/"
                            f"{event['reserve_kongs']}; the rules count {'/'.join(map(str, expected))}")
    return problems


def _journaled_specials(resumed: dict, shown: dict[int, Counter]) -> None:
    """The special kongs the journal knew at a restart: shown, even where a kill cut their lines (a
    seat laying one again is then refused as shown already).  An older `resumed` names none."""
    melds = resumed.get("special_melds")
    if not isinstance(melds, list):
        return
    journaled: dict[int, Counter] = {}
    try:
        for seat, _name, tiles in melds:
            journaled[int(seat)] = journaled.get(int(seat), Counter()) + Counter(Tile.parse(t) for t in tiles)
    except (TypeError, ValueError):
        return
    for seat, tiles in journaled.items():
        shown[seat] = shown.get(seat, Counter()) | tiles


def _opening(ruleset: Ruleset, event: dict, dealer: int, end: dict, found: Extras) -> None:
    seat = event["seat"]
    who = f"seat {seat}'s 起手小和"
    if not ruleset.has_phase("opening_small_wins") or seat not in ruleset.players:
        found.problems.append(f"{who}: {ruleset.id} has no opening small wins for this seat")
        return
    plan = ruleset.dealing.plan(dealer, ruleset.players)
    ring = end["ring"]
    dealt = sorted(Tile.parse(ring[p // 2][p % 2]) for p in plan.positions_of(seat))
    tiles = sorted(Tile.parse(t) for t in event["tiles"])
    settled = settle_opening(ruleset, tiles, WinContext(winner=seat, dealer=dealer, sides=ruleset.players)) \
        if tiles == dealt else None
    if event["accepted"]:
        if tiles != dealt:
            found.problems.append(f"{who} lays {event['tiles']}, but the seat was dealt {[str(t) for t in dealt]}")
        elif settled is None:
            found.problems.append(f"{who}: {event['tiles']} make no opening small win")
        elif list(settled.payments) != event["payments"]:
            found.problems.append(f"{who} pays {event['payments']}; the rules give {list(settled.payments)}")
        found.pay(event["payments"])
    elif settled is not None:
        found.problems.append(f"{who} was refused, but the seat's dealt tiles make "
                              f"{', '.join(i.zh for i in settled.items)}")
    elif event["payments"] != ZERO:
        found.problems.append(f"{who} was refused yet pays {event['payments']}")


def _follow_dealer(ruleset: Ruleset, events: list[dict], dealer: int, found: Extras) -> None:
    if events and not ruleset.has_phase("follow_dealer"):
        found.problems.append(f"跟庄 asked at a {ruleset.id} table, which has no 跟庄")
        return
    for number, event in enumerate(events, start=1):
        if event["round"] != number or (number > 1 and not events[number - 2]["followed"]):
            found.problems.append(f"跟庄 round {event['round']} asked out of turn")
        expected = list(follow_dealer(dealer, ruleset.players).payments) if event["followed"] else ZERO
        if event["payments"] != expected:
            found.problems.append(f"跟庄 round {event['round']} pays {event['payments']}; the rules give {expected}")
        found.pay(event["payments"])


def _round(ruleset: Ruleset, event: dict, dealer: int, winners: tuple[int, ...], end: dict,
           public_wilds: list[str], kongs: tuple[tuple[int, int, int], ...], found: Extras) -> None:
    expected_seats = list(round_seats(ruleset, winners, (side for side, *_ in kongs)))
    if event["seats"] != expected_seats:
        found.problems.append(f"the settlement round asked seats {event['seats']}; the rules ask {expected_seats}")
    standing = standing_paying(end["indicators"], moves_on_kong(ruleset))
    flipped = standing + [t for i in end["indicators"] if i["timing"] == "after_win" for t in i["tile"] or ()]
    if event["flipped"] != flipped:
        found.problems.append(f"the settlement round counts the flips {event['flipped']}; the hand flipped {flipped}")
    try:
        shown = tuple(SeatShown(h["seat"], _hand(h) if h["shown"] else None, h["timed_out"]) for h in event["hands"])
        first_yaoji = event.get("first_yaoji")
        context = RoundContext(dealer, ruleset.players, winners, shown, tuple(map(Tile.parse, flipped)),
                               tuple(map(Tile.parse, public_wilds)), kongs,
                               tuple(first_yaoji) if first_yaoji is not None else None)
        result = judge_round(ruleset, context)
    except ValueError as error:
        found.problems.append(f"the settlement round cannot be judged again: {error}")
        return
    ready = None if result.ready is None else list(result.ready)
    if event["ready"] != ready:
        found.problems.append(f"the settlement round finds {event['ready']} ready; the rules find {ready}")
    pigs = [v.side for v in result.verdicts if v.flower_pig]
    if event.get("flower_pigs", []) != pigs:
        found.problems.append(f"the settlement round names the 花猪 {event.get('flower_pigs')}; the rules {pigs}")
    settlement = result.settlement
    items = [[i.zh, i.value, i.unit] for i in settlement.items]
    if [[i["name"], i["value"], i["unit"]] for i in event["items"]] != items:
        found.problems.append(f"the settlement round lists {event['items']}; the rules give {items}")
    if event["payments"] != list(settlement.payments):
        found.problems.append(f"the settlement round pays {event['payments']}; the rules give {list(settlement.payments)}")
    found.pay(event["payments"])
    found.round_ready = result.ready


def _hand(data: dict) -> Hand:
    return Hand(tuple(map(Tile.parse, data["tiles"])), tuple(map(parse_meld, data["melds"])),
                tuple(map(Tile.parse, data["flowers"])))


def _tail_tiles(hand: HandLog, replaces_at_wall_end: bool = False) -> list[str]:
    """Each shown tail tile taken must be followed by a self-drawn win, or be warned about — but for one
    taken at the end of the wall (`at_wall_end`, checked by the wall audit) where the option lets a shown
    tile replace a kong."""
    shown: set[tuple[int, str]] = set()
    unresolved = 0
    warned = 0
    pending = False
    for event in hand.events:
        name = event["event"]
        if name == "indicator" and event.get("effect") == "shown":
            shown |= set(zip(event["ring"], event["layer"]))
        elif name == "warning" and event.get("rule") == "weipai":
            warned += 1
        elif pending and name in ("take", "false_win", "win_withdrawn", "win_cut_off", "exhausted") or (pending and name == "win" and event["from"] is not None):
            unresolved += 1
            pending = False
        elif pending and name == "win":
            pending = False
        if name == "take" and event["end"] == "tail" and (event["ring"], event["layer"]) in shown:
            pending = not (replaces_at_wall_end and event.get("at_wall_end") is True)
    unresolved += int(pending)
    if unresolved != warned:
        return [f"{unresolved} shown tail tile(s) taken without a 杠上开花 following, {warned} warned about"]
    return []


__all__ = ["Extras", "audit_extras"]
