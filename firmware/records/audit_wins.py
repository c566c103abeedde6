"""Payments recomputed: every win scored again by the ruleset's scorer, from what the log holds.

A `win` event records the winner's hand (tiles, melds, flowers, the winning tile, who discarded)
and, as `context`, every other fact the scorer was given (firmware.hand.state.win_context_json).
Where the log shows a fact itself — 听 (`ready`), the kongs (`kong_declared` then a kong take, or a
`kong_credited`: its replacement put back and taken again), the
last take (a kong replacement? the last live tile?), the wilds shown (`indicator`, the 宝 revealed
at `hand_end`), the after-win flips — the recorded fact must be what the log shows.  Then the hand
is judged and scored again (`rulesets.judging.evaluate_hand`) and must pay what the win says;
`hand_end` must name the winners of the wins and pay their sum (or the draw's settlement), plus the
payments beyond the wins (audit_extras.py: 起手小和, 跟庄, the settlement round).  The dealer's 连庄
count a win was scored with is `hand_start`'s `repeats`; the kong events a 云南 win pays are the
kongs the log shows, with the givers the `kong_from` answers name.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rulesets.definition import Ruleset
from rulesets.hand import Hand, WinContext, parse_meld
from rulesets.judging import evaluate_hand
from rulesets.rounds import kongs_by_side, pressed_kongs
from rulesets.scoring import DrawContext
from rulesets.settlement import add_payments
from rulesets.tiles import Tile

from ..hand.win_facts import is_first_turn, taken_astray, win_context_from_json
from .audit_extras import audit_extras, moves_on_kong, standing_paying
from .schema import COUNT, EVENTS, shaped
from .stream import HandLog


TAKE = shaped(EVENTS["take"])            # a take as its line says it (a `resumed` line's `last_take`)


@dataclass
class LogFacts:
    """What the log has shown so far in a hand, as the controller's HandState knew it."""

    ready: list[int] = field(default_factory=list)
    pending_kong: dict[int, bool] = field(default_factory=dict)
    kongs: dict[int, list[bool]] = field(default_factory=dict)
    last_take: dict | None = None
    replaced_for: int | None = None          # the seat whose kong replacement was the last take (HandState)
    public_wilds: list[str] = field(default_factory=list)
    bao: dict | None = None                  # the 宝 in force: the last on_ready indicator, until its tile is taken
    flips: list[str] | None = field(default_factory=list)   # after-win flips since the last judged win (None: hidden)
    indicators: list[dict] = field(default_factory=list)     # the indicator events seen (贵州 明鸡: `standing`)
    kong_moves: bool = False                 # a 明鸡 turned up for a kong replaces those before (ming_ji_kong=move)
    wins: list[dict] = field(default_factory=list)
    wins_since_take: list[dict] = field(default_factory=list)   # the wins on the discard now (一炮多响)
    draws: int = 0                           # draws since the deal (HandState.draws_after_deal)
    kong_taken: bool = False                 # a tile taken for a kong (HandState.tail_taken_for_kongs)
    kong_events: list[list] = field(default_factory=list)    # [seat, kind or None until its kong_from, giver]
    special_kongs: dict[int, int] = field(default_factory=dict)   # 长春: 明杠 counted by opening special kongs

    def see(self, event: dict) -> None:
        name = event["event"]
        if name == "ready" and event["seat"] not in self.ready:
            self.ready.append(event["seat"])
        elif name == "kong_declared":
            self.pending_kong[event["seat"]] = event["concealed"]
        elif name == "take":
            self.last_take, self.replaced_for = event, None
            self.wins_since_take = []
            self.draws += event["reason"] == "draw"
            self.kong_taken = self.kong_taken or event["reason"] in ("kong", "special")
            if self.bao is not None and (event["ring"], event["layer"]) in zip(self.bao["ring"], self.bao["layer"]):
                self.bao = None             # its tile left the wall: dead until rolled again (HandState)
            seat = next(iter(self.pending_kong), None)
            if event["reason"] == "kong" and seat is not None:
                self._credit(seat, last=not event.get("unseen"))
        elif name == "kong_credited" and event["seat"] in self.pending_kong:
            self._credit(event["seat"], last=True)      # its replacement put back and taken again (HandState)
        elif name == "kong_lapsed":
            self.pending_kong.pop(event["seat"], None)      # followed by a draw from the head (HandState)
        elif name == "special_kong" and event["accepted"]:
            self.special_kongs[event["seat"]] = self.special_kongs.get(event["seat"], 0) + event["kongs"]
        elif name == "kong_from":
            waiting = next((e for e in self.kong_events if e[0] == event["seat"] and e[1] is None), None)
            if waiting is not None:
                waiting[1:] = [event["kind"], event["from"]]
        elif name == "indicator":
            self._indicator(event)
        elif name in ("win", "false_win", "resumed"):
            self.flips = []                 # (a check cut by a restart is begun again: it flips again)
            if name == "win":
                self.wins.append(event)
                self.wins_since_take.append(event)
            elif name == "resumed":
                self._last_journaled_take(event)
                if "ready" in event:
                    self._declared(event)

    def _credit(self, seat: int, last: bool) -> None:
        """The seat's pending 杠 has its replacement (HandState._credit_kong)."""
        concealed = self.pending_kong.pop(seat)
        self.kongs.setdefault(seat, []).append(concealed)
        self.replaced_for = seat if last else None
        self.kong_events.append([seat, "an" if concealed else None, None])

    def _declared(self, resumed: dict) -> None:
        """The declarations the journal knew at a resume: the lines that showed them may be what a
        kill cut from the file before it (never more than the journal knew: lines follow the journal).
        A file whose `resumed` says them in another shape keeps what its lines showed."""
        try:
            ready = [int(seat) for seat in resumed["ready"]]
            kongs = {int(seat): [bool(c) for c in flags] for seat, flags in resumed["kongs"]}
            pending = {int(seat): bool(concealed) for seat, concealed in resumed["pending_kongs"]}
            special: dict[int, int] = {}
            for seat, count in resumed["special_kongs"]:
                special[int(seat)] = special.get(int(seat), 0) + int(count)
            events = [list(e) for e in resumed["kong_events"]]
            draws, kong_taken = int(resumed.get("draws", self.draws)), bool(resumed.get("kong_taken", self.kong_taken))
        except (KeyError, TypeError, ValueError):
            return
        self.draws, self.kong_taken = draws, kong_taken
        self.ready, self.kongs, self.pending_kong, self.special_kongs, self.kong_events = \
            ready, kongs, pending, special, events

    def _last_journaled_take(self, resumed: dict) -> None:
        """The last take the journal knew at a resume, and whose kong replacement it was: a kill can cut
        its line (and the takes before it) from the file, and a self-drawn win after the restart is
        on that tile (the fault campaign, 十七张: "self-drawn on 6p; the last take (37/top) was 9p", the
        journal's last take four stacks on).  An older controller's `resumed` lists the takes only:
        the last of them, whose order and replacement it does not say, where it is another than the
        lines' last."""
        last = resumed.get("last_take")
        if TAKE.check(last):
            replaced_for = resumed.get("replaced_for")
            self.last_take, self.replaced_for = last, replaced_for if COUNT.check(replaced_for) else None
            return
        try:
            ring, layer, end, reason = resumed["taken"][-1]
        except (KeyError, IndexError, TypeError, ValueError):
            return
        seen = self.last_take
        if seen is None or (seen.get("ring"), seen.get("layer")) != (ring, layer):
            # (how many were left after it is not said: `_on_last_tile` takes the win's word for it)
            self.last_take = {"ring": ring, "layer": layer, "end": end, "reason": reason}
            self.replaced_for = None

    def _indicator(self, event: dict) -> None:
        if event["timing"] == "after_win" and not event.get("journaled"):
            self.flips = None if self.flips is None or event["tile"] is None else self.flips + event["tile"]
        self.indicators.append(event)
        if event["timing"] == "on_ready":
            self.bao = event
        if event["public"] and event["effect"] == "wild":
            self.public_wilds += [t for t in event["wilds"] or () if t not in self.public_wilds]

    def kongs_by_side(self) -> list[list[int]]:
        return [list(row) for row in kongs_by_side(self.kongs, self.special_kongs)]


