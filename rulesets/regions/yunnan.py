"""云南麻将 (玉溪) — RULES.md §29 (+ the attributed continuation).

At the start the two top tail tiles are turned up; only a player winning on a kong (杠上开花) may take
one; other replacements come from the last face-down tile, and once none is left the shown tiles are
drawn last (house option weipai_wall_end).  No 吃; 平和 only by self-draw; several
winners; within the last four tiles a possible win must be taken.
"""

from typing import Callable

from ..hand import Hand, WinContext
from ..definition import HouseOption, Play, Region
from ..indicators import Derivation, Effect, IndicatorRule, TailTops, Timing
from ..provenance import Derived, Given, choice, default, open_question, text
from ..reserve import FixedTiles, NoReserve, ReservePolicy
from ..rotation import RotationRule
from ..scoring.yunnan import YunnanScorer, is_pinghu
from ..tilesets import SET_136
from ..walls import End
from ..winrules import Judged, Requirement, WinRules, of_hand
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, NO_FLOWERS, YIPAO_DEALER, dead_wall, first_dealer_option, four_players,
                     phase, with_yipao_dealer)

FIRST_DEALER = first_dealer_option(text("§29.5", "除第一盘随机选定一人坐庄外"))

TAIL_READING = HouseOption(
    "weipai_reading", "尾牌 (which two)",
    (("tops_of_last_two", "the top tiles of the last two stacks"), ("both_of_last_stack", "both tiles of the last stack")),
    "tops_of_last_two", open_question("§29.3", "「尾牌上面两张」: (a) the upper tiles of the last two stacks — 上面 = upper"),
    value_labels=(("tops_of_last_two", "最后两墩上层"), ("both_of_last_stack", "最后一墩两张")))

WALL_END = HouseOption(
    "weipai_wall_end", "尾牌到底 (尾牌 at the end of the wall)",
    (("drawn_last", "the shown tiles are the wall's last tiles: the head draws them in turn, and a kong with no "
                    "face-down tail tile left takes a shown one as its replacement, win or not"),
     ("kept", "the shown tiles and the tiles under them are never drawn but by a 杠上开花: the hand is 荒庄 "
              "when only they are left, so every kong has a face-down replacement")),
    "drawn_last", open_question("§29.3", "what happens to the shown 尾牌 at the end of the wall is not stated "
                                         "(ambiguity (c)); 「必须杠上开花才可以拿翻开的尾牌，不能杠上开花的从最后面未翻开的取牌」 "
                                         "sets a shown tile against a face-down one that is there to take: once none is "
                                         "left, the shown tiles are what lies on the table, the wall is played out as "
                                         "the other regions without a dead wall play theirs, and a kong is never left "
                                         "without a replacement"),
    value_labels=(("drawn_last", "尾牌照摸"), ("kept", "尾牌不摸")))

MULTI_WIN_DEALER = HouseOption(
    "multi_win_dealer", "一炮多响 下盘庄家",
    (("nearest_winner", "(b) the first winner counted from the discarder towards 下家"),
     ("discarder_next", "(a) the discarder's 下家, winner or not")),
    "nearest_winner", open_question("§29.5", "「点炮者下方第一家」: (b) keeps 「每盘首先和牌的人为下一盘的庄家」 true"),
    value_labels=(("nearest_winner", "最近的胡家"), ("discarder_next", "点炮者下家")))

PINGHU_READING = HouseOption(
    "pinghu_reading", "平和 (what is a 平和)",
    (("no_big_pattern", "a hand that is not 碰碰胡, 清一色 or 混一色 (大牌型)"),
     ("all_chows", "four chows and a pair; any hand with a 刻 is not 平和")),
    "no_big_pattern", open_question("§29.6", "「平和必须自摸，大牌型可以点炮也可以自摸」 sets 平和 against 大牌型, which the text does not list; "
                                    "碰碰胡, 清一色 and 混一色 are read as the 大牌型"),
    value_labels=(("no_big_pattern", "非大牌型"), ("all_chows", "全顺子")))

ANGANG = HouseOption(
    "angang", "暗杠 (concealed kong)",
    (("1", "each other side pays 1"), ("2", "each other side pays 2"), ("4", "each other side pays 4")),
    "2", open_question("§29.7", "暗杠's value is not stated; 2 from each other side, as much as a 明杠 costs its discarder"),
    value_labels=(("1", "每家付1"), ("2", "每家付2"), ("4", "每家付4")))

