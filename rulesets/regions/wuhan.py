"""武汉 红中赖子杠 — RULES.md §20 (+ RESEARCH.md §3.8, four published rule texts).

A 赖子皮 is turned after the deal; the 赖子 (wild) is the next kind.  红中 (and 发财) are 杠牌 that
may not stay in a winning hand; a winner must have opened (开口).
"""

from .. import reading_bounds as bounds
from ..cycles import WUHAN_LAIZI
from ..definition import HouseOption, Play, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, Timing
from ..provenance import Derived, Given, choice, open_question, research, text
from ..requirements import no_red_dragon, opened
from ..reserve import FixedStacks, FixedTiles
from ..scoring.wuhan import (WuhanScorer, pihu_258_hopeless, pihu_258_ok, pihu_laizi_assured,
                             pihu_laizi_hopeless, pihu_laizi_ok)
from ..tilesets import SET_136
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAYERS, DEFAULT_ROTATION, NO_FLOWERS,
                     NO_PHASES, TAIL_REPLACEMENT)

DEAD_WALL = HouseOption(
    "dead_wall", "黄庄 (end of wall)",
    (("9_stacks", "黄庄 when the last 9 stacks remain"), ("4_tiles", "黄庄 when 4 tiles remain")),
    "9_stacks", research("§3.8", "黄庄 with the last 9 墩 (id 49189478384) or with 4 tiles left (id 36686615465)"),
    value_labels=(("9_stacks", "留9墩"), ("4_tiles", "留4张")))

DAHU_VALUE = HouseOption(
    "dahu_value", "大胡 底 (value of a 大胡)",
    (("10", "each 大胡 is worth 10 (屁胡 1)"), ("5", "each 大胡 is worth 5"), ("2", "each 大胡 is worth 2")),
    "10", open_question("§20", "「…都算大胡。其他就都是屁胡」 gives the classes, not their values; neither does RESEARCH.md §3.8"),
    value_labels=(("10", "10分"), ("5", "5分"), ("2", "2分")))

PAYER = HouseOption(
    "payer", "放冲 谁付 (who pays a discard win)",
    (("discarder_only", "the discarder alone"), ("all_pay", "every other player")),
    "discarder_only", open_question("§20", "not stated; the discarder alone is the framework's rule for an unstated payer"),
    value_labels=(("discarder_only", "放冲者付"), ("all_pay", "三家都付")))

KAIKOU = Requirement("kaikou", "不开口不能胡", text("§20", "武汉的红中赖子杠讲究开口（即碰，吃，杠），不开口不能胡"), opened)
HONGZHONG = Requirement("no_hongzhong", "红中留在手上不能胡", text("§20", "红中留在手上不能胡"), no_red_dragon)
PIHU_LAIZI = HouseOption(
    "pihu_laizi", "屁胡 赖子 (两个癞子胡屁胡不能胡)",
    (("held", "a 屁胡 may not be won holding two 赖子, whatever they stand for"),
     ("as_wild", "a 屁胡 may not use two 赖子 as wilds; a 赖子 playing its own face is not counted")),
    "held", open_question("§20", "「两个癞子胡屁胡不能胡」 counts the 赖子 held or those standing for another tile; "
                                 "RESEARCH.md §3.8: 「屁胡 … may hold at most 1 赖子」"),
    value_labels=(("held", "手持两赖不能屁胡"), ("as_wild", "两赖作百搭不能屁胡")))


def pihu_laizi(counted: str) -> Requirement:
    return Requirement("pihu_one_laizi", "两个癞子胡屁胡不能胡", text("§20", "两个癞子胡屁胡不能胡"), pihu_laizi_ok(counted),
                       hopeless=pihu_laizi_hopeless(counted), assured=pihu_laizi_assured)


def wuhan_win(options) -> WinRules:
    return WinRules(requirements=(KAIKOU, HONGZHONG, pihu_laizi(options["pihu_laizi"]), PIHU_258))

PIHU_258 = Requirement("pihu_258", "屁胡二五八将",
                       research("§3.8", "屁胡 needs 2/5/8 将 and may hold at most 1 赖子 (大胡 may hold any number)"), pihu_258_ok,
                       hopeless=pihu_258_hopeless, witnessed=bounds.pair_258_witnessed)

REGION = Region(
    id="wuhan",
    name="武汉红中赖子杠",
    title="Wuhan (红中赖子杠)",
    section="RULES.md §20",
    attribution="named [000:93]",
    tiles=Given(SET_136, research("§3.8", "136 tiles (the text names 风一色, so winds exist)")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((17, 17, 17, 17), research("§1.1", "17 stacks a side for 136")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
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
    win=Derived(wuhan_win, text("§20", "武汉的红中赖子杠讲究开口（即碰，吃，杠），不开口不能胡，两个癞子胡屁胡不能胡，红中留在手上不能胡"),
                ("pihu_laizi",)),
    scoring=Given(WuhanScorer(), text("§20", "碰碰胡、将一色、清一色、风一色、全求人、杠开、海底捞、抢杠都算大胡。其他就都是屁胡")),
    options=(DEAD_WALL, DAHU_VALUE, PAYER, PIHU_LAIZI, *DEFAULT_BREAK.options),
    notes=(
        "The text does not say how the 赖子 is found (§20): the 赖子皮 is the tile after the deal, shown face up, and stays in the wall (RESEARCH.md §3.8).",
        "A 皮 of 白板 makes 东风 the 赖子 (the wind cycle continues through 白): not stated anywhere.",
        "开口 is a 吃, 碰 or 明杠/补杠 (RESEARCH.md §3.8: 「chow/pong/exposed kong」); a 暗杠 does not open.",
        "「两个癞子胡屁胡不能胡」: a 屁胡 may hold at most one 赖子 (RESEARCH.md §3.8 「may hold at most 1 赖子」; house "
        "option pihu_laizi=as_wild counts only those standing for another tile); a 屁胡 also needs a 2/5/8 pair "
        "(RESEARCH.md §3.8). 大胡 are free of both.",
        "将一色 and 风一色 are judged on standard hands; the 乱将/乱风 forms (any 2/5/8 or honour tiles, no melds) would need a new shape.",
        "Values: 屁胡 1, 大胡 the house value (default 10, several 大胡 add up), 硬胡 ×2 (RESEARCH.md §3.8); each loser pays × "
        "2^(winner's 番 + own 番) from 赖子杠 2 / 皮 1 (research) and 红中杠 1 / 明杠 1 / 暗杠 2 (defaults); caps "
        "(封顶/金顶…) are named by RESEARCH.md without values and are not applied.",
    ),
)
