"""河北麻将 — RULES.md §17 (with the attributed 混儿 block).

No 吃, self-draw wins only, a 混儿 wild.  The 混儿 rule 「中下滚，7张」 is ambiguous; the default reads
it as the flipped kind's 3 other copies plus all 4 of the next kind (7 wilds), as 天津/河北 practice
does (RESEARCH.md §3.6), with the flipped tile set aside so exactly 7 remain.
"""

from ..cycles import SEPARATE_HONOURS
from ..definition import HouseOption, Play, Region
from ..indicators import CountFromTail, Derivation, Effect, IndicatorRule, Timing
from ..provenance import Derived, Given, choice, default, open_question, research, text
from ..requirements import self_drawn
from ..reserve import NoReserve, StacksPlusKongs
from ..scoring.hebei import HebeiScorer
from ..tiles import Tile
from ..tilesets import SET_136
from ..winrules import Requirement, WinRules
from .common import DEFAULT_BREAK, DEFAULT_DEAL, DEFAULT_ROTATION, NO_FLOWERS, NO_PHASES, TAIL_REPLACEMENT, four_players, walls_for

HUN_READING = HouseOption(
    "hun_reading", "混儿 读法 (reading of 中下滚)",
    (("kind_and_next", "(a) the flipped kind's other 3 copies and the next kind's 4 are 混儿 (3+4 = 7)"),
     ("red_and_kind", "(b) the 4 红中 and the flipped kind's other 3 copies are 混儿 (4+3 = 7)")),
    "kind_and_next", open_question("§17", "「中下滚，7张」 gives no procedure; reading (a) is what 天津/河北 practice does (RESEARCH.md §3.6: 混 = indicator + next)"),
    value_labels=(("kind_and_next", "翻牌与下一种"), ("red_and_kind", "红中与翻牌")))

DEAD_WALL = HouseOption(
    "dead_wall", "留牌 (dead wall)",
    (("6_plus_kongs", "keep 6 + kongs stacks (RESEARCH.md §3.6)"), ("none", "draw to the last tile")),
    "6_plus_kongs", research("§3.6", "河北/秦皇岛: end of wall depends on kongs; one variant keeps 6 + 杠数 墩"),
    value_labels=(("6_plus_kongs", "留6墩加杠数"), ("none", "不留")))

BASE_POINTS = HouseOption(
    "base_points", "基点 (stake)",
    (("1", "基点 1"), ("2", "基点 2"), ("3", "基点 3")),
    "1", open_question("§17", "「基点为1、2、3」: read as the three stakes a table may play for; the meaning is not stated"),
    value_labels=(("1", "1分"), ("2", "2分"), ("3", "3分")))

ZHUOWU = HouseOption(
    "zhuowu", "捉伍儿 (which 5)",
    (("any", "the 5 of any suit caught between its 4 and 6"), ("wan", "only 五万 (天津's 捉五魁)")),
    "any", open_question("§17", "「“捉伍儿”⑶」 names no suit; any suit is the literal reading"),
    value_labels=(("any", "任意五"), ("wan", "只算五万")))

FAN_COMBINE = HouseOption(
    "fan_combine", "番种叠加 (added or multiplied)",
    (("add", "the 番 are added (没混儿 2 + 捉伍儿 3 = 5); 本混儿龙 doubles the sum (龙 4 + 杠开 2, ×2 = 12); a plain "
             "win is 1; the hand × 基点"),
     ("multiply", "the 番 are multiplied (没混儿 2 × 捉伍儿 3 = 6); 本混儿龙 is one more factor ×2 (龙 4 × 杠开 2 × 2 "
                  "= 16); a plain win is 1 and a hand of one 番 is worth it, as when added; the 基点 multiplies the "
                  "hand as when added (基点 2: 没混儿 2 × 捉伍儿 3 × 2 = 12)")),
    "add", open_question("§17", "「有“混儿吊”⑵，”没混儿“⑵，“捉伍儿”⑶，“龙“⑷，”杠开“⑵，”本混儿龙\"(×2）几个番种并由这些"
                                "叠加而来。」 — 叠加 (stacked) does not say added or multiplied; only 本混儿龙 is written "
                                "「×2」, so the plain numbers are read as added"),
    value_labels=(("add", "番相加"), ("multiply", "番相乘")))

