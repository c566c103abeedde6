"""Questions the table asks during play, because it cannot see the answer (issue 16).

- **Who gave an exposed kong** (regions whose card has `kong_giver`, 云南: 「打出一张牌的闲家给玩家2分」):
  once the replacement of a kong pressed short (not an 暗杠) is taken, the maker's display asks
  `第N杠来自:<下家|对家|上家|补杠>` (his N-th exposed kong of the hand); the answer goes to the
  recorder (`kong_from`) and to the win's kong money.
- **跟庄** (`follow_dealer`, 大包: 「如果第一圈四个人打出的牌一样叫做跟庄，庄家需给其他人每人一个筹码，第二圈
  一样继续每人给一个，直到出现不一样的牌」): when the fourth head draw of a round is taken, the
  dealer's 上家 — whose discard closed the round — is asked `跟庄第N圈:<无|有>`; each 有 makes the
  dealer pay every other seat a chip (recorded as `follow_dealer`), and the first 无 ends the asking.

- **拉庄** (`la_zhuang`, 十六张: 「闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一作下一盘的博注」): once
  a dealer's win is judged legal, each side that owes him (the discarder, or every other side on a
  self-draw) is asked `拉庄:<无|有>` on its own panel, in play order from the dealer; the answers go to
  the public line (`拉庄:南 西`), to the recorder (`la_zhuang`) and to the scorer
  (`context.extra["la_zhuang"]`), which carries a third of each asking side's debt.
- **财飘** (`cai_piao`, 杭州: RULES.md §9 names 「爆头、财飘、杠开」; RESEARCH.md §3.4): once a 爆头 win is
  judged legal, the winner is asked `财飘:<无|一飘|二飘|三飘>` — how many 财神 he discarded while waiting
  on 爆头, which the table cannot see; the answer goes to the public line, to the recorder
  (`cai_piao`) and to the scorer (`context.extra["cai_piao"]`, +1番 each).
- **承包** (`chengbao`, 上海: 「如果吃碰杠一家或被一家吃碰杠超过3次（包括3次），则承包（包含反承包在内）」): once a
  win is judged legal, the winner is asked `承包:<无|下家|对家|上家>` — the side he claimed from, or that
  claimed from him, three times or more, which the table cannot see; the answer goes to the public
  line, to the recorder (`chengbao`) and to the scorer (`context.extra["claims"]`), whose 承包者 pays.

- **三吃承包** (`san_chi`, 杭州: RESEARCH.md §3.4 「三吃承包」): once a win is judged legal whose laid hand
  shows three claimed melds or more, the winner is asked `三吃承包:<无|下家|对家|上家>` — the side that fed
  him three of them, which the table cannot see; the answer goes to the public line, to the recorder
  (`san_chi`) and to the scorer (`context.extra["chengbao"]`), whose 承包者 pays for everyone.
- **首张幺鸡** (`chongfeng_ji`, 贵州: RESEARCH.md §3.9 冲锋鸡/责任鸡): in the settlement round after the
  hand's win, once the others are asked to lay their hands (hand/settlement.py), the winner is asked
  `首张幺鸡:<未打出|本家|下家|对家|上家>` — who discarded the hand's first 1条 — and, if someone did,
  `幺鸡碰杠:<无|…|被胡>` — who 碰'd or 杠'd it (the discarder is not offered), or that it was won on.  Unclaimed it is 冲锋鸡, claimed 责任鸡, won on neither; the answers go to the
  recorder (`first_yaoji`) and to the round's scorer (`RoundContext.first_yaoji`).

Questions become due as the wall is taken (`HandFacts.asks`); the play loop asks them, one at a time,
before it handles any other key, so a 胡 on the kong's replacement waits for the answer.
"""

from __future__ import annotations

from drivers.table_ui import (ADDED_KONG, CAI_PIAO, CHENGBAO, FIRST_YAOJI, FOLLOW_DEALER, LA_ZHUANG, NO,
                              NOT_DISCARDED, PIAO_COUNTS, SAN_CHI, WON_ON, YAOJI_CLAIMED, YES, Key, Phase, choice_text,
                              kong_from_question, relative_name, seat_name)
from rulesets.hand import Hand, WinContext
from rulesets.scoring.dabao import follow_dealer
from rulesets.scoring.hangzhou import san_chi_possible
from rulesets.scoring.hand_types import payers

