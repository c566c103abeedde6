"""东北麻将 (generic) — RULES.md §3: a generic, partly incorrect summary; low reliability.

Only the tile set and the number of players are usable as stated; everything else is the
common practice of the 东北 games (长春 §1) or a stated default.
"""

from ..definition import Region
from ..provenance import Given, default, text
from ..tilesets import SET_136
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_PLAY, DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS,
                     NO_PHASES, TAIL_REPLACEMENT, dead_wall, four_players, walls_for)

DEAD_WALL = dead_wall("not stated: 「当有玩家胡了牌或者牌墙打完后，游戏结束」 (§3)")

REGION = Region(
    id="dongbei",
    name="东北麻将",
    title="Dongbei (generic Northeast)",
    section="RULES.md §3",
    attribution="named 「东北麻将规则和打法」 [002:2]; generic and low reliability",
    tiles=Given(SET_136, text("§3", "东北麻将一副牌共136张，包括万、条、饼三种花色，以及字牌")),
    players=four_players(text("§3", "一般需要四位玩家")),
    hand_size=Given(13, text("§3", "庄家从自己开始逆时针发牌，每人发13张牌")),
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    options=(DEAD_WALL.option, *DEFAULT_BREAK.options),
    notes=(
        "「每位玩家依次从牌墙上摸一张牌，直到每人有14张牌」 (every player reaching 14) is impossible as written: "
        "the dealer takes 14 and the others 13, as in every other text.",
        "The 牌风 drawn by the dealer (§3) has no stated mapping and no effect on play here; it is not an indicator.",
    ),
)
