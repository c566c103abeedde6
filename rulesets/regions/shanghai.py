"""上海麻将 — RULES.md §4 (file 002's 「全国各地麻将玩法总汇」).

144 tiles with flowers; one roll of two dice; 一炮多响; at least 碰碰胡 to win.
"""

from ..definition import HouseOption, Play, Region
from ..dice import SumPicksWallSkipSum
from ..provenance import Given, choice, default, open_question, research, text
from ..rotation import RotationRule
from ..tilesets import SET_144
from .common import DEFAULT_DEAL, NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall_choice, dead_wall_option, flowers_from_tail, four_players

MULTI_WIN_DEALER = HouseOption(
    "multi_win_dealer", "一炮多响 下盘庄家",
    (("nearest_winner", "(b) the winner nearest the discarder deals"),
     ("after_nearest_winner", "(a) that winner's 下家 deals")),
    "nearest_winner", open_question("§4.8", "「点炮者最近的一个胡牌者下家为下盘庄家」: reading (b) agrees with rule 2 「谁胡牌下盘当庄家」"))

REGION = Region(
    id="shanghai",
    name="上海麻将",
    title="Shanghai",
    section="RULES.md §4",
    attribution="named [002:21]",
    tiles=Given(SET_144, text("§4.1", "用牌筒36张、万36张、条36张、风字28张，外加春夏秋冬梅兰竹菊各1张共8张，一共136+8=144张")),
    players=four_players(text("§4.1", "其它三家")),
    hand_size=Given(13, text("§4.1", "只有庄家可得到十四张牌，其余的人十三张")),
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=Given(SumPicksWallSkipSum(0), text("§4.2", "比如一个骰子2、一个骰子5，那么总和为7，从摇骰子玩家的对家方向先挪走7墩牌后开始摸牌")),
    indicators=NO_INDICATORS,
    reserve=dead_wall_choice("not stated (§4.4)"),
    replacement=TAIL_REPLACEMENT,
    rotation=choice("multi_win_dealer", {
        "nearest_winner": Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                                text("§4.5", "谁胡牌下盘当庄家，若流局则上盘庄家下盘继续当庄家")),
        "after_nearest_winner": Given(RotationRule("keep", "winner", "keep", "after_nearest_winner"),
                                      text("§4.5", "点炮者最近的一个胡牌者下家为下盘庄家")),
    }),
    play=Given(Play(chi=True, multiple_winners=True),
               text("§4.5–4.6", "庄家的下家…有权力吃或碰那张牌; 允许一炮多响")),
    flowers=flowers_from_tail(default("flower handling is not stated (§4.3); flowers are set aside and replaced from the tail as file 001 states (§7.4)")),
    phases=Given(NO_PHASES.value, default("flower replacement is part of every draw, not a phase")),
    options=(MULTI_WIN_DEALER, dead_wall_option("not stated (§4.4)")),
    notes=(
        "The dealer rolls the dice (「摇骰子者」 is not identified).",
        "「挪走7墩」 is counted in whole stacks.",
        "花分 and the 勒子 cap have no values in the text (§4.7).",
    ),
)
