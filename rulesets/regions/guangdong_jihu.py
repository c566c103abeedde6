"""广东 鸡胡 (file 001) — RULES.md §7 [unnamed; attributed by the analyst].

144 tiles with flowers replaced from the tail (part 1); 买马 after a win; 庄家胡或流局连庄, else 下家.
The two parts of the file conflict on flowers, on 吃 and on several winners; each is a house option.
"""

from dataclasses import replace

from ..definition import Flowers, HouseOption, Play, Region
from ..indicators import AfterWinFlips, Derivation, Effect, IndicatorRule, Timing
from ..provenance import Derived, Given, choice, default, open_question, research, text
from ..reserve import FixedTiles, NoReserve, ReservePolicy
from ..rotation import RotationRule
from ..scoring.guangdong import JihuScorer
from ..tilesets import SET_136, SET_144
from ..walls import End
from ..winning import Shapes
from ..winrules import WinRules
from .guangdong import BAOHE
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, TAIL_REPLACEMENT, YIPAO_DEALER, dead_wall, first_dealer_option,
                     flowers_from_tail, four_players, phase, with_yipao_dealer)

FIRST_DEALER = first_dealer_option(text("§7.5", "第一盘庄家由系统随机分配风位，东风位玩家为庄家"))

FLOWER_SET = HouseOption(
    "flowers", "花牌 (flowers)",
    (("with", "144 tiles with the 8 flowers (part 1)"), ("without", "136 tiles, no flowers (part 2)")),
    "with", open_question("§7.1", "part 2 says 「共一百四十四张…没有 梅、兰、竹、菊…」, which would be 136: the 144 count agrees with part 1"),
    value_labels=(("with", "有花 144张"), ("without", "无花 136张")))

HORSES = HouseOption(
    "horses", "买马 (horses)",
    tuple((str(n), f"{n} horse tiles after a win" if n else "no 买马") for n in (0, 2, 4, 6, 8)),
    "4", research("§3.10", "MIL 广东: horse_count 4 (the text calls 买马 optional: 「有时候有些玩家还有买马这个玩法」)"),
    value_labels=tuple((str(n), f"买{n}马" if n else "不买马") for n in (0, 2, 4, 6, 8)))

CHI = HouseOption(
    "chi", "吃牌 (chow)",
    (("yes", "下家 may 吃 (001:9)"), ("no", "only 碰/杠, except to win (001:5)")),
    "yes", open_question("§7.6", "「其他家只能“碰”或者“杠”」 vs 「庄家的下家…有权力吃或碰那张牌」 — conflict; 吃 by 下家 is the common rule"),
    value_labels=(("yes", "可吃"), ("no", "不可吃")))

FIRST_TURN_FAN = HouseOption(
    "first_turn_fan", "天和/人和/地和 番",
    (("at_least", "天和, 人和 and 地和 count 6 番, or the hand's own 番 where it has more"),
     ("flat", "天和, 人和 and 地和 count 6 番, whatever the hand (「按6番计算」 as written)")),
    "at_least", open_question("§7.6", "「按6番计算」 says 6 番; for the 3番 minimums the same file adds 「大于3番的牌型，按照实际牌型计算」, "
                                      "for 天/人/地和 it says nothing more: a bigger hand is not paid less by default"),
    value_labels=(("at_least", "至少6番"), ("flat", "一律6番")))

MULTI_WIN = HouseOption(
    "multi_win", "一炮多响 (several winners)",
    (("all", "一炮三响: every winner is paid, the discarder pays all"),
     ("biggest", "截胡: one winner per discard — the table judges the first 胡 pressed; it does not compare the "
                 "claimers' hands, so 「只有胡大牌的一家」 is the players' to settle before pressing")),
    "all", open_question("§7.6–7.7", "「只有胡大牌的一家才算胡」 vs 「一炮三响…点炮者包三家」 — the 一炮三响 rule has its payment stated"),
    value_labels=(("all", "一炮多响"), ("biggest", "截胡")))

