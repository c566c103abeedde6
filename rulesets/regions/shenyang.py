"""沈阳麻将 — RULES.md §32 (file 000 only).

Must open (开门) to win, all three suits and a 幺九 required; 亮牌 of 东南西北 (a kong-like 过杠
after one's own draw) or 中发白 (any time); score 2^N 番 with an optional cap.
"""

from .. import reading_bounds as bounds
from ..hand import Hand, WinContext
from ..definition import HouseOption, Play, Region
from ..provenance import Derived, Given, default, open_question, text
from ..requirements import all_three_suits, has_terminal, opened_by_pung_or_kong
from ..scoring.shenyang import ShenyangScorer
from ..tiles import DRAGONS, WINDS
from ..tilesets import SET_136
from ..winrules import Requirement, WinRules, of_hand
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS, TAIL_REPLACEMENT,
                     dead_wall, four_players, phase, walls_for)

LIANG_WINDOW = HouseOption(
    "liang_window", "亮牌 (showing sets)",
    (("any_time", "亮牌 allowed throughout the hand"),
     ("first_draw", "not from one's second draw on (「从第二次摸牌起不允许亮出」)"),
     ("off", "亮牌 not allowed (「有时不允许亮出」)")),
    "any_time", open_question("§32.3", "（有时不允许亮出或从第二次摸牌起不允许亮出） — the window is the table's choice; allowed is the plain rule"),
    value_labels=(("any_time", "随时可亮"), ("first_draw", "第二次摸牌前"), ("off", "不许亮")))

READY_CHANGE = HouseOption(
    "ready_change", "报听 (declaring ready)",
    (("allowed", "不报听 and 改听 allowed"), ("forbidden", "报听 required and final")),
    "allowed", open_question("§32.2", "是否允许不报听和是否允许在报听之后改听…以玩家之间的协商结果为准。一般来说是允许的"),
    value_labels=(("allowed", "可不报 可改听"), ("forbidden", "必须报听 不改")))

CAP = HouseOption(
    "cap", "封顶 (cap)",
    (("none", "no cap: 2^N"), ("16", "at most 16 points (4番)"), ("32", "at most 32 points (5番)"),
     ("64", "at most 64 points (6番)"), ("128", "at most 128 points (7番)")),
    "none", open_question("§32.4", "「是否设置封顶值由对局的玩家们决定」 — the table decides; no cap is the plain formula"),
    value_labels=(("none", "不封顶"), ("16", "封顶16分"), ("32", "封顶32分"), ("64", "封顶64分"), ("128", "封顶128分")))

PAYER = HouseOption(
    "payer", "谁付 (who pays)",
    (("discarder_only", "the discarder pays 2^N alone; on a self-draw each other player pays 2^N"),
     ("all_pay", "each other player pays 2^N, on a discard too")),
    "discarder_only", open_question("§32.5", "who pays is not stated; the discarder alone is the framework's rule for an unstated payer"),
    value_labels=(("discarder_only", "点炮者付"), ("all_pay", "三家都付")))

BIMENPAO = HouseOption(
    "bimenpao", "闭门炮 番 (value)",
    (("1", "闭门炮 1番"), ("0", "闭门炮 not counted")),
    "1", open_question("§32.4", "「计算“闷三家”时加算“闭门炮”」 gives no value; 1番, the value of 闷三家 itself"),
    value_labels=(("1", "1番"), ("0", "不算")))

SHOUBAYI = HouseOption(
    "shoubayi", "手把一 (one tile left)",
    (("allowed", "a hand down to one concealed tile may win (手把一 +1番)"), ("forbidden", "手把一 cannot win")),
    "allowed", open_question("§32.2", "「是否允许“手把一”…以玩家间的协商结果为准」; allowed, since §32.4 gives it a 番 and 「“手把一”默认允许更换」"),
    value_labels=(("allowed", "可胡"), ("forbidden", "不可胡")))

LIANG_READING = HouseOption(
    "liang_unshown", "未亮时不允许和牌 (reading)",
    (("not_open", "(a) 亮牌 is not 开门: only the 碰/明杠 requirement applies"),
     ("must_show", "(b) a hand still holding one each of 东南西北 or of 中发白 unshown cannot win")),
    "not_open", open_question("§32.5", "reading (a) makes 「且未亮时不允许和牌」 a restatement of the 开门 rule; (b) is stricter"),
    value_labels=(("not_open", "亮牌不算开门"), ("must_show", "须亮出才能胡")))

OPEN = Requirement("kaimen", "必须碰或明杠开门",
                   text("§32.2", "在门清状态下不允许和牌，必须通过碰或杠（明杠）“开门”。"), opened_by_pung_or_kong)
