"""四川麻将 / 成都麻将 (血战到底) — RULES.md §14.

108 suited tiles, no 吃, a void suit (缺门) to win, several winners, 血战到底 (play goes on after a
win), and within the last four tiles a possible win must be taken.
"""

from ..definition import Play, Region
from ..provenance import Given, analyst, default, research, text
from ..tilesets import SET_108
from .common import (DEFAULT_DEAL, DEFAULT_DICE, DEFAULT_ROTATION, NO_FLOWERS, NO_INDICATORS, TAIL_REPLACEMENT,
                     dead_wall_choice, dead_wall_option, four_players, phase)

REGION = Region(
    id="sichuan",
    name="四川麻将",
    title="Sichuan / Chengdu (血战到底)",
    section="RULES.md §14",
    attribution="named [000:65-71]",
    tiles=Given(SET_108, analyst("§14", "麻将牌只有筒、条、万三门 → 108")),
    players=four_players(text("§14", "血战到底…一家和牌后…其它玩家就必须继续游戏 — several players go on")),
    hand_size=Given(13, default("not stated; 13 in hand, the dealer 14")),
    stacks_per_side=Given((14, 13, 14, 13), research("§1.1", "for 108 it is 13.5 stacks per side: 14+13+14+13")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_DICE,
    indicators=NO_INDICATORS,
    reserve=dead_wall_choice("not stated (§14)"),
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(Play(chi=False, multiple_winners=True, after_win="xuezhan", last_tiles_forced_win=4),
               text("§14", "素麻将、不可以吃、必须缺门可和…、最后四张自动和、一炮多响、刮风下雨; 成都麻将又叫血战到底")),
    flowers=NO_FLOWERS,
    phases=Given((phase("choose_void_suit", "定缺: each player keeps one suit void to win (§14)"),
                  phase("continue_after_win", "血战到底: after a win the others play on (§14)")),
                 text("§14", "玩法是必须缺一门一家和牌后，若桌子上还有规定数量的牌其它玩家就必须继续游戏直到结束")),
    options=(dead_wall_option("not stated (§14)"),),
    notes=(
        "「规定数量的牌」 (how many tiles must remain for play to continue) is not stated: play goes on while live tiles remain.",
        "「最后四张」 counts the last four live tiles (after any reserve).",
        "Kongs add 1 番 each; the discarder alone pays (§14) — the hands issue.",
    ),
)
