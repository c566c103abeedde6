"""Every special phase a region's card may name, and how the table handles it.

A card lists phases by name (rulesets.definition.PHASE_NAMES).  Each name is here exactly once:
- a **hook** the flow runs after the deal's indicators (宜昌 换三张, 长沙 起手小和, 长春 特殊杠);
- **rules**: handled where the rule lives — an indicator's timing (the 宝, after-win flips), the
  play rules (血战 / 血流), the flower rules, the win requirements, the scorer, the questions the
  play loop asks (hand/questions.py) or the settlement round at the end (hand/settlement.py);
- **missing**: not implemented at the table.  A test fails when a region's card uses one, so no
  phase is ever skipped silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Awaitable, Callable

from drivers.table_ui import RELATIVE_SEATS, ROLL_DICE, Key, Phase

from rulesets.dice import exchange_direction_of as direction_of

from .declarations import opening_kongs, opening_small_wins
from .ports import HandPorts
from .questions import drop_made_before
from .state import HandState

Roll = Callable[[int, int, str], Awaitable[tuple[int, ...]]]      # (seat, dice, prompt) → values
Hook = Callable[[HandPorts, HandState, Roll], Awaitable[None]]


@dataclass(frozen=True)
class Handling:
    kind: str                       # "hook", "rules" or "missing"
    how: str                        # where it is handled, or what is missing
    hook: Hook | None = None


async def exchange_three(ports: HandPorts, hand: HandState, roll: Roll) -> None:
    """宜昌 换三张: the dice give the direction; the players exchange and confirm.  The direction is
    kept in the hand and journaled before it is shown: a controller restarted before the 确认 shows
    the same one again (the tiles may have changed hands already), never a new roll."""
    if hand.facts.exchange is None:
        hand.facts.exchange, dice = await exchange_direction(hand, roll)
        hand.facts.exchange_dice = list(dice)
        ports.recorder.emit("exchange", direction=hand.facts.exchange, dice=list(dice))
        await ports.journaled()
    ports.screens.dice(hand.dice_shown())      # (after a restart too: the roll that gave the direction)
    name = {"next": RELATIVE_SEATS[0], "opposite": RELATIVE_SEATS[1], "previous": RELATIVE_SEATS[2]}[hand.facts.exchange]
    asked = ports.mark()
    ports.screens.phase(Phase.EXCHANGE, f":{name}")
    # a 确认 that reached the table before the exchange was asked says nothing of the tiles passed
    drop_made_before(ports, asked, (Key.CONFIRM,), tuple(hand.ruleset.players))
    # the dealer's, once every seat has passed (docs/table-flow.md §3): another seat's 确认 ended the
    # exchange before everyone had passed (a probe); it waits, dropped as play opens (`before_play`)
    await ports.next_key((hand.dealer,), (Key.CONFIRM,))


async def exchange_direction(hand: HandState, roll: Roll) -> tuple[str, tuple[int, ...]]:
    """The house option's direction, or the dice's (and the dice, recorded for the audit)."""
    option = dict(hand.ruleset.options).get("exchange_direction", "dice")
    if option != "dice":
        return option, ()
    values = await roll(hand.dealer, 2, ROLL_DICE)
    return direction_of(values), values



PHASES: dict[str, Handling] = {
    "exchange_three": Handling("hook", "the dice give the direction; every seat exchanges, then 确认", exchange_three),
    "flower_replacement": Handling("rules", "the wall tracker: a tail draw while a flower is owed replaces it"),
    "private_bao": Handling("rules", "the 宝 indicator's ON_READY timing (hand/bao.py)"),
    "after_win_flip": Handling("rules", "the AFTER_WIN indicators, flipped from the wall map in the win check"),
    "continue_after_win": Handling("rules", "the play rules' after_win (血战 / 血流): the flow plays on"),
    "hua_peng": Handling("rules", "the win rules: a 财神 may stand in a pung of a dragon or the seat wind"),
    "bonus_flower_exposure": Handling("rules", "the flower rules: 发 (or 红中) is a bonus tile, recounted when "
                                               "the 钻牌 makes it wild"),
    "choose_void_suit": Handling("rules", "the win requirement: a winning hand lacks one suit"),
    "standing_four": Handling("rules", "a rule of conduct for the players; nothing on the wall changes"),
    "check_ready_at_draw": Handling("rules", "the settlement round at a draw: every seat lays its hand, the table judges "
                                             "which are ready (hand/settlement.py); the draw settlement pays them"),
    "check_flower_pig": Handling("rules", "the settlement round at the end: every seat lays its hand; a hand holding "
                                          "three suits is a 花猪 (hand/settlement.py)"),
    "settle_every_seat": Handling("rules", "the settlement round after a win: every other seat lays its hand and is "
                                           "paid for what it holds (hand/settlement.py)"),
    "lay_kongs": Handling("rules", "the settlement round at the end of the hand: each seat that made a kong lays its "
                                   "明杠, then its 暗杠; the 大蛋 among them are paid (hand/settlement.py)"),
    "kong_giver": Handling("rules", "the play loop asks the maker of an exposed kong who gave the tile "
                                    "(hand/questions.py)"),
    "follow_dealer": Handling("rules", "the play loop asks the dealer's 上家 after each first round whether the four "
                                       "discards matched (hand/questions.py)"),
    "opening_small_wins": Handling("hook", "each seat declares (胡, lays its dealt hand) or not (确认); the read zone "
                                           "verifies against the deal and it is settled at once", opening_small_wins),
    "opening_kongs": Handling("hook", "each seat in turn shows its special kongs (◀ ▶ 确认, then lays them); the read "
                                      "zone verifies them against the deal; replacements from the tail", opening_kongs),
    "la_zhuang": Handling("rules", "the win check asks each side owing a dealer's win 拉庄:<无|有> before it is "
                                   "scored (hand/questions.py)"),
    "chengbao": Handling("rules", "the win check asks the winner 承包:<无|下家|对家|上家> before it is paid "
                                  "(hand/questions.py)"),
    "cai_piao": Handling("rules", "the win check asks the winner of a 爆头 财飘:<无|一飘|二飘|三飘> before it is paid "
                                  "(hand/questions.py)"),
    "san_chi": Handling("rules", "the win check asks a winner who laid three claimed melds or more "
                                 "三吃承包:<无|下家|对家|上家> before it is paid (hand/questions.py)"),
    "chongfeng_ji": Handling("rules", "the settlement round asks the winner 首张幺鸡 (who discarded the first 1条) and "
                                     "幺鸡碰杠 (who 碰/杠'd it): 冲锋鸡 or 责任鸡 (hand/questions.py, hand/settlement.py)"),
    "reseat_after_four": Handling("rules", "the flow: a hand after the dealer's 4th, 8th … 连庄 opens with 请掷骰子 "
                                           "连庄四把 请重新排定座位 (hand/flow.py)"),
    "liang_pai": Handling("rules", "the play loop: a seat presses ▶, lays 东南西北 or 中发白; the read zone verifies "
                                   "it; a 东南西北 过杠 takes a tail replacement (hand/liang.py)"),
}


async def run_phase(name: str, ports: HandPorts, hand: HandState, roll: Roll) -> None:
    """Run a card's phase: its hook, or nothing when its rules handle it.  An unknown name raises."""
    handling = PHASES[name]
    if handling.hook is not None:
        await handling.hook(ports, hand, roll)


__all__ = ["Handling", "PHASES", "exchange_three", "run_phase"]
