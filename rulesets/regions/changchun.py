"""长春麻将 — RULES.md §1 (file 002, several overlapping versions).

The 宝 is secret: chosen by a die counted from the tail when the first player declares 听, shown
only on the seat display of ready players, re-covered in place, changed (换宝) when dead.
The dead wall is 留7墩 with its kong rule, in three readings (R-B by default).
"""

from ..definition import HouseOption, Play, Region
from ..dice import TwoRollsWallThenSkip
from ..indicators import CountFromTail, Derivation, Effect, IndicatorRule, Timing
from ..provenance import Derived, Given, choice, open_question, text
from ..reserve import KONG_READINGS, KongReserve
from ..rotation import RotationRule
from ..tilesets import SET_136
from ..walls import End
from .common import DEFAULT_DEAL, NO_FLOWERS, four_players, phase

BREAK_START = HouseOption(
    "break_start", "开牌 (break)",
    (("skip", "skip roll 2's sum in stacks, then draw"), ("at", "start drawing at the stack numbered by roll 2")),
    "skip", open_question("§1.9 C1", "Skip N stacks vs start at stack N: not stated — default skip, as 上海 §4.2 states"))

BAO_COUNT = HouseOption(
    "bao_count", "宝 数法 (count)",
    (("stacks", "the die counts stacks back from the tail; the 宝 is that stack's top (「数几摞」)"),
     ("tiles", "the die counts tiles back from the tail (「倒数第5个牌位」)")),
    "stacks", open_question("§1.9 C2", "tile vs stack: default stacks, as version B and RESEARCH.md §3.2 (MIL 长春) count 墩"))

BAO_DICE = HouseOption(
    "bao_dice", "宝 骰子 (dice)",
    (("1", "one die (「一般用单个色子打点」)"), ("2", "two dice")),
    "1", open_question("§1.9 C3", "one die, as version C says and RESEARCH.md §3.2 confirms; with one die the 宝 lies inside the 7-stack reserve"))

BAO_REDRAW = HouseOption(
    "bao_redraw", "换宝 (change the 宝)",
    (("three_visible", "when 3 copies of the 宝 are visible (discards, 碰, 明杠)"),
     ("three_discarded", "when 3 copies have been discarded")),
    "three_visible", open_question("§1.9 C5", "version C 「牌池中（包含明杠、碰出的牌…）里已经有3个宝牌」 and RESEARCH.md §3.2 agree"))

BAO_LOWER = HouseOption(
    "bao_lower_layer", "下层作宝 (lower layer)",
    (("after_six_dead", "after six 宝 in a row have died, use lower-layer tiles (「上下互换」)"),
     ("all_six_dead", "when all six upper tiles a die can reach are dead 宝, use the lower layer")),
    "after_six_dead", open_question("§1.9 C6", "「如果连续6张宝都已经绝宝…则可利用下层的牌作宝」; the literal reading (a) is the default"))

RESERVE_READING = HouseOption(
    "reserve_reading", "留7墩 读法 (reading)",
    tuple((r, KongReserve(r).describe()) for r in KONG_READINGS),
    "R-B", open_question("§1.4 D1", "R-B reproduces every data point of the text; the issue makes it the default"))

SPECIAL_KONGS_COUNT = HouseOption(
    "special_kongs_count", "特殊杠算杠 (opening kongs count)",
    (("yes", "旋风杠/喜杠/幺蛋/九蛋 count as kongs for the 留7墩 rule"), ("no", "only ordinary kongs count")),
    "yes", open_question("§1.7", "each special kong 「可以亮出算一个明杠」; whether they count in the 留7墩 rule is not stated"))

