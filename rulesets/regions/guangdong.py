"""广东麻将 — RULES.md §6: two named lines (番 = ×2; 爆和 cap; 十三幺 exceeds the cap).

Everything about the table is from published 广东 推倒胡 rules (RESEARCH.md §1.1, §3.10): 144 tiles
with flowers replaced from the tail; ghosts (鬼牌) are a house option, none by default.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, NoPosition, Timing
from ..provenance import Given, choice, default, research
from ..tiles import Tile
from ..tilesets import SET_144
from .common import (DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_PLAY, DEFAULT_ROTATION, NO_PHASES, TAIL_REPLACEMENT,
                     dead_wall_choice, dead_wall_option, flowers_from_tail, four_players)

GHOST = HouseOption(
    "ghost", "鬼牌 (wild)",
    (("none", "无鬼: no wild"), ("flip", "翻鬼: the tile after the deal is flipped, the next kind is wild"),
     ("white", "白板做鬼: 白板 is wild")),
    "none", research("§3.10", "推倒胡 ghost options: 翻鬼 (indicator + 1), 双鬼, 白板做鬼, 无鬼; the named lines mention none"))

REGION = Region(
    id="guangdong",
    name="广东麻将",
    title="Guangdong (推倒胡)",
    section="RULES.md §6",
    attribution="named [000:5-7]",
    tiles=Given(SET_144, research("§1.1", "144 (136 + 8 flowers: 上海/宁波/广东/台湾)")),
    players=four_players(default("not stated; 4 players")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=choice("ghost", {
        "none": Given((), research("§3.10", "无鬼")),
        "flip": Given((IndicatorRule(kind="laizi", timing=Timing.AFTER_DEAL, position=NextHeadTile(),
                                     derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD),),
                      research("§3.10", "翻鬼 (indicator + 1)")),
        "white": Given((IndicatorRule(kind="laizi", timing=Timing.FIXED, position=NoPosition(),
                                      derivation=Derivation("fixed", fixed=Tile.WHITE), effect=Effect.WILD),),
                       research("§3.10", "白板做鬼")),
    }),
    reserve=dead_wall_choice("not stated (§6)"),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=flowers_from_tail(research("§3.10", "flowers are set aside and replaced from the tail, as file 001 states (§7.4)")),
    phases=NO_PHASES,
    options=(GHOST, dead_wall_option("not stated (§6)")),
    notes=("The 爆和 cap value is not stated (§6); scoring comes with the hands issue.",
           "A ghost is recorded with the indicator kind \"laizi\" (鬼牌 plays the same role as 赖子)."),
)