from .facts import Extra
from .ports import HandPorts, KeyMatch, Press, next_press, pressed, record_dropped
from .state import HandState


CHOICE_KEYS = (Key.LEFT, Key.RIGHT, Key.CONFIRM)


class Withdrawn(Exception):
    """The seat took back what the question was asked for (a long 胡 during a win check's first steps)."""


async def ask(ports: HandPorts, seat: int, question: str, choices: list[str],
              withdraw: KeyMatch | None = None, idle: float | None = None) -> int:
    """A choice prompt on one seat: ◀ ▶ move, 确认 accepts; the prompt stays (the next one replaces it).
    A key pressed before the question was on the seat's display answers nothing: one a board sent
    again to a restarted controller would put the question a step past what the player sees.  A
    press `withdraw` matches ends it (`Withdrawn`); `idle` seconds without a key end it (TimeoutError)."""
    index = 0
    ports.screens.prompt(seat, choice_text(question, choices[index]))
    await drop_pressed_before(ports, seat, CHOICE_KEYS)
    while True:
        press = await _next_key(ports, seat, CHOICE_KEYS, withdraw, idle)
        if press.key == Key.CONFIRM:
            return index
        index = (index + (1 if press.key == Key.RIGHT else -1)) % len(choices)
        ports.screens.prompt(seat, choice_text(question, choices[index]))


async def confirmed(ports: HandPorts, seat: int, prompt: str, withdraw: KeyMatch | None = None) -> None:
    """Show `prompt` (lay the tiles, then 确认) on a seat and wait for its 确认.  A 确认 pressed
    before the prompt was on the seat's display confirms nothing: a double press on the step
    before, or one a board sent again after a reboot, would read the zone before the tiles lie
    there and refuse a set the player is still laying.  A press `withdraw` matches ends it."""
    ports.screens.prompt(seat, prompt)
    await drop_pressed_before(ports, seat, (Key.CONFIRM,))
    await _next_key(ports, seat, (Key.CONFIRM,), withdraw)


async def _next_key(ports: HandPorts, seat: int, keys: tuple[Key, ...], withdraw: KeyMatch | None,
                    idle: float | None = None) -> Press:
    if idle is not None:            # (a question nobody need answer: waited for so long, then given up)
        press = await ports.until(lambda: ports.keys.peek(pressed((seat,), keys)), timeout=idle)
        ports.keys.take(lambda p: p is press)
        return press
    if withdraw is None:
        return await ports.next_key((seat,), keys)
    answers = pressed((seat,), keys)
    press = await next_press(ports, lambda p: withdraw(p) or answers(p))
    if withdraw(press):
        raise Withdrawn()
    return press


async def drop_pressed_before(ports: HandPorts, seat: int, keys: tuple[Key, ...],
                              panels: tuple[int, ...] | None = None) -> None:
    """Once the seat's last line is on its display, forget the `keys` pressed before that on its
    panel (or on `panels`: the front panel's keys reach the same board), recorded as dropped."""
    drop_made_before(ports, await ports.shown(seat), keys, panels if panels is not None else (seat,))


def drop_made_before(ports: HandPorts, mark: int, keys: tuple[Key, ...], panels: tuple[int, ...]) -> None:
    """Forget the `keys` pressed on `panels` before `mark` (a place among the motor board's events):
    they answered something asked before, never what is asked now."""
    stale = ports.keys.drop(lambda p: p.panel in panels and p.key in keys and p.made_before(mark))
    record_dropped(ports.recorder, stale, "before_question")


async def choose(ports: HandPorts, seat: int, question: str, choices: list[str], idle: float | None = None) -> int:
    """A question asked apart from the others: `ask`, then the prompt is cleared."""
    index = await ask(ports, seat, question, choices, idle=idle)
    ports.screens.prompt(seat, "")
    return index


def follow_question(round_number: int) -> str:
    return f"{FOLLOW_DEALER}第{round_number}圈"


def la_zhuang_due(hand: HandState, context: WinContext) -> tuple[int, ...]:
    """The sides to ask 拉庄: those that owe a dealer's win, where the table offers it."""
    ruleset = hand.ruleset
    if not ruleset.asks("la_zhuang") or context.winner != hand.dealer:
        return ()
    order = sorted(ruleset.players, key=lambda s: (s - hand.dealer) % 4)
    owing = set(payers(context))
    return tuple(s for s in order if s in owing)


