"""南昌麻将 — RULES.md §10: honour chows, 十三烂, 正精 and 副精.

The text names 正精/副精 without saying how they are found; published 南昌 rules (RESEARCH.md §3.7)
flip one tile: 正精 = the flipped kind, 副精 = the next (9→1, 北→东, 白→中), and end the hand when
34 tiles remain.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, TailTop, Timing
from ..provenance import Given, choice, default, research, text
from ..reserve import FixedTiles
from ..tilesets import SET_136
from .common import DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_PLAY, DEFAULT_ROTATION, NO_FLOWERS, NO_PHASES, TAIL_REPLACEMENT, four_players


def _jing(position) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(kind="jing", timing=Timing.AFTER_DEAL, position=position,
                          derivation=Derivation("same_and_next", SEPARATE_HONOURS), effect=Effect.WILD,
                          notes=("正精 = the flipped kind, 副精 = the next kind",)),)


JING_POSITION = HouseOption(
    "jing_position", "翻精 (where)",
    (("next_head", "the next head tile after the deal"), ("tail_top", "the top tile of the tail stack")),
    "next_head", research("§3.7", "a physical table flips from a fixed wall position (configure it); the tile after the deal is the common choice"))

REGION = Region(
    id="nanchang",
    name="南昌麻将",
    title="Nanchang",
    section="RULES.md §10",
    attribution="named [000:19]",
    tiles=Given(SET_136, default("not stated; honours exist (字牌顺子), no flowers named: 136")),
    players=four_players(default("not stated; 4 players")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=choice("jing_position", {
        "next_head": Given(_jing(NextHeadTile()), research("§3.7", "正精 = the flipped tile's kind, 副精 = the next kind")),
        "tail_top": Given(_jing(TailTop()), research("§3.7", "正精 = the flipped tile's kind, 副精 = the next kind")),
    }),
    reserve=Given(FixedTiles(34), research("§3.7", "Hand ends (流局) when 34 tiles remain")),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    options=(JING_POSITION,),
    notes=(
        "「使用了较多的混牌――“正精”和“副精”」: the text gives no derivation; RESEARCH.md §3.7's is used.",
        "Honour chows (三张不重复的同类的字牌), 十三烂, 霸王精 and 冲关 come with the hands issue.",
    ),
)
