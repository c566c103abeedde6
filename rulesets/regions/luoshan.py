"""螺山 “打来干、自摸干” 麻将 (浙江杭州萧山衙前镇螺山村) — RULES.md §31, the richest scoring text.

财神 = the successor of the tile after the deal (all 4 copies); no dead wall (荒和 when every tile
is drawn); the winner deals next.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Play, Region
from ..dice import SumPicksWallSkipSum
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, Timing
from ..provenance import Derived, Given, analyst, choice, open_question, text
from ..reserve import NoReserve
from ..rotation import RotationRule
from ..scoring.luoshan import LuoshanScorer, meets_threshold, threshold_met
from ..tilesets import SET_136
from ..walls import End
from ..winrules import Requirement, WinRules
from .common import DEFAULT_DEAL, NO_FLOWERS, four_players, phase

BREAK_START = HouseOption(
    "break_start", "开牌 (break)",
    (("skip", "skip the sum in stacks"), ("at", "start at the stack numbered by the sum")),
    "skip", open_question("§31.2", "「数出骰子总点数的墩数，开始拿牌」: skip vs start is not stated; skip, as 上海 §4.2 states"),
    value_labels=(("skip", "跳过点数墩"), ("at", "从点数墩起")))

INDICATOR_TILE = HouseOption(
    "caishen_tile", "翻牌 (the flipped tile)",
    (("stays", "stays face up in the wall and is drawn in turn"), ("set_aside", "is set aside")),
    "stays", open_question("§31.8", "what happens to the flipped indicator tile: not stated; nothing says it leaves the wall"),
    value_labels=(("stays", "留在墙中"), ("set_aside", "取出")))


def _caishen(options) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(
        kind="caishen", timing=Timing.AFTER_DEAL, position=NextHeadTile(),
        derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD, public=True,
        stays_in_play=options["caishen_tile"] == "stays",
        notes=("财神 wins as any tile; in play one 财神 may replace one dragon or own seat wind in a 花碰 (§31.3)",)),)


THRESHOLD = Requirement("threshold", "自摸100和 / 放冲200和", text("§31.6", "和牌条件，自摸100和及以上或放冲200和及以上"),
                        meets_threshold, by_key=threshold_met)

REGION = Region(
    id="luoshan",
    name="螺山麻将",
    title="Luoshan (萧山 衙前)",
    section="RULES.md §31",
    attribution="named [000:207]",
    tiles=Given(SET_136, text("§31.1", "总牌数136张…无春夏秋冬梅兰菊竹")),
    players=four_players(text("§31.1", "首轮抓牌数：庄家14张，余三家13张")),
    hand_size=Given(13, text("§31.1", "庄家14张，余三家13张")),
    stacks_per_side=Given((17, 17, 17, 17), analyst("§35", "136 tiles, 17 stacks a side")),
    dealing=Given(DEFAULT_DEAL.value, text("§31.3", "各家拿完跳牌 — the deal ends with the 跳牌")),
    dice=choice("break_start", {
        "skip": Given(SumPicksWallSkipSum(0), text("§31.2", "庄家掷出骰子后，从庄家开始逆时针数掷出的骰子总点数，即从那家按顺时针方向数出骰子总点数的墩数，开始拿牌")),
        "at": Given(SumPicksWallSkipSum(-1), text("§31.2", "…数出骰子总点数的墩数，开始拿牌 (read as: start at that stack)")),
    }),
    indicators=Derived(_caishen, text("§31.3", "各家拿完跳牌的下一张牌为确定财神之牌，财神为所翻之牌点加一，共4张。如翻一万，则财神为二万；翻九万，则财神为一万…若翻风牌，则按“东南西北东”的顺序确定，若翻大料牌，则按“中发白中”的顺序确定"),
                       ("caishen_tile",)),
    reserve=Given(NoReserve(), analyst("§31.4", "荒和：抓完所有牌仍没有一家和牌 — no reserve")),
    replacement=Given(End.TAIL, text("§31.4", "杠牌时，从牌墙的末端依次抓牌")),
    rotation=Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                   text("§31.2", "从第二盘开始和牌者为庄家。荒和，则由前一盘庄家继续当庄家")),
    play=Given(Play(chi=True, multiple_winners=False),
               text("§31.5", "吃：上家打出的牌可以与自己的牌组合成顺子; 每盘牌只有一个和家，即不存在一炮多响")),
    flowers=NO_FLOWERS,
    phases=Given((phase("hua_peng", "花碰: one 财神 may stand for a dragon or one's own seat wind in a pong (§31.3)"),),
                 text("§31.3", "用一张财神替代一张大料或座风的碰称为花碰")),
    win=Given(WinRules(requirements=(THRESHOLD,)), text("§31.6", "和牌条件，自摸100和及以上或放冲200和及以上")),
    scoring=Given(LuoshanScorer(), text("§31.7", "和牌和数等于基本和数加底和再乘以2的总台数次方（取整十数）")),
    options=(BREAK_START, INDICATOR_TILE),
    notes=("First dealer: the text has any player roll, the sum counted 逆时针 from the roller picking the dealer "
           "(§31.2); the table starts a session with side 0 dealing, so the players roll for it as they take "
           "their seats.",
           "抢杠当自摸 (§31.5, [000:237] 「和数按自摸算」): a win on the tile of a robbed 补杠 is valued as a self-draw, "
           "the 100 threshold included.",
           "The five 和牌类型 of §31.6 are lost; any standard hand is allowed and 平和 is read as the all-chow hand.",
           "F2: 平和 (30) is not exempt from the 100/200 thresholds: it needs 2 台 to be won by self-draw, 3 on a discard.",
           "F3-F5 (the 自摸/放冲 values, the 台 list, 财神 in melds) are read as rulesets/scoring/luoshan.py says."),
)
