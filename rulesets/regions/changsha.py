"""长沙麻将 (湖南) — RULES.md §12 (named line + two attributed blocks).

108 suited tiles; one roll: the sum picks the wall, the smaller die the starting stack; 二五八 将;
扎鸟 after a win; 起手小和 (opening small wins) right after the deal; 通炮者坐庄.
"""

from typing import Callable

from .. import reading_bounds as bounds
from .. import requirements as req
from ..definition import HouseOption, Play, Region
from ..dice import SumWallSmallerDieStart
from ..indicators import AfterWinFlips, Derivation, Effect, IndicatorRule, Timing
from ..provenance import Derived, Given, analyst, choice, default, open_question, research, text
from ..hand import Hand, MeldKind, WinContext
from ..rotation import RotationRule
from ..scoring.changsha import ChangshaScorer, is_quanqiuren, is_quanqiuren_of
from ..scoring.hand_types import full_flush, is_seven_pairs
from ..tilesets import SET_108
from ..walls import End
from ..winning import PAIRS_258, Evaluator, Shapes
from ..winrules import Judged, Requirement, WinRules, of_hand
from .common import (DEFAULT_DEAL, DEFAULT_HAND_SIZE, DEFAULT_PLAYERS, NO_FLOWERS, TAIL_REPLACEMENT, YIPAO_DEALER,
                     dead_wall, phase, with_yipao_dealer)

VARIANT = HouseOption(
    "variant", "玩法 (variant)",
    (("258", "二五八: a 2/5/8 pair (将) is required; 吃 allowed"), ("zhuanzhuan", "转转麻将: any pair; 碰 only, no 吃")),
    "258", open_question("§12.6", "「麻将内无东南西北中白板发其打法分为：二五八与转转麻将」; 二五八 is the named 长沙 rule (「二五八做掌门」)"),
    value_labels=(("258", "二五八将"), ("zhuanzhuan", "转转麻将")))

BIRDS = HouseOption(
    "birds", "扎鸟 (birds)",
    tuple((str(n), f"{n} bird tile(s) after a win" if n else "no birds") for n in (0, 1, 2, 4, 6)),
    "2", research("§3.11", "after a win draw N birds (1/2/4/6) from the wall front; 扎鸟 is named but its count is not"),
    value_labels=tuple((str(n), f"扎{n}鸟" if n else "不扎鸟") for n in (0, 1, 2, 4, 6)))

DEALER_AFTER = HouseOption(
    "tongpao_dealer", "通炮 庄家 (dealer)",
    (("discarder_on_multi", "(a) 通炮 = one discard, several winners: after it the discarder deals; "
                            "otherwise the winner deals (庄家 winning keeps the deal)"),
     ("discarder", "(b) 通炮者 = whoever deals in: after any win on a discard the discarder deals, "
                   "whoever won (the dealer too); only after a self-draw does the winner deal"),
     ("winner", "neither reading: the winner deals, on several winners the one nearest the discarder — "
                "「其次和家坐庄」 alone, without 「通炮者坐庄」 (kept so a table that saved it keeps its setting)")),
    "discarder_on_multi", open_question("§12.5", "「首局后，通炮者坐庄其次和家坐庄」 reads (a) or (b); (a) by default: "
                                                 "the same block names 「通炮」 beside 「漏和」 as a feature of its own "
                                                 "(「扎鸟、通炮、补张、漏和、飘、相公」, §12.8: multi-ron), so 通炮 is one "
                                                 "discard making several winners"),
    value_labels=(("discarder_on_multi", "通炮时点炮者"), ("discarder", "点炮者坐庄"), ("winner", "胡家坐庄")))

QINGYISE_JIANG = HouseOption(
    "qingyise_jiang", "清一色 将 (pair of a 清一色)",
    (("258", "a 清一色 needs a 2/5/8 pair (「清一色：同花色的二五八作将」, block A)"),
     ("any", "a 清一色 is a 大和 like the others and needs no 2/5/8 pair (block B)")),
    "258", open_question("§12.6", "block A states the 2/5/8 pair for 清一色 in both variants; block B only lists 清一色 among the 大和"),
    value_labels=(("258", "须二五八将"), ("any", "任意将")))

BIRD_MODE = HouseOption(
    "bird_mode", "中鸟 (a bird hit)",
    (("add", "each bird on the winner or on a payer adds 1 分 to that payment"),
     ("double", "each bird on the winner or on a payer doubles that payment (翻倍)")),
    "add", research("§3.11", "「A bird hit adds points for winner and loser (or ×2 in 翻倍 mode)」; the text names 扎鸟 only"),
    value_labels=(("add", "加分"), ("double", "翻倍")))


