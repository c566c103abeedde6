"""武汉 红中赖子杠 — RULES.md §20 (+ RESEARCH.md §3.8, four published rule texts).

A 赖子皮 is turned after the deal; the 赖子 (wild) is the next kind.  红中 (and 发财) are 杠牌 that
may not stay in a winning hand; a winner must have opened (开口).
"""

from ..cycles import WUHAN_LAIZI
from ..definition import HouseOption, Play, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, Timing
from ..provenance import Given, choice, default, research, text
from ..reserve import FixedStacks, FixedTiles
from ..tilesets import SET_136
from .common import DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_ROTATION, NO_FLOWERS, NO_PHASES, TAIL_REPLACEMENT, four_players

DEAD_WALL = HouseOption(
    "dead_wall", "黄庄 (end of wall)",
    (("9_stacks", "黄庄 when the last 9 stacks remain"), ("4_tiles", "黄庄 when 4 tiles remain")),
    "9_stacks", research("§3.8", "黄庄 with the last 9 墩 (id 49189478384) or with 4 tiles left (id 36686615465)"))

REGION = Region(
    id="wuhan",
    name="武汉红中赖子杠",
    title="Wuhan (红中赖子杠)",
    section="RULES.md §20",
    attribution="named [000:93]",
    tiles=Given(SET_136, research("§3.8", "136 tiles (the text names 风一色, so winds exist)")),
    players=four_players(default("not stated; 4 players")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((17, 17, 17, 17), research("§1.1", "17 stacks a side for 136")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=Given((IndicatorRule(
        kind="laizi", timing=Timing.AFTER_DEAL, position=NextHeadTile(),
        derivation=Derivation("successor", WUHAN_LAIZI), effect=Effect.WILD, public=True, stays_in_play=True,
        notes=("赖子 = 皮 + 1 in the order 1–9 / 东南西北 / 中发白; a 皮 of 北, 中 or 发 makes 白板 the 赖子 (红中, 发财 are 杠牌)",
               "a 赖子 is wild but cannot be used to 吃, 碰 or 杠")),),
        research("§3.8", "after all four have taken their hands, the first tile the dealer takes is the 赖子皮; 赖子 = 皮 + 1")),
    reserve=choice("dead_wall", {
        "9_stacks": Given(FixedStacks(9), research("§3.8", "黄庄 with the last 9 墩")),
        "4_tiles": Given(FixedTiles(4), research("§3.8", "黄庄 with 4 tiles left")),
    }),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True), text("§20", "武汉的红中赖子杠讲究开口（即碰，吃，杠），不开口不能胡")),
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    options=(DEAD_WALL,),
    notes=(
        "The text does not say how the 赖子 is found (§20): the 赖子皮 is the tile after the deal, shown face up, and stays in the wall (RESEARCH.md §3.8).",
        "A 皮 of 白板 makes 东风 the 赖子 (the wind cycle continues through 白): not stated anywhere.",
        "Win requirements (开口, no 红中 in hand, at most one 赖子 in a 屁胡) and 大胡/屁胡 come with the hands issue.",
    ),
)
