"""What the table says to the players, word for word: the public message line and seat prompts.

These strings are the contract between the controller and the people at the table (and the
simulated players, who read the same screens).  The controller writes them; nothing else on
the display is needed to play.  Kept in `drivers` because both the controller (`firmware`) and
the simulator read them, and they are part of the display protocol (docs/protocol.md §7.3).

The public message line `main.t_msg` names the phase of the hand (`Phase`).  Line 0 of a seat
display is that seat's status, line 1 its prompt or private information.

A *choice* prompt reads "<question>:<current choice>"; ◀ ▶ move through the choices, 确认
accepts.  `choice_text` / `parse_choice` write and read it.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from types import MappingProxyType
from typing import Mapping


class Phase(str, Enum):
    """The public message line during a hand (main.t_msg starts with one of these)."""

    IDLE = "待机"                    # no hand running
    BUILDING = "洗牌中"              # the next set is being built; wait
    PUSH_IN = "请推牌入池后按确认"     # push every tile into the centre, then any seat presses 确认
    DICE = "请掷骰子"                 # the seat prompted "请掷骰子" presses 骰子
    DEAL = "请配牌"                   # take the deal from the head as the break says
    EXCHANGE = "换三张"               # exchange three tiles (direction follows), then 确认
    PLAY = "请出牌"                   # play; indicators are shown
    LAST_TILE = "最后一张"            # the live wall is empty: 胡 or any seat 确认 for 荒庄
    WIN_CHECK = "验牌中"              # a win is being checked; wait
    OPENING = "起手小和"              # 长沙: right after the deal, each seat declares an opening small win or not
    SPECIAL_KONGS = "亮特殊杠"        # 长春: right after the deal, each seat in turn shows its special kongs or not
    SETTLE = "请亮牌结算"             # the settlement round: the seats asked lay their hands (seat line 1 says)
    HAND_OVER = "本局结束"            # the result is shown
    FAULT = "故障"                    # a latched fault: see the fault page

# After a fault's code and words on the main page's fault line (a fault of the next set's build while
# a hand is played on the raised walls): the hand goes on; the fault's page comes at the hand's end.
FAULT_WAITS = "本局照常 局后处理"

# After the push-in request: the hand just settled, "上局胡 东家" or "上局荒庄" (本局结束 showed it only
# for a moment before the push-in was asked)
LAST_HAND = "上局"

# After 洗牌中 when the walls that rose were not the set built for them (lost from under the table while
# the controller was stopped): the tiles are pushed in and a set is built anew.
WALLS_MISSING = "牌墙不全 重新洗牌"

# After 本局结束 when a hand is voided: no payments, the same dealer.  A hand the table could not
# score (a fault in the scoring, which the log names) is settled by the people at the table.
HAND_VOID = "本局作废"
SCORING_FAILED = "本局作废 计分故障 请人工结算"
CONTROLLER_FAULT_VOID = "本局作废 控制器故障"      # this hand stopped the controller at every start

# After a phase word: the controller restarted (its last moments may be lost), so a key it did not
# acknowledge (胡 with no check begun, 确认 with the screen unchanged) is pressed again.
RESTARTED = "已重启 未应答的键请再按"
# After 请掷骰子 when the dealer has kept the deal four more times (十七张: 「庄家连庄四把之后，四位玩家重新
# 排定位置」): the players change seats before the dealer's seat rolls.
RESEAT = "连庄四把 请重新排定座位"

# Seat prompts (line 1 of a seat display).
ROLL_DICE = "请掷骰子"                # press 骰子; the prompt reads "请掷骰子 第N次" (see roll_prompt)
ROLL_BAO = "请掷骰子定宝"             # 长春: the first ready player rolls the 宝 die
ROLL_FIRST_DEALER = "请掷骰子定庄"     # a session's first hand, where the rules choose its dealer by dice
LAY_MELDS = "摆副露后确认"            # lay your shown melds (and concealed kongs) in the read zone, then 确认
LAY_HAND = "摆手牌后确认"             # lay the rest of the hand beside them, then 确认
ENTRY = "录入"                        # manual entry: "录入:<tile>" ◀ ▶ choose, 确认 adds one, 胡 ends
WIN_FROM = "点炮"                     # choice: who discarded the winning tile
WIN_TILE = "胡牌"                     # choice: which tile won (on a discard)
BAO = "宝"                            # "宝:<tile>" — private to this seat
CHANGE_BAO_HINT = "骰子=换宝"          # shown with the 宝: 骰子 asks for 换宝
NOT_A_WIN = "诈胡"                    # the laid hand is not a win
WIN_DONE = "胡"                       # "胡 +32"
ROUND_PAID = "结算"                   # a winner's line after the settlement round: "胡 +7 结算 -1"
CUT_OFF = "截胡"                      # "截胡 下家": a nearer seat claimed the same discard; it is judged instead

SELF_DRAWN = "自摸"
RELATIVE_SEATS = ("下家", "对家", "上家")   # seats counted from the asking seat, in play order

# The table asks for what it cannot see (issue 16).  Choice prompts read "<question>:<choice>".
KONG_FROM = "杠来自"                  # choice "第N杠来自:…", to the maker of his N-th exposed kong of the hand:
#                                       下家 / 对家 / 上家, or 补杠 (kong_from_question)
ADDED_KONG = "补杠"                   # …the fourth tile added to one's own 碰 (云南 转弯杠)
FOLLOW_DEALER = "跟庄"                # choice "跟庄第N圈:无|有": did the N-th round's four discards all match?
NO, YES = "无", "有"
OPENING_ASK = "起手小和按胡 无则确认"   # 长沙: 胡 to declare an opening small win, 确认 for none
LAY_OPENING = "摆起手牌后确认"         # lay the whole dealt hand in the read zone, then 确认
OPENING_PAID = "起手小和"              # "起手小和 +3" once paid
OPENING_REFUSED = "起手小和不成立"       # the laid tiles are not a small win (or not the seat's deal)
SHOW_MELDS = "亮副露后确认"            # settlement round: lay shown melds and kongs (nothing: 确认 on an empty zone)
SHOW_HAND = "亮手牌后确认"             # …then the rest of the hand beside them, 确认 (nothing shown: 确认 empty)
LAY_OPEN_KONGS = "亮明杠后确认"        # 长春 大蛋 round: lay the exposed kongs (none: 确认 on an empty zone)
LAY_CLOSED_KONGS = "亮暗杠后确认"      # …then the concealed kongs beside them, 确认
READY_MARK, NOT_READY = "有叫", "无叫"   # a seat's settlement line: its hand is ready or not (查大叫, 鸡)
FLOWER_PIG = "花猪"                    # …its hand holds all three suits (查花猪)
NOT_SHOWN = "未亮牌"                   # …nothing was shown (or no answer in time)
TAIL_ONLY_ON_KONG_WIN = "！尾牌只可杠上开花"   # 云南: a shown tail tile was taken without a 杠上开花
OUT_OF_ORDER = "！请按顺序取牌"          # a tile taken from a stack the draw order did not reach: put it back
TAKE_AGAIN = "！请取回放回的牌"          # a tile put back whose take stands (a 杠's replacement, …): take it again
RULES_NEXT_HAND = "新规则下局生效"       # rules saved on the front panel during a hand: they start at the next hand
NEW_HOUSE_RULES = "新房规"                 # other house options of the rules in play, waiting for the next hand
RULES_KEPT = "维持现行规则"              # the rules in play saved over a choice waiting for the next hand: it is taken back
CHANGE_TILES = "请更换牌具后重启"          # rules saved that need other tiles: the tiles changed, then a restart
RULES_NOT_SAVED = "规则未能保存 重启后失效"   # the disk refused the panel's choice: played, but a restart would not know it
SET_ASIDE = "请取出"                    # the dealer's line: "请取出混儿" — take the indicator shown out of the wall
NO_KONG = "！余牌不足不能杠"            # a 杠 pressed when no live tile would remain after its replacement: refused
NO_TING = "！本规则不报听"              # a 听 pressed in a region whose rules have no 报听: nothing is declared
EARLY_KEYS = "开局前的按键不算"          # after 请出牌 first shows: "开局前的按键不算:南 西" names the seats whose keys,
#                                       pressed during the deal or an opening phase and answering nothing, were dropped
SPECIAL_KONG = "特殊杠"                # 长春 choice "特殊杠:<无|旋风杠|喜杠|幺蛋|九蛋>": one to show, or 无 when done
LAY_SPECIAL = "摆特殊杠后确认"          # lay the special kong (its additions beside it) in the read zone, 确认
SPECIAL_REPLACE = "特殊杠补牌"          # "特殊杠补牌 N": shown; take N replacement tiles from the tail
SPECIAL_REFUSED = "特殊杠不成立"         # the laid tiles are not that special kong from the seat's deal
LIANG = "亮牌"                        # 沈阳: ▶ during play declares one; "亮牌 东南西北" on the seat line once shown
LAY_LIANG = "摆亮牌后确认"             # lay the set (东南西北 or 中发白) in the read zone, 确认
LIANG_REPLACE = "亮牌补牌"             # "亮牌补牌 1": the 东南西北 过杠 is shown; take its replacement from the tail
LIANG_REFUSED = "亮牌不成立"           # the laid tiles are not a set this seat may show now
LA_ZHUANG = "拉庄"                    # 十六张 choice "拉庄:<无|有>", to each payer of a dealer's win
CAI_PIAO = "财飘"                     # 杭州 choice "财飘:<无|一飘|二飘|三飘>", to the winner of a 爆头
PIAO_COUNTS = ("无", "一飘", "二飘", "三飘")  # …how many 财神 he discarded waiting on 爆头 (the 4番 cap ends the ladder)
CHENGBAO = "承包"                     # 上海 choice "承包:<无|下家|对家|上家>", to a winner: the side 3+ claims were between
SAN_CHI = "三吃承包"                  # 杭州 choice "三吃承包:<无|下家|对家|上家>", to a winner with 3 claimed melds: who fed them
FIRST_YAOJI = "首张幺鸡"              # 贵州 choice "首张幺鸡:<未打出|本家|下家|对家|上家>", to the hand's first winner: who
NOT_DISCARDED = "未打出"              # …discarded the hand's first 幺鸡 (1条), or nobody did
YAOJI_CLAIMED = "幺鸡碰杠"            # 贵州 choice "幺鸡碰杠:<无|本家|下家|对家|上家|被胡>" (the discarder left out): who
WON_ON = "被胡"                       # …碰/杠'd it, or nobody (无: 冲锋鸡), or it was won on (被胡: neither)
MYSELF = "本家"                      # the seat asked, among the seats a choice names


def roll_prompt(count: int) -> str:
    """The dice prompt for the hand's `count`-th roll: each request reads differently, so a
    player (or a camera) never mistakes a new request for the one already answered."""
    return f"{ROLL_DICE} 第{count}次"


def choice_text(question: str, current: str) -> str:
    return f"{question}:{current}"


def kong_from_question(nth: int) -> str:
    """第2杠来自: who gave the seat's 2nd exposed kong of this hand.  Naming it lets a player asked again
    after a restart (his answer lost with the controller) answer for the right kong."""
    return f"第{nth}{KONG_FROM}"


def kong_from_nth(question: str) -> int | None:
    """2 from 第2杠来自; None when the question is not that one."""
    if question.startswith("第") and question.endswith(KONG_FROM) and question[1:-len(KONG_FROM)].isdigit():
        return int(question[1:-len(KONG_FROM)])
    return None


def parse_choice(text: str) -> tuple[str, str] | None:
    """("点炮", "下家") from "点炮:下家"; None when the line is not a choice."""
    question, sep, current = text.partition(":")
    return (question, current) if sep else None


def seat_name(asking: int, side: int | None, sides: tuple[int, ...], none: str = NO) -> str:
    """How a choice names `side` to the seat `asking`: 本家 for itself, else its relative name; `none`
    for no side."""
    if side is None:
        return none
    return MYSELF if side == asking else relative_name(asking, side, sides)


def relative_name(asking: int, other: int, sides: tuple[int, ...]) -> str:
    """下家 / 对家 / 上家 of `other` seen from `asking`, over the playing sides."""
    ordered = sorted(sides)
    steps = (ordered.index(other) - ordered.index(asking)) % len(ordered)
    if len(ordered) == 3:
        return ("", "下家", "上家")[steps]
    return ("", "下家", "对家", "上家")[steps]


def seat_status(dealer: bool, score: int, ready: bool = False) -> str:
    """Line 0 of a seat display: "庄 +12 听" — 庄 marks the dealer."""
    parts = ["庄" if dealer else "闲", f"{score:+d}"]
    if ready:
        parts.append("听")
    return " ".join(parts)


# Enrolment (`mahjong-table enroll`): the technician lays each kind's tiles in one seat's read zone.
ENROLL = "登记"                        # main.t_msg: "登记:<tile name> ×<copies> 座位<seat> 确认"


def enroll_prompt(tile_name: str, copies: int, seat: int, attempt: int = 1) -> str:
    """The prompt for one kind; asked again after a read that did not hold exactly its new tiles, it
    counts the attempts ("第2次确认"), so a person at the table sees the last press was not taken."""
    answer = "确认" if attempt == 1 else f"第{attempt}次确认"
    return f"{ENROLL}:{tile_name} ×{copies} 座位{seat} {answer}"


ENROLLED = ENROLL + "完成"                 # main.t_msg once a set is enrolled


def parse_enroll_prompt(text: str) -> tuple[str, int, int] | None:
    """(tile name, copies, seat) from an enrolment prompt, or None."""
    if not text.startswith(ENROLL + ":"):
        return None
    try:
        name, copies, seat, _ = text[len(ENROLL) + 1:].split(" ")
        return name, int(copies.lstrip("×")), int(seat.removeprefix("座位"))
    except ValueError:
        return None


# The keys people press: the seat panels (0-3) and the front panel (4).  The motor board reports
# them by these numbers (protocol.md §4); the controller and the simulated players read them here.

class Panel(IntEnum):
    SEAT0 = 0
    SEAT1 = 1
    SEAT2 = 2
    SEAT3 = 3
    FRONT = 4


class Key(IntEnum):
    """Keys on the seat panels and the front panel."""

    TING = 1      # 听  declare ready
    HU = 2        # 胡  declare a win
    KONG = 3      # 杠/补  kong, or a replacement draw
    CONFIRM = 4   # 确认
    DICE = 5      # 骰子  roll the dice
    LEFT = 6      # ◀
    RIGHT = 7     # ▶
    MENU = 8      # 菜单  (front panel) open the menu
    BACK = 9      # 返回  (front panel) leave a menu page
    STOP = 10     # 停止  (front panel) emergency stop: the board stops the motors itself
    LIFT = 11     # 升降  raise / lower the walls (next hand)

    @property
    def zh(self) -> str:
        return KEY_LABELS_ZH[self]

    @classmethod
    def parse(cls, text: str) -> "Key":
        """A key from its name ('TING', 'ting') or its Chinese label ('听')."""
        for key in cls:
            if text.upper() == key.name or text == KEY_LABELS_ZH[key]:
                return key
        names = ", ".join(f"{k.name.lower()} ({KEY_LABELS_ZH[k]})" for k in cls)
        raise ValueError(f"no key {text!r}; keys are {names}")


KEY_LABELS_ZH: Mapping[Key, str] = MappingProxyType({Key.TING: "听", Key.HU: "胡", Key.KONG: "杠", Key.CONFIRM: "确认", Key.DICE: "骰子",
                 Key.LEFT: "◀", Key.RIGHT: "▶", Key.MENU: "菜单", Key.BACK: "返回", Key.STOP: "停止",
                 Key.LIFT: "升降"})


class KeyAction(IntEnum):
    PRESS = 1
    LONG_PRESS = 2   # held for at least one second
