"""17-tile block (「参赛选手」) — RULES.md §18 [unnamed].

「每人手里抓17张牌」 is read by default as the 16-tile system in which a complete hand holds 17
tiles (5 melds + a pair): everyone is dealt 16, the dealer 17.  The other reading (a confusion with
「每人摆17叠」, 17 stacks a side and 13-tile hands) is a house option.
"""

from ..dealing import DealPattern
from ..definition import HouseOption, Region
from ..provenance import Given, choice, default, open_question, text
from ..rotation import RotationRule
from ..scoring.seventeen_tile import SeventeenTileScorer
from ..tilesets import SET_136
from .common import (DEFAULT_BREAK, DEFAULT_PLAY, NO_FLOWERS, NO_INDICATORS, TAIL_REPLACEMENT, dead_wall,
                     four_players, phase)

HAND_READING = HouseOption(
    "hand_reading", "17张 读法 (reading)",
    (("hold17", "(a) a complete hand holds 17 tiles: 16 dealt, the dealer 17"),
     ("stacks17", "(b) 17 stacks a side, 13-tile hands")),
    "hold17", open_question("§18", "「每人手里抓17张牌」 read literally: a hand of 17 tiles is 5 melds + a pair, so 16 are held between draws"),
    value_labels=(("hold17", "手牌17张"), ("stacks17", "每边17墩 手牌13张")))

LIANZHUANG_RAISE = HouseOption(
    "lianzhuang_raise", "连庄 底数增加 (base raise)",
    (("one", "+1 to the base for each 连庄"), ("double", "the base doubles for each 连庄"),
     ("none", "no raise: the text gives no amount")),
    "one", open_question("§18", "「如果庄家连庄则还是此位玩家当庄，底数增加」 — the base grows but by how much is not stated; "
                                "+1 a 连庄 is the smallest raise that is one"),
    value_labels=(("one", "每连庄底数加1"), ("double", "每连庄底数翻倍"), ("none", "连庄不加底")))

DEAD_WALL = dead_wall("not stated (§18)")

REGION = Region(
    id="seventeen_tile",
    name="十七张麻将",
    title="Seventeen-tile block",
    section="RULES.md §18",
    attribution="unnamed block [000:85]",
    tiles=Given(SET_136, default("not stated; 136 tiles, 17 stacks a side, which both readings share")),
    players=four_players(text("§18", "麻将的参赛选手为4人，分别为东、南、西、北")),
    hand_size=choice("hand_reading", {
        "hold17": Given(16, text("§18", "每人手里抓17张牌 — 17 when complete, 16 between draws")),
        "stacks17": Given(13, text("§18", "每人手里抓17张牌 — read as 每人摆17叠 (§1.1), 13-tile hands")),
    }),
    stacks_per_side=Given((17, 17, 17, 17), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=choice("hand_reading", {
        "hold17": Given(DealPattern(16), default("4 rounds of 4, then the dealer's 17th tile")),
        "stacks17": Given(DealPattern(13), default("4-4-4 then 跳牌")),
    }),
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=Given(RotationRule("keep", "next", "keep", "nearest_winner"),
                   text("§18", "余下的按逆时针的方向来轮庄，如果庄家连庄则还是此位玩家当庄")),
    play=Given(DEFAULT_PLAY.value, text("§18", "通过吃牌、碰牌、杠牌等方式")),
    flowers=NO_FLOWERS,
    phases=Given((phase("reseat_after_four", "after the dealer's 4th 连庄 (and every 4th after) the next hand opens "
                                             "with 连庄四把 请重新排定座位 at the dice"),),
                 text("§18", "庄家连庄四把之后，四位玩家重新排定位置")),
    scoring=Given(SeventeenTileScorer(), text("§18", "如果庄家连庄则还是此位玩家当庄，底数增加")),
    options=(HAND_READING, LIANZHUANG_RAISE, DEAD_WALL.option, *DEFAULT_BREAK.options),
    unpriced=(
        '连庄 — 「底数增加」 names the raise, not its amount: house option lianzhuang_raise (+1 a 连庄)',
    ),
    notes=(
        "First dealer: the 东 seat (「第一盘门风东者为庄家」).",
        "After four 连庄 the seats are drawn again (「庄家连庄四把之后，四位玩家重新排定位置」): the next hand's dice prompt "
        "asks the players to reseat (连庄四把 请重新排定座位), and the dealer's side rolls once they have. How seats are "
        "drawn, and whether the 连庄 count (and its raise) goes on after it, are not stated: the table keeps counting.",
        "连庄 raises the base (「底数增加」); the amount is not stated: house option lianzhuang_raise (+1 a 连庄 by "
        "default). A win is the base, paid by the discarder or by each other side; the dealer's repeats come from the "
        "session (连庄 counted by the table).",
        "Win conditions 「按照相关规定」 are not given: any standard hand wins.",
    ),
)
