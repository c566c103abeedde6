"""钻牌 block — RULES.md §26 [unnamed; id from the indicator].

After the two dealing rolls the dealer rolls a third time; counting 逆时针 over the upper tiles
of the first wall clockwise that the deal has not touched (「庄家的上家（顺时针未动过的第一家的牌墙）」)
finds the indicator; the 钻牌 is its successor (suits 9→1, winds
东南西北东, dragons 中发白中).  红中 plays the 钻 kind's natural face; 发 is shown and replaced from
the tail; 发 and 白 are 杠牌 (only for kongs) unless a dragon is the 钻.
"""

from .. import reading_bounds as bounds
from ..cycles import SEPARATE_HONOURS
from ..definition import Flowers, HouseOption, Play, Region
from ..dice import SecondRollerPicksStart
from ..indicators import Derivation, Effect, IndicatorRule, Timing, UpperTilesOnWall
from ..provenance import Derived, Given, analyst, choice, default, open_question, text
from ..requirements import lacks_a_suit
from ..scoring.zuanpai import ZuanpaiScorer, melds_allowed, melds_allowed_of, no_gang_tiles, no_gang_tiles_of
from ..tiles import Tile
from ..tilesets import SET_136
from ..walls import End
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_HAND_SIZE, DEFAULT_PLAYERS, DEFAULT_ROTATION, TAIL_REPLACEMENT,
                     dead_wall, phase)

ZUAN_WALL = HouseOption(
    "zuan_wall", "钻牌 牌墙 (which wall)",
    (("upper_house", "(a) always the dealer's 上家's wall; stacks the deal has taken are passed over"),
     ("first_untouched", "(b) the first wall clockwise that the deal has not touched")),
    "first_untouched", open_question("§26.4", "「庄家的上家（顺时针未动过的第一家的牌墙）」: the parenthesis says the count "
                                              "runs on a wall nobody has touched; the 上家's wall is often dealt from, and "
                                              "a dealt tile cannot be flipped"),
    value_labels=(("upper_house", "庄家上家的墙"), ("first_untouched", "第一道未动的墙")))

ZUAN_DICE = HouseOption(
    "zuan_dice", "第三次掷骰 (third roll)",
    (("2", "two dice, like the dealing rolls"), ("1", "one die")),
    "2", open_question("§26.4", "Number of dice for the third roll: not stated; the table's dice cup rolls two"),
    value_labels=(("2", "两个骰子"), ("1", "一个骰子")))

ZUAN_COUNT = HouseOption(
    "zuan_count", "钻牌 数 (+1循环)",
    (("value", "(a) count the roll's value; 「+1循环」 is the successor rule of the 钻 (9→1)"),
     ("value_plus_one", "(b) count the roll's value + 1")),
    "value", open_question("§26.4", "「根据所打数值（+1循环）确定钻牌」: (a) 「+1循环」 names the indicator → 钻 successor, "
                                    "as [000:163] describes it; (b) the count is the value + 1"),
    value_labels=(("value", "按点数"), ("value_plus_one", "点数加一")))

DA_QUE = HouseOption(
    "da_que", "打缺 (void suit)",
    (("off", "发 is shown and replaced from the tail"), ("on", "打缺: 发 need not be shown and counts as a wind")),
    "off", open_question("§26.2", "当打缺时发可以不必亮出来，算风牌，但不算钱"),
    value_labels=(("off", "不打缺"), ("on", "打缺")))

FA_VALUE = HouseOption(
    "fa_value", "发 算钱 (value of a shown 发)",
    (("double", "each shown 发 doubles the win: 2^n (翻 = a doubling)"), ("add", "each shown 发 adds one: 1 + n")),
    "double", open_question("§26.2", "「几个发算几个翻的钱」: 翻 is read as a doubling, as 番 is in the texts that give values (§1.8, §32.4)"),
    value_labels=(("double", "每张翻倍"), ("add", "每张加一")))

GANG_PAI = Requirement("no_gang_pai", "杠牌手上有就不能和牌",
                       text("§26.2", "发财和白板是杠牌，只能用来杠，手上有，就不能和牌…如果是中发白的钻牌，则其余两个就成了杠牌"),
                       no_gang_tiles,
                       **bounds.either_way(lambda hand, context, evaluator: no_gang_tiles_of(hand, frozenset(context.wilds))))
GANG_PAI_DA_QUE = Requirement("no_gang_pai", "杠牌手上有就不能和牌（打缺：发算风牌）",
                              text("§26.2", "手上有，就不能和牌; 当打缺时发可以不必亮出来，算风牌"),
                              lambda j: no_gang_tiles(j, da_que=True),
                              **bounds.either_way(lambda hand, context, evaluator:
                                                  no_gang_tiles_of(hand, frozenset(context.wilds), da_que=True)))


def no_such_meld(da_que: bool) -> Requirement:
    """No 碰 of a 杠牌 or of the 钻, and (without 打缺) no meld of the shown 发."""
    shown = "" if da_que else "; 发：必须亮出了，且从牌尾补牌"
    return Requirement("gang_pai_melds", "杠牌只能用来杠，钻不可以碰" + ("" if da_que else "，发必须亮出"),
                       text("§26", "钻不可以碰（因为没人打它）; 发财和白板是杠牌，只能用来杠" + shown),
                       lambda j: melds_allowed(j, da_que),
                       **bounds.either_way(lambda hand, context, evaluator:
                                           melds_allowed_of(hand, frozenset(context.wilds), da_que)))


