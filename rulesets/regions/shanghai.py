"""上海麻将 — RULES.md §4 (file 002's 「全国各地麻将玩法总汇」).

144 tiles with flowers; one roll of two dice; 一炮多响; at least 碰碰胡 to win.
"""

from typing import Callable

from .. import reading_bounds as bounds
from .. import requirements as req
from ..hand import Hand, WinContext
from ..definition import HouseOption, Play, Region
from ..dice import SumPicksWallSkipSum
from ..provenance import Derived, Given, choice, default, open_question, research, text
from ..rotation import RotationRule
from ..scoring.hand_types import full_flush, half_flush
from ..scoring.shanghai import ShanghaiScorer
from ..tilesets import SET_144
from ..winning import Evaluator
from ..winrules import Judged, Requirement, WinRules, of_hand
from .common import (DEFAULT_DEAL, NO_INDICATORS, TAIL_REPLACEMENT, YIPAO_DEALER, dead_wall, phase,
                     first_dealer_option, flowers_from_tail, four_players, with_yipao_dealer)

FIRST_DEALER = first_dealer_option(text("§4.5", "第一局系统随机选择庄家"))

MULTI_WIN_DEALER = HouseOption(
    "multi_win_dealer", "一炮多响 下盘庄家",
    (("nearest_winner", "(b) the winner nearest the discarder deals"),
     ("after_nearest_winner", "(a) that winner's 下家 deals")),
    "nearest_winner", open_question("§4.8", "「点炮者最近的一个胡牌者下家为下盘庄家」: reading (b) agrees with rule 2 「谁胡牌下盘当庄家」"),
    value_labels=(("nearest_winner", "最近的胡家"), ("after_nearest_winner", "最近胡家的下家")))

MIN_HAND = HouseOption(
    "min_hand", "起和 (the least hand)",
    (("qinghunpeng", "碰碰胡, 混一色 or 清一色 (清混碰)"),
     ("all_pungs", "碰碰胡 only: every meld a 刻 or 杠 (清碰, 混碰 and 字一色 included)")),
    "qinghunpeng", open_question("§4.6", "「至少从碰碰胡及以上的番型」: which hands rank with or above 碰碰胡 is not listed; "
                                 "RESEARCH.md §3.5 names 上海 清混碰 (清一色, 混一色, 碰碰胡) as the hands of that class"),
    value_labels=(("qinghunpeng", "清混碰"), ("all_pungs", "只碰碰胡")))

CHENGBAO_DISCARD = HouseOption(
    "chengbao_discard", "承包 点炮 (承包 on a discard)",
    (("instead", "the 承包者 pays the one share instead of the discarder"),
     ("besides", "the discarder and the 承包者 pay a share each")),
    "instead", open_question("§4.7", "「点炮记分时，承包者付一份点数」: whether the discarder still pays is not stated; "
                             "instead, as on a self-draw the 承包者 pays for everyone"),
    value_labels=(("instead", "承包者代付"), ("besides", "承包者另付")))


def at_least_pengpeng(kind: str) -> Callable[[Judged], bool]:
    """「必须至少从碰碰胡及以上的番型才允许和牌」 under the house reading `kind`."""
    def check(j: Judged) -> bool:
        return req.all_pungs(j) or (kind == "qinghunpeng" and (full_flush(j) or half_flush(j)))
    return check


