"""海南麻将 — RULES.md §23: 番 is a prerequisite for winning, not a multiplier; seat flowers.

Flowers exist (春夏秋冬梅兰竹菊 are named), so the set is 144; flowers are set aside and replaced from
the tail (「补来的牌和牌算花砸」 implies replacement tiles).
"""

from ..definition import Play, Region
from ..provenance import Given, analyst, default, research, text
from ..tilesets import SET_144
from .common import (DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_ROTATION, NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT,
                     dead_wall_choice, dead_wall_option, flowers_from_tail, four_players)

REGION = Region(
    id="hainan",
    name="海南麻将",
    title="Hainan",
    section="RULES.md §23",
    attribution="named [000:105]; the scoring fragment [000:121-127] is attributed by adjacency (uncertain)",
    tiles=Given(SET_144, analyst("§23.1", "flowers 春夏秋冬梅兰竹菊 exist: a 144-tile set is likely; count not stated")),
    players=four_players(text("§23.1", "庄家摸春或梅，庄家下家摸夏或兰，庄家对家摸秋或菊，庄家上家摸冬或竹")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=NO_INDICATORS,
    reserve=dead_wall_choice("not stated (§23)"),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True, ready_declaration="optional"),
               text("§23.1–23.2", "门前清，即没有任何碰，吃或杠; 报听明摸放炮不能和牌，必须自摸")),
    flowers=flowers_from_tail(text("§23.2", "花子只算加番，不能替牌，补来的牌和牌算花砸但不算番")),
    phases=NO_PHASES,
    options=(dead_wall_option("not stated (§23)"),),
    notes=(
        "Where flower replacements come from is not stated: the tail, as file 001 states (§7.4).",
        "The prevailing wind (「令」) and how it changes are not stated.",
        "番 conditions (2/5/8 眼, dragon and wind pongs, seat flowers, 门前清, 碰碰和; 无番靠自摸) come with the hands issue.",
    ),
)
