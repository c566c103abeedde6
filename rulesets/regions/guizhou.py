"""贵州麻将 (抓鸡) — RULES.md §13: 四川麻将 plus 鸡 paying tiles.

After a win the next undrawn tile is flipped; the next number in its suit is the 鸡 (「下一号」);
1条 is always a 鸡 (英雄鸡).  With 打明鸡 (option ming_ji) a tile turned up after the deal makes a 鸡
too, paid wherever 鸡 are paid.  Play follows 四川 (§14): no 吃, several winners.
"""

from ..cycles import SUITS_NO_WRAP, SUITS_WRAP
from ..definition import HouseOption, Play, Region
from ..indicators import AfterWinFlips, CountFromTail, Derivation, Effect, IndicatorRule, StackFromOriginalTail, Timing
from ..provenance import Derived, Given, analyst, default, open_question, research, text
from ..scoring.guizhou import GuizhouScorer
from ..tiles import Tile
from ..tilesets import SET_108
from ..walls import End
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAYERS, DEFAULT_ROTATION, NO_FLOWERS,
                     TAIL_REPLACEMENT, YIPAO_DEALER, dead_wall, phase, with_yipao_dealer)
from .sichuan import SHAPES as SICHUAN_SHAPES, misses_a_suit, no_suit_missed, suit_missed

JI_WRAP = HouseOption(
    "ji_wrap", "翻到9 (after a 9)",
    (("wrap", "after a 9 comes the 1 of the suit"), ("none", "a flipped 9 makes no 鸡")),
    "wrap", open_question("§13.3", "The wrap (9 → 1) is not stated for 鸡; every successor rule the texts state wraps (§26, §27, §31)"),
    value_labels=(("wrap", "9后算1"), ("none", "9不算鸡")))

JI_TRIGGER = HouseOption(
    "ji_trigger", "翻鸡 (when)",
    (("any_win", "after any win (「和牌后翻开下一张未摸得牌」)"), ("self_draw", "after a self-drawn win only (「自抠（自摸）后翻一张牌」)")),
    "any_win", open_question("§13.3", "和牌后 [000:51] vs 自抠（自摸）后 [000:53]"),
    value_labels=(("any_win", "胡牌后翻"), ("self_draw", "自摸后翻")))

JI_WHEN_OUT = HouseOption(
    "ji_when_out", "翻鸡 at the wall's end",
    (("none", "a win on the wall's last tile flips nothing (「翻开下一张未摸得牌」: none is left): 1条 alone is a 鸡"),
     ("last", "a win on the wall's last tile flips that tile (the last taken), as 长沙's bird is then the last tile")),
    "none", default("not stated (§13.2, §13.3): with no dead wall (dead_wall=none) a win on the last tile leaves no "
                    "「下一张未摸得牌」 to flip; the text read as it stands flips none, so only 英雄鸡 (1条) counts; 长沙 "
                    "(RESEARCH.md §3.11) flips the last tile when the wall has run out"),
    value_labels=(("none", "不翻"), ("last", "翻海底牌")))

MING_JI = HouseOption(
    "ming_ji", "打明鸡 (open chicken)",
    (("off", "no 明鸡"),
     ("on", "after the deal the 3rd stack's top is turned up; its next number is a 鸡, paid with the win and in the "
            "settlement round as the after-win flip's are; what a kong does is option ming_ji_kong")),
    "off", open_question("§13.2", "打明鸡 起牌后三墩翻起 — a variant; where the 3rd stack is counted from and which layer "
                                  "are not stated (from the tail, its top tile here)"),
    value_labels=(("off", "不打"), ("on", "打明鸡")))

MING_JI_KONG = HouseOption(
    "ming_ji_kong", "杠翻明鸡 (明鸡 on a kong)",
    (("add", "after each kong's replacement the next stack's top is turned up too (the 4th stack from the wall's "
             "original tail, then the 5th, …): every 明鸡 turned up counts (§13.3 a2)"),
     ("move", "after each kong's replacement the 明鸡 moves to the next stack (the 4th from the wall's original tail, "
              "then the 5th, …): only the latest counts (§13.3 a1)"),
     ("none", "a kong turns up nothing (「有杠牌就要翻第四墩」 not applied)")),
    "add", open_question("§13.3", "「而且有杠牌 就要翻第四墩～以此类推」 [000:55]: each kong moves the 明鸡 one stack further "
                                  "(a1) or turns up the next stack too (a2); 「就要翻第四墩」 turns up a 4th and never says the "
                                  "3rd is turned back, and 「而且」 adds to the 明鸡, so a2 by default; only with ming_ji=on"),
    value_labels=(("add", "杠后加翻"), ("move", "杠后移鸡"), ("none", "杠不翻")))

JI_COLLECT = HouseOption(
    "ji_collect", "谁收鸡 (who collects 鸡)",
    (("ready", "the winner and the ready sides (有叫) collect; the others' 鸡 count nothing"),
     ("all", "every side collects for its 鸡 (「有3条就有钱」)")),
    "ready", open_question("§13.3", "who pays whom for 鸡 is not stated; RESEARCH.md §3.9: usually only players who are 听 at hand end collect"),
    value_labels=(("ready", "胡家和有叫"), ("all", "各家都收")))

