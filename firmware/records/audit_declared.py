"""What seats declared during play, checked from the log (issue 16): 沈阳 亮牌, 十六张 拉庄, 杭州 财飘 and 三吃承包,
上海 承包, 贵州 首张幺鸡.

- `liang_pai`: an accepted 亮牌 is one each of 东南西北 or of 中发白 (`rulesets.liang_pai`), named so,
  each set once per seat, none where the house option `liang_window` is off; a 东南西北 过杠 says one
  replacement and the next take of the wall is that replacement, from the tail, counted as a kong's;
  a 中发白 says none.
- `la_zhuang`: asked only at a dealer's win, of exactly the sides that owe it (the discarder, or every
  other side still in the hand on a self-draw) in play order from the dealer; the win that follows
  gives its scorer exactly the sides that asked; a dealer's win where the table offers 拉庄 is asked.
- `cai_piao`: asked only where the rules have it, of the winner of a 爆头, right before his win, whose
  scorer is given exactly the answer; a 爆头 win there is asked.
- `chengbao`: asked only where the rules have it, of each winner right before his win, whose scorer
  is given exactly the side answered (as `claims`), or none.
- `san_chi` (杭州 三吃承包): asked only where the rules have it, of a winner whose laid hand shows three
  claimed melds or more, right before his win, whose scorer is given exactly the side answered (as
  `chengbao`), or none.
- `first_yaoji` (贵州 冲锋鸡/责任鸡): asked once, of the hand's first winner, before its settlement round,
  which counts exactly the answer (`first_yaoji`: the discarder and the claimer, none when nobody
  discarded a 1条 or it was won on); never where the rules do not have it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulesets.definition import Ruleset
from rulesets.hand import Meld, parse_meld
from rulesets.liang_pai import REPLACEMENTS, set_named
from rulesets.scoring.hangzhou import san_chi_possible
from rulesets.tiles import Tile

from .chain import ASKED_AT_WIN, ASKED_OF_CLAIMS
from .stream import HandLog


def audit_declared(ruleset: Ruleset, hand: HandLog, dealer: int) -> list[str]:
    asks = hand.format >= ASKED_AT_WIN      # an older controller's recorder holds no 财飘 or 承包 question
    of_claims = hand.format >= ASKED_OF_CLAIMS      # …nor a 三吃承包 or 首张幺鸡 one
    return (_liang(ruleset, hand.events) + _la_zhuang(ruleset, hand.events, dealer)
            + _asked_at_win(ruleset, hand.events, CAI_PIAO, asks) + _asked_at_win(ruleset, hand.events, CHENGBAO, asks)
            + _asked_at_win(ruleset, hand.events, SAN_CHI, of_claims) + _first_yaoji(ruleset, hand.events, of_claims))


def _liang(ruleset: Ruleset, events: list[dict]) -> list[str]:
    problems: list[str] = []
    shown: set[tuple[int, str]] = set()
    for index, event in enumerate(events):
        if event["event"] != "liang_pai" or not event["accepted"]:
            continue
        seat, name = event["seat"], event["name"]
        where = f"亮牌 of seat {seat}"
        if not ruleset.has_phase("liang_pai") or ruleset.option("liang_window") == "off":
            problems.append(f"{where} accepted at a table that does not allow it")
            continue
        if set_named([Tile.parse(t) for t in event["tiles"]]) != name:
            problems.append(f"{where}: {' '.join(event['tiles'])} is not {name}")
            continue
        if (seat, name) in shown:
            problems.append(f"{where}: {name} shown twice")
        shown.add((seat, name))
        if event["replacements"] != REPLACEMENTS[name]:
            problems.append(f"{where}: {event['replacements']} replacement(s) for {name}, the rules take "
                            f"{REPLACEMENTS[name]}")
        if REPLACEMENTS[name]:
            take = next((e for e in events[index + 1:] if e["event"] == "take"), None)
            if take is not None and (take["end"], take["reason"]) != ("tail", "kong"):
                problems.append(f"{where}: the take after the 过杠 is a {take['end']} {take['reason']}, not its "
                                "replacement from the tail")
    return problems


def _extra(win: dict) -> dict:
    """The win's recorded scorer facts (`context.extra`); empty when the line does not carry them (the
    win's own audit names that)."""
    context = win.get("context")
    extra = context.get("extra") if isinstance(context, dict) else None
    return extra if isinstance(extra, dict) else {}


def _seats(value) -> list[int]:
    """Seat numbers as recorded (anything else in the list is left out: the win's own audit names it)."""
    return [s for s in value if isinstance(s, int)] if isinstance(value, (list, tuple)) else []


def _owing(win: dict, sides: list[int]) -> list[int]:
    """Who owes this win, in play order from the winner (the discarder, or the sides still in the hand)."""
    if win["from"] is not None:
        return [win["from"]]
    finished = set(_seats(_extra(win).get("finished")))
    order = sorted(sides, key=lambda s: (s - win["seat"]) % 4)
    return [s for s in order if s != win["seat"] and s not in finished]


