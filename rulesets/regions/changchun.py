"""长春麻将 — RULES.md §1 (file 002, several overlapping versions).

The 宝 is secret: chosen by a die counted from the tail when the first player declares 听, shown
only on the seat display of ready players, re-covered in place, changed (换宝) when dead.
The dead wall is 留7墩 with its kong rule, in three readings (R-B by default).
"""

from ..definition import HouseOption, Play, Region
from ..dice import TwoRollsWallThenSkip
from ..indicators import CountFromTail, Derivation, Effect, IndicatorRule, Timing
from ..provenance import Derived, Given, choice, default, open_question, text
from ..reserve import KONG_READINGS, KongReserve
from ..rotation import RotationRule
from ..requirements import (all_pungs, all_three_suits, dragon_pair, has_any_kong, has_pung_or_kong,
                            has_terminal_or_honour, holds_dragon, standing_tiles_at_least)
from ..scoring.changchun import ChangchunScorer
from ..tilesets import SET_136
from ..winrules import Requirement, WinRules
from ..walls import End
from .common import DEFAULT_DEAL, NO_FLOWERS, first_dealer_option, four_players, phase

BREAK_START = HouseOption(
    "break_start", "开牌 (break)",
    (("skip", "skip roll 2's sum in stacks, then draw"), ("at", "start drawing at the stack numbered by roll 2")),
    "skip", open_question("§1.9 C1", "Skip N stacks vs start at stack N: not stated — default skip, as 上海 §4.2 states"),
    value_labels=(("skip", "跳过点数墩"), ("at", "从点数墩起")))

BAO_COUNT = HouseOption(
    "bao_count", "宝 数法 (count)",
    (("stacks", "the die counts stacks back from the tail; the 宝 is that stack's top (「数几摞」)"),
     ("tiles", "the die counts tiles back from the tail (「倒数第5个牌位」)")),
    "stacks", open_question("§1.9 C2", "tile vs stack: default stacks, as version B and RESEARCH.md §3.2 (MIL 长春) count 墩"),
    value_labels=(("stacks", "数墩"), ("tiles", "数张")))

BAO_DICE = HouseOption(
    "bao_dice", "宝 骰子 (dice)",
    (("1", "one die (「一般用单个色子打点」)"), ("2", "two dice")),
    "1", open_question("§1.9 C3", "one die, as version C says and RESEARCH.md §3.2 confirms; with one die the 宝 lies inside the 7-stack reserve"),
    value_labels=(("1", "一个骰子"), ("2", "两个骰子")))

BAO_REDRAW = HouseOption(
    "bao_redraw", "换宝 (change the 宝)",
    (("three_visible", "when 3 copies of the 宝 are visible (discards, 碰, 明杠)"),
     ("three_discarded", "when 3 copies have been discarded")),
    "three_visible", open_question("§1.9 C5", "version C 「牌池中（包含明杠、碰出的牌…）里已经有3个宝牌」 and RESEARCH.md §3.2 agree"),
    value_labels=(("three_visible", "见三张换宝"), ("three_discarded", "打出三张换宝")))

BAO_LOWER = HouseOption(
    "bao_lower_layer", "下层作宝 (lower layer)",
    (("after_six_dead", "after six 宝 in a row have died, use lower-layer tiles (「上下互换」)"),
     ("all_six_dead", "when all six upper tiles a die can reach are dead 宝, use the lower layer")),
    "after_six_dead", open_question("§1.9 C6", "「如果连续6张宝都已经绝宝…则可利用下层的牌作宝」; the literal reading (a) is the default"),
    value_labels=(("after_six_dead", "连绝六宝后"), ("all_six_dead", "上层全绝后")))

