"""襄阳三人卡五星 — RULES.md §22: three players, 84 tiles (条 筒 + 中发白)."""

from ..definition import Play, Region
from ..provenance import Given, default, text
from ..tilesets import SET_84
from ..winning import Shapes
from ..winrules import WinRules
from .common import (DEFAULT_DEAL, THREE_SIDES_BREAK, DEFAULT_HAND_SIZE, DEFAULT_ROTATION, EMPTY_SIDE_OPTION,
                     NO_FLOWERS, NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall, three_player_walls,
                     three_players)

DEAD_WALL = dead_wall("not stated (§22)")

REGION = Region(
    id="xiangyang",
    name="襄阳卡五星",
    title="Xiangyang (卡五星, three players)",
    section="RULES.md §22",
    attribution="named [000:101]",
    tiles=Given(SET_84, text("§22", "它采用一副麻将牌去掉万子和东南西北风，共84张牌")),
    players=three_players(text("§22", "由三个人来争谁先和牌")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=three_player_walls(SET_84, default("84 tiles make 14 stacks on each of the three playing sides; the empty side has none")),
    dealing=DEFAULT_DEAL,
    dice=THREE_SIDES_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=False), default("not stated; 卡五星 is played with 碰 and 杠 only, as its neighbour 广水 拳打脚踢 states (§21)")),
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    win=Given(WinRules(Shapes(seven_pairs=True)), default(
        "the text states no requirement; 卡五星 is the 湖北 three-player game whose neighbour text 广水 §21 names 七对 "
        "among its hands, so seven pairs wins as well as the standard hand")),
    options=(EMPTY_SIDE_OPTION, DEAD_WALL.option, *THREE_SIDES_BREAK.options),
    notes=("No values in the text: a win is 1 point (FlatScorer). No win requirement is stated; seven pairs is allowed "
           "as in 广水 (§21).",
           "卡五星 (winning on a closed 5 between 4 and 6) is named only; 亮倒, 买马 and 数坎 (RESEARCH.md §3.13) have no "
           "values in the texts and are not scored.",),
)
