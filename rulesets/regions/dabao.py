"""大包 block — RULES.md §25 [unnamed; 000 only]: 留最后7个半, face-down 听, 大包, 跟庄.

The dealing rhymes (三六得九，家家都有 …) only work with 17 stacks a side and "skip S stacks", so the set
is 136 (RULES.md §25.2, analyst); their sums (6 + 7 = 13 … 7 + 9 = 16) add two rolls, so by default the
break skips the sum of two rolls (house option break_rolls).
"""

from ..definition import HouseOption, Play, Region
from ..dice import SecondRollerPicksStart, SumPicksWallSkipSum
from ..provenance import Derived, Given, analyst, choice, open_question, text
from ..requirements import lacks_a_suit, one_suit, ready_declared
from ..reserve import FixedTiles, TilesPlusKongs
from ..rotation import RotationRule
from ..scoring.dabao import DabaoScorer
from ..tilesets import SET_136
from ..walls import End
from ..winning import Shapes
from ..winrules import Judged, Requirement, WinRules
from .common import DEFAULT_DEAL, DEFAULT_HAND_SIZE, NO_FLOWERS, NO_INDICATORS, four_players, phase

QUE_YI_MEN = HouseOption(
    "que_yi_men", "缺一门 (void suit)",
    (("off", "no void suit required"), ("on", "a hand may not hold all three suits; no 十三幺/七不挨")),
    "off", open_question("§25.1", "开局前需规定是否缺一门 — the table decides before play; off is the plain game"),
    value_labels=(("off", "不须缺门"), ("on", "须缺一门")))

BREAK_ROLLS = HouseOption(
    "break_rolls", "开牌 骰子 (the break's rolls)",
    (("two", "two rolls: the dealer's, counted 逆时针 from him, names who rolls second; on that player's wall skip the "
             "sum of both rolls (the rhymes' 六七十三, 六八十四, 七八十五, 七九十六 add two rolls)"),
     ("one", "one roll of two dice: its sum counted 逆时针 from the dealer picks the wall and the stacks skipped "
             "(上海's break); the rhymes past 12 never come")),
    "two", analyst("§25.2", "取牌时朗朗上口的口号：三六得九，家家都有；六七十三两把抓光；六八十四，抓把剩一；七八十五头上吃苦；"
                            "七九十六，两头各凑 — skip S stacks; S up to 16, more than one roll of two dice makes"),
    value_labels=(("two", "两次掷骰相加"), ("one", "一次掷骰")))

ZHA_HU = HouseOption(
    "zha_hu", "诈胡 (a false win)",
    (("pays", "the false claimer pays each other side a hand's chip, the dealer's part doubled; play goes on"),
     ("nothing", "the claim is refused and nothing is paid")),
    "pays", open_question("§25.1", "7、诈胡等同于输给其他三家 — it pays, but no amount is stated: read as a plain hand "
                                   "(1 chip, the unit the text counts in) lost to each of the other three, the dealer's "
                                   "doubled as every payment; whether the hand then ends is not stated: it goes on"),
    value_labels=(("pays", "诈胡赔三家"), ("nothing", "诈胡不赔")))

RESERVE_KONGS = HouseOption(
    "reserve_kongs", "留7个半 杠后 (the reserve after kongs)",
    (("fixed", "the last 7个半 (15 tiles) stay, whatever the kongs: the hand ends when 15 tiles remain"),
     ("grows", "each kong keeps one more stack: the hand ends when 15 + 2·kongs tiles remain (8个半 after one kong, "
               "9个半 after two). Of 留7墩's kong readings (RULES.md §1.4 D1) this is R-B's: what stands on the table "
               "is counted, a lone tile included, so the reserve stays 「…个半」; without R-B's first kong kept "
               "free (「1杠留7墩」 is 长春's, not this text's). R-A and R-C take the replacements out of the reserve "
               "(15 + kongs tiles stand: 8 whole stacks after one kong; R-C would leave fewer than 7个半)")),
    "fixed", open_question("§25.1", "「2、牌桌上的牌必须留最后7个半，最后的牌不可以翻看与抓取」 — whether 7个半 grows with "
                                    "kongs is not stated (RULES.md §25.3); fixed is the text as it stands"),
    value_labels=(("fixed", "固定7个半"), ("grows", "每杠多留一墩")))

