"""宜昌麻将 / 三峡 (血流成河) — RULES.md §15.

换三张 before play, a void suit, no 吃, several winners, and play goes on after every win until the
table is empty (「一直打到桌面无牌」); 查花猪 at the end.
"""

from ..definition import HouseOption, Play, Region
from ..provenance import Given, analyst, default, research, text
from ..reserve import NoReserve
from ..scoring import FlatScorer
from ..tilesets import SET_108
from ..winrules import Requirement, WinRules
from .sichuan import (SHAPES as SICHUAN_SHAPES, first_win_dealer, first_win_rotation, misses_a_suit, no_suit_missed,
                      suit_missed)
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, NO_FLOWERS, NO_INDICATORS,
                     TAIL_REPLACEMENT, YIPAO_DEALER, four_players, phase)

EXCHANGE = HouseOption(
    "exchange_direction", "换三张 方向 (direction)",
    (("dice", "by the dice sum: %3 = 1 → 下家, 2 → 上家, 0 → 对家"), ("next", "always to 下家"),
     ("opposite", "always to 对家"), ("previous", "always to 上家")),
    "dice", research("§3.12", "direction by dice (e.g. sum % 3: 1 → 下家, 2 → 上家, 0 → 对家); the text says only 「通过投掷色子的方式决定和谁交换」"),
    value_labels=(("dice", "按骰子"), ("next", "换给下家"), ("opposite", "换给对家"), ("previous", "换给上家")))

FIRST_WIN_DEALER = first_win_dealer("§15")

QUE_MEN = Requirement("que_men", "必须缺门可和", text("§15", "核心是打缺门; 必须缺门可和"), misses_a_suit,
                     hopeless=no_suit_missed, assured=suit_missed)

REGION = Region(
    id="yichang",
    name="宜昌麻将",
    title="Yichang / Sanxia (血流成河)",
    section="RULES.md §15",
    attribution="named [000:73]",
    tiles=Given(SET_108, analyst("§15", "素麻将 → 108")),
    players=four_players(default("not stated; 4 players, as 四川 whose play it takes")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((14, 13, 14, 13), research("§1.1", "for 108 it is 13.5 stacks per side: 14+13+14+13")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=Given(NoReserve(), text("§15", "一直打到桌面无牌（即和完不结束，一直继续摸牌继续和牌知道最后一张牌…）")),
    replacement=TAIL_REPLACEMENT,
    rotation=first_win_rotation("§15"),
    play=Given(Play(chi=False, multiple_winners=True, after_win="xueliu"),
               text("§15", "换三张、素麻将、不可以吃、必须缺门可和、一炮多响、打到桌面无牌")),
    flowers=NO_FLOWERS,
    phases=Given((phase("exchange_three", "换三张: each passes three tiles of one suit; the dice decide to whom"),
                  phase("choose_void_suit", "打缺门: a void suit to win"),
                  phase("continue_after_win", "血流成河: every win is paid and play goes on; the winner's 下家 draws next"),
                  phase("check_flower_pig", "查花猪: at the end a hand holding all three suits is a 花猪")),
                 text("§15", "核心是打缺门，换三张…一直打到桌面无牌…每和一次从和牌下家开始摸牌）、打完查花猪（三方牌）")),
    win=Given(WinRules(SICHUAN_SHAPES, (QUE_MEN,)),
              text("§15", "采用四川地区流行的麻将血战到底的打法; 必须缺门可和")),
    scoring=Given(FlatScorer(), default("the text gives no values (RULES.md §35: none): a win is 1 point, every win of the 血流成河 is paid")),
    options=(EXCHANGE, FIRST_WIN_DEALER, YIPAO_DEALER, *DEFAULT_BREAK.options),
    unpriced=(
        '查花猪 — 「打完查花猪（三方牌）」 names the check, not the penalty: a 花猪 is named on its seat display and in the recorder, and pays nothing',
    ),
    notes=(
        "Win rules are 四川's (「采用四川地区流行的麻将血战到底的打法」): 缺一门 and 七对 (RESEARCH.md §3.12).",
        "血流成河: every win is settled on its own (flat 1 point: the discarder, or each other side on a self-draw); "
        "nobody leaves the hand, so every other side pays a self-draw.",
        "Who deals next is not stated: option first_win_dealer, by the hand's first win only (a seat's later "
        "wins, and everyone else's, do not count) — the first winner deals (default; the discarder after a first "
        "一炮多响) or 庄家胡连庄/闲家胡下庄; 一炮多响 means several winners of that first discard.",
        "查花猪: at the end every seat lays its hand (the settlement round); a hand still holding all three suits, or "
        "not shown, is a 花猪, named on its seat display and in the recorder; the penalty is not stated (§15), so "
        "nothing is paid.",
    ),
)