def _la_zhuang(ruleset: Ruleset, events: list[dict], dealer: int) -> list[str]:
    problems: list[str] = []
    offered = ruleset.asks("la_zhuang")
    asked: dict | None = None
    for event in events:
        if event["event"] == "la_zhuang":
            asked = event
            if not offered:
                problems.append("拉庄 asked at a table that does not offer it")
            continue
        if event["event"] != "win":
            continue
        recorded = _seats(_extra(event).get("la_zhuang"))
        if offered and event["seat"] == dealer:
            if asked is None or asked["winner"] != event["seat"]:
                problems.append(f"the dealer's win (seat {event['seat']}) was not preceded by the 拉庄 question")
            else:
                if asked["asked"] != _owing(event, sorted(ruleset.players)):
                    problems.append(f"拉庄 asked of {asked['asked']}, but {_owing(event, sorted(ruleset.players))} "
                                    "owe the dealer's win")
                if recorded != asked["asking"]:
                    problems.append(f"the win's scorer was given 拉庄 {recorded}, the answers were {asked['asking']}")
        elif recorded:
            problems.append(f"a win of seat {event['seat']} (not the dealer's) carries 拉庄 {recorded}")
        asked = None
    return problems


@dataclass(frozen=True)
class WinQuestion:
    """A question the win check asks the winner before his win is paid, and the fact it becomes."""

    event: str                                          # its recorder event, and its phase on the card
    zh: str
    extra: str                                          # the scorer's fact (`context.extra`)
    due: Callable[[dict], bool]                         # a win that must be preceded by it
    given: Callable[[dict, dict | None], Any]           # the fact due for a win and its answer (None: none)


CAI_PIAO = WinQuestion("cai_piao", "财飘", "cai_piao",
                       lambda win: any(isinstance(i, dict) and i.get("pinyin") == "bao tou" for i in win.get("items", ())),
                       lambda win, asked: asked["count"] if asked is not None and asked["count"] else None)
CHENGBAO = WinQuestion("chengbao", "承包", "claims", lambda win: True,
                       lambda win, asked: [[win["seat"], asked["side"], 3]]
                       if asked is not None and asked["side"] is not None else None)


def _melds(win: dict) -> list[Meld]:
    """The melds a win's line shows (one the audit cannot read is said by the win's own check)."""
    melds = []
    for text in win.get("melds", ()):
        try:
            melds.append(parse_meld(text))
        except ValueError:
            continue
    return melds


SAN_CHI = WinQuestion("san_chi", "三吃承包", "chengbao", lambda win: san_chi_possible(_melds(win)),
                      lambda win, asked: asked["side"] if asked is not None else None)


def _first_yaoji(ruleset: Ruleset, events: list[dict], asks: bool = True) -> list[str]:
    """首张幺鸡: asked where the rules have it, once, after the hand's win and before its settlement round,
    which counts exactly what the answers give."""
    has = ruleset.asks("chongfeng_ji")
    problems: list[str] = []
    answer: dict | None = None          # the last answer (a restart during the round asks again)
    won = False
    for event in events:
        name = event["event"]
        won = won or name == "win"
        if name == "first_yaoji":
            answer = event
            if not has:
                problems.append("首张幺鸡 asked at a table that does not have it")
        elif name == "settlement":
            if has and asks and won and answer is None:
                problems.append("the settlement round after a win was not preceded by the 首张幺鸡 question")
            due = None if answer is None or answer["discarder"] is None or answer["won_on"] else \
                [answer["discarder"], answer["claimer"]]
            if event.get("first_yaoji") != due:
                problems.append(f"the settlement round counts 首张幺鸡 {event.get('first_yaoji')}, the answers give {due}")
    return problems


def _asked_at_win(ruleset: Ruleset, events: list[dict], question: WinQuestion, asks: bool = True) -> list[str]:
    """Asked only where the rules have it (`asks`: the recorder's controller asked it), right before each
    win it is due for; the win's scorer given exactly what the answer says."""
    problems: list[str] = []
    has = ruleset.asks(question.event)
    asked: dict | None = None
    for event in events:
        if event["event"] == question.event:
            asked = event
            if not has:
                problems.append(f"{question.zh} asked at a table that does not have it")
            continue
        if event["event"] != "win":
            continue
        if has and asks and question.due(event) and (asked is None or asked["seat"] != event["seat"]):
            problems.append(f"seat {event['seat']}'s win was not preceded by the {question.zh} question")
        else:
            recorded, due = _extra(event).get(question.extra), question.given(event, asked)
            if recorded != due:
                problems.append(f"seat {event['seat']}'s win: its scorer was given {question.zh} {recorded}, "
                                f"the answers give {due}")
        asked = None
    return problems


__all__ = ["audit_declared"]