STAKES = HouseOption(
    "stakes", "大小 (stakes: 花 / 杠 / 鸡胡)",
    (("1-2-3", "花 1, 杠 2, 鸡胡 3"), ("5-5-5", "花 5, 杠 5, 鸡胡 5 (「3个5」)"), ("10-20-30", "花 10, 杠 20, 鸡胡 30")),
    "1-2-3", open_question("§7.7", "「开台时玩家都会说明玩的大小，常见的有1 2 3 、3个5、10 20 30等」: the table chooses; 1 2 3 is the first named"),
    value_labels=(("1-2-3", "花1 杠2 鸡胡3"), ("5-5-5", "花5 杠5 鸡胡5"), ("10-20-30", "花10 杠20 鸡胡30")))


def _horses(options) -> tuple[IndicatorRule, ...]:
    count = int(options["horses"])
    if not count:
        return ()
    return (IndicatorRule(kind="ma", timing=Timing.AFTER_WIN, position=AfterWinFlips(count, End.TAIL),
                          derivation=Derivation("none"), effect=Effect.SEAT_PICK,
                          notes=("seat = the tile's number counted from the dealer as 1, 逆时针 (1/5/9 dealer, 2/6 下家, 3/7 对家, 4/8 上家); "
                                 "honours 东 dealer, 南/中 下家, 西/发 对家, 北/白 上家 (RESEARCH.md §3.10)",)),)


DEAD_WALL = dead_wall("not stated (§7.4)")
DEAD_WALL_OPTION = replace(DEAD_WALL.option, choices=(
    ("none", "no dead wall: drawn to the last tile, or to the horse tiles with 买马"),
    ("7_stacks", "keep the last 7 stacks (留7墩, as 长春 §1.4 without its kong rule); the horses lie within them")),
    source=default("a dead wall is not stated (§7.4); without one the hand is drawn to the last tile, or with 买马 "
                   "to the horse tiles, which stay at the tail (RESEARCH.md §3.14)"))


def _reserve(options) -> ReservePolicy:
    """The house's dead wall; with none, the horse tiles stay at the tail (「买马」 draws them after the win)."""
    chosen, _ = DEAD_WALL.choice.resolve(options)
    horses = int(options["horses"])
    return FixedTiles(horses) if horses and isinstance(chosen, NoReserve) else chosen

