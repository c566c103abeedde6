"""16-tile block — RULES.md §8 [unnamed]: 「十六张牌：开牌时每家取十六张牌」, 连庄/拉庄, 一炮三响.

Tiles are not stated; 16-tile hands are played with 144 tiles and flowers (RESEARCH.md §1.1: 台湾).
"""

from ..dealing import DealPattern
from ..definition import HouseOption, Play, Region
from ..provenance import Given, default, open_question, research, text
from ..rotation import RotationRule
from ..scoring.sixteen_tile import SixteenTileScorer
from ..tilesets import SET_144
from .common import (DEFAULT_BREAK, NO_INDICATORS, TAIL_REPLACEMENT, YIPAO_DEALER, dead_wall, flowers_from_tail,
                     four_players, phase, with_yipao_dealer)

DEAD_WALL = dead_wall("not stated (§8)")

LA_ZHUANG_TEXT = "闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一作下一盘的博注"

LA_ZHUANG = HouseOption(
    "la_zhuang", "拉庄 (asked at the table)",
    (("asked", "each side owing a dealer's win is asked 拉庄 at that win, before it is paid"),
     ("off", "拉庄 is not offered")),
    "asked", open_question("§8", f"「{LA_ZHUANG_TEXT}」 — who may ask (a 闲家) and what it does (a third of the debt "
                                 "to the dealer stays as the next hand's stake) are stated; when it is asked is not: "
                                 "at the dealer's win, when the debt is known, is the reading"),
    value_labels=(("asked", "庄家胡时问拉庄"), ("off", "不拉庄")))

REGION = Region(
    id="sixteen_tile",
    name="十六张麻将",
    title="Sixteen-tile block",
    section="RULES.md §8",
    attribution="unnamed block [000:9-15]; 16-tile hands with 连庄/拉庄 are Taiwanese in style (unverified)",
    tiles=Given(SET_144, research("§1.1", "144 (136 + 8 flowers: 上海/宁波/广东/台湾); the block names no set")),
    players=four_players(text("§8", "一炮三响：一家“出重”而三家齐吃和 — four players")),
    hand_size=Given(16, text("§8", "十六张牌：开牌时每家取十六张牌")),
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=Given(DealPattern(16), default("4 rounds of 4, then the dealer's 17th tile")),
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=with_yipao_dealer(Given(RotationRule("keep", "next", "keep", "nearest_winner"),
                   text("§8", "连庄即是连续做一次庄。每连庄一次便加上一番"))),
    play=Given(Play(chi=True, multiple_winners=True), text("§8", "一炮三响：一家“出重”而三家齐吃和")),
    flowers=flowers_from_tail(default("flowers are set aside and replaced from the tail, as file 001 states (§7.4)")),
    phases=Given((phase("la_zhuang", "拉庄: each 闲家 owing the dealer's win is asked; a third of his debt stays "
                                     "as the next hand's stake"),), text("§8", LA_ZHUANG_TEXT)),
    scoring=Given(SixteenTileScorer(), text("§8", "连庄即是连续做一次庄。每连庄一次便加上一番闲家可以向庄家提出“拉庄”，即是暂不清还输给庄家的总数留三分一作下一盘的博注")),
    options=(DEAD_WALL.option, YIPAO_DEALER, LA_ZHUANG, *DEFAULT_BREAK.options),
    unpriced=(
        'a hand — no value is stated for any hand: a win is 1 point (each 连庄 adds a 番, as stated)',
    ),
    notes=("Win rules are not stated: any standard 17-tile hand (5 melds + a pair) wins.",
           "No hand values are stated: a win is 1 point; each 连庄 (context.consecutive_dealer) adds a 番 (×2, as the 广东 line "
           "before the block defines 番) to what the dealer wins or pays.",
           "拉庄: the table asks each side owing a dealer's win (house option la_zhuang); one that asks pays two "
           "thirds of what he owes now; the third (rounded down) is noted as carried into the next hand's stake.",
           "What the carried third does in the next hand is not stated: the ledger does not pay it later; the win's "
           "notes and the la_zhuang record say what was carried.",
           "Melds are laid out 「与江南麻将相同」 — no effect on the controller."),
)