RESERVE_READING = HouseOption(
    "reserve_reading", "留7墩 读法 (reading)",
    tuple((r, KongReserve(r).describe()) for r in KONG_READINGS),
    "R-B", open_question("§1.4 D1", "R-B reproduces every data point of the text; the issue makes it the default"),
    value_labels=(("R-A", "每杠多留一墩"), ("R-B", "留整墩7或6+杠"), ("R-C", "按原墩位7或6+杠")))

DISCARD_PAYMENT = HouseOption(
    "discard_payment", "点炮 谁付 (who pays a discard win)",
    (("all_pay", "(b) everyone pays, the discarder double (「点炮者不需要承包其它两家输的点数」, payment lists)"),
     ("discarder_only", "(a) only the discarder pays (「只有放炮家输分，且放炮家不包分」)")),
    "all_pay", open_question("§1.9 S1", "both are stated; the payment lists, the only numbers the text gives, have all three paying"),
    value_labels=(("all_pay", "三家都付"), ("discarder_only", "点炮者付")))

SEAT_DOUBLING = HouseOption(
    "seat_doubling", "庄/点炮 翻倍 (dealer and discarder doubling)",
    (("not_stacked", "one ×2 a payer for being the dealer or the discarder; the dealer's win on a discard doubles "
                     "only the discarder (the payment lists: 「如果平家点炮再翻一倍，庄家不变」, 「庄平胡点炮家2，平家 1」)"),
     ("stacked", "×2 when the dealer wins or pays, ×2 more for the discarder (the dealer doubling every payment)")),
    "not_stacked", open_question("§1.9 S1", "the texts' numbers disagree; not stacked reproduces more of them (payment "
                                             "list 1 all but its sum 「106」; both readings give the four worked examples) — "
                                             "docs/regions.md sets every number beside what each reading pays"),
    value_labels=(("not_stacked", "不叠加"), ("stacked", "叠加翻倍")))

KONG_VALUE = HouseOption(
    "kong_value", "杠 底注 (kong value)",
    (("1", "明杠 1, 暗杠 2 from each other player"), ("2", "明杠 2, 暗杠 4"), ("5", "明杠 5, 暗杠 10")),
    "1", open_question("§1.8", "「暗杠番数是普通杠的2倍」 — the base value of an ordinary 杠 is not stated"),
    value_labels=(("1", "明杠1 暗杠2"), ("2", "明杠2 暗杠4"), ("5", "明杠5 暗杠10")))

WIN_VERSION = HouseOption(
    "win_version", "胡牌 版本 (win rules)",
    (("A", "version A: a 叉 is excused by 中发白 or any kong; a 喜杠 takes additions of any honour (「其他的字牌」)"),
     ("B", "version B: a 刻 is excused by a kong or a dragon pair; a 喜杠 takes additions of 中发白 only (「其他的箭牌」)")),
    "A", open_question("§1.9 C7, C8", "version A [002:158] is the fuller list and lists shape (6), the dragon pair + four "
                                      "chows; each version's 喜杠 additions (C8) go with it"),
    value_labels=(("A", "A版 免叉"), ("B", "B版 免刻")))

DADAN = HouseOption(
    "dadan", "大蛋 (kongs of 幺鸡 幺饼 中 发 白)",
    (("plain", "a 大蛋 is paid as the ordinary kong it also is: the table knows a kong by its 杠 press, not its tiles"),
     ("laid", "at the end of each hand every seat that made a kong lays its 明杠, then its 暗杠 beside them, on its "
              "read zone; each 大蛋 among them is paid twice its kong (「明大蛋2倍底注，暗大蛋4倍底注」)")),
    "plain", default("「明大蛋2倍底注，暗大蛋4倍底注」 (§1.7) needs the kongs' tiles, which the table reads only when they "
                     "are laid: a house that plays 大蛋 has its kong seats lay them at each hand's end"),
    value_labels=(("plain", "大蛋按普通杠"), ("laid", "亮杠算大蛋")))