QUANQIUREN = HouseOption(
    "quanqiuren", "全求人",
    (("any", "four melds claimed and the single tile's pair, however the last tile came: the text pairs 全求人 "
             "with 杠上花 and 海底捞月, which are self-drawn (「杠上花+…全求人」, 「全求人+…海底捞月或杠上花」)"),
     ("discard", "the same, won on a discard only (the last tile from another player, as the name says): a "
                 "self-drawn hand of four claimed melds is a plain 小和 and needs its 2/5/8 pair")),
    "any", open_question("§12.6", "the text names 全求人 without saying how it is won; its 超大和 and 最大和 lists pair it "
                                  "with 杠上花 and 海底捞月, both self-drawn, which a discard-only 全求人 could never make"),
    value_labels=(("any", "自摸也算"), ("discard", "只算点炮")))

def jiang_258(qingyise: str, quanqiuren: str) -> Callable[[Judged], bool]:
    """「二五八做掌门」: the pair is a 2, 5 or 8 — for a 小和.  七小对, 碰碰和, 将将和 and 全求人 (as house option
    quanqiuren counts it) take any pair; a 清一色 per house option; 杠上花, 抢杠和 and 海底捞月 are a 小和 hand
    「计大和」 and keep it."""
    def check(j: Judged) -> bool:
        if is_seven_pairs(j):
            return True
        if full_flush(j):
            return qingyise == "any" or req.pair_is_258(j)
        return req.pair_is_258(j) or req.all_pungs(j) or is_quanqiuren(j, quanqiuren)
    return check