REGION = Region(
    id="changchun",
    name="长春麻将",
    title="Changchun (吉林长春)",
    section="RULES.md §1",
    attribution="named: 「长春麻将规则」 [002:1]",
    tiles=Given(SET_136, text("§1.1", "长春麻将使用麻将牌中全部条子、饼子、万子，东、南、西、北风，中、发、白，共136张牌（每人摆17叠）")),
    players=four_players(text("§1.1", "游戏人数：4人")),
    hand_size=Given(13, text("§1.1", "庄家拿14张牌，闲家13张牌")),
    stacks_per_side=Given((17, 17, 17, 17), text("§1.1", "每人摆17叠")),
    dealing=DEFAULT_DEAL,
    dice=choice("break_start", {
        "skip": Given(TwoRollsWallThenSkip(0), text("§1.2", "庄家摇两次筛子，第一次逆时针数点找到先拿牌的人，先拿牌的人再从自己面前的牌堆右向左按根据第二次摇筛子的两个筛子点数之和的点数开始拿牌")),
        "at": Given(TwoRollsWallThenSkip(-1), text("§1.2", "…按根据第二次摇筛子的两个筛子点数之和的点数开始拿牌 (read as: start at that stack)")),
    }),
    indicators=Derived(lambda o: (IndicatorRule(
        kind="bao", timing=Timing.ON_READY,
        position=CountFromTail(unit=o["bao_count"]),
        derivation=Derivation("same"), effect=Effect.WILD, public=False, stays_in_play=True,
        position_dice=int(o["bao_dice"]), redraw_when_dead=True,
        notes=("only a seat that has declared 听 sees the 宝 (「听牌时可看宝，未听牌者不许看」 §1.3)",
               "换宝: roll again and put the old 宝 back in its place (「原来的宝牌放回原位」 §1.3)",
               "the 宝 kind wins for a ready player (对宝/摸宝, §1.3)")),),
        text("§1.3", "听牌后下一轮摸牌时掷骰子，按其显示点数从牌墙之尾往前数到的那张牌即是宝牌"),
        ("bao_count", "bao_dice", "bao_redraw", "bao_lower_layer")),
    reserve=Derived(lambda o: KongReserve(o["reserve_reading"]),
                    text("§1.4", "牌桌上的牌墙需保留最后7墩，如果有人杠，1杠留7墩,2杠留8墩......依次类推, 杠完后留的单数海底牌不算一墩"),
                    ("reserve_reading",)),
    replacement=Given(End.TAIL, text("§1.4", "开杠后从牌城尾部补牌")),
    rotation=Given(RotationRule("keep", "next", "keep", "nearest_winner"),
                   text("§1.5", "庄家胡牌，则庄家继续做庄，闲家胡牌，则庄家的下一家坐庄。荒庄，则庄家继续坐庄; 一盘只能有一位胡牌者…顺序在前者胡牌（也叫截胡）")),
    play=Given(Play(chi=True, discard_win=True, multiple_winners=False, ready_declaration="optional"),
               text("§1.2–1.3", "吃牌：字牌、风牌不允许吃; 一盘只能有一位胡牌者; 如牌型已成听牌，玩家不选择报听也可以正常胡牌，但是无法看“宝”")),
    flowers=NO_FLOWERS,
    phases=Given((
        phase("opening_kongs", "after the deal: 旋风杠 (东南西北), 喜杠 (中发白), 幺蛋 (1条1饼1万), 九蛋 (9条9饼9万) may be shown as 明杠; "
                               "additions 补杠; the dealer may not 补杠 on the first turn (§1.7)"),
        phase("private_bao", "报听 → 看宝 on the next own draw; 换宝 when the 宝 is dead (§1.3)"),
    ), text("§1.7, §1.3", "特殊杠牌只有起手牌才算; 先报听，后胡牌，报听后下一次轮到自己摸牌时可以看宝牌")),
    options=(BREAK_START, BAO_COUNT, BAO_DICE, BAO_REDRAW, BAO_LOWER, RESERVE_READING, SPECIAL_KONGS_COUNT),
    notes=(
        "C1: roll 1 picks the wall; the dealer still takes first (reading (a)); roll 1 is read as the sum of both dice.",
        "C4: the 宝 is counted from the tail as it stands when the 宝 is chosen (the current tail).",
        "A 3-tile special kong (喜杠, 幺蛋, 九蛋) needs no replacement tile; 旋风杠 (4 tiles) and each 补杠 take one from the tail.",
        "Scoring and win requirements (§1.6, §1.8) come with the hands issue.",
    ),
)
