"""云南麻将 (玉溪) — RULES.md §29 (+ the attributed continuation).

At the start the two top tail tiles are turned up; only a player winning on a kong (杠上开花) may take
one; other replacements come from the last face-down tile.  No 吃; 平和 only by self-draw; several
winners; within the last four tiles a possible win must be taken.
"""

from ..definition import HouseOption, Play, Region
from ..indicators import Derivation, Effect, IndicatorRule, TailTops, Timing
from ..provenance import Derived, Given, choice, default, open_question, text
from ..rotation import RotationRule
from ..tilesets import SET_136
from ..walls import End
from .common import DEFAULT_DEAL, DEFAULT_DICE, NO_FLOWERS, dead_wall_choice, dead_wall_option, four_players, phase

TAIL_READING = HouseOption(
    "weipai_reading", "尾牌 (which two)",
    (("tops_of_last_two", "the top tiles of the last two stacks"), ("both_of_last_stack", "both tiles of the last stack")),
    "tops_of_last_two", open_question("§29.3", "「尾牌上面两张」: (a) the upper tiles of the last two stacks — 上面 = upper"))

MULTI_WIN_DEALER = HouseOption(
    "multi_win_dealer", "一炮多响 下盘庄家",
    (("nearest_winner", "(b) the first winner counted from the discarder towards 下家"),
     ("discarder_next", "(a) the discarder's 下家, winner or not")),
    "nearest_winner", open_question("§29.5", "「点炮者下方第一家」: (b) keeps 「每盘首先和牌的人为下一盘的庄家」 true"))


def _tail_tiles(options) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(kind="weipai", timing=Timing.AFTER_DEAL, position=TailTops(options["weipai_reading"]),
                          derivation=Derivation("none"), effect=Effect.SHOWN, public=True, stays_in_play=True,
                          notes=("a shown tail tile may be taken only as a 杠上开花 win; other replacements skip it",)),)


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
    dice=DEFAULT_DICE,
    indicators=Derived(_tail_tiles, text("§29.3", "游戏开始前预先把尾牌上面两张翻开…必须杠上开花才可以拿翻开的尾牌，不能杠上开花的从最后面未翻开的取牌"),
                       ("weipai_reading",)),
    reserve=dead_wall_choice("not stated (§29.4); 最后四张 forces wins at the end"),
    replacement=Given(End.TAIL, text("§29.3", "不能杠上开花的从最后面未翻开的取牌")),
    rotation=choice("multi_win_dealer", {
        "nearest_winner": Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                                text("§29.5", "以后每盘首先和牌的人为下一盘的庄家，多人同时和牌（一炮多响）时点炮者下方第一家为一下盘的庄家")),
        "discarder_next": Given(RotationRule("keep", "winner", "keep", "discarder_next"),
                                text("§29.5", "点炮者下方第一家为一下盘的庄家")),
    }),
    play=Given(Play(chi=False, multiple_winners=True, last_tiles_forced_win=4),
               text("§29.4–29.6", "不能吃牌，只能碰牌和杠牌; 一炮多响; 最后四张牌，若有人点炮则自动和牌，自摸也必须和牌")),
    flowers=NO_FLOWERS,
    phases=Given((phase("check_ready_at_draw", "流局查大叫: ready hands are checked at a draw; kong money is not counted (§29.4)"),),
                 text("§29.4", "流局查大叫，杠钱不算")),
    options=(TAIL_READING, MULTI_WIN_DEALER, dead_wall_option("not stated (§29.4)")),
    notes=(
        "A shown tail tile that is taken is not replaced by showing another: not stated.",
        "A 荒庄 keeps the dealer: not stated.",
        "明杠 from a discard: the discarder pays 2 分 (§29.6) — the hands issue.",
    ),
)