SPECIAL_KONGS_COUNT = HouseOption(
    "special_kongs_count", "特殊杠算杠 (opening kongs count)",
    (("yes", "旋风杠/喜杠/幺蛋/九蛋 count as kongs for the 留7墩 rule"), ("no", "only ordinary kongs count")),
    "yes", open_question("§1.7", "each special kong 「可以亮出算一个明杠」; whether they count in the 留7墩 rule is not stated"),
    value_labels=(("yes", "算杠"), ("no", "不算杠")))

OPENING_KONGS = phase("opening_kongs", "after the deal: 旋风杠 (东南西北), 喜杠 (中发白), 幺蛋 (1条1饼1万), 九蛋 (9条9饼9万) "
                                       "may be shown as 明杠; additions 补杠; the dealer may not 补杠 on the first turn (§1.7)")
FIRST_DEALER = first_dealer_option(text("§1.5", "第一把系统随机选一个人做庄"))
PRIVATE_BAO = phase("private_bao", "报听 → the first ready seat is asked 请掷骰子定宝 and the 宝 is chosen when he presses 骰子 "
                                   "(the text: at his next draw, which is his to keep: the table cannot tell whose draw a take "
                                   "is); a later ready seat is shown the 宝 as he presses 听; 换宝 when the 宝 is dead (§1.3)")
LAY_KONGS = phase("lay_kongs", "大蛋 (house option dadan=laid): at the end of the hand each seat that made a kong lays its "
                               "明杠 (亮明杠后确认), then its 暗杠 beside them (亮暗杠后确认); each 大蛋 is paid twice its kong")

BAO_NOTES = (
    "摸宝: only the 宝 just drawn stands in (「听牌后若再次摸到宝牌，宝牌可代替任何牌」 §1.3); 宝 tiles held in the hand are "
    "themselves, and 夹胡 is read at the tile the drawn 宝 stands for (the real wait), never at a held copy.",
    "断幺九 (§1.3 「断幺九也可以听牌，但是必须胡幺九，且不能看宝」): a ready hand with no 1, 9 or honour (melds included; a "
    "special kong counts as 19) may win, only on a 幺九 (「不能缺1，9」), and never by the 宝: the drawn 宝 stands for "
    "nothing, and a 宝-kind tile it wins on naturally is a plain 自摸 (no 宝 ×2).",
)

SANSE = Requirement("sanse", "必须三色全", text("§1.6", "必须三色全，即手牌中必须条，饼，万三门花色都要有"), all_three_suits)
YAOJIU = Requirement("yaojiu", "不能缺1，9", text("§1.6", "不能缺1，9，当手牌中有风、字牌和中发白的时候可免1、9; 旋风杠算杠也算手中有19"),
                     has_terminal_or_honour)
CHA_A = Requirement("yicha", "最少有一叉", text("§1.6 A", "最少有一叉，明，暗的都可以，当手牌有中发白和各种杠牌（包括旋风杠、喜杠和幺九蛋）的时可免叉"),
                    lambda j: has_pung_or_kong(j) or holds_dragon(j) or has_any_kong(j))
CHA_B = Requirement("yike", "最少有一刻子", text("§1.6 B", "最少有一刻子…当手牌有各种杠牌…的时可免，使用红中、发财、白板做将牌时可免"),
                    lambda j: has_pung_or_kong(j) or has_any_kong(j) or dragon_pair(j))
SHOUBAYI = Requirement("no_shoubayi", "除了飘胡之外禁止手把1", text("§1.6", "除了飘胡之外禁止手把1…最少也要4张，不能一路吃牌"),
                       lambda j: all_pungs(j) or standing_tiles_at_least(j, 4))


