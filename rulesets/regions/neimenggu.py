"""内蒙麻将 (内蒙东部) — RULES.md §16: one sentence of win requirements, no values.

「幺九」 is read in its narrow sense (a suited 1 or 9): with honours counted, 「或箭刻」 would add nothing.
"""

from .. import reading_bounds as bounds
from ..definition import Region
from ..provenance import Given, default, text
from ..requirements import has_dragon_pung, has_pung_or_kong, has_terminal, opened
from ..tiles import Tile
from ..tilesets import SET_136
from ..winrules import Judged, Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAY, DEFAULT_ROTATION, NO_FLOWERS,
                     NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall, four_players, walls_for)

RULE_TEXT = "内蒙麻将有136张牌其规则包括以下几点：一是必须有碰或杠才可以，也可以自己手里有暗刻；二是必须要开门，就是要吃上家的牌或者碰别人的牌；三是必须有幺九或箭刻"


def any_kind(tile: Tile) -> bool:
    return True


def is_dragon(tile: Tile) -> bool:
    return tile.is_dragon


def terminal_or_dragon_pung(j: Judged) -> bool:
    """「必须有幺九或箭刻」: a suited 1 or 9 somewhere, or a pung/kong of 中, 发 or 白."""
    return has_terminal(j) or has_dragon_pung(j)


PUNG = Requirement("ke", "必须有碰或杠（或暗刻）", text("§16", "一是必须有碰或杠才可以，也可以自己手里有暗刻"), has_pung_or_kong,
                   hopeless=lambda hand, context, evaluator: bounds.pung_hopeless(hand, evaluator, any_kind),
                   assured=lambda hand, context, evaluator: bounds.pung_assured(hand, evaluator, any_kind))
OPEN = Requirement("kaimen", "必须要开门", text("§16", "二是必须要开门，就是要吃上家的牌或者碰别人的牌"), opened)
YAOJIU = Requirement("yaojiu_jianke", "必须有幺九或箭刻", text("§16", "三是必须有幺九或箭刻"), terminal_or_dragon_pung,
                     hopeless=lambda hand, context, evaluator: (bounds.terminal_hopeless(hand, context, evaluator)
                                                                and bounds.pung_hopeless(hand, evaluator, is_dragon)),
                     assured=lambda hand, context, evaluator: (bounds.terminal_assured(hand, context, evaluator)
                                                               or bounds.pung_assured(hand, evaluator, is_dragon)))

DEAD_WALL = dead_wall("not stated (§16)")

REGION = Region(
    id="neimenggu",
    name="内蒙麻将",
    title="Inner Mongolia (east)",
    section="RULES.md §16",
    attribution="named [000:79]",
    tiles=Given(SET_136, text("§16", "内蒙麻将有136张牌")),
    players=four_players(default("not stated; 4 players with 136 tiles")),
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=walls_for(SET_136, (0, 1, 2, 3), default("136 tiles make 17 stacks a side (RESEARCH.md §1.1)")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=Given(DEFAULT_PLAY.value, text("§16", "二是必须要开门，就是要吃上家的牌或者碰别人的牌")),
    flowers=NO_FLOWERS,
    phases=NO_PHASES,
    win=Given(WinRules(requirements=(PUNG, OPEN, YAOJIU)), text("§16", RULE_TEXT)),
    options=(DEAD_WALL.option, *DEFAULT_BREAK.options),
    notes=("「幺九」 is read as a suited 1 or 9 (reading it with honours would make 「或箭刻」 redundant); a dragon pung "
           "may be concealed or declared.",
           "开门 is a 吃 of 上家's discard, a 碰 or a 明杠 (a 暗杠 does not open); a 暗刻 satisfies rule one.",
           "The text gives no values: a win is 1 point (FlatScorer)."),
)
