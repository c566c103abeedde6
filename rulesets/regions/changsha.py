"""长沙麻将 (湖南) — RULES.md §12 (named line + two attributed blocks).

108 suited tiles; one roll: the sum picks the wall, the smaller die the starting stack; 二五八 将;
扎鸟 after a win; 起手小和 (opening small wins) right after the deal; 通炮者坐庄.
"""

from ..definition import HouseOption, Play, Region
from ..dice import SumWallSmallerDieStart
from ..indicators import AfterWinFlips, Derivation, Effect, IndicatorRule, Timing
from ..provenance import Derived, Given, analyst, choice, default, open_question, research, text
from ..rotation import RotationRule
from ..tilesets import SET_108
from ..walls import End
from .common import DEFAULT_DEAL, NO_FLOWERS, TAIL_REPLACEMENT, dead_wall_choice, dead_wall_option, four_players, phase

VARIANT = HouseOption(
    "variant", "玩法 (variant)",
    (("258", "二五八: a 2/5/8 pair (将) is required; 吃 allowed"), ("zhuanzhuan", "转转麻将: any pair; 碰 only, no 吃")),
    "258", open_question("§12.6", "「麻将内无东南西北中白板发其打法分为：二五八与转转麻将」; 二五八 is the named 长沙 rule (「二五八做掌门」)"))

BIRDS = HouseOption(
    "birds", "扎鸟 (birds)",
    tuple((str(n), f"{n} bird tile(s) after a win" if n else "no birds") for n in (0, 1, 2, 4, 6)),
    "2", research("§3.11", "after a win draw N birds (1/2/4/6) from the wall front; 扎鸟 is named but its count is not"))

DEALER_AFTER = HouseOption(
    "tongpao_dealer", "通炮 庄家 (dealer)",
    (("discarder_on_multi", "(a) after a 通炮 the discarder deals, otherwise the winner"),
     ("winner", "the winner deals; on a 通炮 the winner nearest the discarder")),
    "discarder_on_multi", open_question("§12.5", "「首局后，通炮者坐庄其次和家坐庄」 — reading (a)"))


def _birds(options) -> tuple[IndicatorRule, ...]:
    count = int(options["birds"])
    if not count:
        return ()
    return (IndicatorRule(kind="niao", timing=Timing.AFTER_WIN, position=AfterWinFlips(count, End.HEAD),
                          derivation=Derivation("none"), effect=Effect.SEAT_PICK,
                          notes=("a bird's number counted from the winner as 1 (1/5/9 = the winner) picks a seat (RESEARCH.md §3.11)",)),)


REGION = Region(
    id="changsha",
    name="长沙麻将",
    title="Changsha (湖南)",
    section="RULES.md §12",
    attribution="named [000:103]; blocks A [000:379-391] and B [000:27-49] attributed by the analyst",
    tiles=Given(SET_108, analyst("§12.1", "去掉东南西北风、发财、白板和红中 → 108")),
    players=four_players(default("not stated; 4 players")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((14, 13, 14, 13), research("§1.1", "for 108 it is 13.5 stacks per side: 14+13+14+13")),
    dealing=DEFAULT_DEAL,
    dice=Given(SumWallSmallerDieStart(), text("§12.2", "以骰点的和作为开始抓牌的牌墙以最小的点数作为起始敦数。比如4点加5点为“九自手”从自己门前牌墙开始抓牌，但是从第4敦开始")),
    indicators=Derived(_birds, text("§12.3", "扎鸟 (named only; no procedure)"), ("birds",)),
    reserve=dead_wall_choice("not stated (§12.4)"),
    replacement=TAIL_REPLACEMENT,
    rotation=choice("tongpao_dealer", {
        "discarder_on_multi": Given(RotationRule("keep", "winner", "keep", "discarder"),
                                    text("§12.5", "首局后，通炮者坐庄其次和家坐庄")),
        "winner": Given(RotationRule("keep", "winner", "keep", "nearest_winner"),
                        text("§12.5", "其次和家坐庄")),
    }),
    play=Derived(lambda o: Play(chi=o["variant"] == "258", multiple_winners=True),
                 text("§12.6–12.8", "转转麻将…只能“碰”不能“吃”; 通炮 (several winners)"), ("variant",)),
    flowers=NO_FLOWERS,
    phases=Derived(lambda o: (phase("opening_small_wins", "right after the deal: 四喜, 无将和, 缺一色, 六顺 may be declared (§12.6)"),)
                   + ((phase("after_win_flip", "扎鸟: bird tiles are flipped from the front after a win"),) if int(o["birds"]) else ()),
                   text("§12.6", "小和：四喜（开局摸到四张一样的牌型）、无将和（开局没有摸到2.5.8这三种牌型）、缺一色…、六顺…"), ("birds",)),
    options=(VARIANT, BIRDS, DEALER_AFTER, dead_wall_option("not stated (§12.4)")),
    notes=(
        "The smaller die numbers the first stack drawn (「从第4敦开始」): 4+5 starts at the 4th stack of the own wall.",
        "Counting stacks on the wall goes from its right end, as every other text (§0.1).",
        "A 荒庄 keeps the dealer: not stated.",
        "小和/大和/超大和/最大和 classes come with the hands issue.",
    ),
)
