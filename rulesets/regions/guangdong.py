"""广东麻将 — RULES.md §6: two named lines (番 = ×2; 爆和 cap; 十三幺 exceeds the cap).

Everything about the table is from published 广东 推倒胡 rules (RESEARCH.md §1.1, §3.10): 144 tiles
with flowers replaced from the tail; ghosts (鬼牌) are a house option, none by default.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, NoPosition, Timing
from ..provenance import Given, choice, open_question, research, text
from ..scoring.guangdong import GuangdongScorer
from ..tiles import Tile
from ..tilesets import SET_144
from ..winning import Shapes
from ..winrules import WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAY, DEFAULT_PLAYERS,
                     DEFAULT_ROTATION, NO_PHASES, TAIL_REPLACEMENT, dead_wall, flowers_from_tail)

GHOST = HouseOption(
    "ghost", "鬼牌 (wild)",
    (("none", "无鬼: no wild"), ("flip", "翻鬼: the tile after the deal is flipped, the next kind is wild"),
     ("white", "白板做鬼: 白板 is wild")),
    "none", research("§3.10", "推倒胡 ghost options: 翻鬼 (indicator + 1), 双鬼, 白板做鬼, 无鬼; the named lines mention none"),
    value_labels=(("none", "无鬼"), ("flip", "翻鬼"), ("white", "白板做鬼")))

BAOHE = HouseOption(
    "baohe", "爆和 (cap)",
    (("none", "no cap"), ("6", "6 番"), ("8", "8 番"), ("10", "10 番"), ("13", "13 番")),
    "8", open_question("§6", "「多少番为顶不再叠加番数进行计算」: the cap value is not stated; 8 番 keeps 十三幺 (13 番) above it, as the text says it is"),
    value_labels=(("none", "不封顶"), ("6", "6番封顶"), ("8", "8番封顶"), ("10", "10番封顶"), ("13", "13番封顶")))

DEAD_WALL = dead_wall("not stated (§6)")

REGION = Region(
    id="guangdong",
    name="广东麻将",
    title="Guangdong (推倒胡)",
    section="RULES.md §6",
    attribution="named [000:5-7]",
    tiles=Given(SET_144, research("§1.1", "144 (136 + 8 flowers: 上海/宁波/广东/台湾)")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=choice("ghost", {
        "none": Given((), research("§3.10", "无鬼")),
        "flip": Given((IndicatorRule(kind="laizi", timing=Timing.AFTER_DEAL, position=NextHeadTile(),
                                     derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD),),
                      research("§3.10", "翻鬼 (indicator + 1)")),
        "white": Given((IndicatorRule(kind="laizi", timing=Timing.FIXED, position=NoPosition(),
                                      derivation=Derivation("fixed", fixed=Tile.WHITE), effect=Effect.WILD),),
                       research("§3.10", "白板做鬼")),
    }),
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=flowers_from_tail(research("§3.10", "flowers are set aside and replaced from the tail, as file 001 states (§7.4)")),
    phases=NO_PHASES,
    win=Given(WinRules(Shapes(thirteen_orphans=True)),
              text("§6", "特殊牌除外比如十三幺，可突破爆和限制这些特殊牌型不再叠加其他番种")),
    scoring=Given(GuangdongScorer(), text("§6", "广东麻将的特色就在“番”番是2倍的意思; 广东麻将的另一特色爆和（封顶），意思即为多少番为顶不再叠加番数进行计算")),
    options=(GHOST, BAOHE, DEAD_WALL.option, *DEFAULT_BREAK.options),
    notes=("A ghost is recorded with the indicator kind \"laizi\" (鬼牌 plays the same role as 赖子).",
           "Shapes: the standard hand and 十三幺 (named); no requirement is stated.",
           "The texts give no 番 per hand: Cantonese 番 by default (杂色 3, 碰碰胡 3, 清一色 7, 大三元 8, added; "
           "鸡胡 0); a hand is 1 × 2^番, paid by the discarder or by the three on a self-draw.",
           "爆和: the cap is option baohe (8 番 by default); the special hands 十三幺 (named) and 大四喜 are 13 番, above the cap, with no other 番."),
)