JI_COUNT = HouseOption(
    "ji_count", "算鸡 (which 鸡 count)",
    (("held", "every 鸡 held, in the hand or in melds (「有3条就有钱」, 「抓到一条就有钱」)"),
     ("melded", "only 鸡 in a 碰 or 杠 (「有人碰（杠）了3万的话算钱」)")),
    "held", open_question("§13.3", "the texts conflict; two of the three sentences count any held 鸡"),
    value_labels=(("held", "手中和副露"), ("melded", "只算碰杠")))

FIRST_YAOJI = HouseOption(
    "chongfeng_ji", "冲锋鸡 责任鸡 (asked at the table)",
    (("asked", "in the settlement round the winner is asked who discarded the first 1条 and who 碰/杠'd it: "
               "冲锋鸡 and 责任鸡 are paid"),
     ("off", "neither is asked nor paid")),
    "asked", default("RULES.md §13 names neither; RESEARCH.md §3.9 finds both in the published 贵州 rules, so the "
                     "table pays them unless a house plays without (the answers take the winner two questions)"),
    value_labels=(("asked", "结算时问"), ("off", "不算")))

QUE_YI_MEN = Requirement("que_yi_men", "必须缺一门 (四川)",
                         text("§13.1, §14", "贵州麻将类似于四川麻将，在四川麻将的基础上添加抓鸡模式; 必须缺一门"), misses_a_suit,
                         hopeless=no_suit_missed, assured=suit_missed)


def _chickens(options) -> tuple[IndicatorRule, ...]:
    cycle = SUITS_WRAP if options["ji_wrap"] == "wrap" else SUITS_NO_WRAP
    derivation = Derivation("successor", cycle, extra=(Tile.S1,))
    flip = AfterWinFlips(1, End.HEAD, last_when_out=options["ji_when_out"] == "last")
    rules = [IndicatorRule(kind="ji", timing=Timing.AFTER_WIN, position=flip,
                           derivation=derivation, effect=Effect.PAYING,
                           only_self_drawn=options["ji_trigger"] == "self_draw",
                           notes=(f"flipped after {'any win' if options['ji_trigger'] == 'any_win' else 'a self-drawn win'}",
                                  "英雄鸡: 1条 is always a 鸡"))]
    if options["ming_ji"] == "on":
        on_kong = "" if options["ming_ji_kong"] == "none" else options["ming_ji_kong"]
        kong_note = {
            "add": "有杠牌就要翻第四墩～以此类推 (ming_ji_kong=add, §13.3 a2): after each kong's replacement the top of "
                   "the next stack is turned up too — the (3 + kongs so far)-th stack from the wall's original tail "
                   "end — and every 明鸡 turned up counts",
            "move": "有杠牌就要翻第四墩～以此类推 (ming_ji_kong=move, §13.3 a1): after each kong's replacement the 明鸡 "
                    "moves to the top of the (3 + kongs so far)-th stack from the wall's original tail end; only the "
                    "latest counts",
            "none": "有杠牌就要翻第四墩～以此类推 is not applied (ming_ji_kong=none): a kong turns up no further 明鸡",
        }[options["ming_ji_kong"]]
        rules.append(IndicatorRule(kind="ji", timing=Timing.AFTER_DEAL, position=CountFromTail(fixed=3),
                                   derivation=derivation, effect=Effect.PAYING,
                                   on_kong=on_kong, kong_position=StackFromOriginalTail(3) if on_kong else None,
                                   notes=("明鸡: turned up once the deal is complete; its 鸡 are paid with the win and in the "
                                          "settlement round, as the after-win flip's",
                                          kong_note)))
    return tuple(rules)


DEAD_WALL = dead_wall("not stated (§13)")

