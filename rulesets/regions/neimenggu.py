"""内蒙麻将 (内蒙东部) — RULES.md §16: one sentence of win requirements."""

from ..definition import Region
from ..provenance import Given, default, text
from ..tilesets import SET_136
from .common import (DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_PLAY, DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS,
                     NO_PHASES, TAIL_REPLACEMENT, dead_wall_choice, dead_wall_option, four_players, walls_for)

REGION = Region(
    id="neimenggu",
    name="内蒙麻将",
    title="Inner Mongolia (east)",
    section="RULES.md §16",
    attribution="named [000:79]",
    tiles=Given(SET_136, text("§16", "内蒙麻将有136张牌")),
    players=four_players(default("not stated; 4 players with 136 tiles")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=NO_INDICATORS,
    reserve=dead_wall_choice("not stated (§16)"),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(DEFAULT_PLAY.value, text("§16", "二是必须要开门，就是要吃上家的牌或者碰别人的牌")),
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    options=(dead_wall_option("not stated (§16)"),),
    notes=("Win requirements (a pung or kong, an opened hand, a 幺九 tile or a dragon pung) come with the hands issue.",),
)
