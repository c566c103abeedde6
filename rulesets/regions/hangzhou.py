"""杭州麻将 — RULES.md §9: one sentence (爆头, 财飘, 杠开; 136 tiles).

The text implies a 财神 (财飘) without saying how it is found.  Current published rules (MIL 杭州,
RESEARCH.md §3.4) make 白板 the fixed 财神, allow self-draw wins only, and end the hand when 20
tiles remain; older apps flip an indicator instead (a house option).
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Play, Region
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, NoPosition, Timing
from ..provenance import Given, choice, default, research, text
from ..requirements import self_drawn
from ..reserve import FixedTiles
from ..scoring.hangzhou import HangzhouScorer
from ..tiles import Tile
from ..tilesets import SET_136
from ..winning import Shapes
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAYERS, DEFAULT_ROTATION, NO_FLOWERS,
                     TAIL_REPLACEMENT, phase, walls_for)

CAISHEN = HouseOption(
    "caishen", "财神 (wild)",
    (("white", "白板 is the fixed 财神 (no flip)"),
     ("flip", "the tile after the deal is flipped; its successor is 财神")),
    "white", research("§3.4", "MIL 杭州 2025: 白板 is the fixed 财神; older apps flip one"),
    value_labels=(("white", "白板作财神"), ("flip", "翻牌定财神")))

ZIMO = Requirement("zimo", "只能自摸", research("§3.4", "杭州 (MIL 2025): Self-draw only"), self_drawn)

SAN_CHI = HouseOption(
    "san_chi", "三吃承包 (asked at the table)",
    (("asked", "a winner whose laid hand shows three claimed melds or more is asked which side fed them; that side "
               "pays for everyone"),
     ("off", "nothing is asked; every loser pays his own share")),
    "asked", default("RULES.md §9 does not name it; RESEARCH.md §3.4 lists 三吃承包 among 杭州's rules, so the table "
                     "asks unless a house plays without"),
    value_labels=(("asked", "三吃时问"), ("off", "不承包")))

REGION = Region(
    id="hangzhou",
    name="杭州麻将",
    title="Hangzhou",
    section="RULES.md §9",
    attribution="named [000:17]",
    tiles=Given(SET_136, text("§9", "共一百三十六张：筒、索、万、东、南、西、北风、中、发、白")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=choice("caishen", {
        "white": Given((IndicatorRule(kind="caishen", timing=Timing.FIXED, position=NoPosition(),
                                      derivation=Derivation("fixed", fixed=Tile.WHITE), effect=Effect.WILD),),
                       research("§3.4", "白板 is the fixed 财神 (no flip)")),
        "flip": Given((IndicatorRule(kind="caishen", timing=Timing.AFTER_DEAL, position=NextHeadTile(),
                                     derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD),),
                      default("older 杭州 apps flip a 财神 (RESEARCH.md §3.4); flipped and derived as 螺山's 财神 (§31.3), its neighbour in 杭州")),
    }),
    reserve=Given(FixedTiles(20), research("§3.4", "流局 when 20 tiles remain at the tail")),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True, discard_win=False), research("§3.4", "Self-draw only; 三吃承包 (so 吃 is allowed)")),
    flowers=NO_FLOWERS,
    phases=Given((phase("cai_piao", "a 爆头 win asks its winner how many 财飘 he made (财神 discarded waiting on "
                                    "爆头): the table sees no discards"),
                  phase("san_chi", "a win whose laid hand shows three claimed melds or more asks its winner which "
                                   "side fed them (三吃承包): the table sees no claims")),
                 research("§3.4", "爆头, 财飘 … 三吃承包 (财飘: a 财神 discarded while waiting on 爆头)")),
    win=Given(WinRules(Shapes(seven_pairs=True), (ZIMO,)), research("§3.4", "self-draw only; 七对 and 豪华七对 are hands")),
    scoring=Given(HangzhouScorer(), research("§3.4", "爆头, 财飘, 杠开, 无财神, 七对, 豪华七对; 4 番封顶; 老庄 ×2/×4/×8; 三吃承包")),
    options=(CAISHEN, SAN_CHI, *DEFAULT_BREAK.options),
    notes=("爆头, 财飘, 杠开 are named only (§9); the rules of play and the list of 番 are RESEARCH.md §3.4's.",
           "The 番 each item is worth is our default (not in RESEARCH.md): 爆头 1, each 财飘 +1 (with 爆头), 杠开 1, 无财神 1, "
           "七对 1, 豪华七对 2; each 番 doubles and 4番 is the cap (×16); 老庄 ×2/×4/×8 is applied outside the cap.",
           "爆头 = the winning tile completes a pair holding a 财神. 十风 and 反承包 are not scored; 三吃承包 via the "
           "context extra 'chengbao'.",
           "At the table the winner of a 爆头 is asked how many 财飘 he made (财飘:<无|一飘|二飘|三飘>): the table sees "
           "no discards, so it takes his word, as it does for who gave a kong.",
           "三吃承包 (RESEARCH.md §3.4 names it, no more): read as one side having fed the winner three claimed melds "
           "(吃, 碰 or 明杠). The table sees no claims: a winner whose laid hand shows three claimed melds or more is "
           "asked 三吃承包:<无|下家|对家|上家> (extra chengbao); with fewer it cannot be, and nothing is asked. House "
           "option san_chi=off asks nothing."),
)