HUN_PIHE = HouseOption(
    "hun_pihe", "单一门加字 屁和 (one suit and honours)",
    (("with_que", "refused only when the table plays 缺一门 (the sentence closes the 缺一门 item)"),
     ("always", "refused in every game: 「另外」 adds it to the rules whatever 缺一门 is")),
    "with_que", open_question("§25.1", "「3、…缺一门情况下不可以胡十三幺、七不挨等需要三门的牌。另外也不可以胡单一门牌加风牌或箭牌这种屁和」: "
                                       "「另外」 follows the 缺一门 sentence, in the 缺一门 item"),
    value_labels=(("with_que", "缺一门时不许"), ("always", "一律不许")))

TING = Requirement("ting", "和牌前必须听牌", text("§25.1", "5、和牌前必须听牌"), ready_declared)
QUE = Requirement("que_yi_men", "至少缺一门",
                  text("§25.1", "3、开局前需规定是否缺一门，即手上不得同时握有万、条、筒三门的牌，至少缺一门。缺一门情况下不可以胡十三幺、七不挨等需要三门的牌"),
                  lacks_a_suit)


def not_one_suit_with_honours(j: Judged) -> bool:
    """「不可以胡单一门牌加风牌或箭牌这种屁和」: not one suit plus winds or dragons."""
    return not (one_suit(j, True) and any(t.is_honour for t in j.standing))


NO_HUN_PIHE = Requirement("no_one_suit_honours", "不可以胡单一门牌加风牌或箭牌",
                          text("§25.1", "另外也不可以胡单一门牌加风牌或箭牌这种屁和（风牌为东南西北，箭牌为中发白）"),
                          not_one_suit_with_honours)


def dabao_win(options) -> WinRules:
    extra = (QUE, NO_HUN_PIHE) if options["que_yi_men"] == "on" else (NO_HUN_PIHE,) if options["hun_pihe"] == "always" else ()
    return WinRules(Shapes(thirteen_orphans=True), (TING,) + extra)


