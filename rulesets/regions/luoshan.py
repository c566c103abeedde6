"""螺山 “打来干、自摸干” 麻将 (浙江杭州萧山衙前镇螺山村) — RULES.md §31, the richest scoring text.

财神 = the successor of the tile after the deal (all 4 copies); no dead wall by default (荒和 when
every tile is drawn; house option dead_wall); the winner deals next.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Play, Region
from ..dice import SumPicksWallSkipSum
from ..indicators import Derivation, Effect, IndicatorRule, NextHeadTile, Timing
from ..provenance import Derived, Given, analyst, choice, open_question, text
from ..rotation import RotationRule
from ..scoring.luoshan import READING_KEYS, LuoshanScorer, Readings, threshold_check, threshold_hopeless, threshold_met
from ..tilesets import SET_136
from ..walls import End
from ..winrules import Requirement, WinRules
from .common import DEFAULT_DEAL, NO_FLOWERS, dead_wall, first_dealer_option, four_players, phase

FIRST_DEALER = first_dealer_option(text("§31.2", "第一盘由任意一家掷骰子，由这一家开始逆时针数掷出的骰子点数和即为庄家"))

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


DEAD_WALL = dead_wall("not stated (§31.4): 荒和 is 「抓完所有牌仍没有一家和牌」, no tile kept back")


def _caishen(options) -> tuple[IndicatorRule, ...]:
    return (IndicatorRule(
        kind="caishen", timing=Timing.AFTER_DEAL, position=NextHeadTile(),
        derivation=Derivation("successor", SEPARATE_HONOURS), effect=Effect.WILD, public=True,
        stays_in_play=options["caishen_tile"] == "stays",
        notes=("财神 wins as any tile; in play one 财神 may replace one dragon or own seat wind in a 花碰 (§31.3)",)),)


# -- the open questions of §31.8 on the 和数 (rulesets/scoring/luoshan.py `Readings`) ---------------

ROUNDING = HouseOption(
    "rounding", "取整十数 (rounding up to ten)",
    (("after", "(a) round up the product: ceil10((基本和数 + 底和) × 2^台)"),
     ("before", "(c) round up 基本和数 + 底和 (平和: 30) first, then × 2^台")),
    "after", open_question("§31.8", "F1: 「基本和数加底和再乘以2的总台数次方（取整十数）」 closes the whole formula with the "
                                    "rounding, and 「算出的和数」 is the result; neither 122 → 130 nor 240 tells (a) from (c). "
                                    "(b) 基本和数 + 底和 × 2^台 is not offered: 「加…再乘以」 multiplies the sum, and under (b) "
                                    "平和 30 could not make 清三台平和 240"),
    value_labels=(("after", "乘后取整"), ("before", "先取整再乘")))

PINGHU_THRESHOLD = HouseOption(
    "pinghu_threshold", "平和门槛 (平和 and the 100/200 threshold)",
    (("applies", "a 平和 needs 100 self-drawn, 200 on a discard, like any hand: 30 × 2^台, so only 清三台平和 (240) wins"),
     ("exempt", "a 平和 wins whatever its 和数 (30, or 60 with 凑一台)")),
    "applies", open_question("§31.8", "F2: 「平和…算30胡」 is below both thresholds of 「和牌条件，自摸100和及以上或放冲200和及以上」 "
                                      "and nothing says 平和 is excepted; the 和牌条件 is read as it stands"),
    value_labels=(("applies", "平和也要够和"), ("exempt", "平和不限和数")))

ZIMO_ANKE = HouseOption(
    "zimo_anke", "自摸六/自摸十 (which 暗刻)",
    (("win_tile", "only the 暗刻 the self-drawn winning tile completes is 6 (2-8) / 10 (1, 9, honours), others 4/8"),
     ("every", "on a self-drawn win every concealed pung is 6 / 10 instead of 4 / 8")),
    "win_tile", open_question("§31.8", "F3: 「自摸和牌时的特殊算法：数字为二到八的牌，暗刻6和」 does not say which 暗刻; the rule "
                                       "goes on with 吊头 and 边张/嵌张, which are the winning tile's, so the winning tile's 暗刻"),
    value_labels=(("win_tile", "和牌成的暗刻"), ("every", "所有暗刻")))

CHONG_KE = HouseOption(
    "chong_ke", "放冲成刻 (a pung completed by the discard won on)",
    (("peng", "counts as a 碰: 2 (2-8) / 4 (1, 9, honours)"),
     ("anke", "counts as a 暗刻: 4 / 8 (「在手里的为暗刻」)")),
    "peng", open_question("§31.8", "F3: the 放冲 rule 「吊头…；其余4和；边张、嵌张2和」 names no pung; its third tile is another "
                                   "player's, as in a 碰, so a 碰"),
    value_labels=(("peng", "算碰"), ("anke", "算暗刻")))

DUIDUI_TAI = HouseOption(
    "duidui_tai", "对对胡 (台)",
    (("1", "对对胡 is 1 台 on its own (清四台 = 清三台 3 + 1)"),
     ("0", "对对胡 earns no 台 but with 清三台, as 清四台 (4 台)")),
    "1", open_question("§31.8", "F4: the 台 list is lost but for 「大料及座风碰、暗刻、杠各计一台」; 「清四台：同时符合上述12和14所述的」 "
                                "is 清三台 and one more, read as 对对胡's own 台"),
    value_labels=(("1", "对对胡一台"), ("0", "仅清四台")))


ZIMO_KE_VALUE = HouseOption(
    "zimo_ke_value", "自摸六十算法 (自摸六/自摸十: in place of or added to the 暗刻)",
    (("replace", "自摸六 6 / 自摸十 10 is the 暗刻's whole value, in place of 4 / 8"),
     ("add", "自摸六 / 自摸十 is added to the 暗刻's 4 / 8: 4 + 6 = 10 (2-8), 8 + 10 = 18 (1, 9, honours)")),
    "replace", open_question("§31.8", "F3: 「自摸和牌时的特殊算法：数字为二到八的牌，暗刻6和，称为“自摸六”…风牌、大料及数字为一九的牌，"
                                      "暗刻10和，称为“自摸十”」 does not say replace or add; 「暗刻6和」 is worded as the 暗刻's "
                                      "value, like 「暗刻4和」 of the table, so it replaces it"),
    value_labels=(("replace", "代替暗刻和"), ("add", "加在暗刻上")))

DIAOTOU_PAIR = HouseOption(
    "diaotou_pair", "吊头与对子 (吊头 on a 大料/座风 pair)",
    (("add", "the 吊头 value (自摸 6, 放冲 4) is added to the pair's 对子 2"),
     ("replace", "the 吊头 value is the pair's whole value: its 对子 2 is not counted")),
    "add", open_question("§31.8", "F3: 「大料及座风对子2和」 and 「吊头…」 are items of one list closed by 「以上和数相加即为基本和数」; "
                                  "nothing says the 吊头 takes the 对子's place, so both are added"),
    value_labels=(("add", "对子加吊头"), ("replace", "吊头不加对子")))

CHONG_QIYU = HouseOption(
    "chong_qiyu", "放冲其余4和 (放冲: which winning tiles are 「其余」)",
    (("diaotou", "only a 吊头 on 1, 9 or an honour is 4; a 两面 or 双碰 winning tile adds nothing"),
     ("any", "every winning tile that is neither a 2-8 吊头 nor 边张/嵌张 is 4: a 1/9/honour 吊头, "
             "a 两面 wait, a tile completing a pung (双碰)")),
    "diaotou", open_question("§31.8", "F3: 「放冲和牌时的特殊算法：吊头二到八的牌，2和；其余4和；边张、嵌张2和」: 「其余」 follows "
                                      "「吊头二到八的牌」 as the 自摸 rule's 「风牌、大料及数字为一九的牌…吊头6和」 follows its 2-8 "
                                      "吊头, so the rest of the 吊头; read as every other winning tile, a 两面 would be "
                                      "4 on a discard and nothing self-drawn"),
    value_labels=(("diaotou", "幺九字吊头4和"), ("any", "其余和牌皆4和")))


def _win(options) -> WinRules:
    readings = Readings.of(options)
    exempt = readings.pinghu_threshold == "exempt"       # the 和数 alone then does not decide: by_key None
    return WinRules(requirements=(Requirement(
        "threshold", "自摸100和 / 放冲200和" + ("; 平和不限" if exempt else ""), text("§31.6", "和牌条件，自摸100和及以上或放冲200和及以上"),
        threshold_check(readings), by_key=None if exempt else threshold_met, hopeless=threshold_hopeless(readings)),))


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
    reserve=DEAD_WALL.choice,
    replacement=Given(End.TAIL, text("§31.4", "杠牌时，从牌墙的末端依次抓牌")),
    rotation=Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                   text("§31.2", "从第二盘开始和牌者为庄家。荒和，则由前一盘庄家继续当庄家")),
    play=Given(Play(chi=True, multiple_winners=False),
               text("§31.5", "吃：上家打出的牌可以与自己的牌组合成顺子; 每盘牌只有一个和家，即不存在一炮多响")),
    flowers=NO_FLOWERS,
    phases=Given((phase("hua_peng", "花碰: one 财神 may stand for a dragon or one's own seat wind in a pong (§31.3)"),),
                 text("§31.3", "用一张财神替代一张大料或座风的碰称为花碰")),
    win=Derived(_win, text("§31.6", "和牌条件，自摸100和及以上或放冲200和及以上"), READING_KEYS),
    scoring=Derived(lambda options: LuoshanScorer(readings=Readings.of(options)),
                    text("§31.7", "和牌和数等于基本和数加底和再乘以2的总台数次方（取整十数）"), READING_KEYS),
    options=(BREAK_START, INDICATOR_TILE, DEAD_WALL.option, ROUNDING, PINGHU_THRESHOLD, ZIMO_ANKE, ZIMO_KE_VALUE, CHONG_KE,
             CHONG_QIYU, DIAOTOU_PAIR, DUIDUI_TAI, FIRST_DEALER),
    notes=("First dealer: any player rolls, the sum counted 逆时针 from the roller picking the dealer (§31.2): the "
           "table asks side 0 to roll at the session's first hand (house option first_dealer).",
           "抢杠当自摸 (§31.5, [000:237] 「和数按自摸算」): a win on the tile of a robbed 补杠 is valued as a self-draw, "
           "the 100 threshold included.",
           "The five 和牌类型 of §31.6 are lost; any standard hand is allowed and 平和 is read as the all-chow hand.",
           "F1 (rounding): after (default) rounds the product up to ten, ceil10((基本和数 + 10) × 2^台); before "
           "rounds 基本和数 + 10 up first and doubles that, so 52 和 with 1 台 is 130 after ((52 + 10) × 2 = 124 → 130), 140 before (62 → 70, × 2). "
           "(b) 基本和数 + 10 × 2^台 is not offered: 「加底和再乘以」 multiplies the sum, and 240 = 30 × 2^3.",
           "F2 (pinghu_threshold): applies (default): 平和 (30 × 2^台) meets the 100/200 thresholds like any hand, so only "
           "清三台平和 (240) can be won, on a discard or self-drawn; exempt: any 平和 wins, 30 or 60 (凑一台) included.",
           "F3 (zimo_anke): win_tile (default): only the 暗刻 the self-drawn winning tile completes is 自摸六 6 / 自摸十 10, "
           "the others 4 / 8; every: on a self-draw (抢杠 included) every concealed pung is 6 / 10.",
           "F3 (chong_ke): peng (default): a pung completed by the discard won on is a 碰, 2 / 4; anke: a 暗刻, 4 / 8.",
           "F3 (zimo_ke_value): replace (default): 自摸六 6 / 自摸十 10 stand in place of the 暗刻's 4 / 8 (「暗刻6和」 "
           "states the 暗刻's value); add: 4 + 6 = 10 / 8 + 10 = 18.",
           "F3 (chong_qiyu): diaotou (default): 「其余4和」 is a 吊头 on 1, 9 or an honour (the 自摸 rule's pattern); any: "
           "every winning tile but a 2-8 吊头 and 边张/嵌张 is 4 on a discard, 两面 and 双碰 included (平和 stays 30).",
           "F3 (diaotou_pair): add (default): a 吊头 on a 大料/座风 pair adds its value to the 对子 2 (「以上和数相加」); "
           "replace: the 吊头 value is the pair's whole value. 边张/嵌张 values always add to the rest.",
           "F4 (duidui_tai): 1 (default): 对对胡 is 1 台, so 对对胡 + 清三台 = 清四台 = 4; 0: 对对胡 earns its 台 only as "
           "清四台's fourth. Not offered: 台 for 杠开 (§31.6 16) and 抢杠 — the text defines them but their values are lost; "
           "any number would be invented.",
           "F5, not offered: a meld holding a 财神 (花碰 included) is valued as the tiles it stands for, for 和数, 台, "
           "凑一台 and 清三台 alike (「财神…在和牌时能替代任何牌」); the text says nothing else to offer."),
)
