"""广水麻将 (拳打脚踢; 随州/广水/鄂西北) — RULES.md §21: three players, 84 tiles, no 吃, cap 16 番."""

from ..definition import HouseOption, Play, Region
from ..provenance import Derived, Given, analyst, default, open_question, text
from ..scoring.guangshui import GuangshuiScorer, pihe_allowed
from ..tilesets import DRAGONS_SET, SET_84, SUITS
from ..winning import Shapes
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, THREE_SIDES_BREAK, DEFAULT_HAND_SIZE, DEFAULT_ROTATION, EMPTY_SIDE_OPTION,
                     NO_FLOWERS, NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall, three_player_walls,
                     three_players)

REMOVED_SUIT = HouseOption(
    "removed_suit", "去掉一门 (removed suit)",
    (("m", "万 removed"), ("s", "条 removed"), ("p", "筒 removed")),
    "m", open_question("§21", "去掉东南西北风及万字（去掉一色即可，也可拿掉条或者筒牌）"),
    value_labels=(("m", "去万"), ("s", "去条"), ("p", "去筒")))


def _tiles(options):
    return (SUITS.without_suit(options["removed_suit"]) + DRAGONS_SET).named(
        f"84 (two suits + 中发白, {options['removed_suit']} removed)")


PIHE = Requirement("pihe_zimo", "屁和只能自摸或者抢杠", text("§21", "只能碰、杠，不能吃牌，屁和只能自摸或者抢杠"), pihe_allowed,
                   assured=lambda hand, context, evaluator: context.self_drawn or context.robbed_kong)   # (any hand, then)

DEAD_WALL = dead_wall("not stated (§21)")

REGION = Region(
    id="guangshui",
    name="广水麻将",
    title="Guangshui (拳打脚踢, three players)",
    section="RULES.md §21",
    attribution="named [000:97]",
    tiles=Derived(_tiles, analyst("§21", "136 − 16 winds − 36 of one suit = 84; dragons remain (大小三元 exists)"), ("removed_suit",)),
    players=three_players(text("§21", "拳打脚踢为三人麻将")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=three_player_walls(SET_84, default("84 tiles make 14 stacks on each of the three playing sides; the empty side has none")),
    dealing=DEFAULT_DEAL,
    dice=THREE_SIDES_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=False), text("§21", "只能碰、杠，不能吃牌，屁和只能自摸或者抢杠")),
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    win=Given(WinRules(Shapes(seven_pairs=True), (PIHE,)),
              text("§21", "屁和只能自摸或者抢杠。碰碰和、七对、清一色、大小三元、卡五星等都可和牌")),
    scoring=Given(GuangshuiScorer(), text("§21", "且有相应的番数，最高16番到顶，但有杠另算")),
    options=(EMPTY_SIDE_OPTION, REMOVED_SUIT, DEAD_WALL.option, *THREE_SIDES_BREAK.options),
    notes=("屁和 = a hand with none of the named 番 hands (碰碰和, 七对, 清一色, 大/小三元, 卡五星); it wins only by "
           "self-draw or by robbing a kong. 「等」 may hide more 番 hands; none is added.",
           "The 番 values are not stated: 碰碰和 ×2, 卡五星 ×2, 七对 ×4, 清一色 ×4, 小三元 ×4, 大三元 ×8 are our defaults "
           "(the 湖北 卡五星 family, RESEARCH.md §3.13); they multiply and the product stops at 16 (「最高16番到顶」).",
           "「但有杠另算」: kongs are paid apart from the cap, 明杠 1 / 暗杠 2 from each other player (defaults), also at a draw.",
           "卡五星 is read as the winning tile being a 5 caught between its 4 and 6 (坎张)."),
)