def jiang_258_hopeless(qingyise: str, quanqiuren: str) -> Callable[[Hand, WinContext, Evaluator], bool]:
    """`jiang_258` met by no reading: no 全求人, no 2/5/8 pair (nor seven pairs, which the pair's
    bound keeps), no 清一色 where one takes any pair, and no 碰碰和 (reading_bounds.py)."""
    def hopeless(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
        if is_quanqiuren_of(hand, context, quanqiuren) or not bounds.no_pair_of(hand, evaluator, PAIRS_258):
            return False        # (most hands that are legal have their 2/5/8 pair: asked first)
        free = bounds.free_kinds(evaluator)
        if qingyise == "any" and not bounds.no_one_suit(bounds.fixed_tiles(hand, free), False):
            return False
        return bounds.no_all_pungs(hand, free)    # (seven pairs: `no_pair_of` keeps that shape)
    return hopeless


def qingyise_258(j: Judged) -> bool:
    """转转: 「清一色：同花色的二五八作将」 — the other hands take any pair."""
    return not full_flush(j) or is_seven_pairs(j) or req.pair_is_258(j)


@of_hand
def no_chow_claimed(hand: Hand, context: WinContext) -> bool:
    """转转: 「只能“碰”不能“吃”，三张相连的牌要摸（但除胡牌）」 — no declared chow."""
    return not any(m.kind is MeldKind.CHOW for m in hand.melds)


def changsha_win(options) -> WinRules:
    shapes = Shapes(seven_pairs=True)
    if options["variant"] == "258":
        return WinRules(shapes, (Requirement("jiang_258", "二五八做掌门", text("§12.6", "二五八做掌门; 小胡：各花色的二五八作将然后收集完三张相连的牌，或三张相同的牌即可胡牌"),
                                             jiang_258(options["qingyise_jiang"], options["quanqiuren"]),
                                             hopeless=jiang_258_hopeless(options["qingyise_jiang"], options["quanqiuren"]),
                                             witnessed=bounds.pair_258_witnessed),))
    requirements = [Requirement("no_chi", "只能碰不能吃", text("§12.6", "小胡：所有的对牌都可作将但只能“碰”不能“吃”，三张相连的牌要摸（但除胡牌）"),
                                no_chow_claimed)]
    if options["qingyise_jiang"] == "258":
        requirements.append(Requirement("qingyise_258", "清一色二五八作将", text("§12.6", "清一色：同花色的二五八作将，然后收集完三张同花色相连的牌或三张相同的牌，即可胡牌"),
                                        qingyise_258))
    return WinRules(shapes, tuple(requirements))


def _birds(options) -> tuple[IndicatorRule, ...]:
    count = int(options["birds"])
    if not count:
        return ()
    return (IndicatorRule(kind="niao", timing=Timing.AFTER_WIN, position=AfterWinFlips(count, End.HEAD, last_when_out=True),
                          derivation=Derivation("none"), effect=Effect.SEAT_PICK,
                          notes=("a bird's number counted from the winner as 1 (1/5/9 = the winner) picks a seat (RESEARCH.md §3.11)",
                                 "no tile left to flip (a win on the wall's last tile): the last tile is the bird "
                                 "(RESEARCH.md §3.11 「if 海底 is exhausted, the bird = the last tile」)")),)


DEAD_WALL = dead_wall("not stated (§12.4)")

REGION = Region(
    id="changsha",
    name="长沙麻将",
    title="Changsha (湖南)",
    section="RULES.md §12",
    attribution="named [000:103]; blocks A [000:379-391] and B [000:27-49] attributed by the analyst",
    tiles=Given(SET_108, analyst("§12.1", "去掉东南西北风、发财、白板和红中 → 108")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((14, 13, 14, 13), research("§1.1", "for 108 it is 13.5 stacks per side: 14+13+14+13")),
    dealing=DEFAULT_DEAL,
    dice=Given(SumWallSmallerDieStart(), text("§12.2", "以骰点的和作为开始抓牌的牌墙以最小的点数作为起始敦数。比如4点加5点为“九自手”从自己门前牌墙开始抓牌，但是从第4敦开始")),
    indicators=Derived(_birds, text("§12.3", "扎鸟 (named only; no procedure)"), ("birds",)),
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=with_yipao_dealer(choice("tongpao_dealer", {
        "discarder_on_multi": Given(RotationRule("keep", "winner", "keep", "discarder"),
                                    text("§12.5", "首局后，通炮者坐庄其次和家坐庄")),
        "discarder": Given(RotationRule("keep", "winner", "keep", "discarder", discarder_deals=True),
                           text("§12.5", "首局后，通炮者坐庄其次和家坐庄")),
        "winner": Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                        default("not a reading of §12.5: 「其次和家坐庄」 without 「通炮者坐庄」 — the winner deals, on "
                                "several winners the one nearest the discarder; kept for saved settings")),
    })),
    play=Derived(lambda o: Play(chi=o["variant"] == "258", multiple_winners=True),
                 text("§12.6–12.8", "转转麻将…只能“碰”不能“吃”; 通炮 (several winners)"), ("variant",)),
    flowers=NO_FLOWERS,
    phases=Derived(lambda o: (phase("opening_small_wins", "right after the deal: 四喜, 无将和, 缺一色, 六顺 may be declared (§12.6)"),)
                   + ((phase("after_win_flip", "扎鸟: bird tiles are flipped from the front after a win"),) if int(o["birds"]) else ()),
                   text("§12.6", "小和：四喜（开局摸到四张一样的牌型）、无将和（开局没有摸到2.5.8这三种牌型）、缺一色…、六顺…"), ("birds",)),
    win=Derived(changsha_win, text("§12.6", "二五八做掌门; 大胡：七巧对：收集完七张对牌即可胡牌"), ("variant", "qingyise_jiang", "quanqiuren")),
    scoring=Given(ChangshaScorer(), text("§12.6", "大和（“含小和”－表示牌型可以为小和牌型，但计大和）")),
    options=(VARIANT, QINGYISE_JIANG, QUANQIUREN, BIRDS, BIRD_MODE, DEALER_AFTER, DEAD_WALL.option, YIPAO_DEALER),
    unpriced=(
        '小和, 大和, 超大和, 最大和 (and 起手小和, a 小和) — the classes are ranked, not valued: 1, 2, 4, 8 分',
        '扎鸟 — named, without a count or a value: house options birds (2) and bird_mode (a hit adds 1)',
    ),
    notes=(
        "The smaller die numbers the first stack drawn (「从第4敦开始」): 4+5 starts at the 4th stack of the own wall.",
        "Counting stacks on the wall goes from its right end, as every other text (§0.1).",
        "A 荒庄 keeps the dealer: not stated.",
        "First dealer 「首局时，先入座者为庄」 (§12.5): the table cannot tell who sat down first; side 0 deals the "
        "session's first hand, so the first seated takes side 0.",
        "通炮者坐庄 (§12.5) has two readings, option tongpao_dealer: (a) the discarder deals after one discard made "
        "several winners, the winner otherwise (default); (b) whoever deals in deals next, the winner only after a "
        "self-draw. Value winner is neither (the winner always deals) and stays only so a saved setting is valid.",
        "Shapes: the standard hand and 七小对/豪华七对 (a four of a kind is two pairs).",
        "二五八: a 小和 needs a 2/5/8 pair; 七小对, 碰碰和, 将将和 and 全求人 (as option quanqiuren counts it: by default "
        "self-drawn too, so that 全求人+杠上花 and 全求人+海底捞月, which the text lists, can be made) take any pair; 杠上花/抢杠和/海底捞月 "
        "are a 小和 hand counted as 大和 (「含小和」) and keep the 2/5/8 pair; 清一色 per option qingyise_jiang. "
        "转转: any pair, no 吃, and 清一色 with a 2/5/8 pair as block A says (literal, though stricter than its 小胡).",
        "Classes have no values in the text or RESEARCH.md: 小和 1, 大和 2, 超大和 4, 最大和 8 分 (each twice the one below), "
        "paid by the discarder or each other side on a self-draw; 全求人 alone is a 小和 (the text lists it only in pairs).",
        "扎鸟 (RESEARCH.md §3.11): birds in context.flipped, counted from the winner (1/5/9 = the winner); "
        "a hit adds 1 分 or doubles (bird_mode). 起手小和 are settled by rulesets.scoring.changsha.settle_opening.",
    ),
)
