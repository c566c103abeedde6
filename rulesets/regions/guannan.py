"""灌南麻将 — RULES.md §30: 112 tiles (the three suits and one each of 东南西北); four hand types."""

from ..definition import Region
from ..provenance import Given, analyst, text
from ..scoring.guannan import GuannanScorer
from ..tilesets import SET_112_WINDS
from ..winning import Shapes
from ..winrules import WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAY, DEFAULT_PLAYERS,
                     DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall)

DEAD_WALL = dead_wall("not stated (§30)")

REGION = Region(
    id="guannan",
    name="灌南麻将",
    title="Guannan",
    section="RULES.md §30",
    attribution="named [000:205]",
    tiles=Given(SET_112_WINDS, text("§30", "灌南麻将的玩法只有112张牌，包括万字36张、筒子36张和条子36张加上东南西北风各一张")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((14, 14, 14, 14), analyst("§30", "112 = 56 stacks = 14 per side if built in four equal walls")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    win=Given(WinRules(Shapes(seven_pairs=True)),
              text("§30", "记牌形式主要包括：七对、碰碰和（牌型为nAAA+BB其中n大于等于0小于等于4）、一条龙（由同种花色组成的1-9的和牌形式）、平牌（普通的和牌形式）")),
    scoring=Given(GuannanScorer(), text("§30", "记牌形式主要包括：七对、碰碰和（牌型为nAAA+BB其中n大于等于0小于等于4）、一条龙（由同种花色组成的1-9的和牌形式）、平牌（普通的和牌形式）")),
    options=(DEAD_WALL.option, *DEFAULT_BREAK.options),
    unpriced=(
        '七对, 碰碰和, 一条龙, 平牌 — named as the 记牌形式, no value for any: the win names its form and is 1 point',
    ),
    notes=("Shapes: 七对 and the standard hand (碰碰和, 一条龙 and 平牌 are standard hands); 「0 ≤ n ≤ 4」 is read as n = 4 "
           "for a complete hand. Whether four of a kind makes two pairs of a 七对 is not stated: it does.",
           "No values are given for the four 记牌形式: the win names its form (七对, 碰碰和, 一条龙, 平牌 — the first the "
           "hand makes in the text's order) and is 1 point; the settlement says the value is not stated."),
)