def audit_wins(ruleset: Ruleset, hand: HandLog, start: dict, end: dict) -> list[str]:
    """Every win of a finished hand scored again, and hand_end against the wins.  A voided hand
    (a restart found walls that contradict it) pays nothing, whatever was won in it."""
    problems: list[str] = []
    if end["result"] == "void":
        if end["winners"] or any(end["payments"]):
            problems.append(f"a void hand names winners {end['winners']} and pays {end['payments']}")
        if not any(e["event"] == "hand_void" for e in hand.events):
            problems.append("a void hand_end without the hand_void that says why")
        return problems
    facts = LogFacts(kong_moves=moves_on_kong(ruleset))
    for event in hand.events:
        if event["event"] == "win":         # (a win the journal kept but a kill cut from the file: the
            #                                   lines that showed its facts went with it; it is scored again)
            problems += _audit_win(ruleset, start, end, event, facts,
                                   complete=not hand.partial and not event.get("journaled"))
        facts.see(event)
    winners = [w["seat"] for w in facts.wins]
    extras = audit_extras(ruleset, hand, start, end, winners, facts.public_wilds, pressed_kongs(facts.kongs))
    problems += extras.problems
    if end["winners"] != winners:
        problems.append(f"hand_end names the winners {end['winners']}; the wins were by {winners}")
    if end["result"] != ("win" if winners else "draw"):
        problems.append(f"hand_end says {end['result']!r} after {len(winners)} win(s)")
    paid = add_payments(extras.payments, *(tuple(w["payments"]) for w in facts.wins))
    if not winners:
        ready = tuple(facts.ready) if extras.round_ready is None else extras.round_ready
        paid = add_payments(paid, _draw_payments(ruleset, start, facts, ready))
    if end["payments"] != list(paid):
        problems.append(f"hand_end pays {end['payments']}; its wins (or the draw) pay {list(paid)}")
    return problems


