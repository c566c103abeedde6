"""温州麻将 — RULES.md §19: 「温州麻将主要加入了财神（财神可当任何牌）」 and nothing else.

The rest is from published 温州 rules (MIL 温州, RESEARCH.md §3.3): 136 tiles, 16-tile hands, a
财神 flipped each hand that stays at the tail (so at most 3 can be drawn), 白板 as the 财神's
natural face, and a two-roll break.
"""

from ..dealing import DealPattern
from ..definition import HouseOption, Play, Region
from ..dice import SecondRollerPicksStart
from ..indicators import Derivation, Effect, IndicatorRule, TailTop, Timing
from ..provenance import Derived, Given, default, research, text
from ..scoring.wenzhou import WenzhouScorer
from ..tiles import Tile
from ..tilesets import SET_136
from ..winning import Shapes
from ..winrules import WinRules
from .common import DEFAULT_PLAYERS, DEFAULT_ROTATION, NO_FLOWERS, TAIL_REPLACEMENT, dead_wall, phase

DEAD_WALL = dead_wall("not stated (§19); the flipped 财神 at the tail is never drawn (RESEARCH.md §3.3)")
CAISHEN_RULE = research("§3.3", "财神独立结算: each player's 财神 count n pays out as 4n − total")
CAISHEN_SETTLEMENT = HouseOption(
    "caishen_settlement", "财神结算 (whose 财神 are settled)",
    (("all_sides", "after a win every other seat lays its hand, and every side's 财神 are settled (N·n − T)"),
     ("winner_only", "only the winner's 财神 are counted (the other hands are not laid: they count none)")),
    "all_sides", CAISHEN_RULE, value_labels=(("all_sides", "各家都算"), ("winner_only", "只算胡家")))
KONG_GIVER = phase("kong_giver", "明杠: the maker is asked who gave the tile (上家/对家/下家) or whether it was a "
                                 "加杠: 点杠 1 and 加杠 0 from each other player")
SETTLE_EVERY_SEAT = phase("settle_every_seat", "after a win every other seat lays its hand: the 财神 it holds are "
                                               "settled with every other side's (财神独立结算)")

REGION = Region(
    id="wenzhou",
    name="温州麻将",
    title="Wenzhou",
    section="RULES.md §19",
    attribution="named [000:87]",
    tiles=Given(SET_136, research("§3.3", "136 tiles")),
    players=DEFAULT_PLAYERS,
    hand_size=Given(16, research("§3.3", "16-tile hands (5 melds + pair)")),
    stacks_per_side=Given((17, 17, 17, 17), research("§1.1", "17 stacks a side for 136")),
    dealing=Given(DealPattern(16), default("4 rounds of 4, then the dealer's 17th tile")),
    dice=Given(SecondRollerPicksStart("both"), research("§3.3", "two rolls (dealer → side; that player → stack; break = sum) [P]")),
    indicators=Given((IndicatorRule(
        kind="caishen", timing=Timing.AFTER_DEAL, position=TailTop(),
        derivation=Derivation("same"), effect=Effect.WILD, public=True, stays_in_play=False, stand_in=Tile.WHITE,
        notes=("财神 may not be used to 吃, 碰 or 杠 (RESEARCH.md §3.3)",)),),
        text("§19", "温州麻将主要加入了财神（财神可当任何牌）")),
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True), default("not stated; 吃, 碰 and 杠 with natural tiles (财神 may not be used to claim, RESEARCH.md §3.3)")),
    flowers=NO_FLOWERS,
    phases=Derived(lambda o: (KONG_GIVER,) + ((SETTLE_EVERY_SEAT,) if o["caishen_settlement"] == "all_sides" else ()),
                   research("§3.3", "kong: 点杠 1, 暗杠 2, 加杠 0; 财神独立结算: each player's 财神 count n pays out as 4n − total"),
                   ("caishen_settlement",)),
    win=Given(WinRules(Shapes(eight_pairs_plus_single=True)), research("§3.3", "16-tile hands (5 melds + pair); special hand 八对+单张")),
    scoring=Given(WenzhouScorer(), research("§3.3", "软和 ×1 / 硬和 ×2 / 双番 ×4; 连庄 ×2×(repeats+1); kong: 点杠 1, 暗杠 2, 加杠 0; 财神独立结算")),
    options=(DEAD_WALL.option, CAISHEN_SETTLEMENT),
    notes=(
        "How the 财神 is found is not stated in the text: flipped at the tail and left there (RESEARCH.md §3.3), "
        "the flipped kind is 财神 and 白板 plays its natural face (白板 = 财神本牌).",
        "Shapes: 5 melds + a pair, or 八对+单张 (RESEARCH.md §3.3); 三财神 as a win whatever the shape is not modelled "
        "(the evaluator has no such shape); holding three 财神 makes a complete hand 双番.",
        "Scoring is research-sourced (RESEARCH.md §3.3): 软和 ×1 / 硬和 ×2 / 双番 ×4 (双番 read as 八对+单张 or three 财神), "
        "dealer ×2×(连庄+1), kongs 点杠 1 / 暗杠 2 / 加杠 0 from each other player, 财神独立结算 (N·n − T). The base "
        "win (1) and who pays a discard win (the discarder) are not stated.",
        "Kong money at the table: every side's kongs of the hand, 点杠 or 加杠 as the maker answered when asked who gave "
        "the tile, a long 杠 press an 暗杠; paid with the win (a 荒庄 pays nothing).",
        "财神独立结算 at the table (house option caishen_settlement=all_sides, the default): the win pays the "
        "winner's 财神; then every other seat lays its hand (请亮牌结算) and the round settles the 财神 each holds, "
        "so the two together pay N·n − T to every side. A seat that lays nothing counts none. With winner_only "
        "the other hands are not laid and count none.",
    ),
)
