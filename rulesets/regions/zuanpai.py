"""钻牌 block — RULES.md §26 [unnamed; id from the indicator].

After the two dealing rolls the dealer rolls a third time; counting 逆时针 over the upper tiles
of the dealer's 上家's wall finds the indicator; the 钻牌 is its successor (suits 9→1, winds
东南西北东, dragons 中发白中).  红中 plays the 钻 kind's natural face; 发 is shown and replaced from
the tail; 发 and 白 are 杠牌 (only for kongs) unless a dragon is the 钻.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import Flowers, HouseOption, Play, Region
from ..dice import SecondRollerPicksStart
from ..indicators import Derivation, Effect, IndicatorRule, Timing, UpperTilesOnWall
from ..provenance import Derived, Given, analyst, choice, default, open_question, text
from ..tiles import Tile
from ..tilesets import SET_136
from ..walls import End
from .common import DEFAULT_DEAL, DEFAULT_ROTATION, TAIL_REPLACEMENT, dead_wall_choice, dead_wall_option, four_players, phase

ZUAN_WALL = HouseOption(
    "zuan_wall", "钻牌 牌墙 (which wall)",
    (("upper_house", "(a) always the dealer's 上家's wall"),
     ("first_untouched", "(b) the first wall clockwise that the deal has not touched")),
    "upper_house", open_question("§26.4", "「庄家的上家（顺时针未动过的第一家的牌墙）」: the main clause names 上家"))

ZUAN_DICE = HouseOption(
    "zuan_dice", "第三次掷骰 (third roll)",
    (("2", "two dice, like the dealing rolls"), ("1", "one die")),
    "2", open_question("§26.4", "Number of dice for the third roll: not stated; the table's dice cup rolls two"))

DA_QUE = HouseOption(
    "da_que", "打缺 (void suit)",
    (("off", "发 is shown and replaced from the tail"), ("on", "打缺: 发 need not be shown and counts as a wind")),
    "off", open_question("§26.2", "当打缺时发可以不必亮出来，算风牌，但不算钱"))


def _zuanpai(options) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(
        kind="zuanpai", timing=Timing.AFTER_DEAL, position=UpperTilesOnWall(options["zuan_wall"]),
        derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD, public=True,
        stays_in_play=True, stand_in=Tile.RED, position_dice=int(options["zuan_dice"]),
        notes=("a 钻 cannot be ponged (「钻不可以碰」)",
               "when no dragon is the 钻, 发财 and 白板 are 杠牌: only for kongs, and a hand holding one cannot win")),)


REGION = Region(
    id="zuanpai",
    name="钻牌麻将",
    title="Zuanpai block",
    section="RULES.md §26",
    attribution="unnamed block [000:163-173]; id from the indicator",
    tiles=Given(SET_136, analyst("§26.3", "all honours present; 136 unless flowers — none are named")),
    players=four_players(default("not stated; 4 players")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=Given(SecondRollerPicksStart("second"), default(
        "「两次抓牌骰」 says two rolls without the procedure; the two-roll break the texts state is 南京's (§28)")),
    indicators=Derived(_zuanpai, text("§26.1", "由庄家再掷骰一次，根据所打数值（+1循环）确定钻牌，钻牌为庄家的上家（顺时针未动过的第一家的牌墙）逆时针数至与掷骰数值对应的那张牌翻开（只数上层牌）"),
                       ("zuan_wall", "zuan_dice")),
    reserve=dead_wall_choice("not stated (§26.3)"),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True), default("not stated; 吃, 碰 and 杠 (a 钻 cannot be ponged, §26.1)")),
    flowers=choice("da_que", {
        "off": Given(Flowers((Tile.GREEN,), End.TAIL), text("§26.2", "发：必须亮出了，且从牌尾补牌")),
        "on": Given(Flowers(), text("§26.2", "当打缺时发可以不必亮出来，算风牌")),
    }),
    phases=Given((phase("bonus_flower_exposure", "发 is shown and replaced from the tail; when 发 is the 钻, 红中 takes its role (§26.2)"),),
                 text("§26.2", "当发为钻时，红中充当发牌，也必须亮出了，且从牌尾补牌")),
    options=(ZUAN_WALL, ZUAN_DICE, DA_QUE, dead_wall_option("not stated (§26.3)")),
    notes=(
        "「根据所打数值（+1循环）」 is read as the successor rule (+1, cyclic) of §26.1, not as counting value + 1.",
        "The flipped indicator stays face up in the wall and is drawn in turn: what happens to it is not stated.",
        "发 as a bonus tile (§26.2 「必须亮出了」) vs 杠牌 (§26.2 「只能用来杠」) conflict: 发 is shown and replaced; 白板 is 杠牌 (reading (a)).",
        "Each shown 发 is one 翻 of money (「几个发算几个翻的钱」) — the hands issue.",
    ),
)