ZHUANWAN = HouseOption(
    "zhuanwan", "转弯杠 (added kong)",
    (("1", "each other side pays 1"), ("2", "each other side pays 2")),
    "1", open_question("§29.7", "转弯杠's value is not stated; 1 from each other side, below a 暗杠"),
    value_labels=(("1", "每家付1"), ("2", "每家付2")))


def pinghu_self_drawn(reading: str) -> Callable[[Judged], bool]:
    """「平和必须自摸不能点炮」: a 平和 (under `reading`) is won by self-draw; a 大牌型 either way."""
    def check(j: Judged) -> bool:
        return j.context.self_drawn or not is_pinghu(j, reading)
    return check


@of_hand
def no_win_after_pass(hand: Hand, context: WinContext) -> bool:
    """「在自己未摸下一张牌的一圈内，不能弃先胡后」: a side that passed a win since its last draw
    (`context.extra["passed_since_draw"]`) may not win on a discard."""
    return context.self_drawn or not context.get("passed_since_draw", False)


def yunnan_win(options) -> WinRules:
    pinghu = Requirement("pinghu_zimo", "平和必须自摸", text("§29.6", "平和必须自摸不能点炮; 平和必须自摸，大牌型可以点炮也可以自摸"),
                         pinghu_self_drawn(options["pinghu_reading"]),
                         assured=lambda hand, context, evaluator: context.self_drawn)    # (any hand, then)
    passed = Requirement("no_qi_xian_hu_hou", "不能弃先胡后", text("§29.6", "打牌时，在自己未摸下一张牌的一圈内，不能弃先胡后"),
                         no_win_after_pass)
    return WinRules(requirements=(pinghu, passed))


def _tail_tiles(options) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(kind="weipai", timing=Timing.AFTER_DEAL, position=TailTops(options["weipai_reading"]),
                          derivation=Derivation("none"), effect=Effect.SHOWN, public=True, stays_in_play=True,
                          replaces_at_wall_end=options["weipai_wall_end"] == "drawn_last",
                          notes=("a shown tail tile may be taken only as a 杠上开花 win; other replacements skip it",)),)


DEAD_WALL = dead_wall("not stated (§29.4); 最后四张 forces wins at the end")


def shown_tail_tiles(reading: str) -> int:
    """The tiles the shown 尾牌 hold back from an ordinary draw: each shown tile and the one it lies on."""
    return 4 if reading == "tops_of_last_two" else 2


def _reserve(options) -> ReservePolicy:
    """The dead wall by option; with `weipai_wall_end=kept` and no dead wall, the shown tiles and those
    under them are the tiles the hand ends on (a kept dead wall of 7 stacks holds them already)."""
    policy, _ = DEAD_WALL.choice.resolve(options)
    if options["weipai_wall_end"] == "kept" and isinstance(policy, NoReserve):
        return FixedTiles(shown_tail_tiles(options["weipai_reading"]))
    return policy