REGION = Region(
    id="dabao",
    name="大包麻将",
    title="Dabao block (留7个半)",
    section="RULES.md §25",
    attribution="unnamed block [000:141-161]; id from its 大包 rule",
    tiles=Given(SET_136, analyst("§25.2", "the dealing rhymes only work with 17 stacks a side: 136 tiles")),
    players=four_players(text("§25.1", "诈胡等同于输给其他三家")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((17, 17, 17, 17), analyst("§25.2", "Assume 17 stacks per side (136 tiles)")),
    dealing=DEFAULT_DEAL,
    dice=choice("break_rolls", {
        "two": Given(SecondRollerPicksStart("both"), analyst(
            "§25.2", "六七十三两把抓光；六八十四，抓把剩一；七八十五头上吃苦；七九十六，两头各凑 — the skips add two rolls")),
        "one": Given(SumPicksWallSkipSum(0), analyst(
            "§25.2", "取牌时…三六得九，家家都有 — skip S stacks on the broken wall; the wall by the sum as 上海 §4.2")),
    }),
    indicators=NO_INDICATORS,
    reserve=choice("reserve_kongs", {
        "fixed": Given(FixedTiles(15), text("§25.1", "牌桌上的牌必须留最后7个半，最后的牌不可以翻看与抓取")),
        "grows": Given(TilesPlusKongs(15), text("§25.1", "牌桌上的牌必须留最后7个半，最后的牌不可以翻看与抓取")),
    }),
    replacement=Given(End.TAIL, text("§25.1", "杠之后必须从从牌墙尾部补牌")),
    rotation=Given(RotationRule("keep", "next", "keep", "nearest_winner"),
                   text("§25.1", "庄家当局非自己和牌即顺延到下家坐庄; 没人和牌意味着流庄，但庄家不变重新开局")),
    play=Given(Play(chi=False, ready_declaration="required"),
               text("§25.1", "玩家不可以吃牌，可以碰、杠; 和牌前必须听牌，听牌后不可以对手上的牌改动，只允许暗杠、和牌")),
    flowers=NO_FLOWERS,
    phases=Given((phase("follow_dealer", "跟庄: if all four discard the same tile in the first round, the dealer pays each one chip (§25.1)"),),
                 text("§25.1", "如果第一圈四个人打出的牌一样叫做跟庄，庄家需给其他人每人一个筹码")),
    win=Derived(dabao_win, text("§25.1", "5、和牌前必须听牌; 缺一门情况下不可以胡十三幺、七不挨等需要三门的牌"), ("que_yi_men", "hun_pihe")),
    scoring=Given(DabaoScorer(), text("§25.1", "杠只有和牌的情况下杠才计入筹码，明杠算一筹，暗杠算两筹; 庄家的筹码翻倍计算; "
                                      "点炮需要包三家的筹码（包括自己）叫做大包。而听牌后打出令别人胡的牌则不需要")),
    options=(QUE_YI_MEN, HUN_PIHE, ZHA_HU, RESERVE_KONGS, BREAK_ROLLS),
    unpriced=(
        '诈胡 — 「诈胡等同于输给其他三家」 names no amount: house option zha_hu (a hand\'s chip to each other side)',
        'a hand — only the kongs and 跟庄 have values: a hand is 1 chip',
    ),
    notes=(
        "First dealer: 「开局前需掷骰子比大小决定谁来指定庄家，随后庄家通过此人掷骰子被选出」 is the players' to do "
        "before the session (each rolls, the highest designates the dealer by a roll): the table does not ask it, and "
        "side 0 deals the session's first hand, so the chosen dealer sits at side 0.",
        "7.5 stacks = 15 tiles: with an even number of tail draws the head may take the top of the 8th stack from the tail, "
        "leaving its bottom — the half stack of 「7个半」.",
        "Whether 「7个半」 grows with kongs is not stated: house option reserve_kongs (fixed by default; grows: one "
        "more stack for each kong).",
        "The 听 discard is laid face down (「听牌必须将牌面朝下放置」); where is the player's choice.",
        "Dealer selection (dice contest) happens once per session (§25.1 item 9).",
        "The break: the rhymes name skips of 9, 13, 14, 15 and 16 stacks, sums of two numbers of which most are over "
        "six: two rolls added (house option break_rolls, default two: the dealer's roll names who rolls second, as "
        "温州's two-roll break, and the skip on that player's wall is both rolls' sum; a skip past the wall's 17 "
        "stacks goes on along the next wall). One roll of two dice (the old reading) can skip 12 at most.",
        "A win needs 报听 (context.ready_declared). 十三幺 is a winning shape (item 3 forbids it only under 缺一门); "
        "七不挨 is not defined by the text and is not modelled.",
        "With 缺一门 on, a winning hand lacks a suit and is not one suit plus honours (「这种屁和」 read as any such hand); "
        "house option hun_pihe=always refuses one suit plus honours without 缺一门 too.",
        "A hand is worth 1 chip (not stated) plus the winner's kongs (明 1, 暗 2); each loser pays it, doubled when the "
        "dealer pays or wins; a discarder not in ready_sides pays all three shares (大包). 跟庄 is settled by "
        "rulesets.scoring.dabao.follow_dealer. 诈胡 (a laid hand the rules refuse) pays each other side 1 chip, "
        "doubled where the dealer pays or is paid (option zha_hu); play goes on.",
    ),
)
