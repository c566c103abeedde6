"""From the dice to `请出牌`: the deal, indicators that leave play, 换三张, the void suit.

The players find the ring themselves, as people at the table do: the dealer is the seat whose
display line 0 starts with 庄, the break follows from the rolls in `t_dice` by the region's dice
rule, and the deal takes head positions in the region's pattern.
"""

from __future__ import annotations

import asyncio
from typing import Callable

from drivers.motor_protocol import Key
from drivers.table_ui import RELATIVE_SEATS, Phase, relative_name
from rulesets.indicators import Effect, RevealContext, Timing
from rulesets.walls import Ring

from .crew import OVER, Crew, HandEnded, PlayersError
from .knowledge import TableView
from .mistakes import Mistakes
from .screen import Screen
from .wall import LiveWall

STARTED = (Phase.PLAY, Phase.EXCHANGE, Phase.LAST_TILE)
# the controller paints the page showing again every second: ten paintings, which a display losing
# even three instructions in ten gets right all but once in 100,000 times (3 s: 3 in 100)
REPAINTED_WITHIN_S = 10.0


def ring_from(crew: Crew, screen: Screen) -> tuple[int, Ring]:
    """The dealer and the ring the screens show (raises PlayersError when they do not yet)."""
    ruleset = crew.ruleset
    dealer = screen.dealer(crew.sides)
    rolls = screen.rolls()
    if dealer is None or len(rolls) < ruleset.dice.rolls_needed:
        raise PlayersError("the dealer or the dice are not shown")
    result = ruleset.dice.break_for(dealer, crew.sides, rolls[:ruleset.dice.rolls_needed])
    return dealer, ruleset.layout.ring(result.brk)


async def take_deal(crew: Crew, mistakes: Mistakes) -> tuple[LiveWall, TableView]:
    ruleset = crew.ruleset
    needed = ruleset.dice.rolls_needed

    def shown(s: Screen) -> bool:
        return s.dealer(crew.sides) is not None and len(s.rolls()) >= needed

    def ended(s: Screen) -> bool:
        return s.phase is not Phase.DEAL

    screen = await crew.until(lambda s: shown(s) or ended(s))
    if not ended(screen):
        screen = await looked_again(crew, screen, crew.dice_agree, shown, ended)
    if screen.phase is not Phase.DEAL:
        raise HandEnded(screen.msg)
    crew.indicators_at_deal = screen.ind_text
    dealer, ring = ring_from(crew, screen)
    plan = ruleset.dealing.plan(dealer, crew.sides)
    wall = LiveWall(crew.table, ruleset, ring)
    view = TableView(crew.sides, dealer)
    crew.view = view
    crew.wall = wall
    crew.brain.new_hand()
    careful = crew.rng.random() < crew.style.defensive      # a careful hand: all play safe late
    for player in crew.players.values():
        player.new_hand(defensive=careful, keep_pairs=player.rng.random() < crew.style.keep_pairs)
    standing = ruleset.has_phase("standing_four")
    grabbed: set[int] = set()
    for index, grab in enumerate(plan.grabs):
        await crew.pause(allowed=(Phase.DEAL,))
        await mistakes.before_grab(grab.side, wall, sum(len(g.positions) for g in plan.grabs[index:]))
        player = crew.players[grab.side]
        for position in grab.positions:
            uid = wall.take_deal(position)
            player.receive(uid)
            player.dealt.add(uid)
            player.last_drawn = uid
            if standing and grab.side not in grabbed:
                player.standing.add(uid)          # 立四: the first grab stands apart
        grabbed.add(grab.side)
        crew.log(grab.side, "take", f"deal {grab.positions[0]}-{grab.positions[-1]}")
    return wall, view


async def after_deal(crew: Crew, wall: LiveWall, view: TableView) -> None:
    """Indicators leaving play, 换三张, then `请出牌`: the public wilds and each player's plan."""
    await set_aside_indicators(crew, wall, view)
    screen = await crew.until(lambda s: s.phase in STARTED or (s.phase in OVER and s.phase is not Phase.DEAL))
    if screen.phase is Phase.PLAY and crew.answers.owed_replacements():
        screen = await crew.until(lambda s: not crew.answers.owed_replacements() or s.phase in OVER)
    if screen.phase is Phase.EXCHANGE:
        await exchange_three(crew, view, screen)
        screen = await crew.until(lambda s: s.phase in (Phase.PLAY, Phase.LAST_TILE) or s.phase in OVER)
    if screen.phase in OVER:
        raise HandEnded(screen.msg)
    view.wilds = screen.wilds()
    view.shown = screen.indicators()
    note_shown_tail(crew, wall, view)
    if crew.rules.hints.void_suit:
        suits = _suits(crew)
        for player in crew.players.values():
            player.void = crew.brain.choose_void(player, suits)


