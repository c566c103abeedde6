"""南京麻将 — RULES.md §28: 20 bonus tiles (the 8 flowers and the 12 dragons) and a two-roll break."""

from .. import reading_bounds as bounds
from ..definition import Flowers, Region
from ..hand import Hand, WinContext
from ..dice import SecondRollerPicksStart
from ..provenance import Given, analyst, research, text
from ..tiles import DRAGONS, FLOWERS
from ..tilesets import SET_144
from ..walls import End
from ..winning import Evaluator
from ..winrules import Judged, Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_HAND_SIZE, DEFAULT_PLAY, DEFAULT_PLAYERS, DEFAULT_ROTATION,
                     NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall)

def no_dragon_in_hand(j: Judged) -> bool:
    """中发白 are bonus tiles here: none may stand in a winning hand (they are set aside and replaced)."""
    return not any(t.is_dragon for t in j.standing)


def dragon_fixed(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """Every reading shows a dragon: one is held or shown, and is no wild (reading_bounds.py)."""
    return any(t.is_dragon for t in bounds.fixed_tiles(hand, bounds.free_kinds(evaluator)))


def no_dragon_at_all(hand: Hand, context: WinContext, evaluator: Evaluator) -> bool:
    """No reading shows a dragon: none is held or shown, and no tile may stand for one."""
    return not dragon_fixed(hand, context, evaluator) and not bounds.free_count(hand, bounds.free_kinds(evaluator))


DRAGONS_ARE_FLOWERS = Requirement("dragons_are_flowers", "箭牌算花牌",
                                  text("§28", "把箭牌也算入花牌中，所以没有大三元，大四喜之类的胡法"), no_dragon_in_hand,
                                  hopeless=dragon_fixed, assured=no_dragon_at_all)

DEAD_WALL = dead_wall("not stated (§28)")

REGION = Region(
    id="nanjing",
    name="南京麻将",
    title="Nanjing",
    section="RULES.md §28",
    attribution="named [000:177]",
    tiles=Given(SET_144, analyst("§28", "20 = 12 dragons + 8 flowers → 144 with the 8 standard flowers")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=Given(SecondRollerPicksStart("second"), text("§28", "庄家掷6点，则由下家掷，下家掷11点，则由庄家开始从下家第12墩开始抓牌")),
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=DEFAULT_PLAY,
    flowers=Given(Flowers(FLOWERS + DRAGONS, End.TAIL),
                  text("§28", "南京麻将包括20张花牌，即把箭牌也算入花牌中，所以没有大三元，大四喜之类的胡法")),
    phases=NO_PHASES,
    win=Given(WinRules(requirements=(DRAGONS_ARE_FLOWERS,)), text("§28", "南京麻将包括20张花牌，即把箭牌也算入花牌中")),
    options=(DEAD_WALL.option,),
    notes=("Bonus tiles are replaced from the tail: the source is not stated, the tail is every text's replacement end.",
           "A dragon never stands in a winning hand (it is a bonus tile); 大三元/大四喜 are no hands here, which only "
           "matters for scoring, and the text gives no values (a win is 1 point)."),
)