def changchun_win(version: str) -> WinRules:
    return WinRules(requirements=(SANSE, YAOJIU, CHA_A if version == "A" else CHA_B, SHOUBAYI))


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
    phases=Derived(lambda o: (OPENING_KONGS, PRIVATE_BAO) + ((LAY_KONGS,) if o["dadan"] == "laid" else ()),
                   text("§1.7, §1.3", "特殊杠牌只有起手牌才算; 先报听，后胡牌，报听后下一次轮到自己摸牌时可以看宝牌; "
                                      "明大蛋2倍底注，暗大蛋4倍底注"), ("dadan",)),
    win=Derived(lambda o: changchun_win(o["win_version"]),
                text("§1.6", "基本胡牌1．必须三色全…2．不能缺1，9…3．最少有一叉…胡牌组合只考虑只上几种，其他特殊组合均不考虑"),
                ("win_version",)),
    scoring=Given(ChangchunScorer(), text("§1.8", "加番牌型：门清、夹胡、点炮…、自摸、坐庄胡，以上番型累计乘2。漂胡（碰碰胡）番型及宝（摸到宝牌胡）累计乘4; "
                                                   "如果平家点炮再翻一倍，庄家不变")),
    options=(BREAK_START, BAO_COUNT, BAO_DICE, BAO_REDRAW, BAO_LOWER, RESERVE_READING, SPECIAL_KONGS_COUNT,
             DISCARD_PAYMENT, SEAT_DOUBLING, KONG_VALUE, WIN_VERSION, DADAN, FIRST_DEALER),
    unpriced=(
        "杠 — 「暗杠番数是普通杠的2倍」 gives the ratio, not an ordinary 杠's value: house option kong_value (1)",
    ),
    notes=(
        "C1: roll 1 picks the wall; the dealer still takes first (reading (a)); roll 1 is read as the sum of both dice.",
        "First dealer 「第一把系统随机选一个人做庄」 (§1.5): the table rolls for it, its dice the table's random choice in "
        "everyone's sight (house option first_dealer; east: side 0 deals first).",
        "C4: the 宝 is counted from the tail as it stands when the 宝 is chosen (the current tail). A kong's "
        "replacement that takes the 宝's own tile (not stated) ends that 宝: the ready seats' displays clear and the "
        "first ready seat rolls for a new one, as for 换宝, so the 宝 always lies in the wall.",
        "Play passes 逆时针 to the 下家: 「依时针顺序由下一家取牌」 [002:78=002:108] names the 下一家 in the same breath, so its "
        "「依时针」 is read as loose wording (RULES.md conventions).",
        "A 3-tile special kong (喜杠, 幺蛋, 九蛋) needs no replacement tile; 旋风杠 (4 tiles) and each 补杠 take one from the tail.",
        "At the table the special kongs are shown right after the deal, each seat in turn (the dealer first, without "
        "additions): chosen on the seat panel, laid on the read zone, checked against the seat's deal; each counts "
        "as one 明杠 and one more per addition in the hand's kongs. A later 补杠 onto a special kong is not "
        "supported (the 杠 press counts as an ordinary kong).",
        "Scoring follows the model that reproduces the worked examples ×16/×32/×64 and payment list 1 (its total "
        "106 is 3 × 32 = 96); payment list 2 「具体化」 contradicts itself, and is only counted in the money table "
        "below the card (§1.8).",
        "夹胡 is read by the winning tile's place, 单吊, 边张 or 坎张, and the hand must have waited on that one kind "
        "(「单张、单贴胡边张、砍张和单调都算夹胡，同独听」: 1234s waits on 1s and 4s, so its 单吊 is no 夹胡); a 飘胡 takes no 夹胡.",
        "大蛋 (§1.7 「明大蛋2倍底注，暗大蛋4倍底注」; C9's readings agree on its kinds: 幺鸡 幺饼 红中 发财 白板): the table "
        "knows each side's kongs by number and kind (明/暗) only, not by the tiles, so by default a 大蛋 is paid as the "
        "ordinary kong it also is; with house option dadan=laid the kong seats lay their kongs at each hand's end and "
        "a 大蛋 pays twice its kong (底注 = kong_value).",
    ) + BAO_NOTES,
)
