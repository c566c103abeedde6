"""断幺九 / 八枝 block — RULES.md §11 [unnamed]: 八枝 (eight or more tiles of one suit) to win; no 吃, no 碰."""

from .. import reading_bounds as bounds
from ..definition import HouseOption, Play, Region
from ..provenance import Derived, Given, analyst, choice, default, open_question, research, text
from ..requirements import concealed_hand, eight_of_one_suit
from ..tilesets import SET_144
from ..winrules import Requirement, WinRules
from .common import (DEFAULT_DEAL, DEFAULT_BREAK, DEFAULT_HAND_SIZE, DEFAULT_PLAYERS, DEFAULT_ROTATION,
                     NO_INDICATORS, NO_PHASES, TAIL_REPLACEMENT, dead_wall, flowers_from_tail)

CLAIMS = HouseOption(
    "claims", "吃碰 (claims)",
    (("none", "(b) no 吃 and no 碰 at the table"),
     ("pong", "(a) 吃 and 碰 allowed at the table; a winning hand must hold no claimed meld")),
    "none", open_question("§11", "「和牌：不许吃牌，不许碰牌必须有八枝」 — punctuation lost; (b) reads three table rules"),
    value_labels=(("none", "不吃不碰"), ("pong", "可吃碰")))

BAZHI = Requirement("bazhi", "必须有八枝（一门八张以上）",
                     text("§11", "八枝：和牌时需要一门有八张以上; 和牌：不许吃牌，不许碰牌必须有八枝。"), eight_of_one_suit,
                    hopeless=lambda hand, context, evaluator: bounds.no_eight_of_a_suit(hand, bounds.free_kinds(evaluator)),
                    assured=lambda hand, context, evaluator: bounds.eight_of_a_suit(hand, bounds.free_kinds(evaluator)))
NO_CLAIMS = Requirement("menqing", "和牌不许吃牌，不许碰牌", text("§11", "和牌：不许吃牌，不许碰牌必须有八枝。"), concealed_hand)


def bazhi_win(options) -> WinRules:
    return WinRules(requirements=(BAZHI,) + ((NO_CLAIMS,) if options["claims"] == "pong" else ()))


DEAD_WALL = dead_wall("not stated (§11)")

REGION = Region(
    id="bazhi",
    name="八枝麻将",
    title="Bazhi block (断幺九 / 八枝)",
    section="RULES.md §11",
    attribution="unnamed block [000:21-25]; cannot be attributed",
    tiles=Given(SET_144, analyst("§11", "「东西南北风和各色花牌」 implies a set with winds and flowers: 144")),
    players=DEFAULT_PLAYERS,
    hand_size=DEFAULT_HAND_SIZE,
    stacks_per_side=Given((18, 18, 18, 18), research("§1.1", "18 stacks a side for 144")),
    dealing=DEFAULT_DEAL,
    dice=DEFAULT_BREAK.procedure,
    indicators=NO_INDICATORS,
    reserve=DEAD_WALL.choice,
    replacement=TAIL_REPLACEMENT,
    rotation=DEFAULT_ROTATION,
    play=choice("claims", {
        "none": Given(Play(chi=False, pong=False), text("§11", "和牌：不许吃牌，不许碰牌必须有八枝")),
        "pong": Given(Play(chi=True, pong=True), text("§11", "和牌：不许吃牌，不许碰牌 — read as a condition on the winning hand")),
    }),
    flowers=flowers_from_tail(default("flowers exist (「各色花牌」); set aside and replaced from the tail as file 001 states (§7.4)")),
    phases=NO_PHASES,
    win=Derived(bazhi_win, text("§11", "和牌：不许吃牌，不许碰牌必须有八枝。"), ("claims",)),
    options=(CLAIMS, DEAD_WALL.option, *DEFAULT_BREAK.options),
    notes=("八枝: eight or more tiles of one suit among the hand's tiles as they stand (a wild counts as what it stands for).",
           "With reading (a) (吃 and 碰 allowed at the table) the winning hand must hold no claimed meld; a 暗杠 is not a claim. "
           "With reading (b) nothing can be claimed anyway.",
           "断幺九 is defined (no 1/9, no winds, no flowers) but given no value or role; the text gives no values: a win is "
           "1 point (FlatScorer)."),
)
