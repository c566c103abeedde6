"""四川麻将 / 成都麻将 (血战到底) — RULES.md §14.

108 suited tiles, no 吃, a void suit (缺门) to win, several winners, 血战到底 (play goes on after a
win), and within the last four tiles a possible win must be taken.
"""

from .. import reading_bounds as bounds
from ..definition import HouseOption, Play, Region
from ..provenance import Amended, Derived, Given, analyst, choice, default, open_question, research, text
from ..rotation import RotationRule
from ..scoring.sichuan import SichuanScorer
from ..tilesets import SET_108
from ..hand import Hand, WinContext
from ..tiles import Tile
from ..winning import Evaluator, Shapes
from ..winrules import Judged, Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, NO_FLOWERS, NO_INDICATORS,
                     TAIL_REPLACEMENT, YIPAO_DEALER, dead_wall, four_players, phase, with_yipao_dealer)

QUE_MEN = HouseOption(
    "que_men", "缺一门 (a void suit to win)",
    (("required", "a winning hand lacks one of 万, 筒, 条 (「必须缺门可和」)"),
     ("not_required", "no void suit needed (「部分地区除外，如南充」)")),
    "required", open_question("§14 (1)", "「缺门可胡」 vs 「必须缺门可和」: the 成都 sentence 「必须缺一门」 makes it mandatory; 南充 is the stated exception"),
    value_labels=(("required", "须缺一门"), ("not_required", "不须缺门")))

GEN = HouseOption(
    "gen", "根 (four of a kind)",
    (("kongs", "only kongs add a 番 (「和牌时有杠加番一杠为一番」)"),
     ("four_of_a_kind", "every four of a kind in the hand adds a 番, kong or not (根, RESEARCH.md §3.12)")),
    "kongs", open_question("§14", "the text prices kongs only; 根 held without a kong (龙七对) is RESEARCH.md §3.12's 「×(1 + 根)」"),
    value_labels=(("kongs", "只算杠"), ("four_of_a_kind", "四张都算")))


def first_win_dealer(section: str) -> HouseOption:
    """Who deals after a 血战/血流 hand (§14, §15: not stated).  Only the hand's first win counts: the
    wins made after it, as play goes on, do not pass or keep the deal (`rulesets.rotation`)."""
    return HouseOption(
        "first_win_dealer", "首胡 庄家 (next dealer)",
        (("dealer_rule", "庄家胡连庄, 闲家胡下庄, by the hand's first win: the dealer keeps if he won first, else "
                         "his 下家 deals; a first 一炮多响: the winner nearest the discarder decides; 荒庄 keeps"),
         ("first_winner", "the first winner deals next (首先和牌者坐庄); a first 一炮多响: the discarder deals; "
                          "荒庄 keeps")),
        "first_winner",
        open_question(section, "who deals next is not stated; the default is what 血战 players expect, 首先和牌者坐庄 "
                               "(the common custom: outside knowledge, not in the texts or RESEARCH.md; 云南 §29.5 "
                               "states the same 「以后每盘首先和牌的人为下一盘的庄家」); the other reading is the table's "
                               "rule where a text is silent (庄家胡连庄, 闲家胡下庄 as 长春 §1.5 and file 001 §7.5 "
                               "state), judged by the first win"),
        value_labels=(("dealer_rule", "庄胡连庄"), ("first_winner", "首胡者坐庄")))


def first_win_rotation(section: str) -> Amended:
    """The rotation of a 血战/血流 card: option `first_win_dealer`, then the opening block's 一炮多响 rule."""
    return with_yipao_dealer(choice("first_win_dealer", {
        "dealer_rule": Given(RotationRule("keep", "next", "keep", "nearest_winner"), default(
            f"not stated ({section}); 庄家胡连庄, 闲家胡下庄, 荒庄庄家不变 as 长春 (§1.5) and file 001 (§7.5) state, "
            "decided by the hand's first win (one seat, or the seats of one discard); the later wins of the hand "
            "that plays on do not count")),
        "first_winner": Given(RotationRule("keep", "winner", "keep", "discarder"), default(
            f"not stated ({section}); the common 血战 custom [outside knowledge]: the first to win deals next, "
            "after a first 一炮多响 the discarder; 荒庄 keeps the dealer. Only 云南 states a first-winner rule "
            "(§29.5 「以后每盘首先和牌的人为下一盘的庄家」)")),
    }))


FIRST_WIN_DEALER = first_win_dealer("§14")


def misses_a_suit(j: Judged) -> bool:
    """缺一门: the declared void suit (定缺, `context.extra["void_suit"]` = "m", "p" or "s") is absent,
    or, with none declared, at least one of 万, 筒, 条 is."""
    return _misses_among(j.standing, j.context)