REGION = Region(
    id="guangdong_jihu",
    name="广东鸡胡",
    title="Guangdong 鸡胡 (file 001)",
    section="RULES.md §7",
    attribution="unnamed file 001; attributed to 广东 鸡胡/鸡平胡 by the analyst",
    tiles=choice("flowers", {
        "with": Given(SET_144, text("§7.1", "共一百四十四张：筒、索、万、东、南、西、北风、中、发、白， 有 梅、兰、竹、菊、春、夏、秋、冬这八个皆为花")),
        "without": Given(SET_136, text("§7.1", "没有 梅、兰、竹、菊、春、夏、秋、冬 — 136 by count")),
    }),
    players=four_players(text("§7.1", "其它三家")),
    hand_size=Given(13, text("§7.1", "庄家可得到十四张牌，其余的人十三张")),
    stacks_per_side=choice("flowers", {
        "with": Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
        "without": Given((17, 17, 17, 17), research("§1.1", "17 stacks a side for 136")),
    }),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=Derived(_horses, text("§7.3", "买马是玩家买哪家赢…庄家为1，逆时针算起，马的牌数是多少，进行计算，算到哪家那哪家就是你买到的人"),
                       ("horses",)),
    reserve=Derived(_reserve, research("§3.14", "a dead wall is not stated (§7.4): none by default, 7 stacks by option; "
                                               "广东 买马 keeps the N horse tiles at the tail, so with horses and no dead wall "
                                               "the hand is 荒庄 when N tiles remain (seven stacks hold them already)"),
                    ("dead_wall", "horses")),
    replacement=TAIL_REPLACEMENT,
    rotation=with_yipao_dealer(Given(RotationRule("keep", "next", "keep", "nearest_winner"),
                   text("§7.5", "如果庄家胡牌或和牌（流局）则下盘依然由该庄家做庄。2、如果非庄家胡牌则下一盘由庄家的下家玩家做庄"))),
    play=Derived(lambda o: Play(chi=o["chi"] == "yes", multiple_winners=o["multi_win"] == "all", claim_order="pressed"),
                 text("§7.6", "庄家的下家…有权力吃或碰那张牌; 一炮三响 ： 同一张牌点三个炮，点炮者包三家"), ("chi", "multi_win")),
    flowers=choice("flowers", {
        "with": flowers_from_tail(text("§7.3", "玩家摸到花时，到牌堆尾摸牌进行补牌")),
        "without": Given(Flowers(), text("§7.1", "没有 梅、兰、竹、菊、春、夏、秋、冬")),
    }),
    phases=Derived(lambda o: ((phase("after_win_flip", "买马: horse tiles are flipped from the tail after a win"),)
                              if int(o["horses"]) else ())
                   + (phase("kong_giver", "明杠: the maker is asked who gave the tile (上家/对家/下家) or whether it was "
                                          "a 补杠: the giver is 点杠者, who pays for all on a 杠上开花 (§7.7)"),),
                   text("§7.3, §7.7", "有时候有些玩家还有买马这个玩法; 杠上开花包杠"), ("horses",)),
    win=Given(WinRules(Shapes(thirteen_orphans=True)), text("§7.6", "胡法分（由小到大）：鸡胡、杂色、清一色、大哥、十三幺")),
    scoring=Given(JihuScorer(), text("§7.7", "第一个数是指花多少，第二个数是共杠或者暗杠是多少，第三个数是指最小的鸡胡是多少。其他胡法就是按倍数计算")),
    options=(FLOWER_SET, HORSES, CHI, MULTI_WIN, STAKES, BAOHE, DEAD_WALL_OPTION, YIPAO_DEALER, FIRST_DEALER, FIRST_TURN_FAN,
             *DEFAULT_BREAK.options),
    notes=(
        "First dealer: 「第一盘庄家由系统随机分配风位，东风位玩家为庄家」 (§7.5): the table rolls for it: its dice are the table's random choice, and everyone sees them; the dealer's seat is 东 "
        "(house option first_dealer).",
        "Where the horses come from is not stated (「看你拿到的麻将」): from the tail after the win (RESEARCH.md §3.10). "
        "With no dead wall the horse tiles are kept (RESEARCH.md §3.14): 荒庄 when N tiles remain; a flower drawn as the "
        "last live tile is still replaced from the tail, out of them, and that hand buys one horse fewer.",
        "Shapes: the standard hand and 十三幺 (the ladder's top); no requirement is stated (相公 hands have the wrong count and never complete).",
        "The ladder 鸡胡、杂色、清一色、大哥、十三幺 has no numbers: Cantonese 番 by default (杂色 3, 碰碰胡 3, 清一色 7, 大三元 8, "
        "added; 鸡胡 0); 「大哥」 is not identified and not priced; 十三幺 and 大四喜 are special hands: 13 番, above the 爆和 cap (§6), alone.",
        "A hand is 鸡胡 stake × 2^番 + 花 stake per flower from each payer; each kong is paid the 杠 stake by each other side.",
        "3番 minimums: 一炮三响 (extra ron_winners = 3), 杠上开花, 海底捞月, 抢杠; 天/人/地和 6 番 (or more if the hand has more; house option first_turn_fan=flat: 6 番 whatever the hand).",
        "包三家: 抢杠 (the konger), 杠上开花包杠 (the 点杠者: the side the winner named when asked who gave his last 明杠), "
        "十二张落地 (extra luodi_feeder: the first responsible side, 「包先不包后」), 大四喜/大三元 (extra big_hand_feeder); "
        "they apply to self-draws (抢杠 counts as one). The table sees no claims: 十二张落地 and 大四喜/大三元包自摸 are "
        "applied only by a scorer given those facts (neither the table nor the `hand` command has them), so such a "
        "self-draw is paid as any.",
        "买马: the horses (context.flipped) belong to the winner unless extra horse_buyers names the buyers; horses count on every win "
        "(MIL counts them on self-draws only, RESEARCH.md §3.10). The table does not ask who bought a horse: at the "
        "table every horse is the winner's, and the `hand` command has no buyers either.",
        "Which kong may be robbed (「暗杠不可抢杠胡」, 「暗刻开明杠，不算抢杠胡」) is play, not scoring.",
    ),
)