async def ask_la_zhuang(ports: HandPorts, hand: HandState, context: WinContext) -> tuple[int, ...] | None:
    """Ask each side owing the dealer's win whether it asks 拉庄; the sides that do (None: nobody was asked)."""
    due = la_zhuang_due(hand, context)
    if not due:
        return None
    answers = [await choose(ports, side, LA_ZHUANG, [NO, YES]) for side in due]
    asking = tuple(side for side, answer in zip(due, answers) if answer == 1)
    ports.screens.phase(Phase.WIN_CHECK, f"{LA_ZHUANG}:{' '.join(hand.wind_name(s) for s in asking) or NO}")
    ports.recorder.emit("la_zhuang", winner=context.winner, asked=list(due), asking=list(asking))
    return asking


def cai_piao_due(hand: HandState, items: tuple) -> bool:
    """杭州: a legal win scored 爆头 asks its winner how many 财飘 (the scorer pays them only with 爆头)."""
    return hand.ruleset.asks("cai_piao") and any(item.key == "baotou" for item in items)


async def ask_cai_piao(ports: HandPorts, hand: HandState, context: WinContext, items: tuple) -> int | None:
    """Ask the winner of a 爆头 how many 财飘 he made; None: not asked."""
    if not cai_piao_due(hand, items):
        return None
    count = await choose(ports, context.winner, CAI_PIAO, list(PIAO_COUNTS))
    ports.screens.phase(Phase.WIN_CHECK, f"{CAI_PIAO}:{PIAO_COUNTS[count]}")
    ports.recorder.emit("cai_piao", seat=context.winner, count=count)
    return count


def in_play_order(seat: int, sides: tuple[int, ...]) -> list[int]:
    """The other sides seen from `seat`, 下家 first."""
    return sorted((s for s in sides if s != seat), key=lambda s: (s - seat) % 4)


LAST_CHOICE = -1            # `choose_side`'s answer for its `last` choice, which names no side


async def choose_side(ports: HandPorts, seat: int, question: str, offered: list[int], none: str = NO,
                      last: str | None = None, idle: float | None = None) -> int | None:
    """`question:<none|…|last>` on one seat over the `offered` sides, named as the seat sees them; the
    side chosen (None: `none`; LAST_CHOICE: `last`)."""
    sides = tuple(ports.ruleset.players)
    names = [none] + [seat_name(seat, s, sides) for s in offered] + ([last] if last is not None else [])
    answer = await choose(ports, seat, question, names, idle)
    if answer > len(offered):
        return LAST_CHOICE
    return offered[answer - 1] if answer else None


async def ask_side_at_win(ports: HandPorts, winner: int, question: str, event: str) -> int | None:
    """Ask the winner which other side, if any, the fact `question` names; said on the public line and
    recorded as `event` (seat, side)."""
    sides = tuple(ports.ruleset.players)
    side = await choose_side(ports, winner, question, in_play_order(winner, sides))
    ports.screens.phase(Phase.WIN_CHECK, f"{question}:{seat_name(winner, side, sides)}")
    ports.recorder.emit(event, seat=winner, side=side)
    return side


async def ask_chengbao(ports: HandPorts, hand: HandState, context: WinContext) -> int | None:
    """Ask the winner which side, if any, 承包s his win (3 or more claims between them, either way); the
    side (None: not asked, or 无)."""
    if not hand.ruleset.asks("chengbao"):
        return None
    return await ask_side_at_win(ports, context.winner, CHENGBAO, "chengbao")


def san_chi_due(hand: HandState, laid: Hand) -> bool:
    """杭州: a legal win whose laid hand shows three claimed melds or more asks who fed them."""
    return hand.ruleset.asks("san_chi") and san_chi_possible(laid.melds)


async def ask_san_chi(ports: HandPorts, hand: HandState, laid: Hand, context: WinContext) -> int | None:
    """Ask the winner which side fed him three claims (三吃承包); the side (None: not asked, or 无)."""
    if not san_chi_due(hand, laid):
        return None
    return await ask_side_at_win(ports, context.winner, SAN_CHI, "san_chi")