def _draw_payments(ruleset: Ruleset, start: dict, facts: LogFacts, ready: tuple[int, ...]) -> tuple[int, int, int, int]:
    kongs = tuple(tuple(k) for k in facts.kongs_by_side())
    settled = ruleset.scoring.settle_draw(ruleset, DrawContext(start["dealer"], ruleset.players, ready,
                                                               kongs))  # type: ignore[arg-type]
    return (0, 0, 0, 0) if settled is None else settled.payments


def _audit_win(ruleset: Ruleset, start: dict, end: dict, win: dict, facts: LogFacts, complete: bool) -> list[str]:
    seat, discarder = win["seat"], win["from"]
    who = f"seat {seat}'s win"
    players = ruleset.players
    if seat not in players or (discarder is not None and (discarder not in players or discarder == seat)):
        return [f"{who} from {discarder}: not seats of this table ({list(players)})"]
    try:
        laid = Hand(tuple(map(Tile.parse, win["tiles"])), tuple(map(parse_meld, win["melds"])),
                    tuple(map(Tile.parse, win["flowers"])))
        win_tile = None if win["win_tile"] is None else Tile.parse(win["win_tile"])
        context = win_context_from_json(win["context"], winner=seat, dealer=start["dealer"], discarder=discarder,
                                        win_tile=win_tile, sides=players)
        scored = replace(context, wilds=tuple(map(Tile.parse, _wilds_for(seat, end, facts))))   # with a private 宝
        result = evaluate_hand(ruleset, laid, scored)
    except ValueError as error:                     # a tile, meld or fact the rules cannot read
        return [f"{who} cannot be scored again: {error}"]
    problems = [f"{who} says {name} = {recorded}, the log shows {shown}"
                for name, recorded, shown in _facts_disagree(ruleset, start, end, win, context, facts)] if complete else []
    if complete and discarder is None and facts.replaced_for not in (None, seat):
        problems.append(f"{who} is self-drawn right after seat {facts.replaced_for}'s kong replacement: "
                        "only that seat had drawn")
    if complete and discarder is None and taken_astray(facts.last_take) and facts.replaced_for != seat:
        problems.append(f"{who} is self-drawn on a tile taken out of draw order (into the reserve, off another "
                        "stack, or a tail tile no 杠 asked for)")
    if complete and discarder is None:
        problems += _self_drawn_tile(who, win, end, facts.last_take)
    if ruleset.play.after_win == "xuezhan" and discarder in {w["seat"] for w in facts.wins}:
        problems.append(f"{who} is on a discard of seat {discarder}, which had won and was out of play (血战)")
    if not result.verdict.legal or result.settlement is None:
        problems.append(f"{who} is not a winning hand by the rules ({'; '.join(result.verdict.failures)})")
        return problems
    settlement = result.settlement
    if list(settlement.payments) != win["payments"]:
        problems.append(f"{who} pays {win['payments']}; the scorer gives {list(settlement.payments)}")
    items = [[i.zh, i.value, i.unit] for i in settlement.items]
    listed = [[i["name"], i["value"], i["unit"]] for i in win["items"]]
    if listed != items:
        problems.append(f"{who} lists the items {_items_text(listed)}; the scorer gives {_items_text(items)}")
    return problems


def _on_last_tile(last: dict | None, context: WinContext) -> bool:
    """Whether the last take left no live tile (海底); where the log does not say how many it left (an
    older controller's `resumed` names its last journaled take by its slot alone), the win's word."""
    if last is None:
        return False
    live = last.get("live")
    return context.last_tile if live is None else live == 0


