"""A session's first dealer chosen by a roll, where the region's text leaves it to chance or to dice
(螺山 「第一盘由任意一家掷骰子，由这一家开始逆时针数掷出的骰子点数和即为庄家」; 上海, 广东鸡胡 and 云南:
the first dealer chosen at random, the table's dice being its random choice): house option
`first_dealer`.  Side 0 rolls two dice before the hand's own dice; the sum counted 逆时针 from side 0
names the dealer, who is shown as 东 at once.  Nothing is journaled before the hand is: a restart
before then rolls again, as it rolls the break's dice again."""

from __future__ import annotations

from typing import Awaitable, Callable, Sequence

from drivers.table_ui import ROLL_FIRST_DEALER, Phase
from rulesets.dice import dealer_by_roll

from .ports import HandPorts

Roll = Callable[..., Awaitable[tuple[int, ...]]]


async def roll_for_first_dealer(ports: HandPorts, roll: Roll, roller: int, totals: Sequence[int],
                                note: str = "") -> tuple[int, tuple[int, ...]]:
    """`roller` rolls for the first dealer (`roll`: the flow's prompt-and-roll); the dealer and the dice."""
    screens = ports.screens
    screens.phase(Phase.DICE, note)
    dice = await roll(roller, 2, ROLL_FIRST_DEALER)
    dealer = dealer_by_roll(roller, dice, ports.ruleset.players)
    screens.dealer(dealer, 0)
    for side in ports.ruleset.players:
        screens.seat_status(side, side == dealer, totals[side])
    return dealer, dice
