"""大包 block — RULES.md §25 [unnamed; 000 only]: 留最后7个半, face-down 听, 大包, 跟庄.

The dealing rhymes (三六得九，家家都有 …) only work with 17 stacks a side and "skip S stacks", so the set
is 136 and the break skips the dice sum (RULES.md §25.2, analyst).
"""

from ..definition import HouseOption, Play, Region
from ..dice import SumPicksWallSkipSum
from ..provenance import Given, analyst, default, open_question, text
from ..reserve import FixedTiles
from ..rotation import RotationRule
from ..tilesets import SET_136
from ..walls import End
from .common import DEFAULT_DEAL, NO_FLOWERS, NO_INDICATORS, four_players, phase

QUE_YI_MEN = HouseOption(
    "que_yi_men", "缺一门 (void suit)",
    (("off", "no void suit required"), ("on", "a hand may not hold all three suits; no 十三幺/七不挨")),
    "off", open_question("§25.1", "开局前需规定是否缺一门 — the table decides before play; off is the plain game"))

REGION = Region(
    id="dabao",
    name="大包麻将",
    title="Dabao block (留7个半)",
    section="RULES.md §25",
    attribution="unnamed block [000:141-161]; id from its 大包 rule",
    tiles=Given(SET_136, analyst("§25.2", "the dealing rhymes only work with 17 stacks a side: 136 tiles")),
    players=four_players(text("§25.1", "诈胡等同于输给其他三家")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((17, 17, 17, 17), analyst("§25.2", "Assume 17 stacks per side (136 tiles)")),
    dealing=DEFAULT_DEAL,
    dice=Given(SumPicksWallSkipSum(0), analyst("§25.2", "取牌时…三六得九，家家都有 — skip S stacks on the broken wall; the wall by the sum as 上海 §4.2")),
    indicators=NO_INDICATORS,
    reserve=Given(FixedTiles(15), text("§25.1", "牌桌上的牌必须留最后7个半，最后的牌不可以翻看与抓取")),
    replacement=Given(End.TAIL, text("§25.1", "杠之后必须从从牌墙尾部补牌")),
    rotation=Given(RotationRule("keep", "next", "keep", "nearest_winner"),
                   text("§25.1", "庄家当局非自己和牌即顺延到下家坐庄; 没人和牌意味着流庄，但庄家不变重新开局")),
    play=Given(Play(chi=False, ready_declaration="required"),
               text("§25.1", "玩家不可以吃牌，可以碰、杠; 和牌前必须听牌，听牌后不可以对手上的牌改动，只允许暗杠、和牌")),
    flowers=NO_FLOWERS,
    phases=Given((phase("follow_dealer", "跟庄: if all four discard the same tile in the first round, the dealer pays each one chip (§25.1)"),),
                 text("§25.1", "如果第一圈四个人打出的牌一样叫做跟庄，庄家需给其他人每人一个筹码")),
    options=(QUE_YI_MEN,),
    notes=(
        "7.5 stacks = 15 tiles: with an even number of tail draws the head may take the top of the 8th stack from the tail, "
        "leaving its bottom — the half stack of 「7个半」.",
        "Whether 「7个半」 grows with kongs is not stated: it does not.",
        "The 听 discard is laid face down (「听牌必须将牌面朝下放置」); where is the player's choice.",
        "Dealer selection (dice contest) happens once per session (§25.1 item 9).",
    ),
)