async def set_aside_indicators(crew: Crew, wall: LiveWall, view: TableView) -> None:
    """An indicator that leaves play (温州 财神, 河北 混儿): the dealer takes it out once shown."""
    ruleset = crew.ruleset
    roll_index = ruleset.dice.rolls_needed
    for rule in ruleset.indicators:
        if rule.timing.value != "after_deal":
            continue
        index = roll_index
        roll_index += 1 if rule.position_dice else 0
        if rule.stays_in_play:
            continue

        def shown(s: Screen, index: int = index, dice: bool = rule.position_dice) -> bool:
            return bool(s.indicators()) and (not dice or len(s.rolls()) > index)

        def fresh(s: Screen, dice: bool = rule.position_dice, before: str = crew.indicators_at_deal) -> bool:
            """This hand's: not the indicator line the deal began with, and the dice on the table."""
            return (not before or s.ind_text != before) and (not dice or crew.dice_agree(s))

        screen = await crew.until(lambda s: shown(s) or _over(s))
        if not _over(screen):
            screen = await looked_again(crew, screen, fresh, shown, _over)
        if _over(screen):
            raise HandEnded(screen.msg)
        roll = screen.rolls()[index] if rule.position_dice else ()
        context = RevealContext(wall.ring, ruleset.layout, view.dealer, wall.next_head_position(),
                                wall.tail_taken, roll)
        for slot in rule.position.slots(context):
            await crew.pause(allowed=(Phase.DEAL,))
            uid = wall.set_aside(slot)
            kind = crew.identify(uid)            # the tile is face up now: anyone may look
            view.aside.append(kind)
            crew.log(view.dealer, "set_aside", f"{rule.kind} {kind}")
            if kind not in screen.indicators():     # (a display that lost the line shows it once painted again)
                screen = await looked_again(crew, screen, lambda s, kind=kind: kind in s.indicators(),
                                            shown=_anything, ended=_nothing)
            if kind not in screen.indicators():
                crew.errors.append(f"the {rule.name_zh} taken out is {kind.zh}, the screen shows {screen.ind_text!r}")


def _over(screen: Screen) -> bool:
    """The hand ended while its indicators were being set aside."""
    return screen.phase in OVER and screen.phase is not Phase.DEAL


async def looked_again(crew: Crew, screen: Screen, fresh: Callable[[Screen], bool], shown: Callable[[Screen], bool],
                       ended: Callable[[Screen], bool]) -> Screen:
    """`screen` (which `shown` holds for) once it is `fresh` too, or as it is after `REPAINTED_WITHIN_S`
    (real time).  A display that lost an instruction shows the last hand's rolls and indicator until
    it is painted again, within a second: a person reads the dice on the table and waits for the
    display to agree.  After that the display is what the table counts from (the dice may have been
    rolled again for a roll the table had already taken, across its restart; this hand's indicator
    may be the last one's), as a person who looked again would follow it."""
    if fresh(screen):
        return screen
    try:
        async with asyncio.timeout(REPAINTED_WITHIN_S):
            return await crew.until(lambda s: (shown(s) and fresh(s)) or ended(s))
    except TimeoutError:
        # a line garbled or blank just then says nothing (campaign 940012, 钻牌: 请卿牌 for 请配牌, read as
        # the hand over): the next readable screen is looked at, as `Crew.until` always does
        now = await crew.until(_anything)
        return now if shown(now) or ended(now) else screen


def _anything(screen: Screen) -> bool:
    return True


def _nothing(screen: Screen) -> bool:
    return False


def note_shown_tail(crew: Crew, wall: LiveWall, view: TableView) -> None:
    """Tiles turned face up where they lie (云南 尾牌): found by their position rule, their kinds read
    from t_ind; an ordinary replacement passes over them."""
    rules = [r for r in crew.ruleset.indicators if r.timing is Timing.AFTER_DEAL and r.effect is Effect.SHOWN]
    if not rules:
        return
    context = RevealContext(wall.ring, crew.ruleset.layout, view.dealer, wall.next_head_position(), wall.tail_taken,
                            (), frozenset(wall.taken))
    slots = [slot for rule in rules for slot in rule.position.slots(context)]
    wall.shown = dict(zip(slots, view.shown))


async def exchange_three(crew: Crew, view: TableView, screen: Screen) -> None:
    """换三张: everyone passes three tiles of one suit the way t_msg says; the dealer confirms."""
    name = next((n for n in RELATIVE_SEATS if n in screen.detail), RELATIVE_SEATS[0])
    suits = _suits(crew)
    picks = {seat: crew.brain.exchange_three(p, suits) for seat, p in crew.players.items()}
    await crew.pause(allowed=())
    for seat, uids in picks.items():
        for uid in uids:
            crew.players[seat].give(uid)
    for seat, uids in picks.items():
        target = next((o for o in crew.sides if o != seat and relative_name(seat, o, crew.sides) == name), seat)
        for uid in uids:
            crew.players[target].receive(uid)
        crew.log(seat, "exchange", f"3 to {target}")
    crew.press(view.dealer, Key.CONFIRM)
    pressed = crew.restarts
    while True:     # until the exchange is over; a 确认 lost with a restarted controller is pressed again
        screen = await crew.until(lambda s: s.phase in (Phase.PLAY, Phase.LAST_TILE)
                                  or (s.phase in OVER and s.phase is not Phase.DEAL)
                                  or (s.phase is Phase.EXCHANGE and crew.restarts != pressed))
        if screen.phase is not Phase.EXCHANGE:
            return
        pressed = crew.restarts
        crew.press(view.dealer, Key.CONFIRM)
        crew.log(view.dealer, "exchange", "确认 again after a restart")


def _suits(crew: Crew) -> tuple[str, ...]:
    return tuple(sorted({k.suit for k in crew.ruleset.tiles.kinds if k.is_suited}))
