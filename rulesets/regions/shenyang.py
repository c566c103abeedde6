"""沈阳麻将 — RULES.md §32 (file 000 only).

Must open (开门) to win, all three suits and a 幺九 required; 亮牌 of 东南西北 (a kong-like 过杠
after one's own draw) or 中发白 (any time); score 2^N 番 with an optional cap.
"""

from ..definition import HouseOption, Play, Region
from ..provenance import Given, default, open_question, text
from ..tilesets import SET_136
from .common import (DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS, TAIL_REPLACEMENT,
                     dead_wall_choice, dead_wall_option, four_players, phase, walls_for)

LIANG_WINDOW = HouseOption(
    "liang_window", "亮牌 (showing sets)",
    (("any_time", "亮牌 allowed throughout the hand"),
     ("first_draw", "not from one's second draw on (「从第二次摸牌起不允许亮出」)"),
     ("off", "亮牌 not allowed (「有时不允许亮出」)")),
    "any_time", open_question("§32.3", "（有时不允许亮出或从第二次摸牌起不允许亮出） — the window is the table's choice; allowed is the plain rule"))

READY_CHANGE = HouseOption(
    "ready_change", "报听 (declaring ready)",
    (("allowed", "不报听 and 改听 allowed"), ("forbidden", "报听 required and final")),
    "allowed", open_question("§32.2", "是否允许不报听和是否允许在报听之后改听…以玩家之间的协商结果为准。一般来说是允许的"))

REGION = Region(
    id="shenyang",
    name="沈阳麻将",
    title="Shenyang",
    section="RULES.md §32",
    attribution="named [000:299]",
    tiles=Given(SET_136, text("§32.1", "沈阳麻将牌数为136张，不使用花牌")),
    players=four_players(text("§32.4", "“闷三家”…即和牌时只有和牌者“开门” — the winner and three others")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14, as every 136-tile text")),
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=NO_INDICATORS,
    reserve=dead_wall_choice("not stated (§32)"),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True, ready_declaration="optional"),
               text("§32.2–32.4", "必须通过碰或杠（明杠）“开门”; 已碰的对子若在之后的对局中吃…; 听牌后，是否允许不报听…一般来说是允许的")),
    flowers=NO_FLOWERS,
    phases=Given((
        phase("liang_pai", "亮牌: 东南西北 each once → shown and 过杠 (like a kong) only right after one's own draw; "
                           "中发白 each once → shown at any time; 亮牌 is not 开门 (§32.3)"),
    ), text("§32.3", "沈阳麻将有“亮牌”一说，“亮牌”为2番")),
    options=(LIANG_WINDOW, READY_CHANGE, dead_wall_option("not stated (§32)")),
    notes=(
        "A 东南西北 亮牌 is a 过杠 and takes a replacement from the tail (「这与“杠”的操作基本相同」); "
        "a 中发白 亮牌 is three tiles and takes none — neither is stated, both follow from the hand size.",
        "Score = 2^N (N = 番), cap optional; scoring comes with the hands issue.",
    ),
)