ZIMO = Requirement("zimo", "只能自摸", text("§17", "河北麻将规则，可碰不可吃，只能自摸，有混儿"), self_drawn)


def _hun(options) -> tuple[IndicatorRule, ...]:
    if options["hun_reading"] == "kind_and_next":
        derivation = Derivation("same_and_next", SEPARATE_HONOURS)
    else:
        derivation = Derivation("same", extra=(Tile.RED,))
    return (IndicatorRule(
        kind="hun", timing=Timing.AFTER_DEAL, position=CountFromTail(unit="stacks"),
        derivation=derivation, effect=Effect.WILD, public=True, stays_in_play=False, position_dice=2,
        notes=("the flipped tile is set aside face up, so 7 混儿 remain in play (「7张」)",)),)


REGION = Region(
    id="hebei",
    name="河北麻将",
    title="Hebei",
    section="RULES.md §17",
    attribution="named [000:81]; the 混儿 block [000:89-91] is attributed by the analyst (uncertain)",
    tiles=Given(SET_136, research("§3.6", "136 tiles; 17 叠 per side (QQ 河北麻将 rule text)")),
    players=four_players(default("not stated; 4 players with 136 tiles")),
    hand_size=Given(13, text("§17", "此规则对应的是两摞牌，十四张起胡 — 14 to win, 13 in hand")),
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), research("§3.6", "17 叠 per side")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=Derived(_hun, text("§17", "有混儿（中下滚，7张）相当于限制性听用或财神"), ("hun_reading",)),
    reserve=choice("dead_wall", {
        "6_plus_kongs": Given(StacksPlusKongs(6), research("§3.6", "留 6 + 杠数 墩")),
        "none": Given(NoReserve(), default("the table plays to the last tile")),
    }),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=False, discard_win=False), text("§17", "河北麻将规则，可碰不可吃，只能自摸，有混儿")),
    flowers=Given(NO_FLOWERS.value, text("§17", "无补花")),
    phases=NO_PHASES,
    win=Given(WinRules(requirements=(ZIMO,)), text("§17", "河北麻将规则，可碰不可吃，只能自摸，有混儿")),
    scoring=Derived(lambda o: HebeiScorer(o["fan_combine"]),
                    text("§17", "有“混儿吊”⑵，”没混儿“⑵，“捉伍儿”⑶，“龙“⑷，”杠开“⑵，”本混儿龙\"(×2）几个番种并由这些叠加而来。"),
                    ("fan_combine",)),
    options=(HUN_READING, DEAD_WALL, BASE_POINTS, ZHUOWU, FAN_COMBINE, *DEFAULT_BREAK.options),
    notes=(
        "Where the 混儿 indicator lies is not stated: counted by two dice in stacks from the tail, as the "
        "天津/河北 practice of RESEARCH.md §3.6 takes it from the tail by dice.",
        "「限制性听用」: the restrictions are not stated; none are applied.",
        "The note 「（注：此规则对应的是两摞牌，十四张起胡，可以碰数次的最一般玩法，无补花，基点为1、2、3）」 [000:83] follows the "
        "河北 line and is read as 河北's (two-layer wall, 13 in hand, no flowers, 基点 1/2/3); RULES.md §17 notes it may "
        "belong to the 17-tile block below it instead.",
        "留 6 + 杠数 墩 with the 混儿 set aside: the 混儿 is taken from the wall's middle, not its tail end, so 12 + 2·kongs "
        "tiles stay at 荒庄 (+1 for an odd number of kongs); a 混儿 from inside the last six stacks leaves a half stack "
        "there, and the table still keeps six 墩's worth of tiles (12): whether a half stack is a 墩 is not stated.",
        "番 are added (「叠加」; only 本混儿龙 is written 「×2」, and it doubles the sum) or, with house option "
        "fan_combine=multiply, multiplied (本混儿龙 one more ×2); a plain win is 1; the hand is multiplied by the 基点 "
        "(house option 1/2/3). Each other player pays (self-draw only).",
        "混儿吊: the winning tile completed a pair holding a 混儿; 没混儿: no 混儿 in the hand; 捉伍儿: the winning tile is "
        "the 5 of a 4-5-6; 龙: 123 456 789 of one suit; 本混儿龙: a 龙 whose 混儿 play only their own face.",
    ),
)
