"""Opening declarations: a hand the rules pay for as it was dealt (长沙 起手小和, issue 16).

「小和：四喜（开局摸到四张一样的牌型）、无将和（开局没有摸到2.5.8这三种牌型）、缺一色（开局未摸到万索筒这几种牌的
任意一种牌型）、六顺（开局摸到任意两种牌各三只）」 (RULES.md §12.6).  Right after the deal the public
line reads `起手小和` and every seat's display `起手小和按胡 无则确认`.  A seat with an opening small
win presses 胡, lays its whole dealt hand on its read zone (`摆起手牌后确认`) and presses 确认; the
table verifies the laid tiles — they must be exactly the tiles the wall map says this seat was dealt,
and make at least one small win — and settles at once (`rulesets.scoring.changsha.settle_opening`:
every other side pays each small win; no bird is flipped for it, since the birds lie at the head of
the wall still to be drawn).  The seat's line shows `起手小和 +N`, or `起手小和不成立` when the
tiles are not a small win or not its deal.  The recorder says either (`opening_win`).  Play starts
when every seat has answered.

长春's opening special kongs (RULES.md §1.7, `rulesets/special_kongs.py`): the public line reads
`亮特殊杠`; each seat in turn, the dealer first, is asked `特殊杠:<无|旋风杠|喜杠|幺蛋|九蛋>`.  A seat
showing one lays it (its additions beside it) on its read zone (`摆特殊杠后确认`, 确认); the table
checks the tiles are that special kong and come from the seat's deal — the dealer may add nothing
(「庄家第一手不允许补杠」) — and records it (`special_kong`), then shows `特殊杠补牌 N` and waits for the
seat to take its N replacements from the tail (旋风杠 and each addition take one).  The seat is asked
again until it answers 无.  A special kong counts as one 明杠 and one more per addition; for the
reserve as the house option `special_kongs_count` says.
"""

from __future__ import annotations

from collections import Counter

from drivers.table_ui import (LAY_OPENING, LAY_SPECIAL, NO, OPENING_ASK, OPENING_PAID, OPENING_REFUSED,
                              SPECIAL_KONG, SPECIAL_REFUSED, SPECIAL_REPLACE, Key, Phase)
from rulesets.dealing import dealing_order
from rulesets.hand import WinContext
from rulesets.scoring.changsha import settle_opening
from rulesets.special_kongs import kongs_of, replacements_of, special_kinds, special_meld
from rulesets.tiles import Tile

from .facts import Extra
from .ports import HandPorts, next_press, pressed, stray_tags
from .questions import choose, confirmed, drop_pressed_before
from .state import HandState


def dealt_tiles(hand: HandState, seat: int) -> tuple[Tile, ...]:
    """The tiles the wall map says `seat` was dealt (its deal positions, from the ring's head)."""
    plan = hand.ruleset.dealing.plan(hand.dealer, hand.ruleset.players)
    return tuple(sorted(hand.wall[hand.ring.head_slot(p)] for p in plan.positions_of(seat)))  # type: ignore[type-var]


async def opening_small_wins(ports: HandPorts, hand: HandState, roll) -> None:
    """The 起手小和 phase (the hook of `opening_small_wins`)."""
    ruleset = hand.ruleset
    waiting = [s for s in ruleset.players if s not in hand.facts.openings]
    if not waiting:
        return
    ports.screens.phase(Phase.OPENING)
    for seat in waiting:
        ports.screens.prompt(seat, OPENING_ASK)
    for seat in waiting:        # a 胡 or 确认 from before the question was on the line answers nothing
        await drop_pressed_before(ports, seat, (Key.HU, Key.CONFIRM))
    while waiting:
        press = await next_press(ports, pressed(tuple(waiting), (Key.HU, Key.CONFIRM)))
        seat = press.seat
        if press.key == Key.HU:
            await confirmed(ports, seat, LAY_OPENING)
            laid = [ports.lookup(uid) for uid in await ports.read_zone(seat)]
            ports.screens.prompt(seat, judge_opening(ports, hand, seat, laid))
        else:
            ports.screens.prompt(seat, "")
        hand.facts.openings.append(seat)
        waiting.remove(seat)


