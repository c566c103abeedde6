"""海南麻将 — RULES.md §23: 番 is a prerequisite for winning, not a multiplier; seat flowers.

Flowers exist (春夏秋冬梅兰竹菊 are named), so the set is 144; flowers are set aside and replaced from
the tail (「补来的牌和牌算花砸」 implies replacement tiles).
"""

from ..definition import HouseOption, Play, Region
from ..provenance import Derived, Given, analyst, open_question, research, text
from ..scoring.hainan import HainanScorer, has_fan_or_self_drawn, ready_wins_by_self_draw
from ..tilesets import SET_144
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_ROTATION, NO_INDICATORS, NO_PHASES,
                     TAIL_REPLACEMENT, dead_wall, flowers_from_tail, four_players)

MINGDA = HouseOption(
    "mingda", "明打 (a discard win after 报听)",
    (("forbidden", "item 4: a player who declared 听 wins only by self-draw; 明打 never happens"),
     ("allowed", "明打 is a discard win after 报听: the discarder pays 8, 16 with the dealer")),
    "forbidden", open_question("§23.2", "「报听明摸放炮不能和牌，必须自摸」 forbids it; 「明打1人8番，庄上16番」 prices it — the rule wins over the price"),
    value_labels=(("forbidden", "不许明打"), ("allowed", "可明打")))

TUIDAO_PAYMENT = HouseOption(
    "tuidao_payment", "推倒胡 谁付 (who pays)",
    (("discarder", "(a) on a discard the discarder pays 1; on a self-draw each other player pays 1"),
     ("everyone", "(b) everyone pays 1 (「1全部人1番」)")),
    "discarder", open_question("§23.2", "「推倒胡，放炮即1全部人1番」 lost its punctuation; (a) keeps 放炮 a one-payer event, as 明打 is"),
    value_labels=(("discarder", "点炮者付"), ("everyone", "各家都付")))

PUNG_FAN = HouseOption(
    "pung_fan", "碰杠 番 (which pungs give 番)",
    (("any", "items 2 and 4 count every pung or kong, a concealed one too (item 6 calls any three alike 「碰的牌」)"),
     ("declared", "items 2 and 4 count a claimed 碰 or a kong only, 明杠 or 暗杠 (「碰或杠（包括明杠暗杠）」)")),
    "any", open_question("§23.1", "「2：碰或杠（包括明杠暗杠）中发白」 names 碰 and 杠; 「6：碰碰和，即四组碰的牌或杠的牌（即三张一样的或四张一样的牌）」 "
                                  "calls any three alike 碰的牌"),
    value_labels=(("any", "暗刻也算"), ("declared", "只算碰杠")))


def fan_requirement(pung_fan: str) -> Requirement:
    return Requirement("fan", "番是和牌的前提（无番靠自摸）",
                       text("§23.1", "在海南麻将中番是指和牌的前提，而不是倍数; 10：最伤人的就是自摸了，所谓“无番靠自摸”"),
                       has_fan_or_self_drawn(pung_fan),
                       assured=lambda hand, context, evaluator: context.self_drawn)     # (any hand, then)
BAOTING_ZIMO = Requirement("baoting_zimo", "报听必须自摸", text("§23.2", "4、报听明摸放炮不能和牌，必须自摸"),
                           ready_wins_by_self_draw)


def hainan_win(options) -> WinRules:
    return WinRules(requirements=(fan_requirement(options["pung_fan"]),)
                    + ((BAOTING_ZIMO,) if options["mingda"] == "forbidden" else ()))


DEAD_WALL = dead_wall("not stated (§23)")

REGION = Region(
    id="hainan",
    name="海南麻将",
    title="Hainan",
    section="RULES.md §23",
    attribution="named [000:105]; the scoring fragment [000:121-127] is attributed by adjacency (uncertain)",
    tiles=Given(SET_144, analyst("§23.1", "flowers 春夏秋冬梅兰竹菊 exist: a 144-tile set is likely; count not stated")),
    players=four_players(text("§23.1", "庄家摸春或梅，庄家下家摸夏或兰，庄家对家摸秋或菊，庄家上家摸冬或竹")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=True, ready_declaration="optional"),
               text("§23.1–23.2", "门前清，即没有任何碰，吃或杠; 报听明摸放炮不能和牌，必须自摸")),
    flowers=flowers_from_tail(text("§23.2", "花子只算加番，不能替牌，补来的牌和牌算花砸但不算番")),
    phases=NO_PHASES,
    win=Derived(hainan_win, text("§23.1", "在海南麻将中番是指和牌的前提，而不是倍数"), ("mingda", "pung_fan")),
    scoring=Given(HainanScorer(), text("§23.2", "2、推倒胡，放炮即1全部人1番; 4、报听明摸放炮不能和牌，必须自摸，明摸1人4番，庄上8番; 5、明打1人8番，庄上16番")),
    options=(DEAD_WALL.option, MINGDA, TUIDAO_PAYMENT, PUNG_FAN, *DEFAULT_BREAK.options),
    notes=(
        "Where flower replacements come from is not stated: the tail, as file 001 states (§7.4).",
        "The prevailing wind (「令」) and how it changes are not stated.",
        "番 conditions (each one 番; items 7-9 are lost): a 2/5/8 pair; each pung/kong of 中发白; each own seat flower "
        "(dealer 春/梅, 下家 夏/兰, 对家 秋/菊, 上家 冬/竹, as written); each pung/kong of the prevailing or own seat wind; "
        "门前清 (no 碰, 吃 or 杠, a 暗杠 included); 碰碰和. A win needs one, or a self-draw (无番靠自摸).",
        "番 only admit a win; the payment is the fragment's (§23.2, attribution uncertain): 推倒胡 1, 明摸 4 each "
        "(8 with the dealer), 明打 8 (16 with the dealer) when the 明打 option allows it.",
        "Other flowers than one's own seat flowers give no 番 (item 3 names the seat flowers only).",
    ),
)