def _misses_among(tiles: tuple[Tile, ...], context: WinContext) -> bool:
    """`misses_a_suit` over these tiles (a reading's, or the ones every reading shows as they are)."""
    void = context.get("void_suit")
    if void:
        return all(t.suit != void for t in tiles)
    return len({t.suit for t in tiles if t.is_suited}) < 3


def no_suit_missed(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """No reading misses the suit (`Requirement.hopeless`): the tiles every reading shows as they are
    hold the void suit or all three already (a wild can only add a suit)."""
    return not _misses_among(bounds.fixed_tiles(hand, bounds.free_kinds(evaluator)), context)


def suit_missed(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """Every reading misses the suit (`Requirement.assured`): no tile that may stand for another is
    held (四川 and 贵州 have none: every reading shows the tiles as they are) and the tiles miss it."""
    free = bounds.free_kinds(evaluator)
    return not bounds.free_count(hand, free) and _misses_among(bounds.fixed_tiles(hand, free), context)


# the bounds: a hand's suits are known from its tiles, so the players' question needs no reading
QUE_YI_MEN = Requirement("que_yi_men", "必须缺一门", text("§14", "必须缺门可和; 必须缺一门"), misses_a_suit,
                         hopeless=no_suit_missed, assured=suit_missed)

SHAPES = Shapes(seven_pairs=True)
"""七对 (a four of a kind as two pairs: 龙七对) besides the standard hand: RESEARCH.md §3.12's table prices it."""


def sichuan_win(options) -> WinRules:
    return WinRules(SHAPES, (QUE_YI_MEN,) if options["que_men"] == "required" else ())


DEAD_WALL = dead_wall("not stated (§14)")

REGION = Region(
    id="sichuan",
    name="四川麻将",
    title="Sichuan / Chengdu (血战到底)",
    section="RULES.md §14",
    attribution="named [000:65-71]",
    tiles=Given(SET_108, analyst("§14", "麻将牌只有筒、条、万三门 → 108")),
    players=four_players(text("§14", "血战到底…一家和牌后…其它玩家就必须继续游戏 — several players go on")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((14, 13, 14, 13), research("§1.1", "for 108 it is 13.5 stacks per side: 14+13+14+13")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=first_win_rotation("§14"),
    play=Given(Play(chi=False, multiple_winners=True, after_win="xuezhan", last_tiles_forced_win=4),
               text("§14", "素麻将、不可以吃、必须缺门可和…、最后四张自动和、一炮多响、刮风下雨; 成都麻将又叫血战到底")),
    flowers=NO_FLOWERS,
    phases=Given((phase("choose_void_suit", "定缺: each player keeps one suit void to win (§14)"),
                  phase("continue_after_win", "血战到底: after a win the others play on (§14)")),
                 text("§14", "玩法是必须缺一门一家和牌后，若桌子上还有规定数量的牌其它玩家就必须继续游戏直到结束")),
    win=Derived(sichuan_win, text("§14", "必须缺门可和（部分地区除外，如南充）"), ("que_men",)),
    scoring=Given(SichuanScorer(), text("§14", "缺门可胡；点炮时点炮的一个人负责；和牌时有杠加番一杠为一番")),
    options=(QUE_MEN, GEN, DEAD_WALL.option, FIRST_WIN_DEALER, YIPAO_DEALER, *DEFAULT_BREAK.options),
    unpriced=(
        '刮风下雨 — named, without values: kongs are paid only through the 番; 查叫 (RESEARCH.md §3.12, not in the text) is not paid: nothing is paid at a draw',
    ),
    notes=(
        "「规定数量的牌」 (how many tiles must remain for play to continue) is not stated: play goes on while live tiles remain.",
        "「最后四张」 counts the last four live tiles (after any reserve).",
        "Who deals next is not stated: option first_win_dealer, by the hand's first win only (the wins made as "
        "play goes on do not count) — the first winner deals (default; the discarder after a first 一炮多响) or "
        "庄家胡连庄/闲家胡下庄; 一炮多响 means several winners of that first discard.",
        "Shapes: the standard hand and 七对 (RESEARCH.md §3.12 prices 七对 and 清七对); a four of a kind counts as two pairs.",
        "缺一门 is judged on the declared void suit when the controller gives it (定缺, extra void_suit), else on the tiles.",
        "Hand values are RESEARCH.md §3.12's table, read as a lookup (the largest named hand); each kong doubles "
        "(番 = ×2); the discarder alone pays; on a self-draw the sides still in the hand pay (extra finished = sides out).",
        "刮风下雨 has no values in the text: kong money is not paid apart from the 番. 查叫 (players without 听 pay at a "
        "draw) is named by RESEARCH.md §3.12, not the text, and without values: nothing is paid at a draw.",
    ),
)