def judge_opening(ports: HandPorts, hand: HandState, seat: int, laid: list[Tile | None]) -> str:
    """Verify and settle one declaration; returns the seat's line."""
    dealt = dealt_tiles(hand, seat)
    tiles = tuple(sorted(t for t in laid if t is not None))     # a stray tag near the antenna is no tile
    context = WinContext(winner=seat, dealer=hand.dealer, sides=hand.ruleset.players)
    reason = None
    if Counter(tiles) != Counter(dealt):
        reason = "the laid tiles are not the tiles this seat was dealt"
    settled = settle_opening(hand.ruleset, tiles, context) if reason is None else None
    if reason is None and settled is None:
        reason = "the dealt hand makes no opening small win"
    fields = {"seat": seat, "tiles": [str(t) for t in tiles], **stray_tags(laid)}
    if settled is None:
        ports.recorder.emit("opening_win", **fields, accepted=False, reason=reason, items=[], payments=[0, 0, 0, 0])
        return OPENING_REFUSED
    hand.facts.extras.append(Extra("opening", seat, settled.payments, settled.items))
    ports.recorder.emit("opening_win", **fields, accepted=True, reason=None,
                        items=[{"name": i.zh, "pinyin": i.pinyin, "value": i.value, "unit": i.unit} for i in settled.items],
                        payments=list(settled.payments))
    return f"{OPENING_PAID} {settled.payments[seat]:+d}"


async def opening_kongs(ports: HandPorts, hand: HandState, roll) -> None:
    """The 长春 opening special kongs (the hook of `opening_kongs`)."""
    ruleset = hand.ruleset
    kinds = special_kinds(ruleset.option("win_version"))
    waiting = [s for s in dealing_order(hand.dealer, ruleset.players) if s not in hand.facts.special_done]
    if not waiting:
        return
    ports.screens.phase(Phase.SPECIAL_KONGS)
    for seat in waiting:
        if hand.tracker.special_owed:               # owed by a kong judged before a restart
            await _replacements(ports, hand, seat)
        while True:
            answer = await choose(ports, seat, SPECIAL_KONG, [NO] + [k.zh for k in kinds])
            if answer == 0:
                break
            await confirmed(ports, seat, LAY_SPECIAL)
            laid = [ports.lookup(uid) for uid in await ports.read_zone(seat)]
            replacements = judge_special(ports, hand, seat, kinds[answer - 1], laid)
            if replacements is None:
                ports.screens.prompt(seat, SPECIAL_REFUSED)
                # said on the public line too: the seat's own line asks the choice again at once (a
                # probe: 特殊杠不成立 was never seen, and a second 确认 answered 无)
                ports.screens.phase(Phase.SPECIAL_KONGS, f"{hand.wind_name(seat)}{SPECIAL_REFUSED}")
                continue
            await _replacements(ports, hand, seat)
        hand.facts.special_done.append(seat)


async def _replacements(ports: HandPorts, hand: HandState, seat: int) -> None:
    """`特殊杠补牌 N` (the kong accepted) until the seat took the N tail tiles its judged kong owes.
    The seat takes them once it reads the line, so the line follows the journal's commit of the kong:
    a restart must know what they are for; one that finds them still owed asks for them again."""
    await ports.journaled()
    ports.screens.prompt(seat, f"{SPECIAL_REPLACE} {hand.tracker.special_owed}")
    await ports.until(lambda: not hand.tracker.special_owed)


def judge_special(ports: HandPorts, hand: HandState, seat: int, kind, laid: list[Tile | None]) -> int | None:
    """Verify and record one special kong; the replacements it owes, or None when refused."""
    shown_before = [Tile.parse(t) for side, _, tiles, _ in hand.facts.specials if side == seat for t in tiles]
    left = Counter(dealt_tiles(hand, seat))
    left.subtract(shown_before)
    tiles = tuple(sorted(t for t in laid if t is not None))     # a stray tag near the antenna is no tile
    meld = special_meld(kind, tiles, additions_allowed=seat != hand.dealer)
    reason = None
    if meld is None:
        reason = f"the laid tiles are not a {kind.zh}" + (" (the dealer may add nothing on his first turn)"
                                                          if seat == hand.dealer else "")
    elif Counter(tiles) - left:
        again = any(side == seat and Counter(shown) == Counter(map(str, tiles)) for side, _, shown, _ in hand.facts.specials)
        reason = ("this special kong was shown already (laid again after a restart: it counts once)" if again
                  else "the laid tiles are not from this seat's deal (特殊杠牌只有起手牌才算)")
    fields = {"seat": seat, "name": kind.zh, "tiles": [str(t) for t in tiles], **stray_tags(laid)}
    if reason is not None or meld is None:
        ports.recorder.emit("special_kong", **fields, accepted=False, reason=reason, kongs=0, replacements=0,
                            reserve_kongs=0)
        return None
    kongs, replacements = kongs_of(meld, kind), replacements_of(meld, kind)
    counted = hand.ruleset.option("special_kongs_count") == "yes"
    hand.facts.specials.append([seat, kind.zh, [str(t) for t in tiles], kongs])
    hand.tracker.owe_special(replacements, kongs, counted)
    ports.recorder.emit("special_kong", **fields, accepted=True, reason=None, kongs=kongs, replacements=replacements,
                        reserve_kongs=kongs - replacements if counted else 0)
    return replacements


__all__ = ["dealt_tiles", "judge_opening", "judge_special", "opening_kongs", "opening_small_wins"]