SANSE = Requirement("sanmen", "不允许缺门", text("§32.2", "不允许缺门，不允许缺“幺九”，可以缺字"), all_three_suits,
                    hopeless=bounds.three_suits_hopeless, assured=bounds.three_suits_assured)
YAOJIU = Requirement("yaojiu", "不允许缺幺九（可以缺字）", text("§32.2", "不允许缺门，不允许缺“幺九”，可以缺字"), has_terminal,
                     hopeless=bounds.terminal_hopeless, assured=bounds.terminal_assured)


@of_hand
def no_shoubayi(hand: Hand, context: WinContext) -> bool:
    """More than one concealed tile before the winning tile."""
    return len(hand.concealed) > 2


@of_hand
def nothing_left_to_show(hand: Hand, context: WinContext) -> bool:
    """Reading (b): the concealed tiles do not hold one each of 东南西北, nor one each of 中发白."""
    held = set(hand.concealed)
    return not (set(WINDS) <= held or set(DRAGONS) <= held)


NO_SHOUBAYI = Requirement("no_shoubayi", "不允许手把一",
                          text("§32.2", "是否允许“手把一”（即只剩一张手牌）以玩家间的协商结果为准"), no_shoubayi)
MUST_SHOW = Requirement("liang_first", "未亮时不允许和牌", text("§32.3", "④“亮牌”不算作“开门”，且未亮时不允许和牌。"),
                        nothing_left_to_show)


def shenyang_win(options) -> WinRules:
    extra = ((NO_SHOUBAYI,) if options["shoubayi"] == "forbidden" else ()) + \
        ((MUST_SHOW,) if options["liang_unshown"] == "must_show" else ())
    return WinRules(requirements=(OPEN, SANSE, YAOJIU) + extra)


DEAD_WALL = dead_wall("not stated (§32)")

REGION = Region(
    id="shenyang",
    name="沈阳麻将",
    title="Shenyang",
    section="RULES.md §32",
    attribution="named [000:299]",
    tiles=Given(SET_136, text("§32.1", "沈阳麻将牌数为136张，不使用花牌")),
    players=four_players(text("§32.4", "“闷三家”…即和牌时只有和牌者“开门” — the winner and three others")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14, as every 136-tile text")),
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True, ready_declaration="optional"),
               text("§32.2–32.4", "必须通过碰或杠（明杠）“开门”; 已碰的对子若在之后的对局中吃…; 听牌后，是否允许不报听…一般来说是允许的")),
    flowers=NO_FLOWERS,
    phases=Given((
        phase("liang_pai", "亮牌: 东南西北 each once → shown and 过杠 (like a kong) only right after one's own draw; "
                           "中发白 each once → shown at any time; 亮牌 is not 开门 (§32.3)"),
    ), text("§32.3", "沈阳麻将有“亮牌”一说，“亮牌”为2番")),
    win=Derived(shenyang_win, text("§32.2", "在门清状态下不允许和牌，必须通过碰或杠（明杠）“开门”。; 不允许缺门，不允许缺“幺九”，可以缺字"),
                ("shoubayi", "liang_unshown")),
    scoring=Given(ShenyangScorer(), text("§32.4", "沈阳麻将的底分为1，最终和牌的人按番数算分，有N番，分数就是2的N次方，是否设置封顶值由对局的玩家们决定。")),
    options=(LIANG_WINDOW, READY_CHANGE, DEAD_WALL.option, CAP, PAYER, BIMENPAO, SHOUBAYI, LIANG_READING, *DEFAULT_BREAK.options),
    unpriced=(
        '闭门炮 — 「计算“闷三家”时加算“闭门炮”」 gives no value: house option bimenpao (1番)',
    ),
    notes=(
        "A 东南西北 亮牌 is a 过杠 and takes a replacement from the tail (「这与“杠”的操作基本相同」); "
        "a 中发白 亮牌 is three tiles and takes none — neither is stated, both follow from the hand size. At the table "
        "(firmware/hand/liang.py) the seat presses ▶ and lays the set; the 过杠's replacement counts for the reserve as "
        "a kong's, and a win on it is a win on a kong's replacement (「这与“杠”的操作基本相同」).",
        "Score = 2^N (N = 番 added up), cap a house option (§32.4); who pays is not stated: the discarder alone by default.",
        "小和 (1番) is read as a win that is neither 飘 nor 边和/夹和: a 两面 or 单吊 wait (「其他和牌方式称为“小和”」).",
        "亮牌 2番 each; after a 亮牌 the winner's honour pungs are 2番 each (③), else 碰中发白 1番.",
        "闷三家 is counted only when every other side's melds are known (exposed_by_side) and none has a 碰 or 明杠.",
        "④ 「且未亮时不允许和牌」: reading (a) by default; without wilds or seven pairs a complete hand can hold one "
        "each of 东南西北 (or 中发白) only inside pungs, which reading (b) would then forbid.",
    ),
)