DA_QUE_VOID = Requirement("da_que", "打缺 (缺一门)", analyst("§26", "「打缺」 is playing with a void suit: a winning hand lacks one suit"),
                          lacks_a_suit)


def zuanpai_win(options) -> WinRules:
    if options["da_que"] == "on":
        return WinRules(requirements=(GANG_PAI_DA_QUE, no_such_meld(True), DA_QUE_VOID))
    return WinRules(requirements=(GANG_PAI, no_such_meld(False)))


def _zuanpai(options) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(
        kind="zuanpai", timing=Timing.AFTER_DEAL,
        position=UpperTilesOnWall(options["zuan_wall"], 1 if options["zuan_count"] == "value_plus_one" else 0),
        derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD, public=True,
        stays_in_play=True, stand_in=Tile.RED, position_dice=int(options["zuan_dice"]),
        notes=("a 钻 cannot be ponged (「钻不可以碰」)",
               "when no dragon is the 钻, 发财 and 白板 are 杠牌: only for kongs, and a hand holding one cannot win")),)


DEAD_WALL = dead_wall("not stated (§26.3)")

REGION = Region(
    id="zuanpai",
    name="钻牌麻将",
    title="Zuanpai block",
    section="RULES.md §26",
    attribution="unnamed block [000:163-173]; id from the indicator",
    tiles=Given(SET_136, analyst("§26.3", "all honours present; 136 unless flowers — none are named")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=Given(SecondRollerPicksStart("second"), default(
        "「两次抓牌骰」 says two rolls without the procedure; the two-roll break the texts state is 南京's (§28)")),
    indicators=Derived(_zuanpai, text("§26.1", "由庄家再掷骰一次，根据所打数值（+1循环）确定钻牌，钻牌为庄家的上家（顺时针未动过的第一家的牌墙）逆时针数至与掷骰数值对应的那张牌翻开（只数上层牌）"),
                       ("zuan_wall", "zuan_dice", "zuan_count")),
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True), default("not stated; 吃, 碰 and 杠 (a 钻 cannot be ponged, §26.1)")),
    flowers=choice("da_que", {
        "off": Given(Flowers((Tile.GREEN,), End.TAIL, swaps=((Tile.GREEN, Tile.RED),)),
                     text("§26.2", "发：必须亮出了，且从牌尾补牌，当发为钻时，红中充当发牌，也必须亮出了，且从牌尾补牌")),
        "on": Given(Flowers(), text("§26.2", "当打缺时发可以不必亮出来，算风牌")),
    }),
    phases=Given((phase("bonus_flower_exposure", "发 is shown and replaced from the tail; when 发 is the 钻, 红中 takes its role (§26.2)"),),
                 text("§26.2", "当发为钻时，红中充当发牌，也必须亮出了，且从牌尾补牌")),
    win=Derived(zuanpai_win, text("§26.2", "杠牌：如果不是中发白的钻牌时候，发财和白板是杠牌，只能用来杠，手上有，就不能和牌"), ("da_que",)),
    scoring=Derived(lambda o: ZuanpaiScorer(), text("§26.2", "几个发算几个翻的钱。当打缺时发可以不必亮出来，算风牌，但不算钱"), ("fa_value", "da_que")),
    options=(ZUAN_WALL, ZUAN_DICE, ZUAN_COUNT, DA_QUE, DEAD_WALL.option, FA_VALUE),
    notes=(
        "「根据所打数值（+1循环）」 is read by default as the successor rule (+1, cyclic) of §26.1; option zuan_count "
        "counts the value + 1 instead.",
        "The flipped indicator stays face up in the wall and is drawn in turn: what happens to it is not stated.",
        "发 as a bonus tile (§26.2 「必须亮出了」) vs 杠牌 (§26.2 「只能用来杠」) conflict: 发 is shown and replaced; 白板 is 杠牌 "
        "(reading (a)). Reading (b), 发 a 杠牌 as well, is not offered: the text's only value for 发, 「几个发算几个翻的钱」, "
        "counts 发 that are shown, and under (b) none ever is; (c) (two variants merged) names no rule to play.",
        "杠牌 block a win while concealed: 发财 and 白板 when the 钻 is not a dragon (only 白板 with 打缺), the two other "
        "dragons when it is (§26.2 [000:173]); declared, a 杠牌 is a kong, never a 碰 (「只能用来杠」), the 钻 is never "
        "ponged (「钻不可以碰」), and the shown 发 is in no meld.",
        "Each shown 发 (context extra 'fa_shown') is one 翻 of money, read as a doubling (house option fa_value); with 打缺 "
        "发 「不算钱」. The base win is 1; who pays is not stated: the discarder, or everyone on a self-draw.",
        "With 打缺 a winning hand must lack a suit (打缺 read as playing void in one suit).",
    ),
)