REGION = Region(
    id="guizhou",
    name="贵州麻将",
    title="Guizhou (抓鸡)",
    section="RULES.md §13",
    attribution="named [000:51]",
    tiles=Given(SET_108, analyst("§13.1", "牌型：1-9万 1-9筒 1-9条 → 108")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((14, 13, 14, 13), research("§1.1", "for 108 it is 13.5 stacks per side: 14+13+14+13")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=Derived(_chickens, text("§13.2", "即和牌后翻开下一张未摸得牌，如翻开的是2万，即3万是鸡牌; "
                                                "打明鸡 起牌后三墩翻起～如翻2条，3条就是鸡; 英雄鸡 一条每次都是鸡"),
                       ("ji_wrap", "ji_trigger", "ji_when_out", "ming_ji", "ming_ji_kong")),
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=with_yipao_dealer(DEFAULT_ROTATION),
    play=Given(Play(chi=False, multiple_winners=True), text("§13.1, §14", "贵州麻将类似于四川麻将 — 四川: 不可以吃、一炮多响")),
    flowers=NO_FLOWERS,
    phases=Given((phase("after_win_flip", "翻鸡: the next undrawn tile is flipped after the win"),
                  phase("settle_every_seat", "after a win every other seat lays its hand: the 鸡 it holds are paid "
                                             "(collecting seats per ji_collect; 有叫 judged from the laid hand)"),
                  phase("chongfeng_ji", "in the settlement round the winner is asked who discarded the hand's first 1条 "
                                       "and who 碰/杠'd it (冲锋鸡, 责任鸡): the table sees no discards")),
                 text("§13.2", "和牌后翻开下一张未摸得牌; 如果有人碰（杠）了3万的话算钱，和牌的人可能赔钱，被胡的人可能赢钱; 有3条就有钱")),
    win=Given(WinRules(SICHUAN_SHAPES, (QUE_YI_MEN,)), text("§13.1", "贵州麻将类似于四川麻将，在四川麻将的基础上添加抓鸡模式")),
    scoring=Given(GuizhouScorer(), text("§13.2", "如果有人碰（杠）了3万的话算钱，和牌的人可能赔钱，被胡的人可能赢钱; 有3条就有钱")),
    options=(JI_WRAP, JI_TRIGGER, JI_WHEN_OUT, MING_JI, MING_JI_KONG, JI_COLLECT, JI_COUNT, FIRST_YAOJI, DEAD_WALL.option,
             YIPAO_DEALER, *DEFAULT_BREAK.options),
    unpriced=(
        "鸡 — 「如果有人碰（杠）了3万的话算钱，和牌的人可能赔钱，被胡的人可能赢钱」, 「有3条就有钱」: neither the amount nor who pays is stated: each collecting seat gets 1 a 鸡 tile from each other side (RESEARCH.md §3.9), 金鸡 ×2; the winner's with the win, every other seat's in the settlement round",
    ),
    notes=(
        "The hand ends at the first win (the 鸡 flip follows it); 四川's 血战到底 is not carried over.",
        "Win rules and the hand's value are 四川's (§14): 缺一门, 七对; RESEARCH.md §3.12's values, ×2 per kong, the discarder alone pays.",
        "鸡 (RESEARCH.md §3.9): 1 a tile from each other side, 金鸡 ×2, 冲锋鸡 and 责任鸡 3 (from extra chongfeng_ji / zeren_ji); "
        "the other sides' concealed tiles count when the controller gives them (extra concealed_by_side).",
        "At the table the win pays the winner's 鸡; after it every other seat lays its hand (the settlement round) and "
        "each collecting seat's 鸡 are paid once: with ji_collect=ready a seat collects when its laid hand is 有叫 "
        "(some tile would complete it legally); a hand not shown collects nothing.",
        "冲锋鸡 and 责任鸡 (RESEARCH.md §3.9) need the discards, which the table does not see: in the settlement round the "
        "winner is asked 首张幺鸡:<未打出|本家|下家|对家|上家> (who discarded the hand's first 1条) and, if someone did, "
        "幺鸡碰杠:<无|…|被胡> (who 碰'd or 杠'd it). Unclaimed it is 冲锋鸡, paid with the round's 鸡 when its discarder "
        "collects (the winner, or a collecting seat); claimed it is 责任鸡, the discarder paying the claimer. A first "
        "1条 won on (被胡) is neither: RESEARCH.md names only a 碰 or 杠 for 责任鸡, and 冲锋鸡 is one no one claimed. "
        "House option chongfeng_ji=off asks and pays neither.",
        "打明鸡 (ming_ji=on): the 明鸡 turned up after the deal makes a 鸡 as the after-win flip does (「有3条就有钱」): "
        "counted in the win's 鸡 and in the settlement round's; a 明鸡 that makes 1条 the 鸡 is a 金鸡.",
        "「而且有杠牌 就要翻第四墩～以此类推」 (ming_ji=on, option ming_ji_kong): after each kong, once its replacement is "
        "taken from the tail, the top of the next stack is turned up: the 4th stack counted from the wall's original "
        "tail end after the first kong, the 5th after the second, … — counted over the wall as built, since the "
        "replacements take the tail's tiles (a replacement never reaches that stack: the k-th kong's stack is 3 + k "
        "back, the k replacements take less than k/2 + 1 stacks).  With add (§13.3 a2, the default: 「就要翻第四墩」 "
        "never turns the 3rd back) every 明鸡 turned up counts; with move (a1) only the latest; with none a kong turns up "
        "nothing.  A 明鸡 turned up stays in play (a later replacement, or the head at the end of the wall, may take it); "
        "if the head has already drawn that stack's top, the kong turns up nothing and the 明鸡 before it stand (a1: the "
        "latest stays).  A 抢杠 (its replacement never taken) turns up nothing; a 杠上开花 counts the 明鸡 its kong turned up.",
        "A drawn hand (荒庄) pays nothing, 鸡 included: the text pays 鸡 with a win (「和牌后翻开下一张未摸得牌」), and "
        "四川's 查叫 has no values; no seat lays its hand.",
    ),
)