def at_least_pengpeng_hopeless(kind: str) -> Callable[[Hand, WinContext, Evaluator], bool]:
    """`at_least_pengpeng` met by no reading: no 碰碰胡, nor (under `kind` qinghunpeng) one suit
    (reading_bounds.py)."""
    def hopeless(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
        free = bounds.free_kinds(evaluator)
        if not bounds.no_all_pungs(hand, free):
            return False            # (the hands that win: asked first)
        return kind != "qinghunpeng" or bounds.no_one_suit(bounds.fixed_tiles(hand, free), True)
    return hopeless


def all_pungs_witnessed(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """`at_least_pengpeng` met by some reading: an all-pungs one (reading_bounds.py)."""
    return bounds.all_pungs_witnessed(hand, bounds.free_kinds(evaluator))


@of_hand
def no_missed_win(hand: Hand, context: WinContext) -> bool:
    """漏胡: a tile passed since the last 动牌 (`context.extra["passed_tiles"]`) may not be won on a discard."""
    passed = context.get("passed_tiles", ()) or ()
    return context.self_drawn or context.win_tile not in passed


LOUHU = Requirement("louhu", "漏胡", text("§4.6", "玩家A是不能胡那一张的。除非玩家A有进行动牌的情况; 漏胡只针对1张牌，不针对一次性听的所有牌"),
                    no_missed_win)


def shanghai_win(options) -> WinRules:
    least = Requirement("at_least_pengpeng", "至少碰碰胡", text("§4.6", "上海麻将必须至少从碰碰胡及以上的番型才允许和牌"),
                        at_least_pengpeng(options["min_hand"]), hopeless=at_least_pengpeng_hopeless(options["min_hand"]),
                        witnessed=all_pungs_witnessed)
    return WinRules(requirements=(least, LOUHU))


DEAD_WALL = dead_wall("not stated (§4.4)")

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
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=with_yipao_dealer(choice("multi_win_dealer", {
        "nearest_winner": Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                                text("§4.5", "谁胡牌下盘当庄家，若流局则上盘庄家下盘继续当庄家")),
        "after_nearest_winner": Given(RotationRule("keep", "winner", "keep", "after_nearest_winner"),
                                      text("§4.5", "点炮者最近的一个胡牌者下家为下盘庄家")),
    })),
    play=Given(Play(chi=True, multiple_winners=True),
               text("§4.5–4.6", "庄家的下家…有权力吃或碰那张牌; 允许一炮多响")),
    flowers=flowers_from_tail(default("flower handling is not stated (§4.3); flowers are set aside and replaced from the tail as file 001 states (§7.4)")),
    phases=Given((phase("chengbao", "a win asks its winner which side 承包s it (3 claims or more between them, either "
                                    "way): the table sees no claims"),),
                 text("§4.7", "如果吃碰杠一家或被一家吃碰杠超过3次（包括3次），则承包（包含反承包在内）")),
    win=Derived(shanghai_win, text("§4.6", "上海麻将必须至少从碰碰胡及以上的番型才允许和牌"), ("min_hand",)),
    scoring=Given(ShanghaiScorer(), text("§4.7", "点炮点炮者输分，和其他人无关; 抢杠如果抢杠，记分按自摸计，但由杠的支付，相当于杠的人付 3份")),
    options=(MULTI_WIN_DEALER, MIN_HAND, CHENGBAO_DISCARD, DEAD_WALL.option, YIPAO_DEALER, FIRST_DEALER),
    notes=(
        "The dealer rolls the dice (「摇骰子者」 is not identified).",
        "First dealer 「第一局系统随机选择庄家」 (§4.5): the table rolls for it: its dice are the table's random choice, and everyone sees them (house option first_dealer).",
        "「挪走7墩」 is counted in whole stacks.",
        "至少碰碰胡: by default 碰碰胡, 混一色 or 清一色 (清混碰, RESEARCH.md §3.5); option min_hand=all_pungs keeps all-pung hands only.",
        "漏胡 is judged from extra passed_tiles (the tiles the side passed since its last 动牌); a self-draw is a 动牌 and is allowed.",
        "花分 and the 勒子 cap have no values in the text (§4.7): a share is 1 + the winner's flowers (RESEARCH.md §3.5), no cap.",
        "承包 (extra claims: claimer, from_side, count; 3 or more either way): the 承包者 pays 3 shares on a self-draw, "
        "one share on a discard (instead of the discarder by default), 3 more on a 抢杠. 抢杠 only on a 蓄杠 is play, not scoring.",
        "At the table a winner is asked which side 承包s his win (承包:<无|下家|对家|上家>): the table sees no claims, so "
        "it takes his word, as it does for who gave a kong. 漏胡 is not judged at the table: it sees no discards "
        "(extra passed_tiles is never filled there); a scorer given the fact applies it.",
    ),
)