REGION = Region(
    id="yunnan",
    name="云南麻将",
    title="Yunnan (玉溪)",
    section="RULES.md §29",
    attribution="named [000:179]; items [000:195-203] attributed by adjacency",
    tiles=Given(SET_136, text("§29.1", "包括万、条、筒、字四类花色，共计136张")),
    players=four_players(text("§29.1", "游戏人数为4人")),
    hand_size=Given(13, text("§29.1", "每人手里抓13张牌")),
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=Derived(_tail_tiles, text("§29.3", "游戏开始前预先把尾牌上面两张翻开…必须杠上开花才可以拿翻开的尾牌，不能杠上开花的从最后面未翻开的取牌"),
                       ("weipai_reading", "weipai_wall_end")),
    reserve=Derived(_reserve, open_question("§29.3–29.4", "a dead wall is not stated (§29.4): none by default, "
                                                         "7 stacks (长春's 留7墩, §1.4) by option dead_wall; with weipai_wall_end=kept the "
                                                         "shown 尾牌 and the tiles under them stay, and the hand ends "
                                                         "when only they are left"),
                    ("dead_wall", "weipai_wall_end", "weipai_reading")),
    replacement=Given(End.TAIL, text("§29.3", "不能杠上开花的从最后面未翻开的取牌")),
    rotation=with_yipao_dealer(choice("multi_win_dealer", {
        "nearest_winner": Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                                text("§29.5", "以后每盘首先和牌的人为下一盘的庄家，多人同时和牌（一炮多响）时点炮者下方第一家为一下盘的庄家")),
        "discarder_next": Given(RotationRule("keep", "winner", "keep", "discarder_next"),
                                text("§29.5", "点炮者下方第一家为一下盘的庄家")),
    })),
    play=Given(Play(chi=False, multiple_winners=True, last_tiles_forced_win=4),
               text("§29.4–29.6", "不能吃牌，只能碰牌和杠牌; 一炮多响; 最后四张牌，若有人点炮则自动和牌，自摸也必须和牌")),
    flowers=NO_FLOWERS,
    phases=Given((phase("check_ready_at_draw", "流局查大叫: at a draw every seat lays its hand; ready hands are paid; "
                                               "kong money is not counted (§29.4)"),
                  phase("kong_giver", "明杠: the maker is asked who gave the tile (上家/对家/下家) or whether it was a "
                                      "转弯杠: the giver pays the 明杠 (§29.6)")),
                 text("§29.4, §29.6", "流局查大叫，杠钱不算; 明杠…打出一张牌的闲家给玩家2分")),
    win=Derived(yunnan_win, text("§29.6", "满足相关规定的牌型条件时和牌，平和必须自摸不能点炮"), ("pinghu_reading",)),
    scoring=Given(YunnanScorer(), text("§29.6–29.7", "打出一张牌的闲家给玩家2分; 点炮时点炮者只负责和牌者牌型的分; 流局查大叫，杠钱不算")),
    options=(TAIL_READING, WALL_END, MULTI_WIN_DEALER, PINGHU_READING, ANGANG, ZHUANWAN, DEAD_WALL.option, YIPAO_DEALER,
             FIRST_DEALER, *DEFAULT_BREAK.options),
    unpriced=(
        "暗杠, 转弯杠 — named beside 明杠's 「给玩家2分」 without a value: house options angang (2 from each other side) and zhuanwan (1)",
        '查大叫 — 「流局查大叫」 names the check, not the amount: each seat not ready (or not shown) pays each ready seat 1',
        '牌型 — 平和 and 大牌型 are named, no value: a hand is 1 分',
    ),
    notes=(
        "A shown tail tile that is taken is not replaced by showing another (not stated; no option): it is taken only "
        "by a 杠上开花, which ends the hand, or as the wall runs out, when no tile is left behind it to show.",
        "First dealer 「除第一盘随机选定一人坐庄外」 (§29.5): the table rolls for it: its dice are the table's random choice, and everyone sees them (house option first_dealer).",
        "A 荒庄 keeps the dealer: not stated.",
        "The 牌型 are not listed: any standard hand wins; 平和 vs 大牌型 is house option pinghu_reading.",
        "Hand values per 牌型 are not stated: every hand is 1 分, paid by the discarder alone or by the three on a self-draw.",
        "Kong money (extra kong_events: side, ming/an/zhuanwan, fed_by) is paid with the hand's first win: 明杠 2 from "
        "its discarder; 暗杠 and 转弯杠 from each other side by option. The table asks the maker of an exposed kong who "
        "gave the tile (a long press is an 暗杠). At a draw 杠钱不算, and 查大叫: every seat lays its hand, a hand some "
        "tile would complete legally is ready, and each side not ready (or not shown) pays each ready side 1.",
        "尾牌: a shown tail tile is taken only for a 杠上开花 win; an ordinary replacement is the last tile not shown "
        "and not lying under a shown tile; a shown tile taken without the win is a warning on the display.",
        "尾牌 at the end of the wall (option weipai_wall_end): by default the shown tiles are drawn last — the head "
        "draws them in turn, and a kong made when no face-down tail tile is left takes a shown one (the last, or the "
        "other if it wins) with no warning; 荒庄 comes after the last tile. With kept, the hand is 荒庄 when only the "
        "shown tiles and those under them are left. With dead_wall=7_stacks both readings play alike: the head never "
        "reaches the shown tiles and a face-down replacement is always left.",
        "Two other readings of the end of the wall are not offered: a kong without a face-down replacement ending the "
        "hand as 荒庄, or refused. At the 杠 press the table cannot know whether the maker will win on a shown tile "
        "(杠上开花, which the text allows), so either needs a second step — a 荒庄 with live tiles left, or a kong "
        "taken back that the wall sensors cannot see — which the audit and the simulated players would have to "
        "learn: more than this option is worth.",
        "不能弃先胡后 is judged from extra passed_since_draw, which the controller sets when a side passes a win.",
    ),
)