async def asked_at_win(ports: HandPorts, hand: HandState, laid: Hand, context: WinContext,
                       items: tuple) -> tuple[tuple[str, object], ...]:
    """The questions a legal win asks before it is paid, in turn (拉庄 of those owing a dealer's win,
    财飘 of the winner of a 爆头, 承包 and 三吃承包 of the winner), as the scorer's facts their answers
    make (none when none was asked, or all answered none)."""
    answers: list[tuple[str, object]] = []
    asking = await ask_la_zhuang(ports, hand, context)
    if asking is not None:
        answers.append(("la_zhuang", asking))
    piao = await ask_cai_piao(ports, hand, context, items)
    if piao:
        answers.append(("cai_piao", piao))
    side = await ask_chengbao(ports, hand, context)
    if side is not None:
        answers.append(("claims", ((context.winner, side, 3),)))
    feeder = await ask_san_chi(ports, hand, laid, context)
    if feeder is not None:
        answers.append(("chengbao", feeder))
    return tuple(answers)


async def ask_first_yaoji(ports: HandPorts, hand: HandState, winner: int,
                          idle: float | None = None) -> tuple[int, int | None] | None:
    """贵州: ask the hand's winner who discarded its first 1条 and who 碰/杠'd it; (discarder, claimer or
    None: 冲锋鸡 or 责任鸡), or None where the rules do not ask it, nobody discarded one, or it was won on.
    `idle`: seconds without a key after which it is given up, neither paid (a question nobody answers
    never holds the table up)."""
    if not hand.ruleset.asks("chongfeng_ji"):
        return None
    seats = [winner] + in_play_order(winner, tuple(hand.ruleset.players))
    discarder = claimer = None
    timed_out = False
    try:
        discarder = await choose_side(ports, winner, FIRST_YAOJI, seats, NOT_DISCARDED, idle=idle)
        if discarder is not None:
            claimer = await choose_side(ports, winner, YAOJI_CLAIMED, [s for s in seats if s != discarder],
                                        last=WON_ON, idle=idle)
    except TimeoutError:
        ports.screens.prompt(winner, "")
        discarder, claimer, timed_out = None, None, True
    won_on = claimer == LAST_CHOICE
    ports.recorder.emit("first_yaoji", seat=winner, discarder=discarder, claimer=None if won_on else claimer,
                        won_on=won_on, timed_out=timed_out)
    return None if discarder is None or won_on else (discarder, claimer)


class Questions:
    def __init__(self, ports: HandPorts) -> None:
        self.ports = ports

    def due(self, hand: HandState) -> bool:
        return bool(hand.facts.asks)

    async def ask_due(self, hand: HandState) -> None:
        """Ask every due question in the order it became due."""
        while hand.facts.asks:
            kind, seat, detail = hand.facts.asks[0]
            if kind == "kong_from":
                await self._kong_from(hand, seat, detail)
            else:
                await self._follow_dealer(hand, seat, detail)
            hand.facts.asks.pop(0)

    async def _kong_from(self, hand: HandState, seat: int, index: int) -> None:
        sides = hand.ruleset.players
        others = [s for s in sorted(sides) if s != seat]
        others.sort(key=lambda s: (s - seat) % 4)                 # 下家 first, in play order
        names = [relative_name(seat, s, sides) for s in others] + [ADDED_KONG]
        nth = 1 + sum(1 for s, kind, _ in hand.facts.kong_events[:index] if s == seat and kind != "an")
        answer = await choose(self.ports, seat, kong_from_question(nth), names)
        giver = others[answer] if answer < len(others) else None
        kind = "ming" if giver is not None else "zhuanwan"
        hand.facts.kong_events[index][1:] = [kind, giver]
        self.ports.recorder.emit("kong_from", seat=seat, kind=kind, **{"from": giver})

    async def _follow_dealer(self, hand: HandState, seat: int, round_number: int) -> None:
        answer = await choose(self.ports, seat, follow_question(round_number), [NO, YES])
        followed = answer == 1
        facts = hand.facts
        payments = (0, 0, 0, 0)
        if followed:
            facts.follow_rounds += 1
            settled = follow_dealer(hand.dealer, hand.ruleset.players)
            payments = settled.payments
            facts.extras.append(Extra("follow_dealer", hand.dealer, settled.payments, settled.items))
        self.ports.recorder.emit("follow_dealer", seat=seat, round=round_number, followed=followed,
                                 payments=list(payments))


__all__ = ["Questions", "ask", "ask_cai_piao", "ask_chengbao", "ask_first_yaoji", "ask_la_zhuang", "ask_san_chi", "asked_at_win",
           "cai_piao_due", "choose", "choose_side", "follow_question", "la_zhuang_due", "san_chi_due"]