def _self_drawn_tile(who: str, win: dict, end: dict, last: dict | None) -> list[str]:
    """A self-drawn win's tile is the one the wall held at the last take, when the laid hand holds it
    (the controller's own reading: `WinCheck._win_tile`); a win tile the wall never gave was sound."""
    try:
        held = end["ring"][last["ring"]][0 if last["layer"] == "top" else 1] if last is not None else None
    except (IndexError, KeyError, TypeError):
        return []                   # a take outside the ring: the takes' audit says so
    expected = held if held in win["tiles"] else None
    if win["win_tile"] == expected:
        return []
    where = f"{last['ring']}/{last['layer']}" if last is not None else "none"
    return [f"{who} is self-drawn on {win['win_tile']}; the last take ({where}) was {held}"]


def _facts_disagree(ruleset: Ruleset, start: dict, end: dict, win: dict, context: WinContext,
                    facts: LogFacts) -> list[tuple[str, Any, Any]]:
    """(fact, recorded, shown by the log) for every recorded fact the log shows otherwise."""
    seat, self_drawn = win["seat"], win["from"] is None
    bao_wilds = _bao_wilds(facts.bao, end) if seat in facts.ready else []
    last = facts.last_take
    earlier = [w["seat"] for w in facts.wins]
    same_discard = sum(1 for w in facts.wins_since_take if w["from"] == win["from"]) if not self_drawn else 0
    recorded_extra = dict(context.extra)
    shown: list[tuple[str, Any, Any]] = [
        ("ready_declared", context.ready_declared, seat in facts.ready),
        ("ready_sides", list(context.ready_sides), facts.ready),
        ("kong_replacement", context.kong_replacement, self_drawn and last is not None and last["reason"] == "kong"),
        ("last_tile", context.last_tile, _on_last_tile(last, context)),
        ("robbed_kong", context.robbed_kong, not self_drawn and facts.pending_kong.get(win["from"]) is False),
        ("first_turn", context.first_turn, is_first_turn(ruleset.players, start["dealer"], seat, win["from"], facts.draws,
                                                         len(facts.wins), facts.kong_taken)),
        ("kongs_by_side", [list(k) for k in context.kongs_by_side], facts.kongs_by_side()),
        ("wilds", [str(t) for t in context.wilds], [t for t in facts.public_wilds]),
        ("bao_hit", context.bao_hit, self_drawn and facts.bao is not None and win["win_tile"] in bao_wilds),
        ("extra.finished", list(recorded_extra.get("finished", ())),
         sorted(earlier) if ruleset.play.after_win == "xuezhan" else []),
        ("extra.fa_shown", recorded_extra.get("fa_shown"), len(win["flowers"])),
    ]
    if facts.flips is not None:
        shown.append(("flipped", [str(t) for t in context.flipped],
                      standing_paying(facts.indicators, facts.kong_moves) + facts.flips))
    shown.append(("prevailing_wind", str(context.prevailing_wind), "1z"))     # the table does not track it: 东
    if "repeats" in start:
        shown.append(("consecutive_dealer", context.consecutive_dealer, start["repeats"]))
    if ruleset.has_phase("kong_giver"):
        answered = [list(e) for e in facts.kong_events if e[1] is not None] if not facts.wins else []
        shown.append(("extra.kong_events", [list(e) for e in recorded_extra.get("kong_events", ())], answered))
    if "first_win" in recorded_extra:          # (recorders before it said nothing: their kongs were paid with every win)
        shown.append(("extra.first_win", recorded_extra["first_win"], not facts.wins))
    ron = recorded_extra.get("ron_winners")
    if not isinstance(ron, int) or (ron != 1 if self_drawn else ron < same_discard + 1):
        shown.append(("extra.ron_winners", ron, 1 if self_drawn else f"at least {same_discard + 1}"))
    return [(name, recorded, seen) for name, recorded, seen in shown if recorded != seen]


def _wilds_for(seat: int, end: dict, facts: LogFacts) -> list[str]:
    """The wilds the scorer had for this seat: the public ones, and the 宝 once it declared 听."""
    bao_wilds = _bao_wilds(facts.bao, end) if seat in facts.ready else []
    return facts.public_wilds + [t for t in bao_wilds if t not in facts.public_wilds]


def _bao_wilds(bao: dict | None, end: dict) -> list[str]:
    """The wilds of the 宝 in force: its own event's if public, else what hand_end reveals for its slot."""
    if bao is None:
        return []
    if bao["wilds"] is not None:
        return list(bao["wilds"])
    revealed = next((i for i in end["indicators"] if (i["kind"], i["ring"], i["layer"]) == (bao["kind"], bao["ring"], bao["layer"])), None)
    return list(revealed["wilds"] or ()) if revealed is not None else []


def _items_text(items: list[list]) -> str:
    """Scoring items as people read them: 基本胡 2 points, 门清 1 fan."""
    return "、".join(f"{name} {value} {unit}" for name, value, unit in items) or "none"
